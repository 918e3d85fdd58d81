package metrics

import (
	"context"
	"os"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"
)

// Tracing is optional: with OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) set, the
// process sends OpenTelemetry spans over OTLP/HTTP to that collector (the exporter reads
// OpenTelemetry's own variables: headers, timeout, compression, sampling through
// OTEL_TRACES_SAMPLER). Without it the global tracer is OpenTelemetry's no-op one, whose
// spans cost an allocation and record nothing.

// TracingConfigured says whether the environment asks for tracing.
func TracingConfigured() bool {
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// StartTracing installs the OTLP exporter when the environment asks for it; the returned
// stop flushes the spans still buffered. W3C trace context is honoured on incoming requests
// either way, so a caller's trace id reaches the logs of a traced service.
func StartTracing(ctx context.Context, version string) (stop func(context.Context) error, err error) {
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	if !TracingConfigured() {
		return func(context.Context) error { return nil }, nil
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, err
	}
	name := os.Getenv("OTEL_SERVICE_NAME")
	if name == "" {
		name = "ponte"
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(semconv.ServiceName(name), semconv.ServiceVersion(version)))
	if err != nil {
		return nil, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	return tp.Shutdown, nil
}

// Tracer is the service's tracer (the global provider's, so it follows StartTracing).
func Tracer() trace.Tracer { return otel.Tracer("ponte") }
