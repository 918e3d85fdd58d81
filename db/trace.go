package db

import (
	"context"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"ponte/metrics"
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

// Statements are also spans of a traced request, named by their verb. Their text is left
// out: bun writes arguments into the text it sends, and arguments hold people's data.
func (statementTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	if n, _ := ctx.Value(counterKey{}).(*atomic.Int64); n != nil {
		n.Add(1)
	}
	if !trace.SpanFromContext(ctx).IsRecording() {
		return ctx // nothing traces this request: no span for its statements either
	}
	verb, _, _ := strings.Cut(strings.TrimSpace(d.SQL), " ")
	ctx, _ = metrics.Tracer().Start(ctx, "postgresql "+strings.ToUpper(verb), trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("db.system", "postgresql"), attribute.String("db.operation.name", strings.ToUpper(verb))))
	return ctx
}

func (statementTracer) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryEndData) {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	if d.Err != nil {
		span.SetStatus(codes.Error, "statement failed")
	}
	span.End()
}

// A batch is one round trip and counts as one statement: the reads that send one carry a
// single statement and the setting it runs under (genericplan.go). It is one span too.
func (t statementTracer) TraceBatchStart(ctx context.Context, c *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return t.TraceQueryStart(ctx, c, pgx.TraceQueryStartData{SQL: "BATCH"})
}

func (statementTracer) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

func (t statementTracer) TraceBatchEnd(ctx context.Context, c *pgx.Conn, d pgx.TraceBatchEndData) {
	t.TraceQueryEnd(ctx, c, pgx.TraceQueryEndData{Err: d.Err})
}
