package rest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"ponte/model"
)

// idempotencyBodyLimit bounds what the middleware reads to hash a body. A larger body is
// passed on unrecorded: the endpoint refuses it as too large, creating nothing.
const idempotencyBodyLimit = 1 << 20

// idempotencyExempt are POSTs the Idempotency-Key does not cover: /auth creates nothing and
// needs no credential, /graphql is a protocol of its own, and the HTML pages are browser
// forms, which send no key and have their own once-only rules.
func idempotencyExempt(path string) bool {
	switch path {
	case "/auth", "/graphql":
		return true
	}
	for _, prefix := range []string{"/graphiql", "/sandbox/", "/payments/pay/", "/payments/consent/", "/smart-transfers/consent/", "/payments/bulk-consent/"} {
		if strings.HasPrefix(path, prefix) {
			return true
		}
	}
	return false
}

// idempotency honours the Idempotency-Key header on every authenticated POST but the
// exempt ones: every such POST creates or changes something (a resource, a rotation, a
// redelivery, a cancellation), so a retry must not do it twice. The first answer is kept
// and replayed; a 5xx or 429 is not kept, so the client can retry.
func (s *Server) idempotency(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		keys := r.Header.Values("Idempotency-Key")
		if r.Method != http.MethodPost || len(keys) == 0 || idempotencyExempt(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, idempotencyBodyLimit+1))
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				s.writeError(w, r, model.Fail(model.CodeBodyTooLarge, "The request body exceeds %d bytes.", tooBig.Limit))
				return
			}
			s.writeError(w, r, model.Fail(model.CodeMalformedJSON, "Could not read the request body."))
			return
		}
		if len(body) > idempotencyBodyLimit {
			r.Body = struct {
				io.Reader
				io.Closer
			}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
			next.ServeHTTP(w, r)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))

		claim, err := s.keys.Claim(r.Context(), keys, requestFingerprint(r, body))
		if claim == nil && err == nil {
			// No valid credential: the endpoint answers that, and nothing is recorded.
			next.ServeHTTP(w, r)
			return
		}
		if err != nil {
			if e, _ := model.AsError(err); e.Code == model.CodeIdempotencyKeyInUse {
				w.Header().Set("Retry-After", "1")
			}
			s.writeError(w, r, err)
			return
		}
		if resp := claim.Replay; resp != nil {
			if resp.ContentType != "" {
				w.Header().Set("Content-Type", resp.ContentType)
			}
			w.Header().Set("Idempotent-Replayed", "true")
			w.WriteHeader(resp.Status)
			_, _ = w.Write(resp.Body)
			return
		}

		rec := &capturingWriter{ResponseWriter: w}
		// The answer is kept or the key released even when the client has gone away, and
		// a panic releases the key before the recoverer answers 500.
		done := func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.WithoutCancel(r.Context()), 5*time.Second)
		}
		defer func() {
			if p := recover(); p != nil {
				ctx, cancel := done()
				if err := claim.Release(ctx); err != nil {
					s.log.WarnContext(r.Context(), "release idempotency key", "err", err)
				}
				cancel()
				panic(p)
			}
		}()
		next.ServeHTTP(rec, r)

		ctx, cancel := done()
		defer cancel()
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		if status >= 500 || status == http.StatusTooManyRequests {
			err = claim.Release(ctx)
		} else {
			err = claim.Keep(ctx, status, rec.Header().Get("Content-Type"), rec.body.Bytes())
		}
		if err != nil {
			// The claim then stays until it is stale, and duplicates get 409 until then.
			s.log.WarnContext(r.Context(), "record idempotency key", "status", status, "err", err)
		}
	})
}

// requestFingerprint hashes what makes two requests "the same": method, path, query and
// body, byte for byte.
func requestFingerprint(r *http.Request, body []byte) []byte {
	h := sha256.New()
	for _, part := range []string{r.Method, r.URL.EscapedPath(), r.URL.RawQuery} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	h.Write(body)
	return h.Sum(nil)
}

// capturingWriter copies the status and body it passes on, to keep them for replay.
type capturingWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (c *capturingWriter) WriteHeader(code int) {
	if c.status == 0 {
		c.status = code
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *capturingWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	c.body.Write(b)
	return c.ResponseWriter.Write(b)
}

func (c *capturingWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }
