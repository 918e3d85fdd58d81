package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync/atomic"
	"testing"
)

func TestIsPublic(t *testing.T) {
	t.Parallel()
	cases := []struct {
		addr   string
		public bool
	}{
		{"8.8.8.8", true},
		{"93.184.215.14", true},
		{"100.63.255.255", true},
		{"100.128.0.0", true},
		{"172.32.0.1", true},
		{"2606:4700:4700::1111", true},
		{"::ffff:8.8.8.8", true},
		{"64:ff9b::808:808", true},
		{"2002:808:808::1", true},

		{"127.0.0.1", false},
		{"127.255.255.254", false},
		{"0.0.0.0", false},
		{"0.1.2.3", false},
		{"10.0.0.1", false},
		{"172.16.0.1", false},
		{"172.31.255.255", false},
		{"192.168.1.1", false},
		{"100.64.0.1", false},
		{"100.127.255.255", false},
		{"169.254.169.254", false},
		{"192.0.0.170", false},
		{"192.0.2.1", false},
		{"198.18.0.1", false},
		{"224.0.0.1", false},
		{"239.255.255.250", false},
		{"240.0.0.1", false},
		{"255.255.255.255", false},
		{"::", false},
		{"::1", false},
		{"fc00::1", false},
		{"fd12:3456::1", false},
		{"fe80::1", false},
		{"fe80::1%eth0", false},
		{"fec0::1", false},
		{"ff02::1", false},
		{"100::1", false},
		{"2001:db8::1", false},
		{"2001::1", false},
		// IPv4-mapped, IPv4-compatible, NAT64 and 6to4 forms of private addresses.
		{"::ffff:127.0.0.1", false},
		{"::ffff:10.0.0.1", false},
		{"::ffff:169.254.169.254", false},
		{"::127.0.0.1", false},
		{"::8.8.8.8", false},
		{"64:ff9b::7f00:1", false},
		{"64:ff9b::a00:1", false},
		{"64:ff9b:1::a00:1", false},
		{"2002:7f00:1::1", false},
		{"2002:c0a8:101::1", false},
	}
	for _, c := range cases {
		a, err := netip.ParseAddr(c.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := IsPublic(a); got != c.public {
			t.Errorf("IsPublic(%s) = %v", c.addr, got)
		}
	}
	if IsPublic(netip.Addr{}) {
		t.Error("the zero address is public")
	}
}

type staticResolver map[string][]netip.Addr

func (r staticResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := r[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func addrs(s ...string) []netip.Addr {
	var out []netip.Addr
	for _, v := range s {
		out = append(out, netip.MustParseAddr(v))
	}
	return out
}

func TestTargetDialer(t *testing.T) {
	t.Parallel()
	resolver := staticResolver{
		"public.example":   addrs("93.184.215.14"),
		"loopback.example": addrs("127.0.0.1"),
		"private.example":  addrs("10.0.0.1"),
		"mapped.example":   addrs("::ffff:127.0.0.1"),
		"mixed.example":    addrs("93.184.215.14", "192.168.0.10"),
		"metadata.example": addrs("169.254.169.254"),
	}
	cases := []struct {
		hostport string
		insecure bool
		refused  string // the address named in the refusal; "" connects
	}{
		{"public.example:443", false, ""},
		{"loopback.example:443", false, "127.0.0.1"},
		{"private.example:443", false, "10.0.0.1"},
		{"mapped.example:443", false, "127.0.0.1"},
		{"mixed.example:443", false, "192.168.0.10"},
		{"metadata.example:80", false, "169.254.169.254"},
		{"127.0.0.1:443", false, "127.0.0.1"},
		{"[::1]:443", false, "::1"},
		{"[::ffff:a00:1]:443", false, "10.0.0.1"},
		{"loopback.example:443", true, ""},
		{"[::1]:443", true, ""},
	}
	for _, c := range cases {
		var dialed []string
		d := newTargetDialer(Config{Resolver: resolver, AllowInsecure: c.insecure, Dial: func(_ context.Context, _, addr string) (net.Conn, error) {
			dialed = append(dialed, addr)
			client, server := net.Pipe()
			server.Close()
			return client, nil
		}})
		conn, err := d.DialContext(t.Context(), "tcp", c.hostport)
		var refused *RefusedError
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%s: %v", c.hostport, err)
		case c.refused == "":
			conn.Close()
			if len(dialed) != 1 {
				t.Errorf("%s: dialed %v", c.hostport, dialed)
			}
		case !errors.As(err, &refused) || refused.Addr.String() != c.refused || len(dialed) != 0:
			t.Errorf("%s: got %v after dialing %v, want %s refused before any connection", c.hostport, err, dialed, c.refused)
		}
	}
	if _, err := newTargetDialer(Config{Resolver: resolver}).DialContext(t.Context(), "tcp", "unknown.example:443"); err == nil {
		t.Error("a name without addresses was dialed")
	}
}

// The default dialer checks the address again as the socket connects: a loopback listener
// gets no connection from it, while the development switch lets it through.
func TestDialerControlRefusesLoopback(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	strict := newTargetDialer(Config{})
	_, err = strict.dial(t.Context(), "tcp", ln.Addr().String())
	var refused *RefusedError
	if !errors.As(err, &refused) || refused.Addr.String() != "127.0.0.1" {
		t.Fatalf("dialing loopback: %v", err)
	}
	// The next connection the listener accepts must be the allowed one, not the refused one.
	insecure := newTargetDialer(Config{AllowInsecure: true})
	conn, err := insecure.dial(t.Context(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	got, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()
	if got.RemoteAddr().String() != conn.LocalAddr().String() {
		t.Fatalf("the listener accepted %s first, not the allowed %s", got.RemoteAddr(), conn.LocalAddr())
	}
}

// Deliveries never follow a redirect: a public receiver cannot bounce one to a private one.
func TestClientFollowsNoRedirect(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Redirect(w, r, "https://127.0.0.1:1/inside", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	pool := srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs
	client := newClient(Config{RootCAs: pool, Resolver: staticResolver{"example.com": addrs("93.184.215.14")},
		Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
		}})
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	resp, err := client.Post(fmt.Sprintf("https://example.com:%s/hook", port), "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTemporaryRedirect || hits.Load() != 1 {
		t.Fatalf("status %d after %d requests", resp.StatusCode, hits.Load())
	}
}
