package db

import (
	"context"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
)

// Statement counting: a request that asks for it (GraphQL responses can report how many
// statements they ran) carries a counter in its context, and every statement run with that
// context adds one.

type counterKey struct{}

// CountStatements returns a context whose statements are counted in the returned counter.
func CountStatements(ctx context.Context) (context.Context, *atomic.Int64) {
	n := new(atomic.Int64)
	return context.WithValue(ctx, counterKey{}, n), n
}

type statementTracer struct{}

func (statementTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	if n, _ := ctx.Value(counterKey{}).(*atomic.Int64); n != nil {
		n.Add(1)
	}
	return ctx
}

func (statementTracer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
