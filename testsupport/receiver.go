package testsupport

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
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
	mu  sync.Mutex
	got []Delivery
	// inFlight and mostInFlight count the requests being handled, for caps on concurrency.
	inFlight, mostInFlight int
	Answer                 func(d Delivery) (status int, delay time.Duration)
	// URL names the receiver as a webhook may: https://example.com:PORT for a TLS receiver
	// (the certificate's name; Client dials loopback for it), http://127.0.0.1:PORT else.
	URL string
}

func (rc *Receiver) handle(w http.ResponseWriter, r *http.Request) {
	rc.mu.Lock()
	rc.inFlight++
	rc.mostInFlight = max(rc.mostInFlight, rc.inFlight)
	rc.mu.Unlock()
	defer func() {
		rc.mu.Lock()
		rc.inFlight--
		rc.mu.Unlock()
	}()
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
// it passes the webhook URL rules; Route makes the service's deliveries reach it.
func NewTLSReceiver(t testing.TB) *Receiver {
	rc := &Receiver{}
	rc.Server = httptest.NewTLSServer(http.HandlerFunc(rc.handle))
	_, port, _ := net.SplitHostPort(rc.Listener.Addr().String())
	rc.URL = "https://example.com:" + port
	t.Cleanup(rc.Close)
	return rc
}

// ReceiverAddr is the address example.com resolves to for the service's deliveries in tests:
// a public one, so the delivery rules let it through, which the test dialer then connects to
// the receiver on loopback that listens on the port asked for.
var ReceiverAddr = netip.MustParseAddr("93.184.215.14")

// Resolver maps host names to addresses, for the service's deliveries; other names do not
// exist.
type Resolver map[string][]netip.Addr

func (r Resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := r[strings.ToLower(host)]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// Route makes the service's deliveries reach this receiver under its certificate's name.
func (rc *Receiver) Route(s *Setup) { Route(s, rc) }

// Route makes the service's deliveries reach TLS receivers under their certificate's name:
// example.com resolves to ReceiverAddr, a connection to it goes to the receiver listening
// on the same port on loopback, and their certificates are trusted. A connection to any
// other address fails without leaving the machine. s.Webhooks.Resolver may be extended
// afterwards with names of the test's choosing.
func Route(s *Setup, receivers ...*Receiver) {
	pool := x509.NewCertPool()
	ports := map[string]string{}
	for _, rc := range receivers {
		pool.AddCert(rc.Certificate())
		_, port, _ := net.SplitHostPort(rc.Listener.Addr().String())
		ports[port] = rc.Listener.Addr().String()
	}
	s.Webhooks.RootCAs = pool
	s.Webhooks.Resolver = Resolver{"example.com": {ReceiverAddr}}
	s.Webhooks.Dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		to, ok := ports[port]
		if host != ReceiverAddr.String() || !ok {
			return nil, fmt.Errorf("test dialer: no receiver at %s", addr)
		}
		return (&net.Dialer{}).DialContext(ctx, network, to)
	}
}

// Got returns the requests so far.
func (rc *Receiver) Got() []Delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]Delivery(nil), rc.got...)
}

// MostAtOnce is the most requests the receiver was handling at one time: from the request's
// arrival until its answer is written, so never more than the sender had out.
func (rc *Receiver) MostAtOnce() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.mostInFlight
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
