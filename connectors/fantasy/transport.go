package main

import (
	"bytes"
	"io"
	"net/http"
)

// recorder is an http.RoundTripper that never reaches a network: it keeps
// the body of the request fantasy built and answers with a fixed response.
type recorder struct {
	body        []byte
	status      int
	contentType string
	answer      []byte
}

// RoundTrip captures req's body and answers with the recorder's response.
func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		r.body = b
	}
	return &http.Response{
		StatusCode:    r.status,
		Status:        http.StatusText(r.status),
		Header:        http.Header{"Content-Type": []string{r.contentType}},
		Body:          io.NopCloser(bytes.NewReader(r.answer)),
		ContentLength: int64(len(r.answer)),
		Request:       req,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
	}, nil
}

// client is an http.Client over r.
func (r *recorder) client() *http.Client { return &http.Client{Transport: r} }
