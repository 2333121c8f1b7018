package sim

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestListenRefusesNonLoopback(t *testing.T) {
	for _, tt := range []struct {
		reason string
		addr   string
	}{
		{"every interface, IPv4", "0.0.0.0:0"},
		{"empty host means every interface", ":0"},
		{"every interface, IPv6", "[::]:0"},
		{"a private address", "192.168.1.10:8080"},
		{"a public host name", "example.com:80"},
		{"a look-alike host name", "localhost.evil.com:80"},
		{"no port", "127.0.0.1"},
	} {
		_, _, err := Listen(context.Background(), tt.addr, http.NotFoundHandler())
		if err == nil || !strings.Contains(err.Error(), tt.addr) {
			t.Errorf("%s: Listen(%q) error %v, want a refusal naming the address", tt.reason, tt.addr, err)
		}
	}
}

func TestListenServesAndStops(t *testing.T) {
	for _, tt := range []struct {
		reason string
		addr   string
	}{
		{"default address", ""},
		{"explicit loopback", "127.0.0.1:0"},
		{"localhost", "localhost:0"},
		{"another 127/8 address", "127.0.0.2:0"},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		s := newSim(t, profile("rc", modeChat, []string{"reasoning_content"}), testSeed)
		addr, errc, err := Listen(ctx, tt.addr, s)
		if err != nil {
			cancel()
			if tt.addr == "127.0.0.2:0" && strings.Contains(err.Error(), "assign") {
				continue // some kernels only route 127.0.0.1
			}
			t.Fatalf("%s: Listen(%q): %v", tt.reason, tt.addr, err)
		}
		if ip := addr.(*net.TCPAddr).IP; !ip.IsLoopback() {
			t.Errorf("%s: bound %s, not loopback", tt.reason, addr)
		}
		resp, err := http.Post("http://"+addr.String()+"/v1/chat/completions", "application/json", strings.NewReader(chatAnswerRequest))
		if err != nil {
			t.Fatalf("%s: POST: %v", tt.reason, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), "reasoning_content") {
			t.Errorf("%s: status %d body %.120s", tt.reason, resp.StatusCode, body)
		}
		cancel()
		select {
		case err, open := <-errc:
			if open && err != nil {
				t.Errorf("%s: server error %v", tt.reason, err)
			}
			for range errc {
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: server did not stop after cancel", tt.reason)
		}
		if conn, err := net.DialTimeout("tcp", addr.String(), time.Second); err == nil {
			conn.Close()
			t.Errorf("%s: %s still accepts connections after shutdown", tt.reason, addr)
		}
	}
}

func TestListenReportsBindErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, errc, err := Listen(ctx, "", http.NotFoundHandler())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Listen(ctx, addr.String(), http.NotFoundHandler()); err == nil || !strings.Contains(err.Error(), addr.String()) {
		t.Errorf("second Listen on %s: error %v, want one naming the address", addr, err)
	}
	cancel()
	for range errc {
	}
}
