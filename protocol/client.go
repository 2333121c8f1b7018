package protocol

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/replaycheck/replaycheck/engine"
	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/report"
	"github.com/replaycheck/replaycheck/scenario"
)

// DefaultTimeout bounds each request when [Config.Timeout] is zero: ten
// seconds, a hundred times what the reference connector needs for the
// slowest step of the committed matrix.
const DefaultTimeout = 10 * time.Second

// Config says how to run an implementation.
type Config struct {
	// Command is the implementation's command line: the program and its
	// arguments.
	Command []string
	// Dir is its working directory; "" is the harness's own.
	Dir string
	// Env is added to the harness's environment for the implementation.
	Env []string
	// Timeout bounds each request, from writing it to reading the reply.
	Timeout time.Duration
	// HelloTimeout bounds the hello of each started process, which also
	// waits out the implementation's start-up; zero means Timeout.
	HelloTimeout time.Duration

	// maxLine bounds a reply line; zero means MaxLine. Tests lower it
	// to see a too-long reply refused without writing a GiB.
	maxLine int
}

// An Error is a protocol failure: the implementation crashed, timed out,
// or answered out of protocol. The client stops the process; the next
// cell starts a new one.
type Error struct {
	// Step is the command of the request in play.
	Step string
	// ID is the request's id.
	ID int64
	// Err says what went wrong.
	Err error
	// Stderr is the tail of the implementation's standard error.
	Stderr string
}

func (e *Error) Error() string {
	s := fmt.Sprintf("engine protocol: %s request %d: %v", e.Step, e.ID, e.Err)
	if e.Stderr != "" {
		s += "; stderr: " + strings.ReplaceAll(e.Stderr, "\n", " | ")
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// A StepError is the implementation's own answer that a step failed. Its
// text is the implementation's message, verbatim.
type StepError struct {
	Step    string
	ID      int64
	Message string
}

func (e *StepError) Error() string { return e.Message }

// FailedStep names the step, making a StepError a [scenario.StepFailure].
func (e *StepError) FailedStep() string { return e.Step }

// A Client runs an implementation as a subprocess and asks it every step
// of the scenarios over the protocol. It is a [scenario.Engine]: one
// process serves cell after cell, and a process that failed is replaced
// for the next cell.
type Client struct {
	cfg Config

	mu     sync.Mutex
	proc   *process
	hello  Hello
	nextID int64
}

var _ scenario.Engine = (*Client)(nil)

// Start starts the implementation and says hello.
func Start(ctx context.Context, cfg Config) (*Client, error) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.HelloTimeout <= 0 {
		cfg.HelloTimeout = cfg.Timeout
	}
	c := &Client{cfg: cfg}
	if err := c.start(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// start starts a process and checks its hello; the first hello names the
// implementation, and a restarted process must name it the same way.
func (c *Client) start(ctx context.Context) error {
	p, err := startProcess(c.cfg)
	if err != nil {
		return fmt.Errorf("engine protocol: start %s: %w", strings.Join(c.cfg.Command, " "), err)
	}
	c.proc = p
	var h Hello
	err = c.call(ctx, &Request{Cmd: CmdHello, Protocol: Version}, &h, func() error { return checkHello(h) })
	if err != nil {
		return err
	}
	if c.hello.Implementation.Name != "" && h.Implementation != c.hello.Implementation {
		c.stop()
		return fmt.Errorf("engine protocol: the restarted implementation names itself %s %s, not %s %s",
			h.Implementation.Name, h.Implementation.Version, c.hello.Implementation.Name, c.hello.Implementation.Version)
	}
	c.hello = h
	return nil
}

// checkHello checks a hello result beyond its JSON shape.
func checkHello(h Hello) error {
	switch {
	case strings.TrimSpace(h.Implementation.Name) == "":
		return errors.New("result.implementation.name: empty")
	case strings.TrimSpace(h.Implementation.Version) == "":
		return errors.New("result.implementation.version: empty")
	case h.Protocol != Version:
		return fmt.Errorf("result.protocol: the implementation speaks protocol %d, the harness %d", h.Protocol, Version)
	case len(h.APIModes) == 0:
		return errors.New("result.api_modes: empty (want the api modes the implementation shapes)")
	}
	for i, m := range h.APIModes {
		if _, ok := engine.ParseAPIMode(m); !ok || m == "" {
			return fmt.Errorf("result.api_modes[%d]: unknown api mode %q", i, m)
		}
		if slices.Contains(h.APIModes[:i], m) {
			return fmt.Errorf("result.api_modes[%d]: %q given twice", i, m)
		}
	}
	for i, s := range h.Scenarios {
		if !matrix.IsScenario(s) {
			return fmt.Errorf("result.scenarios[%d]: unknown scenario %q (want one of %s)", i, s, strings.Join(matrix.Scenarios, ", "))
		}
		if slices.Contains(h.Scenarios[:i], s) {
			return fmt.Errorf("result.scenarios[%d]: %q given twice", i, s)
		}
	}
	return nil
}

// Info names the implementation, as its hello did.
func (c *Client) Info() report.Implementation {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := c.hello.Implementation
	return report.Implementation{Name: i.Name, Version: i.Version, Language: i.Language, Homepage: i.Homepage}
}

// Supports reports whether the implementation's hello lists the target's
// api mode and (when it lists scenarios) the scenario.
func (c *Client) Supports(t matrix.Target, sc scenario.Scenario) (bool, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	name := c.hello.Implementation.Name
	mode := string(t.Route.APIMode)
	if mode == "" {
		mode = string(engine.ModeChat)
	}
	if !slices.Contains(c.hello.APIModes, mode) {
		return false, fmt.Sprintf("%s does not support api mode %s (it supports %s)", name, mode, strings.Join(c.hello.APIModes, ", "))
	}
	if len(c.hello.Scenarios) > 0 && !slices.Contains(c.hello.Scenarios, sc.Name) {
		return false, fmt.Sprintf("%s does not take part in the %s scenario (it takes part in %s)", name, sc.Name, strings.Join(c.hello.Scenarios, ", "))
	}
	return true, ""
}

// Open returns the implementation for one cell, restarting the process
// when an earlier cell stopped it.
func (c *Client) Open(ctx context.Context, _ string) (scenario.Implementation, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.proc == nil {
		if err := c.start(ctx); err != nil {
			return nil, err
		}
	}
	return steps{c}, nil
}

// Close says bye and stops the process; a process that does not exit
// within a grace period after bye is killed.
func (c *Client) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.proc == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), min(c.cfg.Timeout, exitGrace))
	defer cancel()
	err := c.call(ctx, &Request{Cmd: CmdBye}, &Empty{}, nil)
	if c.proc != nil {
		_ = c.proc.stdin.Close()
		if _, ok := c.proc.exited(exitGrace); !ok {
			c.proc.kill()
		}
		c.proc = nil
	}
	return err
}

// stop kills the process; the next cell starts a new one.
func (c *Client) stop() {
	if c.proc != nil {
		c.proc.kill()
		c.proc = nil
	}
}

// call sends one request and decodes its result into result, then runs
// check (when set) on it. A protocol failure stops the process and
// returns an [*Error]; an unsupported answer returns a
// [*scenario.UnsupportedError]; an error answer a [*StepError]. The
// caller holds c.mu.
func (c *Client) call(ctx context.Context, req *Request, result any, check func() error) error {
	c.nextID++
	req.ID = c.nextID
	p := c.proc
	if p == nil {
		return &Error{Step: req.Cmd, ID: req.ID, Err: errors.New("the implementation is not running: it failed earlier in this cell")}
	}
	fail := func(err error) error {
		c.stop()
		return &Error{Step: req.Cmd, ID: req.ID, Err: err, Stderr: p.stderr.String()}
	}
	line, err := encodeLine(req)
	if err != nil {
		return fail(fmt.Errorf("encode the request: %w", err))
	}
	limit := c.cfg.Timeout
	if req.Cmd == CmdHello {
		limit = c.cfg.HelloTimeout
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	timedOut := fmt.Errorf("no answer within %s (raise --engine-timeout if the implementation is slow)", limit)

	wrote := make(chan error, 1)
	go func() {
		_, err := p.stdin.Write(line)
		wrote <- err
	}()
	select {
	case err := <-wrote:
		if err != nil {
			return fail(c.exitedBeforeAnswering(p))
		}
	case <-timer.C:
		return fail(timedOut)
	case <-ctx.Done():
		return fail(ctx.Err())
	}

	var lr lineResult
	var open bool
	select {
	case lr, open = <-p.lines:
	case <-timer.C:
		return fail(timedOut)
	case <-ctx.Done():
		return fail(ctx.Err())
	}
	switch {
	case !open:
		return fail(c.exitedBeforeAnswering(p))
	case errors.Is(lr.err, errLineTooLong):
		return fail(fmt.Errorf("malformed reply: %w", lr.err))
	case lr.err != nil:
		return fail(c.exitedBeforeAnswering(p))
	}
	var rep Reply
	if err := decodeStrict(lr.line, &rep, ""); err != nil {
		return fail(fmt.Errorf("malformed reply: %w: %s", err, excerpt(lr.line)))
	}
	if rep.ID != req.ID {
		return fail(fmt.Errorf("malformed reply: id %d answers another request (want %d)", rep.ID, req.ID))
	}
	n := 0
	for _, set := range []bool{rep.Result != nil, rep.Unsupported != nil, rep.Error != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return fail(fmt.Errorf("malformed reply: want exactly one of result, unsupported and error, got %d", n))
	}
	switch {
	case rep.Unsupported != nil:
		if strings.TrimSpace(rep.Unsupported.Reason) == "" {
			return fail(errors.New("malformed reply: unsupported.reason: empty"))
		}
		reason := rep.Unsupported.Reason
		if rep.Unsupported.IssueURL != "" {
			reason += " (" + rep.Unsupported.IssueURL + ")"
		}
		return &scenario.UnsupportedError{Implementation: c.hello.Implementation.Name, Step: req.Cmd, Reason: reason}
	case rep.Error != nil:
		if strings.TrimSpace(rep.Error.Message) == "" {
			return fail(errors.New("malformed reply: error.message: empty"))
		}
		return &StepError{Step: req.Cmd, ID: req.ID, Message: rep.Error.Message}
	}
	if err := decodeStrict(rep.Result, result, "result"); err != nil {
		return fail(fmt.Errorf("malformed reply: %w", err))
	}
	if check != nil {
		if err := check(); err != nil {
			return fail(fmt.Errorf("malformed reply: %w", err))
		}
	}
	return nil
}

// exitedBeforeAnswering describes a process whose output ended.
func (c *Client) exitedBeforeAnswering(p *process) error {
	how, ok := p.exited(exitGrace)
	if !ok {
		how = "still running"
	}
	return fmt.Errorf("the implementation closed its output before answering (%s)", how)
}

// excerpt shortens a line for an error message.
func excerpt(line []byte) string {
	const n = 120
	s := strings.TrimSpace(string(line))
	if len(s) > n {
		s = s[:n] + "…"
	}
	return fmt.Sprintf("%q", s)
}
