package rest_test

import (
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
)

// An item on a test clock that waits for the user waits in clock time: real time passes its
// window (InputTimeout, 300 ms here: an item off the clock times out meanwhile) and it still
// waits; the advance past the window ends it with the documented time-out, an MFA wait with
// USER_INPUT_TIMEOUT and an authorization left pending with USER_AUTHORIZATION_PENDING, its
// item/error event dated at the clock time the window closed. A clock deleted while an item
// waits hands the wait back to real time.
func TestItemWaitsOnATestClock(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t, func(s *testsupport.Setup) { s.Sync.InputTimeout = 300 * time.Millisecond })
	c := env.NewClient(t, "clock waits")
	key := c.APIKey
	clock := env.Do(t, "POST", "/sandbox/test-clocks", key, map[string]any{"name": "waits", "frozenTime": "2031-01-01T12:00:00Z"}).Want(200).String("id")
	other := env.NewClient(t, "clock waits, off the clock").APIKey
	create := func(connector int, user, clock string) string {
		key := key
		if clock == "" {
			key = other // the same credentials as the items on the clock, of another application
		}
		body := map[string]any{"connectorId": connector, "parameters": map[string]any{"user": user, "password": "password-ok"}}
		if clock != "" {
			body["testClockId"] = clock
		}
		return env.Do(t, "POST", "/items", key, body).Want(200).String("id")
	}
	mfa := create(1, "user-ok", clock)
	pending := create(0, "user-ok-auth-pending", clock)
	waiting := func(it *model.Item) bool {
		return !testsupport.Settled(it) || it.Status == model.ItemWaitingUserInput || it.Status == model.ItemWaitingUserAction
	}
	it, _ := env.WaitItem(t, key, mfa, func(it *model.Item) bool { return it.Status == model.ItemWaitingUserInput })
	if it.Parameter == nil || it.Parameter.ExpiresAt == nil || it.Parameter.ExpiresAt.UTC().Format(model.TimeLayout) != "2031-01-01T12:00:00.300Z" {
		t.Fatalf("the MFA window of an item on the clock: %+v", it.Parameter)
	}
	it, _ = env.WaitItem(t, key, pending, func(it *model.Item) bool { return it.Status == model.ItemWaitingUserAction })
	if it.UserAction == nil || it.UserAction.ExpiresAt == nil || it.UserAction.ExpiresAt.UTC().Format(model.TimeLayout) != "2031-01-01T12:00:00.300Z" {
		t.Fatalf("the authorization window of an item on the clock: %+v", it.UserAction)
	}

	// The same waits off the clock end in real time; the ones on it still wait.
	for _, id := range []string{create(1, "user-ok", ""), create(0, "user-ok-auth-pending", "")} {
		env.WaitItem(t, other, id, func(it *model.Item) bool { return it.Status == model.ItemLoginError })
	}
	if a, b := env.Item(t, key, mfa), env.Item(t, key, pending); a.Status != model.ItemWaitingUserInput || b.Status != model.ItemWaitingUserAction {
		t.Fatalf("real time ended waits on a clock: %s, %s", a.Status, b.Status)
	}

	advanceClock(t, env, key, clock, "2031-01-01T12:00:01Z")
	for id, code := range map[string]model.ExecutionStatus{mfa: model.ExecUserInputTimeout, pending: model.ExecUserAuthPending} {
		got := env.Do(t, "GET", "/items/"+id, key, nil).Want(200).Map()
		errBody, _ := got["error"].(map[string]any)
		if got["status"] != "LOGIN_ERROR" || got["executionStatus"] != string(code) || errBody == nil || errBody["code"] != string(code) ||
			got["updatedAt"] != "2031-01-01T12:00:00.300Z" {
			t.Fatalf("item %s after the advance: %v %v %v %v", id, got["status"], got["executionStatus"], got["error"], got["updatedAt"])
		}
		var at string
		for _, ev := range env.Events(t, key, id) {
			if ev["event"] == "item/error" {
				at = ev["createdAt"].(string)
			}
		}
		if at != "2031-01-01T12:00:00.300Z" {
			t.Fatalf("item/error of item %s dated %q", id, at)
		}
	}
	env.Do(t, "POST", "/items/"+mfa+"/mfa", key, map[string]any{"token": "123456"}).WantError(400, "ITEM_MFA_EXPIRED")

	// Deleting the clock while an item waits: the wait ends in real time.
	gone := env.Do(t, "POST", "/sandbox/test-clocks", key, map[string]any{"name": "gone", "frozenTime": "2031-01-01T12:00:00Z"}).Want(200).String("id")
	left := create(1, "user-ok", gone)
	env.WaitItem(t, key, left, func(it *model.Item) bool { return it.Status == model.ItemWaitingUserInput })
	env.Do(t, "DELETE", "/sandbox/test-clocks/"+gone, key, nil).Want(200)
	it, _ = env.WaitItem(t, key, left, func(it *model.Item) bool { return !waiting(it) })
	if it.Status != model.ItemLoginError || it.ExecutionStatus != model.ExecUserInputTimeout {
		t.Fatalf("a wait whose clock was deleted: %s %s", it.Status, it.ExecutionStatus)
	}
}
