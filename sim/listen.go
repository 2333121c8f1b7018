package sim

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
)

// DefaultAddr is the address Listen binds when given "": loopback, any
// free port.
const DefaultAddr = "127.0.0.1:0"

// shutdownGrace bounds how long Listen waits for in-flight requests once
// its context is cancelled.
const shutdownGrace = 5 * time.Second

// Listen serves h on addr until ctx is cancelled, then shuts the server
// down gracefully (http.Server.Shutdown). It binds only loopback: addr's
// host must be in 127.0.0.0/8, ::1 or "localhost", and any other address
// (including an empty host, which would mean every interface) is refused
// with an error naming it. An empty addr means DefaultAddr.
//
// Listen returns the bound address and a channel that delivers the
// server's error, if it fails for a reason other than the shutdown, and is
// closed once the server has stopped.
func Listen(ctx context.Context, addr string, h http.Handler) (net.Addr, <-chan error, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, nil, fmt.Errorf("sim: listen address %q: %w", addr, err)
	}
	if !loopbackHost(host) {
		return nil, nil, fmt.Errorf("sim: listen address %q: not loopback; the simulator binds only 127.0.0.0/8, ::1 or localhost", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("sim: listen address %q: %w", addr, err)
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
		_ = ln.Close()
		return nil, nil, fmt.Errorf("sim: listen address %q: bound %s, which is not loopback", addr, ln.Addr())
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	go func() {
		defer close(errc)
		select {
		case err := <-served:
			if !errors.Is(err, http.ErrServerClosed) {
				errc <- fmt.Errorf("sim: serve %s: %w", ln.Addr(), err)
			}
			return
		case <-ctx.Done():
		}
		sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			_ = srv.Close()
			errc <- fmt.Errorf("sim: shut down %s: %w", ln.Addr(), err)
		}
		<-served
	}()
	return ln.Addr(), errc, nil
}

// loopbackHost reports whether host names only loopback.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
