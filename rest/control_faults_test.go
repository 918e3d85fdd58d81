package rest_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/faults"
	"ponte/rest"
	"ponte/testsupport"
)

// faultList is the body of the fault control's answers.
type faultList struct {
	Faults []map[string]any `json:"faults"`
}

func putFaults(t *testing.T, env *testsupport.Env, key string, rules ...map[string]any) faultList {
	t.Helper()
	var out faultList
	env.Do(t, "PUT", "/sandbox/faults", key, map[string]any{"faults": rules}).Want(200).JSON(&out)
	return out
}

// An application's rules fault its own requests, as it set them: a 5xx in the documented
// error body (500 INTERNAL_ERROR, or 503 DATABASE_UNAVAILABLE with Retry-After), a 429 with
// Retry-After and the RateLimit headers (the route's own limit where it has one), added
// latency; a route's own rule of a kind replaces "*"'s. Another application's requests, a
// Connect Token's, and the fault control itself meet none; each fault is counted in
// /metrics; DELETE takes them back.
func TestSandboxFaults(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "faults A"), env.NewClient(t, "faults B")
	var none faultList
	env.Do(t, "GET", "/sandbox/faults", a.APIKey, nil).Want(200).JSON(&none)
	if none.Faults == nil || len(none.Faults) != 0 {
		t.Fatalf("no rules: %+v", none)
	}
	token := env.Do(t, "POST", "/connect_token", a.APIKey, nil).Want(200).String("accessToken")
	category := env.Do(t, "GET", "/categories", a.APIKey, nil).Want(200).Map()["results"].([]any)[0].(map[string]any)["id"].(string)

	const latency = 150
	set := putFaults(t, env, a.APIKey,
		map[string]any{"route": "GET /categories", "kind": "SERVER_ERROR", "probability": 1},
		map[string]any{"route": "GET /categories/{id}", "kind": "SERVER_ERROR", "probability": 1, "status": 503},
		map[string]any{"route": "GET /connectors", "kind": "RATE_LIMIT", "probability": 1},
		map[string]any{"route": "PATCH /items/{id}", "kind": "RATE_LIMIT", "probability": 1},
		map[string]any{"route": "*", "kind": "LATENCY", "probability": 1, "latencyMs": latency},
		map[string]any{"route": "GET /connectors/{id}", "kind": "LATENCY", "probability": 0, "latencyMs": 1},
	)
	if len(set.Faults) != 6 || set.Faults[0]["status"] != float64(500) || set.Faults[1]["status"] != float64(503) ||
		set.Faults[2]["status"] != nil || set.Faults[4]["latencyMs"] != float64(latency) {
		t.Fatalf("stored: %+v", set.Faults)
	}
	var got faultList
	env.Do(t, "GET", "/sandbox/faults", a.APIKey, nil).Want(200).JSON(&got)
	if fmt.Sprint(got) != fmt.Sprint(set) {
		t.Fatalf("GET answers %+v, PUT answered %+v", got, set)
	}

	timed := func(method, path, key string) (*testsupport.Response, time.Duration) {
		start := time.Now()
		r := env.Do(t, method, path, key, nil)
		return r, time.Since(start)
	}
	r, took := timed("GET", "/categories", a.APIKey)
	m := r.WantError(500, "INTERNAL_ERROR")
	if !strings.Contains(m["message"].(string), "injected") || m["data"] == nil {
		t.Errorf("an injected 500 says so and carries the request id, as any 500 does: %s", r.Body)
	}
	if r.Header.Get("Ponte-Injected-Fault") != "LATENCY, SERVER_ERROR" || took < latency*time.Millisecond {
		t.Errorf("GET /categories: %q after %v", r.Header.Get("Ponte-Injected-Fault"), took)
	}
	r = env.Do(t, "GET", "/categories/"+category, a.APIKey, nil)
	r.WantError(503, "DATABASE_UNAVAILABLE")
	if r.Header.Get("Retry-After") == "" {
		t.Errorf("an injected 503 has no Retry-After, as every 503 has")
	}
	rateLimited := func(path, method string, limit int) {
		t.Helper()
		r := env.Do(t, method, path, a.APIKey, nil).Want(429)
		reset, _ := strconv.Atoi(r.Header.Get("RateLimit-Reset"))
		if r.Header.Get("Retry-After") != "60" || r.Header.Get("RateLimit-Limit") != strconv.Itoa(limit) || reset < 1 || reset > 60 {
			t.Errorf("%s %s: headers %v", method, path, r.Header)
		}
		m := r.Map()
		if len(m) != 2 || m["code"] != float64(429) || m["message"] == "" {
			t.Errorf("%s %s: a 429 body has only code and message: %s", method, path, r.Body)
		}
	}
	rateLimited("/connectors", "GET", 360)
	rateLimited("/items/"+uuid.NewString(), "PATCH", 20) // the route's own limit (section 8)

	// Only the latency of "*" on the others; a route's own rule (probability 0) replaces it.
	r, took = timed("GET", "/webhooks", a.APIKey)
	if r.Want(200); r.Header.Get("Ponte-Injected-Fault") != "LATENCY" || took < latency*time.Millisecond {
		t.Errorf("GET /webhooks: %q after %v", r.Header.Get("Ponte-Injected-Fault"), took)
	}
	if r = env.Do(t, "GET", "/connectors/0", a.APIKey, nil).Want(200); r.Header.Get("Ponte-Injected-Fault") != "" {
		t.Errorf("GET /connectors/{id} met %q", r.Header.Get("Ponte-Injected-Fault"))
	}
	// No one else meets them: another application, A's Connect Token, no key; nor does the
	// fault control, or "*" would lock the application out of its own rules.
	for _, c := range []struct{ name, key string }{{"B", b.APIKey}, {"A's Connect Token", token}} {
		if r := env.Do(t, "GET", "/connectors", c.key, nil).Want(200); r.Header.Get("Ponte-Injected-Fault") != "" {
			t.Errorf("%s met a fault", c.name)
		}
	}
	env.Do(t, "GET", "/categories", "", nil).WantError(401, "API_KEY_MISSING")
	if r, took = timed("GET", "/sandbox/faults", a.APIKey); r.Want(200).Header.Get("Ponte-Injected-Fault") != "" || took >= latency*time.Millisecond {
		t.Errorf("the fault control met a fault: %q after %v", r.Header.Get("Ponte-Injected-Fault"), took)
	}

	metrics := string(env.Do(t, "GET", "/metrics", "", nil).Want(200).Body)
	for _, c := range [][2]string{{"SERVER_ERROR", "GET /categories"}, {"SERVER_ERROR", "GET /categories/{id}"},
		{"RATE_LIMIT", "GET /connectors"}, {"RATE_LIMIT", "PATCH /items/{id}"}, {"LATENCY", "GET /webhooks"}} {
		if v := metricValue(metrics, "ponte_injected_faults_total", "kind", c[0], "route", c[1]); v < 1 {
			t.Errorf("ponte_injected_faults_total{kind=%q,route=%q} = %v", c[0], c[1], v)
		}
	}

	var cleared faultList
	env.Do(t, "DELETE", "/sandbox/faults", a.APIKey, nil).Want(200).JSON(&cleared)
	if cleared.Faults == nil || len(cleared.Faults) != 0 {
		t.Fatalf("DELETE: %+v", cleared)
	}
	if r := env.Do(t, "GET", "/categories", a.APIKey, nil).Want(200); r.Header.Get("Ponte-Injected-Fault") != "" {
		t.Errorf("a fault after DELETE")
	}
}

// A probability is a share of requests, drawn per request.
func TestSandboxFaultsProbability(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := env.NewClient(t, "faults probability")
	putFaults(t, env, a.APIKey, map[string]any{"route": "GET /categories", "kind": "SERVER_ERROR", "probability": 0.5})
	const n = 120
	failed := 0
	for range n {
		switch st := env.Do(t, "GET", "/categories?pageSize=1", a.APIKey, nil).Status; st {
		case 500:
			failed++
		case 200:
		default:
			t.Fatalf("status %d", st)
		}
	}
	// Binomial(120, 0.5): mean 60, standard deviation 5.5; this is 5 deviations either way.
	if failed < 32 || failed > 88 {
		t.Fatalf("%d of %d requests failed at probability 0.5", failed, n)
	}
}

// The fault control refuses what breaks its rules with SANDBOX_FAULT_INVALID (a body
// without the list: INVALID_PARAMETER) and keeps the rules it had; it is not reachable
// without an API key, nor with a Connect Token.
func TestSandboxFaultsRefused(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "faults refused A"), env.NewClient(t, "faults refused B")
	kept := putFaults(t, env, a.APIKey, map[string]any{"route": "GET /accounts", "kind": "RATE_LIMIT", "probability": 0.5})
	rule := func(route, kind string, p any, extra ...any) map[string]any {
		m := map[string]any{"route": route, "kind": kind, "probability": p}
		for i := 0; i+1 < len(extra); i += 2 {
			m[extra[i].(string)] = extra[i+1]
		}
		return m
	}
	many := make([]any, faults.MaxRules+1)
	for i := range many {
		many[i] = rule("GET /accounts", "LATENCY", 1, "latencyMs", 1)
	}
	for name, body := range map[string]any{
		"a route it does not serve":   map[string]any{"faults": []any{rule("GET /acounts", "SERVER_ERROR", 1)}},
		"a route with an id":          map[string]any{"faults": []any{rule("GET /accounts/"+uuid.NewString(), "SERVER_ERROR", 1)}},
		"the control's own route":     map[string]any{"faults": []any{rule("DELETE /sandbox/faults", "SERVER_ERROR", 1)}},
		"a route without a method":    map[string]any{"faults": []any{rule("/accounts", "SERVER_ERROR", 1)}},
		"an unknown kind":             map[string]any{"faults": []any{rule("*", "TIMEOUT", 1)}},
		"a probability above 1":       map[string]any{"faults": []any{rule("*", "SERVER_ERROR", 1.5)}},
		"a negative probability":      map[string]any{"faults": []any{rule("*", "SERVER_ERROR", -0.01)}},
		"a 5xx that is not 500, 503":  map[string]any{"faults": []any{rule("*", "SERVER_ERROR", 1, "status", 502)}},
		"a 429 with a status":         map[string]any{"faults": []any{rule("*", "RATE_LIMIT", 1, "status", 503)}},
		"latency without its time":    map[string]any{"faults": []any{rule("*", "LATENCY", 1)}},
		"latency over a minute":       map[string]any{"faults": []any{rule("*", "LATENCY", 1, "latencyMs", 60001)}},
		"two rules of a kind":         map[string]any{"faults": []any{rule("*", "LATENCY", 1, "latencyMs", 5), rule("*", "LATENCY", 0, "latencyMs", 9)}},
		"more rules than allowed":     map[string]any{"faults": many},
		"a null rule":                 map[string]any{"faults": []any{nil}},
		"a rule missing its fields":   map[string]any{"faults": []any{map[string]any{}}},
		"a NUL byte in a route":       map[string]any{"faults": []any{rule("GET /accounts\x00", "SERVER_ERROR", 1)}},
		"invalid UTF-8 in a kind":     `{"faults":[{"route":"*","kind":"\xff","probability":1}]}`,
		"a probability out of range":  `{"faults":[{"route":"*","kind":"SERVER_ERROR","probability":1e309}]}`,
		"a fractional latency":        `{"faults":[{"route":"*","kind":"LATENCY","probability":1,"latencyMs":1.5}]}`,
		"a probability given as text": map[string]any{"faults": []any{rule("*", "SERVER_ERROR", "1")}},
		"no list":                     map[string]any{},
		"a null list":                 map[string]any{"faults": nil},
		"an object for the list":      map[string]any{"faults": map[string]any{}},
	} {
		r := env.Do(t, "PUT", "/sandbox/faults", a.APIKey, body)
		code, _ := r.Map()["codeDescription"].(string)
		if r.Status != 400 || (code != "SANDBOX_FAULT_INVALID" && code != "INVALID_PARAMETER" && code != "MALFORMED_JSON") {
			t.Errorf("%s: %d %s", name, r.Status, r.Body)
		}
	}
	var after faultList
	env.Do(t, "GET", "/sandbox/faults", a.APIKey, nil).Want(200).JSON(&after)
	if fmt.Sprint(after) != fmt.Sprint(kept) {
		t.Errorf("a refused list changed the rules: %+v, had %+v", after, kept)
	}

	// Each application sees and changes only its own rules.
	var other faultList
	env.Do(t, "GET", "/sandbox/faults", b.APIKey, nil).Want(200).JSON(&other)
	if len(other.Faults) != 0 {
		t.Errorf("B sees %+v", other)
	}
	env.Do(t, "DELETE", "/sandbox/faults", b.APIKey, nil).Want(200)
	env.Do(t, "GET", "/sandbox/faults", a.APIKey, nil).Want(200).JSON(&after)
	if fmt.Sprint(after) != fmt.Sprint(kept) {
		t.Errorf("B's DELETE changed A's rules: %+v", after)
	}

	token := env.Do(t, "POST", "/connect_token", a.APIKey, nil).Want(200).String("accessToken")
	for _, method := range []string{"GET", "PUT", "DELETE"} {
		var body any
		if method == "PUT" {
			body = map[string]any{"faults": []any{}}
		}
		env.Do(t, method, "/sandbox/faults", "", body).WantError(401, "API_KEY_MISSING")
		env.Do(t, method, "/sandbox/faults", token, body).WantError(403, "FORBIDDEN")
	}

	// The same through GraphQL.
	g := env.GraphQL(t, a.APIKey, `mutation { setSandboxFaults(faults: [{route: "GET /nowhere", kind: LATENCY, probability: 1, latencyMs: 5}]) { route } }`, nil)
	g.WantCode(t, "SANDBOX_FAULT_INVALID")
	g = env.GraphQL(t, a.APIKey, `mutation { setSandboxFaults(faults: [{route: "*", kind: LATENCY, probability: 2, latencyMs: 5}]) { route } }`, nil)
	g.WantCode(t, "SANDBOX_FAULT_INVALID")
	g = env.GraphQL(t, token, `{ sandboxFaults { route } }`, nil)
	g.WantCode(t, "FORBIDDEN")
	g = env.GraphQL(t, token, `mutation { setSandboxFaults(faults: []) { route } }`, nil)
	g.WantCode(t, "FORBIDDEN")
	env.Do(t, "GET", "/sandbox/faults", a.APIKey, nil).Want(200).JSON(&after)
	if fmt.Sprint(after) != fmt.Sprint(kept) {
		t.Errorf("refused GraphQL calls changed the rules: %+v", after)
	}
}

// The GraphQL fields set and read the same rules, and /graphql is a route like any other:
// a rule on it faults GraphQL calls, and the REST control still takes it back.
func TestSandboxFaultsGraphQL(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := env.NewClient(t, "faults graphql")
	data := env.GraphQL(t, a.APIKey, `mutation { setSandboxFaults(faults: [
		{route: "POST /graphql", kind: SERVER_ERROR, probability: 1, status: 503},
		{route: "GET /accounts", kind: LATENCY, probability: 0.25, latencyMs: 40}]) { route kind probability status latencyMs } }`, nil).OK(t)
	got := fmt.Sprint(data["setSandboxFaults"])
	want := "[map[kind:SERVER_ERROR latencyMs:<nil> probability:1 route:POST /graphql status:503] " +
		"map[kind:LATENCY latencyMs:40 probability:0.25 route:GET /accounts status:<nil>]]"
	if got != want {
		t.Fatalf("setSandboxFaults answered %s, want %s", got, want)
	}
	var rest faultList
	env.Do(t, "GET", "/sandbox/faults", a.APIKey, nil).Want(200).JSON(&rest)
	if len(rest.Faults) != 2 || rest.Faults[0]["route"] != "POST /graphql" || rest.Faults[1]["latencyMs"] != float64(40) {
		t.Fatalf("GET /sandbox/faults after GraphQL: %+v", rest)
	}
	r := env.Do(t, "POST", "/graphql", a.APIKey, map[string]any{"query": "{ sandboxFaults { route } }"})
	r.WantError(503, "DATABASE_UNAVAILABLE")
	env.Do(t, "DELETE", "/sandbox/faults", a.APIKey, nil).Want(200)
	data = env.GraphQL(t, a.APIKey, `{ sandboxFaults { route } }`, nil).OK(t)
	if list, _ := data["sandboxFaults"].([]any); list == nil || len(list) != 0 {
		t.Fatalf("sandboxFaults after DELETE: %v", data)
	}
}

// Replicas share the rules through the database: another replica, with its own memory of
// them, applies a change within its cache time, and a removal too.
func TestSandboxFaultsShared(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := env.NewClient(t, "faults shared")
	other := faults.New(env.DB, faults.Config{CacheFor: 200 * time.Millisecond}, testsupport.Logger())
	res := *env.Resolver
	res.Faults = other
	cfg := env.REST
	cfg.Faults = other
	replica := httptest.NewServer(rest.New(&res, cfg))
	defer replica.Close()
	get := func() (int, string) {
		req, _ := http.NewRequest("GET", replica.URL+"/categories?pageSize=1", nil)
		req.Header.Set("X-API-KEY", a.APIKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, resp.Header.Get("Ponte-Injected-Fault")
	}
	if st, f := get(); st != 200 || f != "" {
		t.Fatalf("the replica before any rule: %d %q", st, f)
	}
	putFaults(t, env, a.APIKey, map[string]any{"route": "GET /categories", "kind": "SERVER_ERROR", "probability": 1})
	testsupport.Eventually(t, "the other replica applies the rule", 5*time.Second, func() bool {
		st, f := get()
		return st == 500 && f == "SERVER_ERROR"
	})
	env.Do(t, "DELETE", "/sandbox/faults", a.APIKey, nil).Want(200)
	testsupport.Eventually(t, "the other replica drops the rule", 5*time.Second, func() bool {
		st, _ := get()
		return st == 200
	})
}
