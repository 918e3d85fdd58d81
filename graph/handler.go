package graph

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"ponte/graph/generated"
	"ponte/model"
)

// Handler serves POST (and GET) /graphql. Credentials are checked by the same HTTP
// middleware as REST, so the resolvers see the same caller either way; the transport
// refuses a caller without one anything but introspection before validation.
func (r *Resolver) Handler() http.Handler {
	cfg := generated.Config{Resolvers: r}
	setComplexity(&cfg.Complexity)
	es := generated.NewExecutableSchema(cfg)
	srv := handler.New(es)
	srv.AddTransport(transport.Options{})
	srv.AddTransport(uploadTransport{transport.MultipartForm{MaxUploadSize: maxUploadRequest, MaxMemory: 8 << 20}})
	srv.AddTransport(httpTransport{})
	// The transport parses with this limit already; gqlgen's own parse keeps it too.
	srv.SetParserTokenLimit(maxQueryTokens)
	srv.SetQueryCache(newQueryCache())
	srv.Use(extension.Introspection{})
	srv.Use(queryLimits{es})
	srv.AroundFields(markInternal)
	srv.AroundFields(projector{es.Schema()}.around)
	srv.AroundOperations(func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		ctx = withPrefetch(ctx)
		markReadOnly(ctx)
		if r.CountStatements == nil {
			return next(ctx)
		}
		ctx, n := r.CountStatements(ctx)
		h := next(ctx)
		return func(ctx context.Context) *graphql.Response {
			resp := h(ctx)
			if resp != nil {
				if resp.Extensions == nil {
					resp.Extensions = map[string]any{}
				}
				resp.Extensions["sqlStatements"] = n.Load()
			}
			return resp
		}
	})
	srv.SetErrorPresenter(r.presentError)
	srv.SetRecoverFunc(func(ctx context.Context, p any) error {
		r.Log.ErrorContext(ctx, "panic in resolver", "panic", p, "stack", string(debug.Stack()))
		return internalFailure{fmt.Errorf("panic: %v", p)}
	})
	return srv
}

// internalFailure marks a failure of the service rather than of the request: a resolver's
// error that is not a client's model.Error (a database error, say), or a panic. gqlgen wraps
// every error in a *gqlerror.Error, so without the mark a database error would look like an
// argument that did not coerce, and its text would reach the client.
type internalFailure struct{ err error }

func (f internalFailure) Error() string { return f.err.Error() }
func (f internalFailure) Unwrap() error { return f.err }

// markInternal marks the errors resolvers return that model.AsError calls internal. Argument
// coercion fails before the resolver middleware runs, so its errors stay unmarked.
func markInternal(ctx context.Context, next graphql.Resolver) (any, error) {
	res, err := next(ctx)
	if err != nil {
		if _, internal := model.AsError(err); internal {
			return res, internalFailure{err}
		}
	}
	return res, err
}

// presentError maps errors into GraphQL errors whose extensions carry the same code and
// codeDescription as the REST body.
func (r *Resolver) presentError(ctx context.Context, err error) *gqlerror.Error {
	var gqlErr *gqlerror.Error
	var modelErr *model.Error
	var failure internalFailure
	switch {
	case errors.As(err, &modelErr) && modelErr.Status() != http.StatusInternalServerError:
		out := graphql.DefaultErrorPresenter(ctx, err)
		out.Message = modelErr.Message
		out.Extensions = modelErr.Extensions()
		// A 503 too gives the request id to quote, as every 5xx does.
		if id := model.RequestID(ctx); id != "" && modelErr.Status() > http.StatusInternalServerError {
			out.Message += " Request id: " + id + "."
			out.Extensions["requestId"] = id
		}
		return out
	case !errors.As(err, &failure) && errors.As(err, &gqlErr):
		// A GraphQL-level error: a query that does not parse or validate, or an argument
		// that does not coerce (a malformed UUID or date). The caller's to fix.
		out := graphql.DefaultErrorPresenter(ctx, err)
		if out.Extensions == nil {
			out.Extensions = map[string]any{}
		}
		out.Extensions["code"] = model.CodeInvalidRequest.Status()
		out.Extensions["codeDescription"] = model.CodeInvalidRequest.String()
		return out
	default:
		// Anything else is the service's failure: the client gets the request id to quote,
		// the log gets the cause.
		e, _ := model.AsError(err)
		id := model.RequestID(ctx)
		r.Log.ErrorContext(ctx, "graphql resolver failed", "path", graphql.GetPath(ctx).String(), "err", err)
		out := &gqlerror.Error{Err: err, Path: graphql.GetPath(ctx), Message: e.Message, Extensions: e.Extensions()}
		if errors.As(err, &gqlErr) {
			out.Path, out.Locations = gqlErr.Path, gqlErr.Locations
		}
		if id != "" {
			out.Message += " Request id: " + id + "."
			out.Extensions["requestId"] = id
		}
		return out
	}
}

// markReadOnly lets a query's pure reads go to the read replica (model.ReadRoute): only the
// parsed operation says whether a request to /graphql is a query or a mutation.
func markReadOnly(ctx context.Context) {
	route := model.ReadRouteOf(ctx)
	if route == nil {
		return
	}
	if !graphql.HasOperationContext(ctx) {
		return
	}
	if oc := graphql.GetOperationContext(ctx); oc.Operation != nil {
		route.ReadOnly = oc.Operation.Operation == ast.Query
	}
}
