package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/replaycheck/replaycheck/protocol"
)

// engineFlags are run's --engine and --engine-timeout: the implementation
// to check over the engine protocol instead of the reference engine.
type engineFlags struct {
	command string
	timeout time.Duration
}

func (e *engineFlags) register(f *commandFlags) {
	f.StringVar(&e.command, "engine", "", "check the implementation started by `CMD` (a command line, quoted) over the engine protocol instead of the reference engine")
	f.DurationVar(&e.timeout, "engine-timeout", protocol.DefaultTimeout, "bound each engine protocol request to `D`")
}

// start starts the implementation, or returns nil without --engine.
func (e *engineFlags) start(ctx context.Context, f *commandFlags) (*protocol.Client, error) {
	if e.command == "" {
		return nil, nil
	}
	argv, err := splitCommand(e.command)
	if err != nil {
		return nil, f.usagef("--engine %q: %v", e.command, err)
	}
	if e.timeout <= 0 {
		return nil, f.usagef("--engine-timeout %s: want a positive duration", e.timeout)
	}
	return protocol.Start(ctx, protocol.Config{Command: argv, Timeout: e.timeout})
}

// splitCommand splits a command line into words: blanks separate words,
// single quotes keep everything literally, double quotes keep blanks and
// take a backslash before " or \, and a backslash outside quotes keeps the
// next character. No variables, globs or pipes: the program is started
// directly, not through a shell.
func splitCommand(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("unterminated ' at offset %d", i)
			}
			w.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) && (s[j+1] == '"' || s[j+1] == '\\') {
					j++
				}
				w.WriteByte(s[j])
			}
			if j >= len(s) {
				return nil, fmt.Errorf("unterminated \" at offset %d", i)
			}
			i = j
			inWord = true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, fmt.Errorf("a backslash ends the command")
			}
			i++
			w.WriteByte(s[i])
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("empty command")
	}
	return words, nil
}
