package rest

import (
	"net/http"
	"sync"
)

// routeReads fills the request's model.ReadRoute: a GET of the REST surface is read-only,
// and so is a GraphQL query (graph marks it, since only the parsed operation says); the
// store may then send its pure reads to the read replica. When a replica is configured,
// any other request of an authenticated caller records, before its answer leaves, the
// primary's position after its writes (pins), so the caller's next reads, on any instance,
// see them.
func (s *Server) routeReads(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sc := scopeOf(r)
		if p := sc.cred.Principal; p != nil {
			sc.reads.Client = p.ClientID
		}
		readOnly := (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.URL.Path != "/graphql"
		sc.reads.ReadOnly = readOnly
		if s.pins == nil || readOnly || sc.cred.Principal == nil {
			next.ServeHTTP(w, r)
			return
		}
		pw := &pinningWriter{ResponseWriter: w}
		pw.pin = func() {
			if sc.reads.ReadOnly {
				return
			}
			if err := s.pins(r.Context(), sc.reads.Client); err != nil {
				s.log.WarnContext(r.Context(), "could not record a write's position for the read replica", "error", err)
			}
		}
		next.ServeHTTP(pw, r)
		pw.once.Do(pw.pin) // a request that answered nothing
	})
}

// pinningWriter runs pin once, just before the first byte or header of the answer goes out.
type pinningWriter struct {
	http.ResponseWriter
	once sync.Once
	pin  func()
}

func (w *pinningWriter) WriteHeader(code int) {
	w.once.Do(w.pin)
	w.ResponseWriter.WriteHeader(code)
}

func (w *pinningWriter) Write(b []byte) (int, error) {
	w.once.Do(w.pin)
	return w.ResponseWriter.Write(b)
}

func (w *pinningWriter) Flush() {
	w.once.Do(w.pin)
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the writer underneath.
func (w *pinningWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
