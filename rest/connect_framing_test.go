package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"ponte/testsupport"
)

// The Connect page may be framed by the operator's browser origins and by the origin a
// Connect Token given in the query string names; every other page, and the page for
// anyone else, keeps frame-ancestors 'none' and X-Frame-Options: DENY.
func TestConnectFraming(t *testing.T) {
	t.Parallel()
	const operator, other = "https://app.example.com", "https://shop.example.org"
	env := testsupport.New(t, func(s *testsupport.Setup) { s.REST.BrowserOrigins = []string{operator} })
	c := env.NewClient(t, "framing")
	tokenFor := func(origin string) string {
		body := map[string]any{}
		if origin != "" {
			body["options"] = map[string]any{"targetOrigin": origin}
		}
		return env.Do(t, "POST", "/connect_token", c.APIKey, body).Want(200).String("accessToken")
	}
	html := map[string]string{"Accept": "text/html,*/*;q=0.8"}
	page := func(query string) http.Header {
		return env.DoHeaders(t, "GET", "/connect"+query, "", nil, html).Want(200).Header
	}
	ancestors := func(h http.Header) string {
		csp := h.Values("Content-Security-Policy")
		if len(csp) != 1 {
			t.Fatalf("policies %q", csp)
		}
		if !strings.Contains(csp[0], "script-src 'self';") || strings.Count(csp[0], "frame-ancestors") != 1 {
			t.Fatalf("policy %q", csp[0])
		}
		_, fa, _ := strings.Cut(csp[0], "frame-ancestors ")
		return fa
	}
	for _, tc := range []struct {
		name, query, want string
	}{
		{"no token", "", operator},
		{"token naming another origin", "?connect_token=" + tokenFor(other), operator + " " + other},
		{"token naming the operator's origin", "?connect_token=" + tokenFor(operator+"/"), operator},
		{"token naming no origin", "?connect_token=" + tokenFor(""), operator},
		{"a forged token", "?connect_token=eyJhbGciOiJIUzI1NiJ9.e30.x", operator},
		{"an API key is no Connect Token", "?connect_token=" + c.APIKey, operator},
	} {
		h := page(tc.query)
		if got := ancestors(h); got != tc.want {
			t.Errorf("%s: frame-ancestors %q, want %q", tc.name, got, tc.want)
		}
		if xfo := h.Values("X-Frame-Options"); len(xfo) != 0 {
			t.Errorf("%s: X-Frame-Options %q on a frameable page", tc.name, xfo)
		}
	}
	// The page's assets and every other answer stay unframeable.
	for _, path := range []string{"/connect/assets/connect.js", "/healthz", "/connectors"} {
		h := env.Do(t, "GET", path, "", nil).Header
		if got := h.Get("Content-Security-Policy"); !strings.HasSuffix(got, "frame-ancestors 'none'") || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: policy %q, X-Frame-Options %q", path, got, h.Get("X-Frame-Options"))
		}
	}

	// Without operator origins, only a query-string token's origin frames the page.
	bare := testsupport.New(t)
	bc := bare.NewClient(t, "framing")
	tok := bare.Do(t, "POST", "/connect_token", bc.APIKey, map[string]any{"options": map[string]any{"targetOrigin": other}}).Want(200).String("accessToken")
	if got := ancestors(bare.DoHeaders(t, "GET", "/connect?connect_token="+tok, "", nil, html).Want(200).Header); got != other {
		t.Errorf("token only: frame-ancestors %q", got)
	}
	h := bare.DoHeaders(t, "GET", "/connect", "", nil, html).Want(200).Header
	if got := ancestors(h); got != "'none'" || h.Get("X-Frame-Options") != "DENY" {
		t.Errorf("nothing allowed: frame-ancestors %q, X-Frame-Options %q", got, h.Get("X-Frame-Options"))
	}
}
