package webhooks_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
	"ponte/testsupport"
)

// quietDeliveries writes n pending deliveries of one event of c's with no job behind them,
// so only the test reads and logs them.
func quietDeliveries(t *testing.T, env *testsupport.Env, c *client, n int) []uuid.UUID {
	t.Helper()
	ids := make([]uuid.UUID, n)
	err := env.DB.InTx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		ev := &db.Event{ClientID: c.p.ClientID, Event: "item/updated", Payload: map[string]any{"itemId": uuid.NewString(), "triggeredBy": "USER"}}
		if err := tx.InsertEvent(ctx, ev); err != nil { // c has no webhooks: the engine adds no delivery
			return err
		}
		rows := make([]db.DeliveryRow, n)
		for i := range rows {
			ids[i] = uuid.New()
			rows[i] = db.DeliveryRow{ID: ids[i], EventID: ev.ID, ClientID: c.p.ClientID, URL: fmt.Sprint("https://example.com/quiet/", i)}
		}
		return tx.InsertDeliveries(ctx, rows)
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// attemptCounts counts each delivery's logged attempts.
func attemptCounts(t *testing.T, env *testsupport.Env, ids []uuid.UUID) map[uuid.UUID]int {
	t.Helper()
	rows, err := env.DB.Pool.Query(context.Background(), `SELECT delivery_id, count(*) FROM webhook_attempts WHERE delivery_id = ANY($1) GROUP BY 1`, ids)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[uuid.UUID]int{}
	for rows.Next() {
		var id uuid.UUID
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			t.Fatal(err)
		}
		out[id] = n
	}
	return out
}

func attemptFor(id uuid.UUID, n int) db.AttemptRecord {
	code := 200
	return db.AttemptRecord{DeliveryID: id, Status: "DELIVERED", Attempt: &model.WebhookAttempt{Attempt: n, AttemptedAt: model.NewTime(time.Now()),
		URL: "https://example.com/quiet", StatusCode: &code, LatencyMs: 3}}
}

// A batch of attempt logs naming a delivery deleted meanwhile fails as one statement; the
// engine then logs the others one at a time: each exactly once, only the deleted one's
// attempt refused. Gathered by the shared batches from concurrent deliveries, however
// they group, the same holds.
func TestAttemptBatchWithDeletedDelivery(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := testsupport.New(t)
	a := newClient(t, env, "attempt-batch")
	ids := quietDeliveries(t, env, a, 5)
	env.Exec(t, `DELETE FROM webhook_deliveries WHERE id = $1`, ids[2])
	batch := make([]db.AttemptRecord, len(ids))
	for i, id := range ids {
		batch[i] = attemptFor(id, 1)
	}
	errs := env.Webhooks.RecordAttemptBatch(ctx, batch)
	counts := attemptCounts(t, env, ids)
	for i, id := range ids {
		if deleted := i == 2; (errs[i] != nil) != deleted || counts[id] != map[bool]int{true: 0, false: 1}[deleted] {
			t.Fatalf("attempt %d (deleted delivery: %v): error %v, logged %d times", i, deleted, errs[i], counts[id])
		}
	}
	for i, id := range ids {
		if i == 2 {
			continue
		}
		d, err := env.Webhooks.ReadDelivery(ctx, id)
		if err != nil || d == nil || d.Status != "DELIVERED" || d.Attempts != 1 {
			t.Fatalf("delivery %d after the fallback: %+v, %v", i, d, err)
		}
	}

	// Through the shared batches, concurrently: many deliveries, one deleted.
	many := quietDeliveries(t, env, a, 40)
	env.Exec(t, `DELETE FROM webhook_deliveries WHERE id = $1`, many[17])
	logErrs := make([]error, len(many))
	var wg sync.WaitGroup
	for i, id := range many {
		wg.Add(1)
		go func() {
			defer wg.Done()
			logErrs[i] = env.Webhooks.LogAttempt(ctx, attemptFor(id, 1))
		}()
	}
	wg.Wait()
	counts = attemptCounts(t, env, many)
	for i, id := range many {
		if deleted := i == 17; (logErrs[i] != nil) != deleted || counts[id] != map[bool]int{true: 0, false: 1}[deleted] {
			t.Fatalf("concurrent attempt %d (deleted delivery: %v): error %v, logged %d times", i, deleted, logErrs[i], counts[id])
		}
	}
}

// Deliveries read at the same time share statements, yet each caller gets its own
// delivery, and one asking for a delivery that is gone gets nothing (no error), whatever
// the others asked for.
func TestDeliveryReadsBatched(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	env := testsupport.New(t)
	a := newClient(t, env, "read-batch")
	ids := quietDeliveries(t, env, a, 60)
	asks := append([]uuid.UUID{}, ids...)
	for range 20 {
		asks = append(asks, uuid.New()) // gone, or never there
	}
	asks = append(asks, ids[:10]...) // asked twice at once
	for round := range 3 {
		got, errs := make([]*db.PendingDelivery, len(asks)), make([]error, len(asks))
		var wg sync.WaitGroup
		for i, id := range asks {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], errs[i] = env.Webhooks.ReadDelivery(ctx, id)
			}()
		}
		wg.Wait()
		for i, id := range asks {
			known := i < len(ids) || i >= len(ids)+20
			switch {
			case errs[i] != nil:
				t.Fatalf("round %d, read %d: %v", round, i, errs[i])
			case !known && got[i] != nil:
				t.Fatalf("round %d: a missing delivery read as %+v", round, got[i])
			case known && (got[i] == nil || got[i].ID != id || got[i].URL != fmt.Sprint("https://example.com/quiet/", slices.Index(ids, id)) ||
				got[i].ClientID != a.p.ClientID || got[i].Status != "PENDING"):
				t.Fatalf("round %d: delivery %s read as %+v", round, id, got[i])
			}
		}
	}
}
