package rest

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

// Whatever a handler does to the framing headers, the answer denies framing with exactly
// one X-Frame-Options value and one policy ending in frame-ancestors 'none'.
func TestSecurityHeadersFraming(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		handler func(w http.ResponseWriter)
		policy  string
	}{
		{"writes nothing", func(http.ResponseWriter) {}, noFraming},
		{"writes a body", func(w http.ResponseWriter) { _, _ = w.Write([]byte("{}")) }, noFraming},
		{"its own policy", func(w http.ResponseWriter) {
			w.Header().Set("Content-Security-Policy", "default-src 'self'")
			w.WriteHeader(http.StatusOK)
		}, "default-src 'self'; " + noFraming},
		{"a policy that allows framing", func(w http.ResponseWriter) {
			w.Header().Set("Content-Security-Policy", "frame-ancestors *; img-src data:")
			w.WriteHeader(http.StatusOK)
		}, "img-src data:; " + noFraming},
		{"a second policy added", func(w http.ResponseWriter) {
			w.Header().Add("Content-Security-Policy", "frame-ancestors *")
			w.WriteHeader(http.StatusOK)
		}, noFraming},
		{"framing from the same origin", func(w http.ResponseWriter) {
			w.Header().Set("X-Frame-Options", "SAMEORIGIN")
			w.WriteHeader(http.StatusOK)
		}, noFraming},
		{"a second X-Frame-Options added", func(w http.ResponseWriter) {
			w.Header().Add("X-Frame-Options", "SAMEORIGIN")
			_, _ = w.Write([]byte("{}"))
		}, noFraming},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rec := httptest.NewRecorder()
			securityHeaders(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { c.handler(w) })).
				ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
			h := rec.Result().Header
			if got := h.Values("X-Frame-Options"); !slices.Equal(got, []string{"DENY"}) {
				t.Errorf("X-Frame-Options %q, want only DENY", got)
			}
			if got := h.Values("Content-Security-Policy"); !slices.Equal(got, []string{c.policy}) {
				t.Errorf("Content-Security-Policy %q, want only %q", got, c.policy)
			}
		})
	}
}

// The values securityHeaders shares between answers stay as they are whatever a handler
// does to its own answer's copies.
func TestSecurityHeadersShared(t *testing.T) {
	t.Parallel()
	handlers := []func(h http.Header){
		func(h http.Header) { h.Add("Cache-Control", "private"); h.Add("X-Content-Type-Options", "x") },
		func(h http.Header) { h["Cache-Control"] = append(h["Cache-Control"], "private") },
		func(h http.Header) { h.Set("Cache-Control", "max-age=60"); h.Del("X-Content-Type-Options") },
	}
	for _, change := range handlers {
		securityHeaders(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { change(w.Header()) })).
			ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	}
	rec := httptest.NewRecorder()
	securityHeaders(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {})).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	h := rec.Result().Header
	for key, want := range map[string]string{"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"} {
		if got := h.Values(key); !slices.Equal(got, []string{want}) {
			t.Errorf("%s %q after handlers changed theirs, want only %q", key, got, want)
		}
	}
}
