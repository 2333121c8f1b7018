// Package procgroup starts a command in a process group of its own and
// kills the whole group: a connector or an agent that started children
// (a shell, a Node runtime) is stopped with them.
package procgroup
