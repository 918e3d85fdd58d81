package rest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"sync"

	"github.com/go-chi/chi/v5"

	"ponte/auth"
	"ponte/model"
)

// requestScope is one request's context: what the layers learn about a request (its id,
// its credential's outcome, chi's routing state) held in one value made once, around the
// router. Each used to be a context.WithValue and a copy of the request: three copies a
// request, which with their values were a third of the bytes GET /accounts allocated beyond
// its minimal baseline, and so of the collector's extra cycles under load (issue 16).
//
// It answers the keys of chi (RouteCtxKey), model (RequestIDKey) and auth (ResultKey) from
// its fields and every other key from the server's context beneath it, so chi.URLParam,
// model.RequestID and auth.Require read it as they read plain context values.
type requestScope struct {
	context.Context
	route *chi.Context // from routeContexts, as chi's own would be
	id    string
	cred  auth.Result
	reads model.ReadRoute
}

func (c *requestScope) Value(key any) any {
	switch key {
	case chi.RouteCtxKey:
		return c.route
	case auth.ResultKey{}:
		return &c.cred
	case model.ReadRouteKey{}:
		return &c.reads
	case model.RequestIDKey{}:
		return c.id // boxed only when asked: an id is read for failures and logs, not on every request
	case scopeKey{}:
		return c
	}
	return c.Context.Value(key)
}

type scopeKey struct{}

// scopeOf is the request's scope, which scopedRouter installs before any other layer runs.
func scopeOf(r *http.Request) *requestScope {
	return r.Context().Value(scopeKey{}).(*requestScope)
}

// routeContexts are chi's routing states, kept between requests as chi keeps its own: their
// slices keep their room, and a new one a request was most of the scope's bytes. As with
// chi's, a route context is only good until its request's handler returns.
var routeContexts = sync.Pool{New: func() any { return chi.NewRouteContext() }}

// scopedRouter gives every request its scope and its id, then routes it. It is chi's
// router in all else (its route table is walked by the OpenAPI check). With a route context
// already in place chi makes no copy of the request of its own; it then skips its own reset
// too, so it is done here as chi would do it.
//
// The id is answered in X-Request-Id and logged with any failure. A caller's own
// X-Request-Id is kept when it is a short token, so traces join up.
type scopedRouter struct{ *chi.Mux }

func (m scopedRouter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rc := routeContexts.Get().(*chi.Context)
	rc.Reset()
	rc.Routes = m.Mux
	defer routeContexts.Put(rc)
	sc := &requestScope{Context: r.Context(), route: rc}
	id := r.Header.Get("X-Request-Id")
	if !validRequestID(id) {
		var b [12]byte
		_, _ = rand.Read(b[:])
		id = hex.EncodeToString(b[:])
	}
	sc.id = id
	w.Header().Set("X-Request-Id", id)
	m.Mux.ServeHTTP(w, r.WithContext(sc))
}

func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}
