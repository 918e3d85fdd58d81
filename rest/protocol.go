package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"io"
	"log/slog"
	"math"
	"mime"
	"net"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"ponte/auth"
	"ponte/metrics"
	"ponte/model"
)

// maxBody bounds request bodies; the largest legitimate one is an encrypted credential set.
const maxBody = 1 << 20

// jsonContentType is every JSON answer's Content-Type, shared as securityHeaders' values are.
var jsonContentType = []string{"application/json; charset=utf-8"}

func (s *Server) writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header()["Content-Type"] = jsonContentType
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// writeRawPage answers a cursor envelope whose documents are finished JSON from the store:
// they are copied as they are, where encoding/json would scan every byte again.
func (s *Server) writeRawPage(w http.ResponseWriter, docs []model.JSONDocument, next *string) {
	var nb bytes.Buffer
	enc := json.NewEncoder(&nb)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(next)
	s.writeRaw(w, []byte(`{"results":[`), docs, `],"next":`+string(bytes.TrimSpace(nb.Bytes()))+"}\n")
}

// rawBuffers are writeRaw's: an answer is assembled whole so that its Content-Length goes
// first, and a new buffer per answer was a third of the bytes GET /accounts allocated.
// Buffers past rawBufferKept go back to the collector, so one large page does not stay
// held.
var rawBuffers = sync.Pool{New: func() any { return new([]byte) }}

const rawBufferKept = 64 << 10

// rawBuffer takes an empty buffer from rawBuffers.
func rawBuffer() *[]byte {
	b := rawBuffers.Get().(*[]byte)
	*b = (*b)[:0]
	return b
}

// releaseRawBuffer gives b back to rawBuffers, without its array when that grew past
// rawBufferKept. Nothing may read what b held afterwards.
func releaseRawBuffer(b *[]byte) {
	if cap(*b) > rawBufferKept {
		*b = nil
	}
	rawBuffers.Put(b)
}

// writeRawList answers a page-number envelope around finished documents. The envelope is
// written into a buffer on the stack: concatenating it as a string was an allocation (and
// fmt.Sprintf a microsecond) of every GET /accounts.
func (s *Server) writeRawList(w http.ResponseWriter, pg *model.DocumentPage) {
	var b [96]byte
	head := append(b[:0], `{"total":`...)
	head = strconv.AppendInt(head, int64(pg.Total), 10)
	head = append(head, `,"totalPages":`...)
	head = strconv.AppendInt(head, int64(pg.TotalPages), 10)
	head = append(head, `,"page":`...)
	head = strconv.AppendInt(head, int64(pg.Page), 10)
	head = append(head, `,"results":[`...)
	s.writeRaw(w, head, pg.Documents, "]}\n")
}

// writeRaw answers 200 with head, the documents separated by commas, and tail.
func (s *Server) writeRaw(w http.ResponseWriter, head []byte, docs []model.JSONDocument, tail string) {
	size := len(head) + len(tail)
	for _, d := range docs {
		size += len(d) + 1
	}
	kept := rawBuffer()
	buf := slices.Grow(*kept, size)
	defer func() {
		*kept = buf
		releaseRawBuffer(kept)
	}()
	buf = append(buf, head...)
	for i, d := range docs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, d...)
	}
	buf = append(buf, tail...)
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.Itoa(len(buf))}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf)
}

// ok answers a successful call. Mutations answer 200 too: the official client treats any
// other status as a failure.
func (s *Server) ok(w http.ResponseWriter, v any) { s.writeJSON(w, http.StatusOK, v) }

// writeError renders any error as the documented body; internal causes are logged under the
// request's id, never sent. Every 5xx (an internal failure, the database away, migrations
// pending) gives the client the request id to quote, in the message and data.requestId.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e, internal := model.AsError(err)
	if internal {
		s.log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	body := e.Body()
	if id := model.RequestID(r.Context()); id != "" && e.Status() >= http.StatusInternalServerError {
		body.Message += " Request id: " + id + "."
		if body.Data == nil {
			body.Data = map[string]string{"requestId": id}
		}
	}
	s.writeJSON(w, e.Status(), body)
}

// decode reads a JSON body into dst. An empty body leaves dst as it is, for endpoints
// whose body is optional; unknown fields are ignored (section 9).
func decode(r *http.Request, dst any) error {
	body, read := []byte(nil), false
	if cb, ok := r.Body.(*checkedBody); ok {
		body, read = cb.unread()
	}
	if !read {
		var err error
		if body, err = io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBody)); err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return model.Fail(model.CodeBodyTooLarge, "The request body exceeds %d bytes.", maxBody)
			}
			return model.Fail(model.CodeMalformedJSON, "Could not read the request body.")
		}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, dst); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			what := "The request body"
			if typeErr.Field != "" {
				what = "Field " + typeErr.Field
			}
			kind := typeErr.Type.Kind().String()
			if num, ok := strings.CutPrefix(typeErr.Value, "number "); ok {
				// A number that does not fit: an integer with a fraction, an exponent or
				// too many digits, or a float beyond float64.
				if kind == "float64" {
					return model.Fail(model.CodeInvalidParameter, "%s must be a finite number (got %.40s).", what, num)
				}
				return model.Fail(model.CodeInvalidParameter, "%s must be an integer written in digits, at most %d (got %.40s).", what, math.MaxInt64, num)
			}
			return model.Fail(model.CodeInvalidParameter, "%s must be %s, not %s.", what, jsonKind(kind), typeErr.Value)
		}
		return model.Fail(model.CodeMalformedJSON, "The request body is not valid JSON: %s.", err.Error())
	}
	return nil
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "int", "int64":
		return "an integer"
	case "float64":
		return "a number"
	case "map", "struct":
		return "an object"
	case "slice":
		return "an array"
	}
	return goKind
}

// recoverer turns a panic into a logged 500 with the documented body.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.ErrorContext(r.Context(), "panic", "panic", p, "stack", string(debug.Stack()))
				s.writeError(w, r, fmt.Errorf("panic: %v", p))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// logRequests logs method, path, status and duration; never bodies or headers, which
// carry credentials.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := answerOf(w)
		next.ServeHTTP(rec, r)
		took := time.Since(start)
		// The route's pattern, never the path: ids would make a series per resource.
		route := "unmatched"
		if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
			route = rc.RoutePattern()
		}
		// With tracing on, the request's span (started around the router, where the route is
		// not yet known) is named by the route as well.
		if span := trace.SpanFromContext(r.Context()); span.IsRecording() {
			span.SetName(r.Method + " " + route)
			span.SetAttributes(attribute.String("http.route", route))
		}
		metrics.ObserveRequest(route, r.Method, rec.Status(), took)
		if s.log.Enabled(r.Context(), slog.LevelDebug) { // the arguments alone cost allocations
			s.log.DebugContext(r.Context(), "request", "method", r.Method, "path", r.URL.Path, "status", rec.Status(), "ms", took.Milliseconds())
		}
	})
}

// negotiate answers 406 when the Accept header rules out JSON. The HTML pages (GraphiQL and
// the sandbox institutions' consent pages) are exempt.
func (s *Server) negotiate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/graphiql") || strings.HasPrefix(r.URL.Path, "/sandbox/") || acceptsJSON(r.Header.Values("Accept")) {
			next.ServeHTTP(w, r)
			return
		}
		s.writeError(w, r, model.Fail(model.CodeNotAcceptable, "This service only answers application/json; the Accept header rules it out."))
	})
}

func acceptsJSON(values []string) bool {
	if len(values) == 0 {
		return true
	}
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil {
				continue
			}
			if q, ok := params["q"]; ok {
				if f, err := strconv.ParseFloat(q, 64); err == nil && f == 0 {
					continue
				}
			}
			switch mt {
			case "*/*", "application/*", "application/json", "application/graphql-response+json":
				return true
			}
		}
	}
	return false
}

// authenticate checks the X-API-KEY credential, when one is sent, and records the result
// for auth.Require. Endpoints that need no credential never look at it.
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimSpace(r.Header.Get("X-Api-Key")) // canonical: Get would allocate the canonical form per request
		if key == "" {
			next.ServeHTTP(w, r)
			return
		}
		p, err := s.auth.Verify(r.Context(), key)
		if err != nil {
			if _, internal := model.AsError(err); internal {
				s.writeError(w, r, err)
				return
			}
		}
		scopeOf(r).cred = auth.Result{Principal: p, Err: err}
		next.ServeHTTP(w, r)
	})
}

// rateLimit applies one limit group of section 8, counted per client IP. The 429 body has
// only code and message (section 7.1).
func (s *Server) rateLimit(group string) func(http.Handler) http.Handler {
	// The headers' values are shared (see headers.go): the group's limit, which every
	// Decision of the group carries, is written once, and every Reset is a number of
	// seconds up to 60.
	limitValue := []string{strconv.Itoa(s.limit.Limit(group))}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ip, _, err := net.SplitHostPort(r.RemoteAddr)
			if err != nil {
				ip = r.RemoteAddr
			}
			d := s.limit.Allow(r.Context(), group, ip)
			if d.Limit > 0 {
				h := w.Header()
				h["Ratelimit-Limit"] = limitValue
				h["Ratelimit-Reset"] = secondsValue(d.Reset)
			}
			if !d.Allowed {
				metrics.RateLimited.WithLabelValues(group).Inc()
				w.Header().Set("Retry-After", "60")
				s.writeJSON(w, http.StatusTooManyRequests, model.ErrorBody{Code: http.StatusTooManyRequests,
					Message: fmt.Sprintf("Too many requests: this endpoint allows %d per minute. Retry after the number of seconds in the Retry-After header.", d.Limit)})
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}
