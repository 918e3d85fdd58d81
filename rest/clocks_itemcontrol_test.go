package rest_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/testsupport"
)

// Control actions on an item that lives on a test clock are dated by the clock, as the rest
// of the item is: a status set, a reset login and a sync run now each leave the item and its
// item/* event at the clock's time, never at real time.
func TestControlActionsOnAClockedItem(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := env.NewClient(t, "clocked item control")
	key := a.APIKey
	const frozen = "2021-03-04T05:06:07.000Z"
	clock := env.Do(t, "POST", "/sandbox/test-clocks", key, map[string]any{"name": "control", "frozenTime": frozen}).Want(200).String("id")
	id := env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "testClockId": clock,
		"parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}).Want(200).String("id")
	env.WaitItem(t, key, id, testsupport.Settled)

	lastEventAt := func(name string) string {
		t.Helper()
		itemID := uuid.MustParse(id)
		events, err := env.DB.Events(context.Background(), uuid.MustParse(a.ID), &itemID)
		if err != nil {
			t.Fatal(err)
		}
		for i := len(events) - 1; i >= 0; i-- {
			if events[i].Event == name {
				return events[i].CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z")
			}
		}
		t.Fatalf("item %s has no %s event", id, name)
		return ""
	}
	path := "/sandbox/items/" + id
	for _, step := range []struct {
		name, route, event string
		body               map[string]any
	}{
		{"status", "/status", "item/error", map[string]any{"status": "OUTDATED", "executionStatus": "SITE_NOT_AVAILABLE"}},
		{"status updated", "/status", "item/updated", map[string]any{"status": "UPDATED"}},
		{"reset login", "/reset-login", "item/error", nil},
	} {
		got := env.Do(t, "POST", path+step.route, key, step.body).Want(200).Map()
		if got["updatedAt"] != frozen {
			t.Fatalf("%s: the item is dated %v, not by its clock (%s)", step.name, got["updatedAt"], frozen)
		}
		if at := lastEventAt(step.event); at != frozen {
			t.Fatalf("%s: its %s event is dated %s, not by the clock (%s)", step.name, step.event, at, frozen)
		}
	}

	// A sync run now on the clocked item starts at the clock's time too. It needs the
	// credentials the reset refused, so put the item back first.
	env.Do(t, "POST", path+"/status", key, map[string]any{"status": "UPDATED"}).Want(200)
	env.Do(t, "POST", "/sandbox/test-clocks/"+clock+"/advance", key, map[string]any{"frozenTime": "2021-03-04T06:00:00Z"}).Want(200)
	testsupport.Eventually(t, "the clock's advance", 20*time.Second, func() bool {
		return env.Do(t, "GET", "/sandbox/test-clocks/"+clock, key, nil).Want(200).String("status") == "ready"
	})
	env.Do(t, "PATCH", "/items/"+id, key, map[string]any{"parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}).Want(200)
	env.WaitItem(t, key, id, testsupport.Settled)
	env.Do(t, "POST", path+"/sync", key, nil).Want(200)
	it, _ := env.WaitItem(t, key, id, testsupport.Settled)
	if got := it.UpdatedAt.UTC().Format("2006-01-02T15:04:05.000Z"); got != "2021-03-04T06:00:00.000Z" {
		t.Fatalf("a sync run now on the clocked item is dated %s, not by the clock", got)
	}
}
