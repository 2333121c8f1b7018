package agent

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// An interceptor is the HTTP(S) proxy an agent run is pointed at
// (HTTPS_PROXY): it answers CONNECT for one hostname with a certificate
// from a CA generated for the run and serves what comes through it with
// the player, and refuses every other host, keeping its name. With no
// hostname it refuses everything: a run pointed at the simulator's
// loopback URL still learns of any other host the agent calls.
type interceptor struct {
	host    string // the served hostname, lower-case; "" serves none
	handler http.Handler
	tls     *tls.Config
	// CAPEM is the run's CA certificate, for SSL_CERT_FILE and friends.
	CAPEM []byte
	// URL is the proxy's address, http://127.0.0.1:PORT.
	URL string

	inner *http.Server
	conns *connListener
	mu    sync.Mutex
	other []string
}

// startInterceptor serves the proxy on loopback until ctx ends.
func startInterceptor(ctx context.Context, host string, h http.Handler) (*interceptor, error) {
	ic := &interceptor{host: strings.ToLower(host), handler: h}
	if host != "" {
		cfg, ca, err := runCertificate(ic.host)
		if err != nil {
			return nil, fmt.Errorf("intercept %s: %w", host, err)
		}
		ic.tls, ic.CAPEM = cfg, ca
		ic.conns = newConnListener()
		ic.inner = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = ic.inner.Serve(ic.conns) }()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("intercept: listen: %w", err)
	}
	ic.URL = "http://" + ln.Addr().String()
	srv := &http.Server{Handler: ic, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
		if ic.inner != nil {
			_ = ic.inner.Close()
			_ = ic.conns.Close()
		}
	}()
	return ic, nil
}

// ServeHTTP answers a proxy request: CONNECT to the served host is
// tunnelled to the player over TLS, an absolute-form request to it is
// served directly; anything else is refused with 403 naming the host.
func (ic *interceptor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	if r.Method != http.MethodConnect && r.URL.IsAbs() {
		host = r.URL.Host
	}
	name := strings.ToLower(hostname(host))
	if ic.host == "" || name != ic.host {
		ic.refuse(w, host)
		return
	}
	if r.Method != http.MethodConnect {
		r.URL.Scheme, r.URL.Host = "", ""
		r.RequestURI = r.URL.RequestURI()
		ic.handler.ServeHTTP(w, r)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "replaycheck agent --intercept: cannot take over the connection", http.StatusInternalServerError)
		return
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	if _, err := conn.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		conn.Close()
		return
	}
	var c net.Conn = conn
	if buf.Reader.Buffered() > 0 {
		c = &bufferedConn{Conn: conn, r: buf.Reader}
	}
	ic.conns.push(tls.Server(c, ic.tls))
}

// refuse answers a request for a host the run does not serve, and keeps
// its name for the cell.
func (ic *interceptor) refuse(w http.ResponseWriter, host string) {
	ic.mu.Lock()
	if !strings.Contains(strings.Join(ic.other, "\x00"), host) {
		ic.other = append(ic.other, host)
	}
	ic.mu.Unlock()
	msg := fmt.Sprintf("replaycheck agent: %s is not served: nothing leaves loopback", host)
	if ic.host != "" {
		msg = fmt.Sprintf("replaycheck agent --intercept: %s is not %s: nothing else is served, nothing leaves loopback", host, ic.host)
	}
	http.Error(w, msg, http.StatusForbidden)
}

// others are the hosts the agent called that the run refused.
func (ic *interceptor) others() []string {
	ic.mu.Lock()
	defer ic.mu.Unlock()
	return append([]string(nil), ic.other...)
}

// hostname is host without its port.
func hostname(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		return h
	}
	return host
}

// runCertificate generates a CA for this run and a certificate for host
// it signs; it returns the TLS config serving it and the CA in PEM.
func runCertificate(host string) (*tls.Config, []byte, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	serial := func() *big.Int {
		n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
		return n
	}
	ca := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "replaycheck agent --intercept CA (one run only)"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, nil, err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	leaf := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: host},
		DNSNames:     []string{host},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	if err != nil {
		return nil, nil, err
	}
	cfg := &tls.Config{
		Certificates: []tls.Certificate{{Certificate: [][]byte{leafDER, caDER}, PrivateKey: key}},
		NextProtos:   []string{"http/1.1"},
		MinVersion:   tls.VersionTLS12,
	}
	return cfg, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), nil
}

// A connListener hands tunnelled connections to an http.Server.
type connListener struct {
	ch     chan net.Conn
	done   chan struct{}
	closed sync.Once
}

func newConnListener() *connListener {
	return &connListener{ch: make(chan net.Conn), done: make(chan struct{})}
}

func (l *connListener) push(c net.Conn) {
	select {
	case l.ch <- c:
	case <-l.done:
		c.Close()
	}
}

// Accept returns the next tunnelled connection.
func (l *connListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.done:
		return nil, errors.New("intercept: closed")
	}
}

// Close stops Accept.
func (l *connListener) Close() error {
	l.closed.Do(func() { close(l.done) })
	return nil
}

// Addr is a placeholder: the connections come from the proxy.
func (l *connListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }

// A bufferedConn reads what the proxy's reader already holds first.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(p []byte) (int, error) { return c.r.Read(p) }
