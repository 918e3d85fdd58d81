package model

import "context"

type requestIDKey struct{}

// WithRequestID records the id the HTTP layer gave a request, so a failure deep in a
// resolver can be reported to the client and found in the log under the same id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID is the id recorded by WithRequestID, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}
