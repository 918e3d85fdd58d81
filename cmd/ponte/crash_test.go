package main_test

// Crash survival: the real binary is killed with SIGKILL in the middle of work (an
// execution, failing webhook deliveries, a settlement) and restarted; durable jobs finish it.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// A service killed with SIGKILL in the middle of an execution leaves it to the next
// process, which finishes it exactly once.
func TestKilledMidExecution(t *testing.T) {
	t.Parallel()
	env, keys := configured(t, "PONTE_SANDBOX_STEP_DELAY=200ms", "PONTE_JOB_TIMEOUT=2s", "PONTE_JOB_RESCUE_AFTER=3s", "PONTE_WEBHOOK_TIMEOUT=500ms")
	s := start(t, env...)
	key := apiKey(t, s.url, keys)
	status, item := do(t, "POST", s.url+"/items", key, map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok", "password": "password-ok"}})
	if status != 200 {
		t.Fatalf("create item: %d %v", status, item)
	}
	id := item["id"].(string)
	waitFor(t, "a collection step", func() bool {
		_, it := do(t, "GET", s.url+"/items/"+id, key, nil)
		return strings.HasSuffix(fmt.Sprint(it["executionStatus"]), "_IN_PROGRESS") && it["executionStatus"] != "LOGIN_IN_PROGRESS"
	})
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-s.exited
	s.cmd.ProcessState = &os.ProcessState{} // already reaped: stop() has nothing to do

	s2 := start(t, env...)
	key = apiKey(t, s2.url, keys)
	var final map[string]any
	waitFor(t, "the execution to finish after the restart", func() bool {
		_, final = do(t, "GET", s2.url+"/items/"+id, key, nil)
		return final["status"] == "UPDATED"
	})
	if final["executionStatus"] != "SUCCESS" {
		t.Fatalf("final item %v", final)
	}
	// Nothing duplicated: one item/created, one login, and the events query works.
	status, ev := do(t, "POST", s2.url+"/graphql", key, map[string]any{"query": `query($id: UUID) { events(itemId: $id) { event } }`, "variables": map[string]any{"id": id}})
	if status != 200 {
		t.Fatalf("events: %d %v", status, ev)
	}
	counts := map[string]int{}
	for _, e := range ev["data"].(map[string]any)["events"].([]any) {
		counts[e.(map[string]any)["event"].(string)]++
	}
	if counts["item/created"] != 1 || counts["item/login_succeeded"] != 1 || counts["transactions/created"] == 0 {
		t.Fatalf("events after the restart: %v", counts)
	}
}

// The receiver is down while a thousand events are produced; the service is killed with
// SIGKILL while deliveries are failing and retrying, and restarted; the receiver comes
// back; every event arrives at least once. The schedule (three attempts, 90 s, three
// more) outlasts the outage, as the real one (hours) outlasts a restart; item/login_succeeded,
// which variant A gives only three immediate attempts, gets a fourth here so that it can
// outlast the outage too. The outage lasts as long as the thousand events take to record,
// which on a loaded 2-core machine was over 40 s: the gap is 90 s so that the first events'
// last attempt still falls after the receiver's return.
func TestWebhooksSurviveKill(t *testing.T) {
	t.Parallel()
	// The receiver's address, unused while it is down.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	// Waits of at most 90 s keep each retry inside the 3 minutes the test gives the return;
	// eight of them keep a delivery alive through a receiver down for as long as a loaded
	// machine takes to record the events, kill and restart (three of them once ran out).
	env, keys := configured(t, "PONTE_SANDBOX_STEP_DELAY=0s",
		"PONTE_ALLOW_INSECURE_WEBHOOKS=1", "PONTE_WEBHOOK_TIMEOUT=1s",
		"PONTE_WEBHOOK_SCHEDULE=0s,0s,90s,0s,90s,0s,90s,0s,90s,0s,90s,0s,90s,0s,90s,0s,90s", "PONTE_WEBHOOK_SHORT_SCHEDULE=0s,0s,90s",
		"PONTE_JOB_TIMEOUT=4s", "PONTE_JOB_RESCUE_AFTER=6s")
	dbURL := strings.TrimPrefix(env[0], "DATABASE_URL=")
	s := start(t, env...)
	key := apiKey(t, s.url, keys)
	if status, m := do(t, "POST", s.url+"/webhooks", key, map[string]any{"event": "all", "url": "http://" + addr + "/hook"}); status != 200 {
		t.Fatalf("create webhook: %d %v", status, m)
	}
	eventIDs := func(url, key string) []string {
		status, m := do(t, "POST", url+"/graphql", key, map[string]any{"query": `{ events { id } }`})
		if status != 200 {
			t.Fatalf("events: %d %v", status, m)
		}
		var ids []string
		for _, e := range m["data"].(map[string]any)["events"].([]any) {
			ids = append(ids, e.(map[string]any)["id"].(string))
		}
		return ids
	}
	attempts := func(url, key string) int {
		_, m := do(t, "GET", url+"/webhooks", key, nil)
		id := m["results"].([]any)[0].(map[string]any)["id"].(string)
		_, page := do(t, "GET", url+"/webhooks/"+id+"/deliveries?pageSize=500", key, nil)
		n := 0
		for _, d := range page["results"].([]any) {
			n += int(d.(map[string]any)["attempts"].(float64))
		}
		return n
	}
	began := time.Now()
	for i := 0; len(eventIDs(s.url, key)) < 1000; i++ {
		for j := range 20 {
			status, m := do(t, "POST", s.url+"/items", key, map[string]any{"connectorId": 0,
				"parameters": map[string]any{"user": "user-ok-perf-1", "password": fmt.Sprint("password-", i*20+j)}})
			if status != 200 {
				t.Fatalf("create item: %d %v", status, m)
			}
		}
		if i > 40 {
			t.Fatal("too few events from 800 items")
		}
	}
	waitFor(t, "failing delivery attempts", func() bool { return attempts(s.url, key) > 100 })
	t.Logf("%d events recorded in %s with the receiver down", len(eventIDs(s.url, key)), time.Since(began))
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-s.exited
	s.cmd.ProcessState = &os.ProcessState{}

	s2 := start(t, env...)
	key = apiKey(t, s2.url, keys)
	var mu sync.Mutex
	got := map[string]int{}
	receiver := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got[r.Header.Get("webhook-id")]++
		mu.Unlock()
	})}
	rl, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("receiver address taken meanwhile: %v", err)
	}
	go func() { _ = receiver.Serve(rl) }()
	defer receiver.Close()

	// Items still running at the kill finish after the restart; then the events are final.
	waitFor(t, "every item to settle", func() bool {
		status, m := do(t, "POST", s2.url+"/graphql", key, map[string]any{"query": `{ itemConnection(first: 500) { nodes { status } } }`})
		if status != 200 {
			return false
		}
		for _, n := range m["data"].(map[string]any)["itemConnection"].(map[string]any)["nodes"].([]any) {
			if n.(map[string]any)["status"] == "UPDATING" {
				return false
			}
		}
		return true
	})
	ids := eventIDs(s2.url, key)
	back := time.Now()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		mu.Lock()
		missing := 0
		for _, id := range ids {
			if got[id] == 0 {
				missing++
			}
		}
		mu.Unlock()
		if missing == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d events never arrived; jobs not completed: %s", missing, len(ids), unfinishedJobs(t, dbURL))
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("%d events, every one delivered within %s of the receiver's return", len(ids), time.Since(back))
}

// unfinishedJobs describes delivery jobs that have not completed, for a failure message.
func unfinishedJobs(t *testing.T, dbURL string) string {
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		return err.Error()
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(context.Background(), `SELECT state, count(*), max(attempt), min((errors[array_length(errors, 1)])->>'error'), min(scheduled_at)::text
		FROM river_job WHERE kind = 'webhook_delivery' AND state <> 'completed' GROUP BY state`)
	if err != nil {
		return err.Error()
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var state string
		var n, attempt int
		var msg, at *string
		_ = rows.Scan(&state, &n, &attempt, &msg, &at)
		out = append(out, fmt.Sprintf("%s ×%d (attempt %d, scheduled %v): %v", state, n, attempt, deref(at), deref(msg)))
	}
	var st []string
	srows, _ := conn.Query(context.Background(), `SELECT status || ' ' || count(*) FROM webhook_deliveries GROUP BY status`)
	for srows.Next() {
		var s string
		_ = srows.Scan(&s)
		st = append(st, s)
	}
	srows.Close()
	return strings.Join(out, "; ") + " | deliveries: " + strings.Join(st, ", ")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// A payment whose settlement step is running when the service is killed finishes after the
// restart, once, and soon: with the queue's default time-outs (River would retry the step
// after 3 minutes), the next process takes the step back as soon as it sees the dead
// process's liveness lock free (db/liveness.go).
func TestPaymentSurvivesKill(t *testing.T) {
	t.Parallel()
	env, keys := configured(t, "PONTE_PAYMENT_STEP_DELAY=1s", "PONTE_WEBHOOK_TIMEOUT=500ms")
	dbURL := strings.TrimPrefix(env[0], "DATABASE_URL=")
	s := start(t, env...)
	key := apiKey(t, s.url, keys)
	id := settlingIntent(t, s.url, key)
	waitFor(t, "settlement to start with its next step running", func() bool {
		_, n := do(t, "GET", s.url+"/payments/intents/"+id, key, nil)
		return n["status"] == "PAYMENT_SETTLEMENT_PROCESSING" && runningJobs(t, dbURL, "payment_intent_step") > 0
	})
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	<-s.exited
	s.cmd.ProcessState = &os.ProcessState{}

	s2 := start(t, env...)
	key = apiKey(t, s2.url, keys)
	var final map[string]any
	moved := time.Duration(0)
	waitWithin(t, "the payment to complete after the restart", time.Minute, func() bool {
		_, final = do(t, "GET", s2.url+"/payments/intents/"+id, key, nil)
		if moved == 0 && final["status"] != "PAYMENT_SETTLEMENT_PROCESSING" {
			moved = time.Since(killed)
		}
		return final["status"] == "PAYMENT_COMPLETED"
	})
	t.Logf("from the kill: the step running then done after %s, the payment completed after %s (step delay 1s)",
		moved.Round(10*time.Millisecond), time.Since(killed).Round(10*time.Millisecond))
	var steps []string
	for _, st := range final["statusHistory"].([]any) {
		steps = append(steps, st.(map[string]any)["status"].(string))
	}
	want := []string{"STARTED", "ENQUEUED", "CONSENT_AWAITING_AUTHORIZATION", "CONSENT_AUTHORIZED", "PAYMENT_PENDING",
		"PAYMENT_SETTLEMENT_PROCESSING", "PAYMENT_SETTLEMENT_DEBTOR_ACCOUNT", "PAYMENT_COMPLETED"}
	if fmt.Sprint(steps) != fmt.Sprint(want) {
		t.Fatalf("steps %v, want each once: %v", steps, want)
	}
}

// settlingIntent makes a sandbox payment intent (connector 5) and authorizes it: its
// settlement steps then run as jobs. It returns the intent's id.
func settlingIntent(t *testing.T, base, key string) string {
	t.Helper()
	recipient(t, base, key)
	return authorizedIntent(t, base, key)
}

// recipient makes the application's default payment recipient.
func recipient(t *testing.T, base, key string) {
	t.Helper()
	_, inst := do(t, "GET", base+"/payments/recipients/institutions?name=Nubank", key, nil)
	instID := inst["results"].([]any)[0].(map[string]any)["id"]
	if status, r := do(t, "POST", base+"/payments/recipients", key, map[string]any{"name": "Loja", "taxNumber": "11222333000181", "isDefault": true,
		"paymentInstitutionId": instID, "account": map[string]any{"branch": "1", "number": "123", "type": "CHECKING_ACCOUNT"}}); status != 200 {
		t.Fatalf("recipient: %d %v", status, r)
	}
}

// authorizedIntent pays a new sandbox request to the default recipient through connector
// 5, the payer authorizing at once; it returns the intent's id.
func authorizedIntent(t *testing.T, base, key string) string {
	t.Helper()
	_, req := do(t, "POST", base+"/payments/requests", key, map[string]any{"amount": 10, "isSandbox": true})
	status, intent := do(t, "POST", base+"/payments/intents", key, map[string]any{"paymentRequestId": req["id"], "connectorId": 5,
		"parameters": map[string]any{"cpf": "11144477735"}})
	if status != 200 {
		t.Fatalf("intent: %d %v", status, intent)
	}
	resp, err := http.PostForm(intent["consentUrl"].(string), url.Values{"decision": {"authorize"}})
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("consent: %v %v", err, resp)
	}
	resp.Body.Close()
	return intent["id"].(string)
}

// runningJobs counts the jobs of kind marked running in the queue.
func runningJobs(t *testing.T, dbURL, kind string) int {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), `SELECT count(*) FROM river_job WHERE state = 'running' AND kind = $1`, kind).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// waitWithin polls until cond holds or limit passes: a bound on a wait, not a timing
// assertion (callers log the figure).
func waitWithin(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", limit, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// configured is a service on a fresh test database with a configured client application
// and master key (so that a restart keeps both), plus extra environment.

// Two replicas that have run for a while: whichever one runs a payment's settlement step is
// killed with SIGKILL, and the other takes the step back at its next look (every 2 s).
func TestPaymentResumesOnSurvivor(t *testing.T) {
	t.Parallel()
	env, keys := configured(t, "PONTE_PAYMENT_STEP_DELAY=2s", "PONTE_WEBHOOK_TIMEOUT=500ms")
	dbURL := strings.TrimPrefix(env[0], "DATABASE_URL=")
	replicas := []*server{start(t, env...), start(t, env...)}
	ids := map[string]*server{}
	for _, s := range replicas {
		ids[replicaID(t, s)] = s
	}
	key := apiKey(t, replicas[0].url, keys)
	// A replica rescues others' jobs once it has held its own lock 5 s (steadyFor): the
	// payment starts after both have, as in a deployment that has been running.
	for id := range ids {
		waitFor(t, "replica "+id+" to hold its liveness lock 6 s", func() bool { return livenessHeldFor(t, dbURL, id) >= 6*time.Second })
	}
	id := settlingIntent(t, replicas[0].url, key)
	var owner string
	waitFor(t, "a settlement step running", func() bool {
		owner = stepOwner(t, dbURL)
		return owner != ""
	})
	victim := ids[owner]
	if victim == nil {
		t.Fatalf("step run by %q, not a replica of this test", owner)
	}
	survivor := replicas[0]
	if victim == survivor {
		survivor = replicas[1]
	}
	_, n := do(t, "GET", survivor.url+"/payments/intents/"+id, key, nil)
	before := n["status"]
	if err := victim.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	<-victim.exited
	victim.cmd.ProcessState = &os.ProcessState{}
	moved := time.Duration(0)
	waitWithin(t, "the payment to complete on the survivor", time.Minute, func() bool {
		_, n := do(t, "GET", survivor.url+"/payments/intents/"+id, key, nil)
		if moved == 0 && n["status"] != before {
			moved = time.Since(killed)
		}
		return n["status"] == "PAYMENT_COMPLETED"
	})
	t.Logf("killed the replica running the step from %s: the step done %s after the kill, the payment completed after %s (step delay 2s)",
		before, moved.Round(10*time.Millisecond), time.Since(killed).Round(10*time.Millisecond))
}

// livenessHeldFor is how long the connection holding a replica's liveness lock (see
// db/liveness.go) has been open, as PostgreSQL tells it, or 0 while no connection holds it.
func livenessHeldFor(t *testing.T, dbURL, replica string) time.Duration {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var seconds float64
	err = conn.QueryRow(context.Background(), `SELECT extract(epoch FROM clock_timestamp() - a.backend_start)::float8
		FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
		WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
		  AND l.classid = hashtext('ponte.liveness')::oid AND l.objid = hashtext($1)::oid`, replica).Scan(&seconds)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return time.Duration(seconds * float64(time.Second))
}

// stepOwner is the client id of the process running a payment settlement step, or "".
func stepOwner(t *testing.T, dbURL string) string {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var owner string
	err = conn.QueryRow(context.Background(), `SELECT attempted_by[cardinality(attempted_by)] FROM river_job
		WHERE state = 'running' AND kind = 'payment_intent_step' LIMIT 1`).Scan(&owner)
	if errors.Is(err, pgx.ErrNoRows) {
		return ""
	} else if err != nil {
		t.Fatal(err)
	}
	return owner
}
