package itemsync_test

import (
	"context"
	"flag"
	"fmt"
	"testing"
	"time"

	"pgregory.net/rapid"

	"ponte/model"
	"ponte/testsupport"
)

// TestIncrementalSyncInvariants draws a custom user's rows (some inside the incremental
// window, some long before it), then a sequence of changes to them at the institution, each
// followed by an incremental or a full sync. After each sync the stored rows are the
// institution's (all of them after a full read; inside the window after an incremental one,
// the older ones as they were), and the transactions/* events announce each insert, change
// and deletion exactly once.
func TestIncrementalSyncInvariants(t *testing.T) {
	t.Parallel()
	// Each step is an execution: CI runs a few sequences; ask for more with -rapid.checks.
	if f := flag.Lookup("rapid.checks"); f != nil && !given("rapid.checks") {
		old := f.Value.String()
		_ = f.Value.Set("4")
		defer func() { _ = f.Value.Set(old) }()
	}
	env := testsupport.New(t)
	key := env.NewClient(t, "incr property").APIKey
	n := 0
	rapid.Check(t, func(r *rapid.T) {
		n++
		user := fmt.Sprintf("prop.user%d", n)
		type row struct {
			daysAgo int
			amount  int // centavos
		}
		var rows []row
		for range rapid.IntRange(1, 6).Draw(r, "rows") {
			rows = append(rows, row{rapid.SampledFrom([]int{1, 2, 3, 25, 40}).Draw(r, "daysAgo"), rapid.IntRange(1, 9).Draw(r, "amount") * -100})
		}
		body := func() map[string]any {
			var txs []any
			for j, x := range rows {
				txs = append(txs, map[string]any{"date": time.Now().UTC().AddDate(0, 0, -x.daysAgo).Format(time.DateOnly),
					"description": fmt.Sprintf("ROW %d", j), "amount": float64(x.amount) / 100})
			}
			return map[string]any{"username": user, "password": "segredo-1", "accounts": []any{map[string]any{"type": "BANK",
				"subtype": "CHECKING_ACCOUNT", "number": "33333-3", "balance": 100, "transactions": txs}}}
		}
		env.Do(t, "POST", "/sandbox/users", key, body()).Want(200)
		defer env.Do(t, "DELETE", "/sandbox/users/"+user, key, nil)
		var it model.Item
		env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "products": []string{"ACCOUNTS", "TRANSACTIONS"},
			"parameters": map[string]any{"user": user, "password": "segredo-1"}}).Want(200).JSON(&it)
		id := it.ID.String()
		env.WaitItem(t, key, id, testsupport.Settled)
		// The model: what is stored (amount and date), by description.
		value := func(x row) string {
			return fmt.Sprintf("%d@%s", x.amount, time.Now().UTC().AddDate(0, 0, -x.daysAgo).Format(time.DateOnly))
		}
		stored, storedDays := map[string]string{}, map[string]int{}
		for j, x := range rows {
			stored[fmt.Sprintf("ROW %d", j)], storedDays[fmt.Sprintf("ROW %d", j)] = value(x), x.daysAgo
		}
		check := func(step string) {
			got := map[string]string{}
			q, err := env.DB.Pool.Query(context.Background(), `SELECT data::jsonb->>'description',
				(amount * 100)::int || '@' || to_char(date AT TIME ZONE 'UTC', 'YYYY-MM-DD') FROM transactions WHERE item_id = $1`, it.ID)
			if err != nil {
				t.Fatal(err)
			}
			for q.Next() {
				var d, a string
				if err := q.Scan(&d, &a); err != nil {
					t.Fatal(err)
				}
				got[d] = a
			}
			q.Close()
			if fmt.Sprint(got) != fmt.Sprint(stored) {
				r.Fatalf("%s: stored %v, want %v", step, got, stored)
			}
		}
		check("first sync")
		created, _ := txEvents(t, env, id)
		if created["transactions/created"] != 1 {
			r.Fatalf("first sync fired %v", created)
		}
		for step := range rapid.IntRange(1, 4).Draw(r, "steps") {
			before, beforeIDs := txEvents(t, env, id)
			for j := range rows {
				if rapid.IntRange(0, 3).Draw(r, "change") == 0 {
					rows[j].amount -= 100
				}
			}
			if len(rows) > 1 && rapid.Bool().Draw(r, "drop last") {
				rows = rows[:len(rows)-1]
			}
			if rapid.Bool().Draw(r, "add") {
				rows = append(rows, row{rapid.SampledFrom([]int{1, 30}).Draw(r, "new daysAgo"), -700})
			}
			full := rapid.Bool().Draw(r, "full")
			env.Do(t, "PUT", "/sandbox/users/"+user, key, body()).Want(200)
			// The automatic sync reads incrementally; GraphQL asks for a full read (both past
			// the rate limit of PATCH /items/{id}).
			if full {
				var gq struct{ Errors []any }
				env.Do(t, "POST", "/graphql", key, map[string]any{"query": `mutation($id: UUID!) { updateItem(id: $id, input: {fullSync: true}) { id } }`,
					"variables": map[string]any{"id": id}}).Want(200).JSON(&gq)
				if len(gq.Errors) > 0 {
					r.Fatalf("updateItem: %v", gq.Errors)
				}
			} else {
				env.Do(t, "POST", "/sandbox/items/"+id+"/sync", key, nil).Want(200)
			}
			if it, _ := env.WaitItem(t, key, id, testsupport.Settled); it.Status != model.ItemUpdated {
				r.Fatalf("item ended %s/%s", it.Status, it.ExecutionStatus)
			}
			// The model's sync: a full read sees every row, an incremental one its window.
			want, wantDays := map[string]string{}, map[string]int{}
			seen := map[string]bool{}
			for j, x := range rows {
				d := fmt.Sprintf("ROW %d", j)
				seen[d] = true
				if full || x.daysAgo <= 3 {
					want[d], wantDays[d] = value(x), x.daysAgo
				} else if a, ok := stored[d]; ok && storedDays[d] > 3 {
					// Rows are the same row by their place in the list (the sandbox's ids),
					// so a row whose date left the window while it was stored inside it is,
					// to an incremental read, a row gone from the window: deleted.
					want[d], wantDays[d] = a, storedDays[d]
				}
			}
			oldest := 0
			for _, x := range rows {
				oldest = max(oldest, x.daysAgo)
			}
			var wantCreated, wantUpdated, wantDeleted int
			for d, a := range stored {
				// An incremental read answers for its window; a full one for the dates it
				// delivers (rows older than its earliest are history it no longer shows).
				if _, kept := want[d]; seen[d] && !kept {
					wantDeleted++ // its date left the window (above)
					continue
				}
				old := !seen[d] && ((!full && storedDays[d] > 3) || (full && storedDays[d] > oldest))
				if !seen[d] && !old {
					wantDeleted++
					continue
				}
				if !seen[d] {
					want[d], wantDays[d] = a, storedDays[d] // before the window, gone at the institution, kept
				}
			}
			for d, a := range want {
				if b, ok := stored[d]; !ok {
					wantCreated++
				} else if a != b {
					wantUpdated++
				}
			}
			stored, storedDays = want, wantDays
			check(fmt.Sprintf("step %d (full %v)", step, full))
			after, afterIDs := txEvents(t, env, id)
			if created := after["transactions/created"] - before["transactions/created"]; (created > 0) != (wantCreated > 0) {
				r.Fatalf("step %d: %d transactions/created events, want rows created %d", step, created, wantCreated)
			}
			for _, k := range []struct {
				name string
				want int
			}{{"transactions/updated", wantUpdated}, {"transactions/deleted", wantDeleted}} {
				ids := afterIDs[k.name][len(beforeIDs[k.name]):]
				once := map[string]bool{}
				for _, x := range ids {
					if once[x] {
						r.Fatalf("step %d: %s names %s twice", step, k.name, x)
					}
					once[x] = true
				}
				if len(ids) != k.want {
					r.Fatalf("step %d: %s named %d rows, want %d", step, k.name, len(ids), k.want)
				}
			}
		}
	})
}

func given(name string) bool {
	found := false
	flag.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}
