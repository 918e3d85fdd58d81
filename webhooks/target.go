package webhooks

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// Resolver finds the addresses of a host name; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// DialFunc connects to "ip:port".
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// RefusedError is a delivery target whose address is not public: no connection was made.
type RefusedError struct {
	Host string
	Addr netip.Addr
}

func (e *RefusedError) Error() string {
	if e.Host == "" || e.Host == e.Addr.String() {
		return fmt.Sprintf("address %s is not a public address", e.Addr)
	}
	return fmt.Sprintf("address %s is not a public address (%s resolves to it)", e.Addr, e.Host)
}

// notPublic lists the IANA special-purpose ranges (RFC 6890 and its updates) that are not
// globally reachable: loopback, RFC 1918, CGNAT, link-local (cloud metadata services live
// there), "this network" (0.0.0.0 reaches the local host on Linux), protocol assignments,
// benchmarking, documentation, multicast, reserved and broadcast. IPv6 is held to global
// unicast (2000::/3) in isPublic, so unique-local, link-local, site-local, multicast,
// unspecified, loopback and the deprecated IPv4-compatible forms fall outside it; these are
// the special ranges inside 2000::/3.
var notPublic = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
		"192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24",
		"203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
		// Teredo (tunnels to an IPv4 address it hides), benchmarking, ORCHID, documentation.
		"2001::/32", "2001:2::/48", "2001:10::/28", "2001:20::/28", "2001:db8::/32",
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

var (
	globalUnicast = netip.MustParsePrefix("2000::/3")
	// Prefixes that carry an IPv4 address: NAT64's well-known prefix (RFC 6052, the last 32
	// bits) and 6to4 (RFC 3056, bits 16–48). A gateway would connect to that address, so it
	// must be public too. The NAT64 local-use prefix (64:ff9b:1::/48) is outside 2000::/3.
	nat64   = netip.MustParsePrefix("64:ff9b::/96")
	sixToIP = netip.MustParsePrefix("2002::/16")
)

// IsPublic reports whether a delivery may connect to a: a globally reachable unicast
// address, judged on the IPv4 address inside IPv4-mapped, NAT64 and 6to4 forms.
func IsPublic(a netip.Addr) bool {
	if !a.IsValid() || a.Zone() != "" {
		return false
	}
	a = a.Unmap()
	if a.Is6() {
		b := a.As16()
		switch {
		case nat64.Contains(a):
			return IsPublic(netip.AddrFrom4([4]byte(b[12:16])))
		case sixToIP.Contains(a):
			return IsPublic(netip.AddrFrom4([4]byte(b[2:6])))
		case !globalUnicast.Contains(a):
			return false
		}
	}
	for _, p := range notPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// checkDialed is the last line: the address the socket is about to connect to, after every
// resolution the layers above made, whatever they were.
func checkDialed(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("cannot read the address %q being connected", address)
	}
	if !IsPublic(ap.Addr()) {
		return &RefusedError{Addr: ap.Addr().Unmap()}
	}
	return nil
}

// targetDialer resolves a delivery's host itself and connects only to public addresses.
// Every connection the delivery client opens goes through it, on every hop, so neither a
// name that resolves to a private address, nor an IP literal spelled in a way the URL rules
// missed, nor a proxy reaches one.
type targetDialer struct {
	resolver Resolver
	dial     DialFunc
	insecure bool
}

func newTargetDialer(cfg Config) *targetDialer {
	d := &targetDialer{resolver: cfg.Resolver, dial: cfg.Dial, insecure: cfg.AllowInsecure}
	if d.resolver == nil {
		d.resolver = net.DefaultResolver
	}
	if d.dial == nil {
		nd := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
		if !cfg.AllowInsecure {
			nd.Control = checkDialed
		}
		d.dial = nd.DialContext
	}
	return d
}

// DialContext resolves host, refuses the target when any of its addresses is not public
// (a name that mixes public and private addresses is a rebinding attempt, not a receiver),
// and tries the addresses in turn.
func (d *targetDialer) DialContext(ctx context.Context, network, hostport string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else if addrs, err = d.resolver.LookupNetIP(ctx, "ip", host); err != nil {
		return nil, err
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("%s has no address", host)
	}
	if !d.insecure {
		for _, a := range addrs {
			if !IsPublic(a) {
				return nil, &RefusedError{Host: host, Addr: a.Unmap()}
			}
		}
	}
	var errs []error
	for _, a := range addrs {
		c, err := d.dial(ctx, network, net.JoinHostPort(a.Unmap().String(), port))
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}

// newClient is the delivery client: no proxy (it would be the one connecting), no
// redirects followed, every connection through the target dialer.
func newClient(cfg Config) *http.Client {
	tr := &http.Transport{
		DialContext:         newTargetDialer(cfg).DialContext,
		TLSClientConfig:     &tls.Config{RootCAs: cfg.RootCAs, MinVersion: tls.VersionTLS12},
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: 16,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
	}
	return &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
