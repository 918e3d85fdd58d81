package rest

import (
	"net/http"
	"strconv"
	"strings"
)

// hstsValue asks browsers to use HTTPS only, for a year, once they reached the service over
// TLS. Subdomains are left out: the service does not know what else runs under its domain.
const hstsValue = "max-age=31536000"

// noFraming is the policy directive no page of the service goes without.
const noFraming = "frame-ancestors 'none'"

// The values securityHeaders gives every answer, shared rather than allocated per request
// (Header.Set makes a slice each time). Sharing is safe: each has length and capacity one,
// so a handler's Add appends to a copy, and Set and Del replace or drop the slice.
var (
	nosniffValue   = []string{"nosniff"}
	noStoreValue   = []string{"no-store"}
	denyValue      = []string{"DENY"}
	hstsValues     = []string{hstsValue}
	noFramingValue = []string{noFraming}
)

// resetValues are RateLimit-Reset's values, 0 to 60 seconds, shared as the values above.
var resetValues = func() (v [61][]string) {
	for i := range v {
		v[i] = []string{strconv.Itoa(i)}
	}
	return v
}()

// secondsValue is the header value of n seconds, shared when it is one of resetValues.
func secondsValue(n int) []string {
	if n >= 0 && n < len(resetValues) {
		return resetValues[n]
	}
	return []string{strconv.Itoa(n)}
}

// securityHeaders sets, on every answer of every surface:
//   - X-Content-Type-Options: nosniff, so a browser never runs a JSON body as script;
//   - Cache-Control: no-store unless the handler chose otherwise (GraphiQL's assets): the
//     answers carry API keys (/auth, /connect_token, GraphQL mutations), signing secrets
//     and people's financial data, none of which belongs in a shared or disk cache;
//   - Strict-Transport-Security when the request came over TLS;
//   - X-Frame-Options: DENY and a Content-Security-Policy whose frame-ancestors is 'none'
//     (added to the handler's own policy when it sets one), so no page of the service can be
//     framed for clickjacking: the consent and authorisation pages take decisions on a click;
//   - Retry-After on a 503 whose handler set none (see databaseGate).
//
// It hands the handlers the answer's one wrapper, which logRequests reads the status from.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["X-Content-Type-Options"] = nosniffValue
		h["Cache-Control"] = noStoreValue
		h["X-Frame-Options"] = denyValue
		if r.TLS != nil {
			h["Strict-Transport-Security"] = hstsValues
		}
		h["Content-Security-Policy"] = noFramingValue
		a := &answerWriter{ResponseWriter: w}
		next.ServeHTTP(a, r)
		a.guard() // a handler that wrote nothing: the header goes out after this
	})
}

// answerWriter is the one wrapper around every answer: it fixes the framing headers and a
// 503's Retry-After just before the header is sent, after the handler set its own, and
// keeps the status for the log line and the metrics. One wrapper, where there were three
// (one per middleware): each was an allocation per request and a call on every write.
type answerWriter struct {
	http.ResponseWriter
	status int // the final status written, 0 until then
	sent   bool
	// framers are the origins allowed to frame this answer (allowFraming); none: 'none'.
	framers []string
}

// allowFraming lets the answer on w be framed by exactly origins (the Connect page inside
// an application's widget), in place of frame-ancestors 'none' and X-Frame-Options: DENY.
// No origins leaves the answer unframeable.
func allowFraming(w http.ResponseWriter, origins []string) {
	for {
		switch x := w.(type) {
		case *answerWriter:
			x.framers = origins
			return
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return
		}
	}
}

// Status is the answer's status: 200 when the handler wrote none, as net/http sends.
func (a *answerWriter) Status() int {
	if a.status == 0 {
		return http.StatusOK
	}
	return a.status
}

// answerOf returns w's answerWriter, wrapping w in one when securityHeaders did not.
func answerOf(w http.ResponseWriter) *answerWriter {
	if a, ok := w.(*answerWriter); ok {
		return a
	}
	return &answerWriter{ResponseWriter: w}
}

func (a *answerWriter) guard() {
	if a.sent {
		return
	}
	a.sent = true
	h := a.Header()
	if len(a.framers) > 0 {
		// X-Frame-Options has no allow-list: browsers that know frame-ancestors ignore it
		// anyway, and DENY would stop the rest.
		h.Del("X-Frame-Options")
		h.Set("Content-Security-Policy", withFraming(h.Get("Content-Security-Policy"), a.framers))
		return
	}
	// Most handlers leave both as securityHeaders set them; rewriting them anyway cost two
	// allocations and a split of the policy on every answer. Only a single value that is
	// already right is left: a second X-Frame-Options value makes browsers ignore both.
	if !only(h, "Content-Security-Policy", noFraming) {
		h.Set("Content-Security-Policy", withoutFraming(h.Get("Content-Security-Policy")))
	}
	if !only(h, "X-Frame-Options", "DENY") {
		h.Set("X-Frame-Options", "DENY")
	}
	if a.status == http.StatusServiceUnavailable && h.Get("Retry-After") == "" {
		h.Set("Retry-After", retryAfterUnavailable)
	}
}

// only reports whether h holds exactly one value for the (canonical) key, and it is v.
func only(h http.Header, key, v string) bool {
	vs := h[key]
	return len(vs) == 1 && vs[0] == v
}

func (a *answerWriter) WriteHeader(code int) {
	if a.status < 200 { // informational answers (1xx) come before the final one
		a.status = code
	}
	a.guard()
	a.ResponseWriter.WriteHeader(code)
}

func (a *answerWriter) Write(b []byte) (int, error) {
	a.guard()
	return a.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (flushes, deadlines).
func (a *answerWriter) Unwrap() http.ResponseWriter { return a.ResponseWriter }

// Flush serves handlers that look for http.Flusher rather than use a ResponseController.
func (a *answerWriter) Flush() {
	a.guard()
	_ = http.NewResponseController(a.ResponseWriter).Flush()
}

// withoutFraming returns policy with its frame-ancestors directive, if any, replaced by
// frame-ancestors 'none'.
func withoutFraming(policy string) string {
	return withFraming(policy, nil)
}

// withFraming returns policy with its frame-ancestors directive, if any, replaced by one
// naming origins ('none' when there are none).
func withFraming(policy string, origins []string) string {
	ancestors := noFraming
	if len(origins) > 0 {
		ancestors = "frame-ancestors " + strings.Join(origins, " ")
	}
	var kept []string
	for _, d := range strings.Split(policy, ";") {
		d = strings.TrimSpace(d)
		name, _, _ := strings.Cut(d, " ")
		if d == "" || strings.EqualFold(name, "frame-ancestors") {
			continue
		}
		kept = append(kept, d)
	}
	return strings.Join(append(kept, ancestors), "; ")
}
