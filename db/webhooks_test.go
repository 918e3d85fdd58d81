package db_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// deliveryStore opens a fresh database holding one application, one event and n pending
// deliveries of it (each to its own URL), written as the engine's fan-out writes them.
func deliveryStore(t *testing.T, n int) (*db.DB, []uuid.UUID) {
	t.Helper()
	ctx := context.Background()
	store, client := storeWithClient(t, "deliveries")
	ids := make([]uuid.UUID, n)
	err := store.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		ev := &db.Event{ClientID: client, Event: "item/updated", Payload: map[string]any{"itemId": uuid.NewString()}}
		if err := tx.InsertEvent(ctx, ev); err != nil {
			return err
		}
		rows := make([]db.DeliveryRow, n)
		for i := range rows {
			ids[i] = uuid.New()
			rows[i] = db.DeliveryRow{ID: ids[i], EventID: ev.ID, ClientID: client, URL: fmt.Sprint("https://example.com/hook/", i)}
		}
		return tx.InsertDeliveries(ctx, rows)
	})
	if err != nil {
		t.Fatal(err)
	}
	return store, ids
}

// loggedAttempt is a row of webhook_attempts as stored.
type loggedAttempt struct {
	attempt, latency int
	at               time.Time
	url              string
	code             *int
	errText, answer  *string
}

func attemptsOf(t *testing.T, store *db.DB, id uuid.UUID) []loggedAttempt {
	t.Helper()
	rows, err := store.Pool.Query(context.Background(), `SELECT attempt, latency_ms, attempted_at, url, status_code, error, response
		FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []loggedAttempt
	for rows.Next() {
		var a loggedAttempt
		if err := rows.Scan(&a.attempt, &a.latency, &a.at, &a.url, &a.code, &a.errText, &a.answer); err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func deliveryState(t *testing.T, store *db.DB, id uuid.UUID) (status string, attempts int, delivered bool) {
	t.Helper()
	if err := store.Pool.QueryRow(context.Background(), `SELECT status, attempts, delivered_at IS NOT NULL FROM webhook_deliveries WHERE id = $1`,
		id).Scan(&status, &attempts, &delivered); err != nil {
		t.Fatal(err)
	}
	return status, attempts, delivered
}

// RecordAttempts logs each attempt of its batch once, with its own fields (a missing status
// code, error or answer stays missing), and moves each delivery to its own status; a batch
// naming a delivery deleted meanwhile writes nothing at all, so redoing its attempts one at
// a time cannot log any twice.
func TestAttemptsRecordedInOneStatement(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, ids := deliveryStore(t, 4)
	at := time.Date(2026, 3, 4, 5, 6, 7, 891_000_000, time.UTC)
	ok, unavailable := 204, 503
	refused, answer := "dial tcp: connection refused", `{"received":true}`
	batch := []db.AttemptRecord{
		{DeliveryID: ids[0], Status: "DELIVERED", Attempt: &model.WebhookAttempt{Attempt: 1, AttemptedAt: model.NewTime(at), URL: "https://example.com/hook/0",
			StatusCode: &ok, LatencyMs: 12, Response: &answer}},
		{DeliveryID: ids[1], Status: "PENDING", Attempt: &model.WebhookAttempt{Attempt: 2, AttemptedAt: model.NewTime(at.Add(time.Second)), URL: "https://example.com/hook/1",
			LatencyMs: 5000, Error: &refused}},
		{DeliveryID: ids[2], Status: "FAILED", Attempt: &model.WebhookAttempt{Attempt: 3, AttemptedAt: model.NewTime(at.Add(2 * time.Second)), URL: "https://example.com/hook/2",
			StatusCode: &unavailable, LatencyMs: 40}},
	}
	if err := store.RecordAttempts(ctx, batch); err != nil {
		t.Fatal(err)
	}
	for i, r := range batch {
		got := attemptsOf(t, store, r.DeliveryID)
		if len(got) != 1 {
			t.Fatalf("delivery %d: %d attempts logged, want 1", i, len(got))
		}
		g, w := got[0], r.Attempt
		if g.attempt != w.Attempt || g.latency != w.LatencyMs || !g.at.Equal(w.AttemptedAt.Time) || g.url != w.URL ||
			fmt.Sprint(deref(g.code)) != fmt.Sprint(deref(w.StatusCode)) || fmt.Sprint(deref(g.errText)) != fmt.Sprint(deref(w.Error)) ||
			fmt.Sprint(deref(g.answer)) != fmt.Sprint(deref(w.Response)) {
			t.Fatalf("delivery %d logged %+v, want %+v", i, g, w)
		}
		status, attempts, delivered := deliveryState(t, store, r.DeliveryID)
		if status != r.Status || attempts != w.Attempt || delivered != (r.Status == "DELIVERED") {
			t.Fatalf("delivery %d is %s after %d attempts (delivered_at set: %v), want %s after %d", i, status, attempts, delivered, r.Status, w.Attempt)
		}
	}
	if got := attemptsOf(t, store, ids[3]); len(got) != 0 {
		t.Fatalf("a delivery outside the batch got %d attempts", len(got))
	}

	// A batch with a deleted delivery fails whole: neither it nor the others are logged.
	if _, err := store.Pool.Exec(ctx, `DELETE FROM webhook_deliveries WHERE id = $1`, ids[2]); err != nil {
		t.Fatal(err)
	}
	again := []db.AttemptRecord{
		{DeliveryID: ids[1], Status: "PENDING", Attempt: &model.WebhookAttempt{Attempt: 3, AttemptedAt: model.NewTime(at.Add(time.Minute)), URL: "https://example.com/hook/1", LatencyMs: 1}},
		{DeliveryID: ids[2], Status: "PENDING", Attempt: &model.WebhookAttempt{Attempt: 4, AttemptedAt: model.NewTime(at.Add(time.Minute)), URL: "https://example.com/hook/2", LatencyMs: 1}},
		{DeliveryID: ids[3], Status: "PENDING", Attempt: &model.WebhookAttempt{Attempt: 1, AttemptedAt: model.NewTime(at.Add(time.Minute)), URL: "https://example.com/hook/3", LatencyMs: 1}},
	}
	if err := store.RecordAttempts(ctx, again); err == nil {
		t.Fatal("a batch naming a deleted delivery was written")
	}
	if n1, n3 := len(attemptsOf(t, store, ids[1])), len(attemptsOf(t, store, ids[3])); n1 != 1 || n3 != 0 {
		t.Fatalf("the failed batch left %d and %d attempts, want the 1 and 0 from before", n1, n3)
	}
	if _, attempts, _ := deliveryState(t, store, ids[1]); attempts != 2 {
		t.Fatalf("the failed batch moved a delivery to %d attempts", attempts)
	}
}

// Deliveries reads many deliveries in one statement: each found one under its own id with
// its own row, a missing one absent, an id asked twice once.
func TestDeliveriesReadInOneStatement(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store, ids := deliveryStore(t, 3)
	missing := uuid.New()
	got, err := store.Deliveries(ctx, []uuid.UUID{ids[2], missing, ids[0], ids[1], ids[0]})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[missing] != nil {
		t.Fatalf("read %d deliveries (missing one found: %v), want 3", len(got), got[missing] != nil)
	}
	for i, id := range ids {
		d := got[id]
		if d == nil || d.ID != id || d.URL != fmt.Sprint("https://example.com/hook/", i) || d.Status != "PENDING" || d.Event != "item/updated" {
			t.Fatalf("delivery %d read as %+v", i, d)
		}
	}
	if none, err := store.Deliveries(ctx, []uuid.UUID{missing}); err != nil || len(none) != 0 {
		t.Fatalf("only a missing id: %v, %v", none, err)
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
