package rest

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"ponte/model"
)

// Every JSON route has one shape: read the request into a resolver call, run the call,
// render its answer or its error. A route's handler only says what it reads and which
// resolver it calls; reading, refusing and rendering are written once, here, so a new
// route cannot answer an input error differently from the others. The HTML pages
// (authorize.go, paypages.go) are the only handlers written by hand.

// resolve is a resolver call prepared from a request whose input read cleanly.
type resolve func(ctx context.Context) (any, error)

// input reads one request's arguments: path parameters, query parameters, then the JSON
// body. The first failure is kept and answered before the resolver runs, so the values a
// read returns after a failure are never used.
type input struct {
	r   *http.Request
	q   query // the query string, once the route reads it (in the input's own allocation)
	err error // the first failure of a path parameter or the body
}

// failure is the error to answer: a bad path parameter first, then the query string, then
// the body, the order in which a route reads them.
func (in *input) failure() error {
	if in.err != nil {
		return in.err
	}
	return in.q.err // nil until the route reads its query string
}

// query reads the query string, accepting only the named parameters: any other is a 400
// naming it. A route that never calls it ignores its query string.
func (in *input) query(allowed ...string) *query {
	in.q.read(in.r, allowed...)
	return &in.q
}

// id reads a UUID path parameter; what names it in the error.
func (in *input) id(name, what string) uuid.UUID {
	id, err := uuidParam(in.r, name, what)
	if err != nil && in.err == nil {
		in.err = err
	}
	return id
}

// number reads an integer path parameter.
func (in *input) number(name, what string) int {
	n, err := intParam(in.r, name, what)
	if err != nil && in.err == nil {
		in.err = err
	}
	return n
}

// path reads a path parameter as it is.
func (in *input) path(name string) string { return pathParam(in.r, name) }

// refuse records a failure the route finds itself in what it read (a missing field, a
// value out of its form), unless an earlier read already failed.
func (in *input) refuse(err error) {
	if err != nil && in.failure() == nil {
		in.err = err
	}
}

// body decodes the JSON body into dst, unless an earlier read failed: a refused request's
// body is not read.
func (in *input) body(dst any) {
	if in.failure() != nil {
		return
	}
	in.err = decode(in.r, dst)
}

// handle builds a route from its read: read takes what the route needs from the request
// and returns the call to make with it.
func (s *Server) handle(read func(in *input) resolve) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		in := &input{r: r}
		call := read(in)
		if err := in.failure(); err != nil {
			s.writeError(w, r, err)
			return
		}
		out, err := call(r.Context())
		s.respond(w, r, out, err)
	}
}

// respond renders a resolver's answer, or its error as the documented error body.
func (s *Server) respond(w http.ResponseWriter, r *http.Request, v any, err error) {
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	switch p := v.(type) {
	case rawCursorPage:
		s.writeRawPage(w, p.docs, p.next)
		return
	case rawListPage:
		s.writeRawList(w, p.page)
		return
	case interface{ Envelope() *model.DocumentPage }:
		// Product documents come with PostgreSQL's spacing (jsonb's text); the encoder
		// writes them compact.
		pg := p.Envelope()
		s.ok(w, documentEnvelope{Total: pg.Total, TotalPages: pg.TotalPages, Page: pg.Page, Results: pg.Documents})
		return
	}
	s.ok(w, v)
}

// rawCursorPage is a cursor envelope of documents that are finished JSON from the store;
// respond copies them as they are (writeRawPage).
type rawCursorPage struct {
	docs []model.JSONDocument
	next *string
}

// rawListPage is a page of documents that are finished, compact JSON from the store, in the
// page-number envelope; respond copies them as they are (writeRaw).
type rawListPage struct{ page *model.DocumentPage }

// documentEnvelope is a page-number envelope of documents.
type documentEnvelope struct {
	Total      int                  `json:"total"`
	TotalPages int                  `json:"totalPages"`
	Page       int                  `json:"page"`
	Results    []model.JSONDocument `json:"results"`
}

// The adapters below are the common reads, named for what they take.

// withBody decodes a JSON body into T.
func withBody[T any](s *Server, fn func(context.Context, T) (any, error)) http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		var body T
		in.body(&body)
		return func(ctx context.Context) (any, error) { return fn(ctx, body) }
	})
}

// withIDBody reads {id} and a JSON body.
func withIDBody[T any](s *Server, what string, fn func(context.Context, uuid.UUID, T) (any, error)) http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.id("id", what)
		var body T
		in.body(&body)
		return func(ctx context.Context) (any, error) { return fn(ctx, id, body) }
	})
}

// byID reads {id}.
func (s *Server) byID(what string, fn func(context.Context, uuid.UUID) (any, error)) http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.id("id", what)
		return func(ctx context.Context) (any, error) { return fn(ctx, id) }
	})
}

// byTwoIDs reads {id} and {scheduleId}, a resource and one of its own; the names say which
// in the errors (a payment request's scheduled payment, or its automatic PIX payment).
func (s *Server) byTwoIDs(what, subWhat string, fn func(context.Context, uuid.UUID, uuid.UUID) (any, error)) http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id, sub := in.id("id", what), in.id("scheduleId", subWhat)
		return func(ctx context.Context) (any, error) { return fn(ctx, id, sub) }
	})
}

// pageOf reads the page parameters of a page-number list.
func (s *Server) pageOf(fn func(ctx context.Context, page, size *int) (any, error)) http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		q := in.query("page", "pageSize")
		page, size := q.integer("page"), q.integer("pageSize")
		return func(ctx context.Context) (any, error) { return fn(ctx, page, size) }
	})
}

// pageByID reads {id} and the page parameters of a list that belongs to one resource.
func (s *Server) pageByID(what string, fn func(ctx context.Context, id uuid.UUID, page, size *int) (any, error)) http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id := in.id("id", what)
		q := in.query("page", "pageSize")
		page, size := q.integer("page"), q.integer("pageSize")
		return func(ctx context.Context) (any, error) { return fn(ctx, id, page, size) }
	})
}

// answer serves a route that reads nothing from the request.
func (s *Server) answer(fn func(context.Context) (any, error)) http.HandlerFunc {
	return s.handle(func(*input) resolve { return fn })
}

func pathParam(r *http.Request, name string) string { return chi.URLParam(r, name) }
