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
	"github.com/vektah/gqlparser/v2/gqlerror"

	"ponte/db"
	"ponte/graph/generated"
	"ponte/model"
)

// Handler serves POST (and GET) /graphql. Credentials are checked by the same HTTP
// middleware as REST, so the resolvers see the same caller either way.
func (r *Resolver) Handler() http.Handler {
	cfg := generated.Config{Resolvers: r}
	setComplexity(&cfg.Complexity)
	es := generated.NewExecutableSchema(cfg)
	srv := handler.New(es)
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(postJSON{})
	srv.Use(extension.Introspection{})
	srv.Use(queryLimits{es})
	srv.AroundOperations(func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		ctx = withPrefetch(ctx)
		if !r.ReportStatements {
			return next(ctx)
		}
		ctx, n := db.CountStatements(ctx)
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
		r.Log.Error("panic in resolver", "panic", p, "stack", string(debug.Stack()))
		return fmt.Errorf("panic: %v", p)
	})
	return srv
}

// presentError maps errors into GraphQL errors whose extensions carry the same code and
// codeDescription as the REST body.
func (r *Resolver) presentError(ctx context.Context, err error) *gqlerror.Error {
	var gqlErr *gqlerror.Error
	var modelErr *model.Error
	switch {
	case errors.As(err, &modelErr) && modelErr.Status != http.StatusInternalServerError:
		out := graphql.DefaultErrorPresenter(ctx, err)
		out.Message = modelErr.Message
		out.Extensions = modelErr.Extensions()
		return out
	case errors.As(err, &gqlErr):
		// A GraphQL-level error: an unknown field, or an argument that does not coerce
		// (a malformed UUID or date). The caller's to fix.
		out := graphql.DefaultErrorPresenter(ctx, err)
		if out.Extensions == nil {
			out.Extensions = map[string]any{}
		}
		out.Extensions["code"] = http.StatusBadRequest
		if _, ok := out.Extensions["codeDescription"]; !ok {
			out.Extensions["codeDescription"] = model.CodeInvalidRequest
		}
		return out
	default:
		e, _ := model.AsError(err)
		id := model.RequestID(ctx)
		r.Log.Error("graphql resolver failed", "requestId", id, "path", graphql.GetPath(ctx).String(), "err", err)
		out := graphql.DefaultErrorPresenter(ctx, err)
		out.Message = e.Message
		out.Extensions = e.Extensions()
		if id != "" {
			out.Message += " Request id: " + id + "."
			out.Extensions["requestId"] = id
		}
		return out
	}
}
