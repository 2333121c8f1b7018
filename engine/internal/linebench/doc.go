// Package linebench holds the baseline benchmarks the dialects' stream
// capture benchmarks are compared with (DESIGN.md budget: capture within
// 2x of reading the same bytes line by line through bufio).
package linebench
