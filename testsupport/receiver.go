package testsupport

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Delivery is one request a Receiver got.
type Delivery struct {
	Path    string
	Header  http.Header
	Body    []byte
	Payload map[string]any
	At      time.Time
}

// Receiver is a webhook receiver on loopback that records every request. Answer decides
// each reply (nil: 200 at once).
type Receiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []Delivery
	Answer func(d Delivery) (status int, delay time.Duration)
	// URL names the receiver as a webhook may: https://example.com:PORT for a TLS receiver
	// (the certificate's name; Client dials loopback for it), http://127.0.0.1:PORT else.
	URL string
}

func (rc *Receiver) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	d := Delivery{Path: r.URL.Path, Header: r.Header.Clone(), Body: body, At: time.Now()}
	_ = json.Unmarshal(body, &d.Payload)
	rc.mu.Lock()
	rc.got = append(rc.got, d)
	answer := rc.Answer
	rc.mu.Unlock()
	status, delay := 200, time.Duration(0)
	if answer != nil {
		status, delay = answer(d)
	}
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	w.WriteHeader(status)
	_, _ = w.Write([]byte(`{"received":true}`))
}

// NewReceiver starts a plain-HTTP receiver (webhooks need the insecure switch for it).
func NewReceiver(t testing.TB) *Receiver {
	rc := &Receiver{}
	rc.Server = httptest.NewServer(http.HandlerFunc(rc.handle))
	rc.URL = rc.Server.URL
	t.Cleanup(rc.Close)
	return rc
}

// NewTLSReceiver starts an HTTPS receiver. Its URL uses the host name of its certificate, so
// it passes the webhook URL rules; Client trusts the certificate and dials loopback.
func NewTLSReceiver(t testing.TB) *Receiver {
	rc := &Receiver{}
	rc.Server = httptest.NewTLSServer(http.HandlerFunc(rc.handle))
	_, port, _ := net.SplitHostPort(rc.Listener.Addr().String())
	rc.URL = "https://example.com:" + port
	t.Cleanup(rc.Close)
	return rc
}

// Client is an HTTP client for the service's deliveries that reaches this receiver under
// its certificate's name.
func (rc *Receiver) Client() *http.Client {
	c := rc.Server.Client()
	tr := c.Transport.(*http.Transport).Clone()
	addr := rc.Listener.Addr().String()
	tr.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	tr.TLSClientConfig = &tls.Config{RootCAs: tr.TLSClientConfig.RootCAs, ServerName: "example.com"}
	return &http.Client{Transport: tr}
}

// Got returns the requests so far.
func (rc *Receiver) Got() []Delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]Delivery(nil), rc.got...)
}

// Of returns the requests whose payload is of event name (and path, when given).
func (rc *Receiver) Of(event, path string) []Delivery {
	var out []Delivery
	for _, d := range rc.Got() {
		if d.Payload["event"] == event && (path == "" || d.Path == path) {
			out = append(out, d)
		}
	}
	return out
}

// Await waits until cond holds over the requests received, for at most limit.
func (rc *Receiver) Await(t testing.TB, what string, limit time.Duration, cond func([]Delivery) bool) []Delivery {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		got := rc.Got()
		if cond(got) {
			return got
		}
		if time.Now().After(deadline) {
			var names []string
			for _, d := range got {
				names = append(names, d.Path+" "+strings.TrimSpace(string(d.Header.Get("webhook-id")))+" "+toString(d.Payload["event"]))
			}
			t.Fatalf("timed out waiting for %s; received %d: %v", what, len(got), names)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func toString(v any) string {
	s, _ := v.(string)
	return s
}
