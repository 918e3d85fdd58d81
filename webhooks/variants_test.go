package webhooks_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
	"ponte/webhooks"
)

// Variant B: 400, 401, 403, 404 and 405 end a delivery at once, any other failure gets
// the schedule's three attempts, and item/login_succeeded and item/waiting_user_input
// follow their own schedule (here longer than the other, so its gaps tell which applied).
func TestVariantB(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	// The path names the status to answer: /code/404.
	rc.Answer = func(d testsupport.Delivery) (int, time.Duration) {
		code, _ := strconv.Atoi(strings.TrimPrefix(d.Path, "/code/"))
		return code, 0
	}
	env := testsupport.New(t, func(s *testsupport.Setup) {
		rc.Route(s)
		s.Webhooks.Variant, s.Webhooks.Timeout = webhooks.VariantB, time.Second
		s.Webhooks.Schedule = []time.Duration{50 * time.Millisecond, 50 * time.Millisecond}
		s.Webhooks.ShortSchedule = []time.Duration{300 * time.Millisecond, 300 * time.Millisecond}
	})
	a := newClient(t, env, "variant-b")
	to := func(code int) string { return fmt.Sprint(rc.URL, "/code/", code) }

	events := map[int]uuid.UUID{}
	for _, code := range []int{400, 401, 403, 404, 405, 410, 429, 500, 503, 204} {
		events[code] = record(t, env, a, "item/created", to(code))
	}
	waiting := record(t, env, a, "item/waiting_user_input", to(503))
	login := record(t, env, a, "item/login_succeeded", to(503))
	for code, ev := range events {
		d := settled(t, env, a, ev)[0]
		want, attempts := webhooks.StatusFailed, 3
		switch {
		case code < 300:
			want, attempts = webhooks.StatusDelivered, 1
		case slices.Contains([]int{400, 401, 403, 404, 405}, code):
			attempts = 1
		}
		if d.Status != want || d.Attempts != attempts || len(d.AttemptLog) != attempts {
			t.Errorf("answered %d: %s after %d attempts, want %s after %d", code, d.Status, d.Attempts, want, attempts)
		}
	}
	for name, ev := range map[string]uuid.UUID{"item/waiting_user_input": waiting, "item/login_succeeded": login} {
		d := settled(t, env, a, ev)[0]
		if d.Status != webhooks.StatusFailed || len(d.AttemptLog) != 3 {
			t.Fatalf("%s: %+v", name, d)
		}
		for i := 1; i < 3; i++ {
			if gap := d.AttemptLog[i].AttemptedAt.Sub(d.AttemptLog[i-1].AttemptedAt.Time); gap < 300*time.Millisecond {
				t.Fatalf("%s: attempt %d came %s after the one before; its schedule says 300ms", name, i+1, gap)
			}
		}
	}
	drained(t, env)
	// What the receiver got is final: one request for a 404, three for each 503 event.
	counts := map[string]int{}
	for _, d := range rc.Got() {
		counts[d.Path]++
	}
	if counts["/code/404"] != 1 || counts["/code/503"] != 9 {
		t.Fatalf("requests by path %v; want 1 answered 404, 9 answered 503 (three events, three attempts each)", counts)
	}
}

// The per-host cap holds with two processes delivering: under a cap of one, a slow
// receiver never has two requests at once (each starts after the one before was
// answered), whichever process sends it, and gets every delivery.
func TestHostCapAcrossProcesses(t *testing.T) {
	t.Parallel()
	const answerIn = 200 * time.Millisecond
	rc := testsupport.NewTLSReceiver(t)
	rc.Answer = func(testsupport.Delivery) (int, time.Duration) { return 200, answerIn }
	env := testsupport.New(t, func(s *testsupport.Setup) {
		rc.Route(s)
		s.Webhooks.PerHost, s.Webhooks.Timeout = 1, 5*time.Second
	})
	env.AddProcess(t)
	a := newClient(t, env, "host-cap")
	var events []uuid.UUID
	for i := range 6 {
		events = append(events, record(t, env, a, "item/updated", fmt.Sprint(rc.URL, "/hook/", i)))
	}
	for _, ev := range events {
		if d := settled(t, env, a, ev)[0]; d.Status != webhooks.StatusDelivered || d.Attempts != 1 {
			t.Fatalf("delivery %+v", d)
		}
	}
	got := rc.Got()
	if len(got) != len(events) {
		t.Fatalf("the receiver got %d requests, want %d", len(got), len(events))
	}
	slices.SortFunc(got, func(x, y testsupport.Delivery) int { return x.At.Compare(y.At) })
	for i := 1; i < len(got); i++ {
		if gap := got[i].At.Sub(got[i-1].At); gap < answerIn {
			t.Fatalf("request %d came %s after the one before, which took %s to answer: two at once under a cap of one", i+1, gap, answerIn)
		}
	}
}

// A host whose every shared slot another replica holds gets nothing from this process: its
// delivery goes back to the queue unsent, and is sent once a slot is given back.
func TestHostSlotsHeldElsewhere(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, func(s *testsupport.Setup) {
		rc.Route(s)
		s.Webhooks.PerHost = 1
	})
	host, holder := strings.TrimPrefix(rc.URL, "https://"), uuid.New()
	slot, ok, _, err := env.DB.TakeHostSlot(ctx, host, 1, holder, time.Minute)
	if err != nil || !ok {
		t.Fatalf("take the host's one slot: %v %v", ok, err)
	}
	a := newClient(t, env, "slots")
	ev := record(t, env, a, "item/updated", rc.URL+"/held")
	id := deliveries(t, env, a, ev)[0].ID
	testsupport.Eventually(t, "the delivery's job to be tried and put back (or sent)", 10*time.Second, func() bool {
		// A snooze gives the attempt back: attempted, yet waiting again.
		var back bool
		err := env.DB.Pool.QueryRow(ctx, `SELECT attempted_at IS NOT NULL AND state IN ('available', 'scheduled') FROM river_job
			WHERE kind = 'webhook_delivery' AND args->>'deliveryId' = $1`, id.String()).Scan(&back)
		return len(rc.Got()) > 0 || err == nil && back
	})
	if d := deliveries(t, env, a, ev)[0]; len(rc.Got()) != 0 || d.Attempts != 0 || d.Status != webhooks.StatusPending {
		t.Fatalf("sent while another replica held the host's slots: %d requests, delivery %+v", len(rc.Got()), d)
	}
	if err := env.DB.FreeHostSlot(ctx, host, slot, holder); err != nil {
		t.Fatal(err)
	}
	if d := settled(t, env, a, ev)[0]; d.Status != webhooks.StatusDelivered || d.Attempts != 1 || len(rc.Got()) != 1 {
		t.Fatalf("after the slot was given back: %+v, %d requests", d, len(rc.Got()))
	}
}

// An operator's change of a connector's health tells every enabled application, once per
// change, with connector/status_updated.
func TestConnectorStatus(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rc := testsupport.NewTLSReceiver(t)
	env := testsupport.New(t, rc.Route)
	a, b := newClient(t, env, "status-a"), newClient(t, env, "status-b")
	if _, err := env.Webhooks.Create(a.ctx, model.WebhookInput{Event: ptr("connector/status_updated"), URL: ptr(rc.URL + "/status")}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.Webhooks.SetConnectorStatus(ctx, 0, "BROKEN"); err == nil || !strings.Contains(err.Error(), "ONLINE, UNSTABLE or OFFLINE") {
		t.Fatalf("an unknown status: %v", err)
	}
	if _, err := env.Webhooks.SetConnectorStatus(ctx, 987654, model.HealthOffline); err == nil || !strings.Contains(err.Error(), "no connector 987654") {
		t.Fatalf("an unknown connector: %v", err)
	}
	statusEvents := func(c *client) []string {
		list, err := env.DB.Events(ctx, c.p.ClientID, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range list {
			if e.Event == "connector/status_updated" {
				out = append(out, fmt.Sprint(e.Payload["connectorId"], " ", e.Payload["data"].(map[string]any)["status"]))
			}
		}
		return out
	}
	for _, step := range []struct {
		status  model.HealthStatus
		changed bool
	}{{model.HealthUnstable, true}, {model.HealthUnstable, false}, {model.HealthOnline, true}} {
		changed, err := env.Webhooks.SetConnectorStatus(ctx, 0, step.status)
		if err != nil || changed != step.changed {
			t.Fatalf("set %s: changed %v (%v), want %v", step.status, changed, err, step.changed)
		}
	}
	want := []string{"0 UNSTABLE", "0 ONLINE"}
	if got := statusEvents(a); !slices.Equal(got, want) {
		t.Fatalf("a's events %v, want %v", got, want)
	}
	if got := statusEvents(b); !slices.Equal(got, want) {
		t.Fatalf("b's events %v, want %v", got, want)
	}
	got := rc.Await(t, "both changes at a's webhook", 10*time.Second, func(got []testsupport.Delivery) bool { return len(got) >= 2 })
	drained(t, env)
	if got = rc.Got(); len(got) != 2 || got[0].Payload["event"] != "connector/status_updated" || got[0].Payload["triggeredBy"] != "INTERNAL" {
		t.Fatalf("the receiver got %d requests: %v", len(got), got)
	}
}
