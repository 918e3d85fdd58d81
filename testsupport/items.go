package testsupport

import (
	"testing"
	"time"

	"ponte/model"
)

// Item reads an item through GET /items/{id}.
func (e *Env) Item(t testing.TB, key, id string) *model.Item {
	t.Helper()
	var it model.Item
	e.Do(t, "GET", "/items/"+id, key, nil).Want(200).JSON(&it)
	return &it
}

// WaitItem polls GET /items/{id} until done accepts the item, and returns the executions
// statuses seen on the way. It gives up after 30 s: executions in tests have no pacing.
func (e *Env) WaitItem(t testing.TB, key, id string, done func(*model.Item) bool) (*model.Item, []model.ExecutionStatus) {
	t.Helper()
	var seen []model.ExecutionStatus
	deadline := time.Now().Add(30 * time.Second)
	for {
		it := e.Item(t, key, id)
		if len(seen) == 0 || seen[len(seen)-1] != it.ExecutionStatus {
			seen = append(seen, it.ExecutionStatus)
		}
		if done(it) {
			return it, seen
		}
		if time.Now().After(deadline) {
			t.Fatalf("item %s never reached the expected state; last status %s/%s, seen %v", id, it.Status, it.ExecutionStatus, seen)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Settled reports an item no longer executing.
func Settled(it *model.Item) bool {
	switch it.Status {
	case model.ItemUpdating, model.ItemMerging:
		return false
	}
	return true
}

// Events lists the recorded events through GraphQL, optionally for one item.
func (e *Env) Events(t testing.TB, key, itemID string) []map[string]any {
	t.Helper()
	q := `query($id: UUID) { events(itemId: $id) { id event payload createdAt } }`
	vars := map[string]any{}
	if itemID != "" {
		vars["id"] = itemID
	}
	d := e.GraphQL(t, key, q, vars).OK(t)
	var out []map[string]any
	for _, ev := range d["events"].([]any) {
		out = append(out, ev.(map[string]any))
	}
	return out
}

// EventNames lists the names of events, in order.
func EventNames(events []map[string]any) []string {
	out := make([]string, len(events))
	for i, ev := range events {
		out[i] = ev["event"].(string)
	}
	return out
}

// AccountIDs maps each account subtype of an item (CHECKING_ACCOUNT, SAVINGS_ACCOUNT,
// CREDIT_CARD) to that account's id; with several of one subtype, the last listed.
func (e *Env) AccountIDs(t testing.TB, key, itemID string) map[string]string {
	t.Helper()
	var page model.AccountPage
	e.Do(t, "GET", "/accounts?itemId="+itemID, key, nil).Want(200).JSON(&page)
	out := map[string]string{}
	for _, a := range page.Results {
		out[a.Subtype] = a.ID.String()
	}
	return out
}
