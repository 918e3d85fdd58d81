package rest_test

// Items over time: auto-sync, executions shared by two processes, and the transaction
// events of successive updates.

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
)

func TestAutoSync(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "autosync").APIKey
	it := createItem(t, env, key, 0, okParams)
	first, _ := env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
	if first.NextAutoSyncAt == nil || first.NextAutoSyncAt.Sub(first.LastUpdatedAt.Time) < 23*3600e9 {
		t.Fatalf("nextAutoSyncAt %v after lastUpdatedAt %v", first.NextAutoSyncAt, first.LastUpdatedAt)
	}
	if err := env.Sync.SyncNow(t.Context(), it.ID); err != nil {
		t.Fatal(err)
	}
	second, _ := env.WaitItem(t, key, it.ID.String(), func(i *model.Item) bool {
		return testsupport.Settled(i) && i.LastUpdatedAt.After(first.LastUpdatedAt.Time)
	})
	if second.Status != model.ItemUpdated {
		t.Fatalf("auto-synced item %s", second.Status)
	}
	var syncEvent bool
	for _, ev := range env.Events(t, key, it.ID.String()) {
		p := ev["payload"].(map[string]any)
		if ev["event"] == "item/updated" && p["triggeredBy"] == "SYNC" {
			syncEvent = true
		}
	}
	if !syncEvent {
		t.Fatal("no item/updated with triggeredBy SYNC")
	}

	// An OUTDATED item is retried a bounded number of times, then leaves auto-sync.
	bad := createItem(t, env, key, 0, map[string]any{"user": "user-unavailable", "password": "password-ok"})
	got, _ := env.WaitItem(t, key, bad.ID.String(), testsupport.Settled)
	for i := 0; got.NextAutoSyncAt != nil; i++ {
		if i > 5 {
			t.Fatal("an OUTDATED item keeps being retried")
		}
		prev := got.UpdatedAt
		if err := env.Sync.SyncNow(t.Context(), bad.ID); err != nil {
			t.Fatal(err)
		}
		got, _ = env.WaitItem(t, key, bad.ID.String(), func(i *model.Item) bool { return testsupport.Settled(i) && i.UpdatedAt.After(prev.Time) })
	}
	if got.Status != model.ItemOutdated {
		t.Fatalf("status %s", got.Status)
	}
}

// Two processes working one database: every execution runs once, whoever takes it.
func TestTwoProcessesShareExecutions(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	env.AddProcess(t)
	key := env.NewClient(t, "replicas").APIKey
	var ids []string
	for i := 1; i <= 12; i++ {
		ids = append(ids, createItem(t, env, key, 0, map[string]any{"user": fmt.Sprintf("user-ok-perf-%d", i), "password": "password-ok"}).ID.String())
	}
	for _, id := range ids {
		it, _ := env.WaitItem(t, key, id, testsupport.Settled)
		if it.ExecutionStatus != model.ExecSuccess {
			t.Fatalf("item %s ended %s", id, it.ExecutionStatus)
		}
		counts := map[string]int{}
		accounts := map[any]int{}
		for _, ev := range env.Events(t, key, id) {
			counts[ev["event"].(string)]++
			if ev["event"] == "transactions/created" {
				accounts[ev["payload"].(map[string]any)["accountId"]]++
			}
		}
		if counts["item/created"] != 1 || counts["item/login_succeeded"] != 1 || len(accounts) == 0 {
			t.Fatalf("item %s events %v", id, counts)
		}
		for acc, n := range accounts {
			if n != 1 {
				t.Fatalf("item %s: %d transactions/created for account %v", id, n, acc)
			}
		}
	}
}

// Each update collects new rows, posts pending ones and drops some: the transaction events
// of an update name exactly what changed between the reads before and after it.
func TestTransactionEventsAcrossUpdates(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "tx events").APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
	id := it.ID.String()
	env.WaitItem(t, key, id, testsupport.Settled)
	var accounts model.AccountPage
	env.Do(t, "GET", "/accounts?itemId="+id, key, nil).Want(200).JSON(&accounts)
	snapshot := func() map[string]map[string]string { // account → id → updatedAt
		out := map[string]map[string]string{}
		for _, a := range accounts.Results {
			rows := map[string]string{}
			for _, tx := range readAll(t, env, key, "/v2/transactions?accountId="+a.ID.String(), nil) {
				rows[tx.ID.String()] = tx.UpdatedAt.Format(model.TimeLayout)
			}
			out[a.ID.String()] = rows
		}
		return out
	}
	before := snapshot()
	seen := len(env.Events(t, key, id))
	env.Do(t, "PATCH", "/items/"+id, key, map[string]any{}).Want(200)
	env.WaitItem(t, key, id, testsupport.Settled)
	after := snapshot()

	type change struct{ created, updated, deleted map[string]bool }
	want := map[string]*change{}
	for acc, rows := range after {
		c := &change{map[string]bool{}, map[string]bool{}, map[string]bool{}}
		for txID, at := range rows {
			if old, ok := before[acc][txID]; !ok {
				c.created[txID] = true
			} else if old != at {
				c.updated[txID] = true
			}
		}
		for txID := range before[acc] {
			if _, ok := rows[txID]; !ok {
				c.deleted[txID] = true
			}
		}
		want[acc] = c
	}
	got := map[string]*change{}
	for acc := range after {
		got[acc] = &change{map[string]bool{}, map[string]bool{}, map[string]bool{}}
	}
	anyChange := false
	for _, ev := range env.Events(t, key, id)[seen:] {
		p := ev["payload"].(map[string]any)
		name, _ := ev["event"].(string)
		if !strings.HasPrefix(name, "transactions/") {
			continue
		}
		anyChange = true
		if _, ok := p["clientUserId"]; ok {
			t.Fatal("transactions events must not carry clientUserId")
		}
		acc := p["accountId"].(string)
		switch name {
		case "transactions/created":
			if int(p["transactionsCount"].(float64)) != len(want[acc].created) || p["transactionsMinDate"] == nil ||
				p["transactionsCreatedAtFrom"] == nil || p["id"] == nil || p["triggeredBy"] != "CLIENT" {
				t.Fatalf("transactions/created %v, want %d rows", p, len(want[acc].created))
			}
			link, _ := p["createdTransactionsLink"].(string)
			if !strings.HasPrefix(link, env.URL+createdLinkPath(time.Now())+"?") {
				t.Fatalf("createdTransactionsLink %q", link)
			}
			for _, tx := range readCreatedLink(t, env, key, link) {
				got[acc].created[tx.ID.String()] = true
			}
		case "transactions/updated", "transactions/deleted":
			for _, x := range p["transactionIds"].([]any) {
				if name == "transactions/updated" {
					got[acc].updated[x.(string)] = true
				} else {
					got[acc].deleted[x.(string)] = true
				}
			}
		}
	}
	if !anyChange {
		t.Fatal("an update that changed transactions emitted no transaction event")
	}
	for acc := range after {
		for kind, pair := range map[string][2]map[string]bool{
			"created": {want[acc].created, got[acc].created}, "updated": {want[acc].updated, got[acc].updated},
			"deleted": {want[acc].deleted, got[acc].deleted}} {
			if fmt.Sprint(sortedKeys(pair[0])) != fmt.Sprint(sortedKeys(pair[1])) {
				t.Fatalf("account %s %s: events name %v, the reads show %v", acc, kind, sortedKeys(pair[1]), sortedKeys(pair[0]))
			}
		}
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
