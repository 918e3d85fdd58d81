package faults

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

func intp(n int) *int { return &n }

var known = map[string]bool{"GET /accounts": true, "GET /accounts/{id}": true, "PATCH /items/{id}": true, "* /graphql": true,
	"GET /sandbox/faults": true, "PUT /sandbox/faults": true}

// Every way a rule list can break the rules is refused with SANDBOX_FAULT_INVALID, and the
// message names the rule.
func TestCheckRefuses(t *testing.T) {
	t.Parallel()
	ok := model.SandboxFault{Route: "GET /accounts", Kind: model.FaultLatency, Probability: 0.5, LatencyMs: intp(10)}
	with := func(change func(f *model.SandboxFault)) []*model.SandboxFault {
		f := ok
		change(&f)
		return []*model.SandboxFault{&f}
	}
	many := make([]*model.SandboxFault, MaxRules+1)
	for i := range many {
		f := ok
		many[i] = &f
	}
	cases := map[string]struct {
		in   []*model.SandboxFault
		want string
	}{
		"unknown route":       {with(func(f *model.SandboxFault) { f.Route = "GET /acounts" }), "does not serve"},
		"lower-case method":   {with(func(f *model.SandboxFault) { f.Route = "get /accounts" }), "method and a route pattern"},
		"no method":           {with(func(f *model.SandboxFault) { f.Route = "/accounts" }), "method and a route pattern"},
		"empty route":         {with(func(f *model.SandboxFault) { f.Route = "" }), "method and a route pattern"},
		"NUL in route":        {with(func(f *model.SandboxFault) { f.Route = "GET /accounts\x00" }), "does not serve"},
		"the control itself":  {with(func(f *model.SandboxFault) { f.Route = "PUT /sandbox/faults" }), "take no faults"},
		"unknown kind":        {with(func(f *model.SandboxFault) { f.Kind = "TIMEOUT" }), "SERVER_ERROR, RATE_LIMIT or LATENCY"},
		"probability above 1": {with(func(f *model.SandboxFault) { f.Probability = 1.01 }), "from 0 (never) to 1"},
		"negative":            {with(func(f *model.SandboxFault) { f.Probability = -0.1 }), "from 0 (never) to 1"},
		"latency missing":     {with(func(f *model.SandboxFault) { f.LatencyMs = nil }), "latencyMs is required"},
		"latency zero":        {with(func(f *model.SandboxFault) { f.LatencyMs = intp(0) }), "latencyMs is required"},
		"latency too long":    {with(func(f *model.SandboxFault) { f.LatencyMs = intp(MaxLatencyMs + 1) }), "latencyMs is required"},
		"latency with status": {with(func(f *model.SandboxFault) { f.Status = intp(500) }), "status belongs to SERVER_ERROR"},
		"5xx other than 500 or 503": {with(func(f *model.SandboxFault) {
			f.Kind, f.LatencyMs, f.Status = model.FaultServerError, nil, intp(502)
		}), "500 (INTERNAL_ERROR) or 503"},
		"5xx with latency": {with(func(f *model.SandboxFault) { f.Kind = model.FaultServerError }), "latencyMs belongs to LATENCY"},
		"429 with status": {with(func(f *model.SandboxFault) {
			f.Kind, f.LatencyMs, f.Status = model.FaultRateLimit, nil, intp(429)
		}), "takes neither status nor latencyMs"},
		"429 with latency":   {with(func(f *model.SandboxFault) { f.Kind = model.FaultRateLimit }), "takes neither status nor latencyMs"},
		"two of one kind":    {[]*model.SandboxFault{&ok, &ok}, "faults[0] and faults[1] are both LATENCY rules"},
		"a null rule":        {[]*model.SandboxFault{&ok, nil}, "faults[1] is null"},
		"more than the most": {many, "at most 50"},
	}
	for name, c := range cases {
		_, err := check(c.in, known)
		var e *model.Error
		if !errors.As(err, &e) || e.Code != model.CodeSandboxFaultInvalid || !strings.Contains(e.Message, c.want) {
			t.Errorf("%s: %v, want SANDBOX_FAULT_INVALID saying %q", name, err, c.want)
		}
	}
}

// A good list is stored as given, with SERVER_ERROR's status filled in; "*" and routes the
// router serves for every method are accepted; without a route table, the form is checked.
func TestCheckAccepts(t *testing.T) {
	t.Parallel()
	in := []*model.SandboxFault{
		{Route: "*", Kind: model.FaultServerError, Probability: 0.1},
		{Route: "*", Kind: model.FaultLatency, Probability: 1, LatencyMs: intp(MaxLatencyMs)},
		{Route: "POST /graphql", Kind: model.FaultRateLimit, Probability: 0},
		{Route: "GET /accounts/{id}", Kind: model.FaultServerError, Probability: 1, Status: intp(503)},
		{Route: "GET /accounts/{id}", Kind: model.FaultRateLimit, Probability: 0.5},
	}
	out, err := check(in, known)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) || out[0].Status == nil || *out[0].Status != 500 || *out[3].Status != 503 || in[0].Status != nil {
		t.Fatalf("stored %+v", out)
	}
	if _, err := check([]*model.SandboxFault{{Route: "DELETE /anything/{id}", Kind: model.FaultRateLimit, Probability: 1}}, nil); err != nil {
		t.Fatalf("without a route table: %v", err)
	}
	if out, err := check(nil, known); err != nil || out == nil || len(out) != 0 {
		t.Fatalf("no rules: %v %v", out, err)
	}
}

// The draw: a route's own rule of a kind replaces "*"'s; latency is drawn apart from the
// answer; a request the 429 falls on is not drawn for a 5xx; probabilities 0 and 1 never
// roll; another application, and a route no rule names, meet nothing.
func TestDraw(t *testing.T) {
	t.Parallel()
	a, b := uuid.New(), uuid.New()
	rules, err := check([]*model.SandboxFault{
		{Route: "*", Kind: model.FaultServerError, Probability: 1},
		{Route: "*", Kind: model.FaultLatency, Probability: 0.5, LatencyMs: intp(20)},
		{Route: "GET /accounts", Kind: model.FaultServerError, Probability: 0},
		{Route: "GET /accounts", Kind: model.FaultRateLimit, Probability: 0.25},
		{Route: "PATCH /items/{id}", Kind: model.FaultServerError, Probability: 1, Status: intp(503)},
	}, known)
	if err != nil {
		t.Fatal(err)
	}
	e := &Engine{cfg: Config{CacheFor: time.Hour}, now: time.Now}
	e.snap.Store(&snapshot{at: time.Now(), sets: map[uuid.UUID]*set{a: compile(rules)}})
	var rolls []float64
	e.roll = func() float64 {
		v := rolls[0]
		rolls = rolls[1:]
		return v
	}
	draw := func(client uuid.UUID, route string, r ...float64) model.InjectedFault {
		rolls = r
		got := e.Draw(client, route)
		if len(rolls) != 0 {
			t.Errorf("%s: %d rolls left unused", route, len(rolls))
		}
		return got
	}
	// latency rolls 0.4 < 0.5: delayed; the 5xx of "*" needs no roll.
	if got := draw(a, "GET /connectors", 0.4); got.Delay != 20*time.Millisecond || got.Status != 500 {
		t.Errorf("GET /connectors: %+v", got)
	}
	// GET /accounts: its own 5xx (probability 0) replaces "*"'s; its 429 rolls 0.2 < 0.25.
	if got := draw(a, "GET /accounts", 0.6, 0.2); got.Delay != 0 || got.Status != 429 {
		t.Errorf("GET /accounts, 429 rolled: %+v", got)
	}
	if got := draw(a, "GET /accounts", 0.6, 0.3); got.Status != 0 {
		t.Errorf("GET /accounts, nothing rolled: %+v", got)
	}
	if got := draw(a, "PATCH /items/{id}", 0.9); got.Status != 503 || got.Delay != 0 {
		t.Errorf("PATCH /items/{id}: %+v", got)
	}
	if got := draw(b, "GET /connectors"); got != (model.InjectedFault{}) {
		t.Errorf("another application: %+v", got)
	}
	if e.Active(b) || !e.Active(a) {
		t.Errorf("Active: a %v, b %v", e.Active(a), e.Active(b))
	}
}

// Rules without a "*" reach only the routes they name.
func TestDrawOnlyNamedRoutes(t *testing.T) {
	t.Parallel()
	a := uuid.New()
	s := compile([]model.SandboxFault{{Route: "GET /accounts", Kind: model.FaultRateLimit, Probability: 1}})
	e := &Engine{cfg: Config{CacheFor: time.Hour}, now: time.Now, roll: func() float64 { t.Fatal("rolled"); return 0 }}
	e.snap.Store(&snapshot{at: time.Now(), sets: map[uuid.UUID]*set{a: s}})
	if got := e.Draw(a, "GET /accounts/{id}"); got.Status != 0 {
		t.Errorf("GET /accounts/{id}: %+v", got)
	}
	if got := e.Draw(a, "GET /accounts"); got.Status != 429 {
		t.Errorf("GET /accounts: %+v", got)
	}
	if compile(nil) != nil {
		t.Error("no rules compile to a set")
	}
}
