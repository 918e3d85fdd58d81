package main_test

import (
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"ponte/testsupport"
)

// collector is an OTLP/HTTP trace receiver on loopback: it keeps every span it is sent.
type collector struct {
	mu    sync.Mutex
	spans []*tracepb.Span
}

func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		z, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		body = z
	}
	raw, _ := io.ReadAll(body)
	var req coltrace.ExportTraceServiceRequest
	if r.URL.Path != "/v1/traces" || proto.Unmarshal(raw, &req) != nil {
		http.Error(w, "not an OTLP trace export", 400)
		return
	}
	c.mu.Lock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			c.spans = append(c.spans, ss.Spans...)
		}
	}
	c.mu.Unlock()
	out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

func (c *collector) of(trace string) []*tracepb.Span {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*tracepb.Span
	for _, s := range c.spans {
		if hex.EncodeToString(s.TraceId) == trace {
			out = append(out, s)
		}
	}
	return out
}

// With OTEL_EXPORTER_OTLP_ENDPOINT set, a request is a server span named by its route that
// continues the caller's trace (W3C traceparent), with its statements as child spans named
// by their verb; no span carries the request's data.
func TestTracing(t *testing.T) {
	t.Parallel()
	col := &collector{}
	rcv := httptest.NewServer(col)
	defer rcv.Close()
	env, keys := configured(t, "OTEL_EXPORTER_OTLP_ENDPOINT="+rcv.URL, "OTEL_BSP_SCHEDULE_DELAY=100", "OTEL_SERVICE_NAME=ponte-test")
	s := start(t, env...)
	const trace = "4bf92f3577b34da6a3ce929d0e0e4736"
	body, _ := json.Marshal(keys)
	req, _ := http.NewRequest("POST", s.url+"/auth", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("traceparent", "00-"+trace+"-00f067aa0ba902b7-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("POST /auth: %d", resp.StatusCode)
	}
	var server *tracepb.Span
	var statements []*tracepb.Span
	testsupport.Eventually(t, "the request's spans at the collector", 20*time.Second, func() bool {
		server, statements = nil, nil
		for _, sp := range col.of(trace) {
			switch {
			case sp.Name == "POST /auth" && sp.Kind == tracepb.Span_SPAN_KIND_SERVER:
				server = sp
			case sp.Kind == tracepb.Span_SPAN_KIND_CLIENT && bytes.HasPrefix([]byte(sp.Name), []byte("postgresql ")):
				statements = append(statements, sp)
			}
		}
		return server != nil && len(statements) > 0
	})
	if hex.EncodeToString(server.ParentSpanId) != "00f067aa0ba902b7" {
		t.Fatalf("the request's span does not continue the caller's: parent %x", server.ParentSpanId)
	}
	route := ""
	for _, a := range server.Attributes {
		if a.Key == "http.route" {
			route = a.Value.GetStringValue()
		}
	}
	if route != "/auth" {
		t.Fatalf("http.route %q", route)
	}
	for _, sp := range col.of(trace) {
		for _, a := range sp.Attributes {
			if v := a.Value.GetStringValue(); bytes.Contains([]byte(v), []byte(keys["clientId"])) || bytes.Contains([]byte(v), []byte(keys["clientSecret"])) {
				t.Fatalf("span %s carries the request's data in %s: %s", sp.Name, a.Key, v)
			}
		}
	}
}
