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

// The answer's one wrapper keeps the final status for the log line and gives a 503 a
// Retry-After unless its handler chose one, and flushes reach the connection.
func TestAnswerWriter(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		handler    func(w http.ResponseWriter)
		status     int
		retryAfter string
		flushed    bool
	}{
		{"writes nothing", func(http.ResponseWriter) {}, 200, "", false},
		{"writes a body", func(w http.ResponseWriter) { _, _ = w.Write([]byte("{}")) }, 200, "", false},
		{"a status", func(w http.ResponseWriter) { w.WriteHeader(http.StatusNotFound) }, 404, "", false},
		{"an informational answer first", func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusEarlyHints)
			w.WriteHeader(http.StatusCreated)
		}, 201, "", false},
		{"a second status, which net/http ignores", func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusBadRequest)
			w.WriteHeader(http.StatusOK)
		}, 400, "", false},
		{"a 503", func(w http.ResponseWriter) { w.WriteHeader(http.StatusServiceUnavailable) }, 503, retryAfterUnavailable, false},
		{"a 503 with its own Retry-After", func(w http.ResponseWriter) {
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(http.StatusServiceUnavailable)
		}, 503, "30", false},
		{"a 429 keeps none", func(w http.ResponseWriter) { w.WriteHeader(http.StatusTooManyRequests) }, 429, "", false},
		{"flushes", func(w http.ResponseWriter) {
			_, _ = w.Write([]byte("{"))
			w.(http.Flusher).Flush()
		}, 200, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rec := httptest.NewRecorder()
			var status int
			securityHeaders(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				a := answerOf(w)
				c.handler(a)
				status = a.Status()
			})).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
			if status != c.status {
				t.Errorf("status %d, want %d", status, c.status)
			}
			if got := rec.Result().Header.Get("Retry-After"); got != c.retryAfter {
				t.Errorf("Retry-After %q, want %q", got, c.retryAfter)
			}
			if rec.Flushed != c.flushed {
				t.Errorf("flushed %v, want %v", rec.Flushed, c.flushed)
			}
		})
	}
}
