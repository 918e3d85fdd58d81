package model

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckEventURL(t *testing.T) {
	t.Parallel()
	cases := []struct {
		url  string
		says string // "" accepts
	}{
		{"https://hooks.example.com/ponte", ""},
		{"https://hooks.example.com:8443/x?a=1", ""},
		{"https://HOOKS.Example.COM./x", ""},
		{"https://pão.com.br/x", ""},
		{"https://1password.com/x", ""},
		{"https://0x.example.com/x", ""},
		{"https://api.v2.example/x", ""},
		{"http://hooks.example.com/x", "https"},
		{"http://localhost:3000/hooks", "PONTE_ALLOW_INSECURE_WEBHOOKS=1"}, // a developer's receiver: the refusal names the switch
		{"https://u:p@hooks.example.com/x", "password"},
		{"hooks", "absolute"},
		{"ftp://hooks.example.com/x", "absolute"},
		{"https://localhost/x", "PONTE_ALLOW_INSECURE_WEBHOOKS=1"},
		{"https://LOCALHOST./x", "localhost"},
		{"https://api.localhost/x", "localhost"},
		{"https://printer.local/x", ".local"},
		{"https://metadata.google.internal/x", ".internal"},
		{"https://nas.home.arpa/x", ".home.arpa"},
		{"https://intranet/x", "domain"},
		// Every spelling of an IPv4 address that inet_aton or a browser would read.
		{"https://127.0.0.1/x", "IP address"},
		{"https://127.1:8443/x", "IP address"},
		{"https://10.1/x", "IP address"},
		{"https://0177.0.0.1/x", "IP address"},
		{"https://0x7f.1/x", "IP address"},
		{"https://0x7f000001/x", "IP address"},
		{"https://0X7F.0.0.1/x", "IP address"},
		{"https://2130706433/x", "IP address"},
		{"https://017700000001/x", "IP address"},
		{"https://169.254.169.254/latest/meta-data", "IP address"},
		{"https://8.8.8.8/x", "IP address"},
		{"https://127.0.0.1./x", "IP address"},
		{"https://１２７.０.０.１/x", "IP address"},
		{"https://127。0。0。1/x", "IP address"},
		{"https://a.b.c.1/x", "IP address"},
		// IPv6 in brackets, mapped, compatible, with a zone.
		{"https://[::1]/x", "IP address"},
		{"https://[::ffff:127.0.0.1]/x", "IP address"},
		{"https://[::ffff:7f00:1]:8443/x", "IP address"},
		{"https://[::127.0.0.1]/x", "IP address"},
		{"https://[fe80::1%25eth0]/x", "IP address"},
		{"https://[2606:4700::1111]/x", "IP address"},
	}
	for _, c := range cases {
		err := CheckEventURL("url", c.url, false)
		if c.says == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", c.url, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Status() != 400 || e.Code.String() != CodeInvalidParameter.String() || !strings.Contains(e.Message, c.says) {
			t.Errorf("%s: got %v, want a 400 saying %q", c.url, err, c.says)
		}
	}
}

// The development switch lifts the rules on the host and scheme, never the shape.
func TestCheckEventURLInsecure(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"http://127.0.0.1:9/x", "http://localhost:9/x", "https://127.1/x", "http://[::1]:9/x", "http://printer.local/x"} {
		if err := CheckEventURL("url", u, true); err != nil {
			t.Errorf("%s refused with the switch on: %v", u, err)
		}
	}
	for _, u := range []string{"http://u:p@localhost:9/x", "localhost:9", "file:///etc/passwd"} {
		if err := CheckEventURL("url", u, true); err == nil {
			t.Errorf("%s accepted with the switch on", u)
		}
	}
}

// A redirect URI may be plain HTTP and name any host (the application's own machine
// included), but it must be absolute and must not hide its host behind user:password.
func TestCheckRedirectURL(t *testing.T) {
	t.Parallel()
	cases := []struct {
		url  string
		says string // "" accepts
	}{
		{"https://app.example.com/cb", ""},
		{"http://localhost:3000/cb?x=1", ""},
		{"http://127.0.0.1:3000/cb", ""},
		{"https://app.example.com", ""},
		{"https://bank.example@evil.example/cb", "user name or password"},
		{"https://u:p@app.example.com/cb", "user name or password"},
		{"", "absolute http or https"},
		{"/cb", "absolute http or https"},
		{"app.example.com/cb", "absolute http or https"},
		{"javascript:alert(1)", "absolute http or https"},
		{"ftp://app.example.com/cb", "absolute http or https"},
		{"http:opaque", "absolute http or https"},
		{"https://", "absolute http or https"},
		{"https://app.example.com/%zz", "absolute http or https"},
	}
	for _, c := range cases {
		err := CheckRedirectURL("oauthRedirectUri", c.url)
		if c.says == "" {
			if err != nil {
				t.Errorf("%q: refused: %v", c.url, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Status() != 400 || e.Code.String() != CodeInvalidParameter.String() ||
			!strings.Contains(e.Message, c.says) || !strings.HasPrefix(e.Message, "oauthRedirectUri ") {
			t.Errorf("%q: got %v, want a 400 naming the field and saying %q", c.url, err, c.says)
		}
	}
}

// Every rule on a URL takes a port from 1 to 65535, or none: url.Parse takes any digits, and
// none, after the colon, and a URL stored with port 0 or 99999 fails only when it is used.
func TestURLPorts(t *testing.T) {
	t.Parallel()
	rules := map[string]func(v string) error{
		"CheckRedirectURL": func(v string) error { return CheckRedirectURL("callbackUrls.success", v) },
		"CheckEventURL":    func(v string) error { return CheckEventURL("url", v, false) },
		"CheckEventURL with the development switch": func(v string) error {
			return CheckEventURL("url", strings.Replace(v, "hooks.example.com", "127.0.0.1", 1), true)
		},
		"Origin": func(v string) error {
			_, err := checkOrigin("options.targetOrigin", strings.TrimSuffix(v, "/x"))
			return err
		},
	}
	cases := []struct {
		url  string
		good bool
	}{
		{"https://hooks.example.com/x", true},
		{"https://hooks.example.com:1/x", true},
		{"https://hooks.example.com:443/x", true},
		{"https://hooks.example.com:65535/x", true},
		{"https://hooks.example.com:0/x", false},
		{"https://hooks.example.com:00/x", false},
		{"https://hooks.example.com:65536/x", false},
		{"https://hooks.example.com:99999/x", false},
		{"https://hooks.example.com:99999999999999999999/x", false},
		{"https://hooks.example.com:/x", false},
		{"https://[::1]:0/x", false},
		{"https://[::1]:/x", false},
	}
	for name, rule := range rules {
		for _, c := range cases {
			err := rule(c.url)
			if c.good {
				if err != nil {
					t.Errorf("%s(%s): refused: %v", name, c.url, err)
				}
				continue
			}
			var e *Error
			if !errors.As(err, &e) || e.Status() != 400 || e.Code.String() != CodeInvalidParameter.String() || !strings.Contains(e.Message, "1 to 65535") {
				t.Errorf("%s(%s): got %v, want a 400 saying a port is from 1 to 65535", name, c.url, err)
			}
		}
	}
	// An IPv6 address's colons are not a port.
	for _, v := range []string{"http://[::1]/x", "http://[::1]:8080/x", "http://[fe80::1%25eth0]:1/x"} {
		if err := CheckRedirectURL("callbackUrls.success", v); err != nil {
			t.Errorf("%s: refused: %v", v, err)
		}
	}
}
