package rest_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

// A sandbox item on a test clock: created and synced in clock time, left alone by the
// periodic automatic sync though its nextAutoSyncAt passed in real time, and synced by an
// advance at each nextAutoSyncAt it passes (triggeredBy SYNC, events dated then). An item
// off the clock is untouched by the advance. Refusals: another application's clock 404, a
// connector whose isSandbox is false 403, a malformed id 400.
func TestItemsOnATestClock(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "item clocks A"), env.NewClient(t, "item clocks B")
	key := a.APIKey
	ok := map[string]any{"user": "user-ok", "password": "password-ok"}
	// A clock in the past of real time, so that the items' automatic sync is due in real
	// time too: only the clock may run it.
	clock := env.Do(t, "POST", "/sandbox/test-clocks", key, map[string]any{"name": "items", "frozenTime": "2020-01-01T12:00:00Z"}).Want(200).String("id")

	on := env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": ok, "testClockId": clock}).Want(200).Map()
	if on["createdAt"] != "2020-01-01T12:00:00.000Z" || on["testClockId"] != clock {
		t.Fatalf("item on the clock: %v", on)
	}
	onID := on["id"].(string)
	it, _ := env.WaitItem(t, key, onID, testsupport.Settled)
	if it.Status != model.ItemUpdated || it.LastUpdatedAt == nil || it.LastUpdatedAt.UTC().Format(time.RFC3339) != "2020-01-01T12:00:00Z" ||
		it.NextAutoSyncAt == nil || it.NextAutoSyncAt.UTC().Format(time.RFC3339) != "2020-01-02T12:00:00Z" {
		t.Fatalf("first sync on the clock: %s %v %v", it.Status, it.LastUpdatedAt, it.NextAutoSyncAt)
	}
	off := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
	if _, has := env.Do(t, "GET", "/items/"+off.ID.String(), key, nil).Want(200).Map()["testClockId"]; has {
		t.Fatal("an item off any clock names one")
	}
	env.WaitItem(t, key, off.ID.String(), testsupport.Settled)

	ctx := context.Background()
	syncs := func(id string) []string {
		t.Helper()
		itemID := uuid.MustParse(id)
		events, err := env.DB.Events(ctx, uuid.MustParse(a.ID), &itemID)
		if err != nil {
			t.Fatal(err)
		}
		var at []string
		for _, e := range events {
			if e.Event == "item/updated" && e.Payload["triggeredBy"] == "SYNC" {
				at = append(at, e.CreatedAt.UTC().Format(time.RFC3339))
			}
		}
		return at
	}
	// The periodic automatic sync takes every item due in one batch: once the item off the
	// clock has synced, the one on the clock, due in real time since 2020, would have too.
	if err := env.Sync.SyncNow(ctx, off.ID); err != nil {
		t.Fatal(err)
	}
	testsupport.Eventually(t, "the periodic sync of the item off the clock", 20*time.Second, func() bool {
		return len(syncs(off.ID.String())) == 1 && env.Item(t, key, off.ID.String()).Status == model.ItemUpdated
	})
	if got := syncs(onID); len(got) != 0 || env.Item(t, key, onID).Status != model.ItemUpdated {
		t.Fatalf("the periodic sync ran an item on a clock: %v", got)
	}
	offBefore := env.Item(t, key, off.ID.String())

	// Two and a half clock days: the syncs due at noon of the 2nd and of the 3rd run.
	env.Do(t, "POST", "/sandbox/test-clocks/"+clock+"/advance", key, map[string]any{"frozenTime": "2020-01-04T00:00:00Z"}).Want(200)
	testsupport.Eventually(t, "the clock's advance", 20*time.Second, func() bool {
		return env.Do(t, "GET", "/sandbox/test-clocks/"+clock, key, nil).Want(200).String("status") == "ready"
	})
	got := env.Do(t, "GET", "/items/"+onID, key, nil).Want(200).Map()
	if got["status"] != "UPDATED" || got["lastUpdatedAt"] != "2020-01-03T12:00:00.000Z" || got["updatedAt"] != "2020-01-03T12:00:00.000Z" ||
		got["nextAutoSyncAt"] != "2020-01-04T12:00:00.000Z" {
		t.Fatalf("item on the clock after the advance: %v %v %v %v", got["status"], got["lastUpdatedAt"], got["updatedAt"], got["nextAutoSyncAt"])
	}
	if at := syncs(onID); len(at) != 2 || at[0] != "2020-01-02T12:00:00Z" || at[1] != "2020-01-03T12:00:00Z" {
		t.Fatalf("automatic syncs of the advance: %v", at)
	}
	if after := env.Item(t, key, off.ID.String()); len(syncs(off.ID.String())) != 1 || !after.UpdatedAt.Equal(offBefore.UpdatedAt.Time) {
		t.Fatalf("the advance moved the item off the clock: %v, then %v", offBefore.UpdatedAt, after.UpdatedAt)
	}

	// GraphQL creates on a clock too, at the clock's time.
	const create = `mutation($in: CreateItemInput!) { createItem(input: $in) { id createdAt testClockId } }`
	g := env.GraphQL(t, key, create, map[string]any{"in": map[string]any{"connectorId": 0, "parameters": map[string]any{"user": "user-ok", "password": "password-ok"}, "testClockId": clock}}).OK(t)["createItem"].(map[string]any)
	if g["createdAt"] != "2020-01-04T00:00:00.000Z" || g["testClockId"] != clock {
		t.Fatalf("GraphQL item on the clock: %v", g)
	}
	env.WaitItem(t, key, g["id"].(string), testsupport.Settled)

	foreign := env.Do(t, "POST", "/sandbox/test-clocks", b.APIKey, map[string]any{"name": "b", "frozenTime": "2020-01-01T00:00:00Z"}).Want(200).String("id")
	fresh := map[string]any{"user": "user-ok", "password": "password-ok"}
	env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": fresh, "testClockId": foreign}).WantError(404, model.CodeTestClockNotFound.String())
	env.GraphQL(t, key, create, map[string]any{"in": map[string]any{"connectorId": 0, "parameters": fresh, "testClockId": foreign}}).WantCode(t, model.CodeTestClockNotFound.String())
	env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": fresh, "testClockId": "not-a-clock"}).WantError(400, model.CodeInvalidParameter.String())
	real := map[string]any{"cnpj": "11222333000181", "cpf": happyCPF, "password": "12345678", "profile": "master"}
	env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 2, "parameters": real, "testClockId": clock}).WantError(403, model.CodeSandboxOnly.String())
	if n := env.GraphQL(t, key, `{ itemConnection { totalCount } }`, nil).OK(t)["itemConnection"].(map[string]any)["totalCount"]; n != float64(3) {
		t.Fatalf("refused items were written: %v items", n)
	}
}
