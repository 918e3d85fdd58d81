package model

import (
	"context"
	"log/slog"
)

// RequestIDKey is the context key of a request's id, a string. It is exported for the HTTP
// layer, which answers it from its one per-request value rather than wrapping the context.
type RequestIDKey struct{}

// WithRequestID records the id the HTTP layer gave a request, so a failure deep in a
// resolver can be reported to the client and found in the log under the same id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, RequestIDKey{}, id)
}

// RequestID is the id recorded by WithRequestID, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(RequestIDKey{}).(string)
	return id
}

// LogRequestIDs makes every line logged with a request's context (InfoContext and the
// like) carry that request's id as requestId, the id the client got in X-Request-Id, so
// the lines of one request are found together.
func LogRequestIDs(h slog.Handler) slog.Handler { return requestIDHandler{h} }

type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		r.AddAttrs(slog.String("requestId", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(a []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(a)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}
