package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/dnaeon/go-vcr.v3/recorder"
)

// ErrRequestCap is returned once a recording has sent its maximum number of
// requests to the provider; a [CapError] wraps it.
var ErrRequestCap = errors.New("request cap reached")

// A CapError is a request the cap kept from being sent.
type CapError struct {
	// Cap is the run's cap, as the user gave it.
	Cap int
	// Method and URL are the request as it would have been sent (after
	// any --base-url redirect), credentials removed.
	Method, URL string
}

func (e *CapError) Error() string {
	return fmt.Sprintf("%v (--max-requests %d): %s %s was not sent", ErrRequestCap, e.Cap, e.Method, e.URL)
}

// Unwrap returns [ErrRequestCap].
func (e *CapError) Unwrap() error { return ErrRequestCap }

// RecordOptions configures a [Recording].
type RecordOptions struct {
	// TargetBaseURL is the target's own base URL: what the cassette shows.
	TargetBaseURL string
	// SendBaseURL, when set, redirects where requests really go (the
	// simulator, a regional endpoint); the cassette still shows the
	// target's URL.
	SendBaseURL string
	// Authorize adds credentials to the outgoing copy of a request only, so
	// they never enter the recorder (secrets by construction).
	Authorize func(*http.Request)
	// Secrets are values (API keys) scrubbed from every stored body.
	Secrets []string
	// MaxRequests caps how many requests reach the provider in the run
	// this recording belongs to (0 = no cap); the error quotes it.
	MaxRequests int
	// Spent is how many requests earlier recordings of the same run sent:
	// this one may send MaxRequests - Spent.
	Spent int
	// NotServed are the path suffixes the target's profile documents the
	// endpoint not serving (its path_not_served rules): a 404 there is the
	// provider's answer and is kept. See [NotJudged].
	NotServed []string
	// Transport is the network transport (default http.DefaultTransport).
	Transport http.RoundTripper
}

// A Recording records a scenario's requests with the go-vcr recorder in
// record mode. Identical requests (same method, path and canonical body)
// are sent once and answered from the recording afterwards.
type Recording struct {
	opts   RecordOptions
	tmpDir string
	rec    *recorder.Recorder
	target *url.URL

	mu        sync.Mutex
	sent      int
	simulator string
	// refused is the first request refused (the cap, an answer not
	// judging the request): the recording is partial and Finish fails.
	refused error
}

// SimulatorHeader is the response header by which `replaycheck serve`
// identifies itself ("<profile>/v<version>").
const SimulatorHeader = "Replaycheck-Simulator"

// StartRecording begins a recording; call [Recording.Finish] to collect
// the interactions, or [Recording.Abort] to drop them.
func StartRecording(opts RecordOptions) (*Recording, error) {
	target, err := url.Parse(opts.TargetBaseURL)
	if err != nil || target.Host == "" {
		return nil, fmt.Errorf("record: target base URL %q is not absolute", opts.TargetBaseURL)
	}
	if opts.Transport == nil {
		opts.Transport = http.DefaultTransport
	}
	tmp, err := os.MkdirTemp("", "replaycheck-record-*")
	if err != nil {
		return nil, err
	}
	r := &Recording{opts: opts, tmpDir: tmp, target: target}
	rec, err := recorder.NewWithOptions(&recorder.Options{
		CassetteName:  filepath.Join(tmp, "cassette"),
		Mode:          recorder.ModeRecordOnly,
		RealTransport: roundTripFunc(r.send),
	})
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	rec.SetReplayableInteractions(true)
	rec.SetMatcher(matchCanonical)
	rec.AddHook(r.scrub, recorder.BeforeSaveHook)
	r.rec = rec
	return r, nil
}

// matchCanonical matches on method, path and canonical body (the canonical
// form travels in the request context).
func matchCanonical(req *http.Request, rec cassette.Request) bool {
	if req.Method != rec.Method {
		return false
	}
	u, err := url.Parse(rec.URL)
	if err != nil || u.Path != req.URL.Path {
		return false
	}
	got, _ := req.Context().Value(canonKey{}).([]byte)
	want, _ := canonical([]byte(rec.Body))
	return bytes.Equal(got, want)
}

// RoundTrip records one request.
func (r *Recording) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := RequestBody(req)
	if err != nil {
		return nil, err
	}
	c, _ := canonical(body)
	req = req.Clone(context.WithValue(req.Context(), canonKey{}, c))
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	return r.rec.RoundTrip(req)
}

// send is the recorder's real transport: it redirects to SendBaseURL,
// enforces the request cap, adds credentials to the outgoing copy, and
// refuses an answer that is not the provider judging the request
// ([NotJudged]), so the recorder never stores it. After the first refusal
// every request fails with it, unsent.
func (r *Recording) send(req *http.Request) (*http.Response, error) {
	out := req.Clone(req.Context())
	if r.opts.SendBaseURL != "" {
		u, err := redirect(req.URL, r.target, r.opts.SendBaseURL)
		if err != nil {
			return nil, err
		}
		out.URL = u
		out.Host = u.Host
	}
	r.mu.Lock()
	if r.refused != nil {
		// The recording is lost already: nothing more is sent.
		err := r.refused
		r.mu.Unlock()
		return nil, err
	}
	if r.opts.MaxRequests > 0 && r.opts.Spent+r.sent >= r.opts.MaxRequests {
		err := &CapError{Cap: r.opts.MaxRequests, Method: out.Method, URL: r.shown(out.URL)}
		r.refuse(err)
		r.mu.Unlock()
		return nil, err
	}
	r.sent++
	r.mu.Unlock()
	if r.opts.Authorize != nil {
		r.opts.Authorize(out)
	}
	resp, err := r.opts.Transport.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	if v := resp.Header.Get(SimulatorHeader); v != "" {
		r.simulator = v
	}
	r.mu.Unlock()
	if why := NotJudged(resp.StatusCode, out.URL.Path, r.opts.NotServed); why != "" {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4*maxQuoted))
		resp.Body.Close()
		err := &AnswerError{Code: resp.StatusCode, Method: out.Method, URL: r.shown(out.URL), Why: why, Body: quote(body, r.opts.Secrets)}
		r.mu.Lock()
		r.refuse(err)
		r.mu.Unlock()
		return nil, err
	}
	return resp, nil
}

// shown is u as a message may show it: credential parameters and secrets
// removed.
func (r *Recording) shown(u *url.URL) string {
	s := ScrubURL(u.String())
	for _, k := range r.opts.Secrets {
		if k != "" {
			s = strings.ReplaceAll(s, k, "[scrubbed]")
		}
	}
	return s
}

// refuse keeps the first refusal; r.mu is held.
func (r *Recording) refuse(err error) {
	if r.refused == nil {
		r.refused = err
	}
}

// Simulator returns the profile name and version of the simulator that
// answered, or ok false when no answer came from a simulator (a live
// provider).
func (r *Recording) Simulator() (profile string, version int, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	name, v, found := strings.Cut(r.simulator, "/v")
	if !found {
		return "", 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || name == "" {
		return "", 0, false
	}
	return name, n, true
}

// redirect maps a URL under the target's base onto another base.
func redirect(u, target *url.URL, sendBase string) (*url.URL, error) {
	base, err := url.Parse(sendBase)
	if err != nil || base.Host == "" {
		return nil, fmt.Errorf("record: base URL %q is not absolute", sendBase)
	}
	prefix := strings.TrimSuffix(target.Path, "/")
	rel, ok := strings.CutPrefix(u.Path, prefix)
	if !ok || (rel != "" && !strings.HasPrefix(rel, "/")) {
		return nil, fmt.Errorf("record: %s is not under the target's base path %q", u.Path, target.Path)
	}
	out := *base
	out.Path = strings.TrimSuffix(base.Path, "/") + rel
	out.RawQuery = u.RawQuery
	return &out, nil
}

// Sent returns how many requests reached the provider.
func (r *Recording) Sent() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sent
}

// scrub runs before anything is written; see [Scrub].
func (r *Recording) scrub(i *cassette.Interaction) error {
	Scrub(i, r.target.Host, r.opts.Secrets)
	return nil
}

// Scrub is what every cassette writer (`record`, `import`) does to an
// interaction before it is stored: it keeps only harmless headers
// ([ScrubHeaders]), removes credential query parameters ([ScrubURL]) and
// the given secret values, pins the request host, and zeroes volatile
// fields so stored interactions are byte-stable.
func Scrub(i *cassette.Interaction, host string, secrets []string) {
	i.Request.Headers = ScrubHeaders(i.Request.Headers)
	i.Response.Headers = ScrubHeaders(i.Response.Headers)
	i.Request.URL = ScrubURL(i.Request.URL)
	i.Request.Host = host
	i.Request.RemoteAddr = ""
	i.Request.RequestURI = ""
	i.Request.Form = nil
	i.Request.Trailer = nil
	i.Request.TransferEncoding = nil
	i.Request.Proto, i.Request.ProtoMajor, i.Request.ProtoMinor = "HTTP/1.1", 1, 1
	i.Response.Proto, i.Response.ProtoMajor, i.Response.ProtoMinor = "HTTP/1.1", 1, 1
	i.Response.Trailer = nil
	i.Response.TransferEncoding = nil
	i.Response.Duration = 0
	for _, s := range secrets {
		if s == "" {
			continue
		}
		i.Request.Body = strings.ReplaceAll(i.Request.Body, s, "[scrubbed]")
		i.Response.Body = strings.ReplaceAll(i.Response.Body, s, "[scrubbed]")
		i.Request.URL = strings.ReplaceAll(i.Request.URL, s, "[scrubbed]")
	}
	// Lengths of the bodies as stored, after scrubbing.
	i.Response.ContentLength = int64(len(i.Response.Body))
	i.Request.ContentLength = int64(len(i.Request.Body))
}

// Finish stops the recorder and returns the scrubbed interactions, in the
// order they were first sent. A recording any request of which was
// refused (a [CapError], an [AnswerError]) is partial: Finish returns
// that refusal and no interactions.
func (r *Recording) Finish() ([]*cassette.Interaction, error) {
	defer os.RemoveAll(r.tmpDir)
	if err := r.rec.Stop(); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	r.mu.Lock()
	refused := r.refused
	r.mu.Unlock()
	if refused != nil {
		return nil, refused
	}
	c, err := cassette.Load(filepath.Join(r.tmpDir, "cassette"))
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	return c.Interactions, nil
}

// Abort drops the recording; nothing is written.
func (r *Recording) Abort() { os.RemoveAll(r.tmpDir) }

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
