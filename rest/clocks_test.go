package rest_test

import (
	"testing"
	"time"

	"ponte/testsupport"
)

// Test clocks through REST and GraphQL: a sandbox request made on a clock takes the clock's
// time, and an advance (here through GraphQL) of 31 days expires it while a request off the
// clock stays CREATED; the refusals carry their own codes.
func TestTestClocksThroughRESTAndGraphQL(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := env.NewClient(t, "clocks A"), env.NewClient(t, "clocks B")
	recipient := env.Recipient(t, a.APIKey)
	clock := env.Do(t, "POST", "/sandbox/test-clocks", a.APIKey, map[string]any{"name": "expiry", "frozenTime": "2031-01-01T12:00:00Z"}).Want(200).Map()
	id, _ := clock["id"].(string)
	if clock["status"] != "ready" || clock["frozenTime"] != "2031-01-01T12:00:00.000Z" || clock["name"] != "expiry" || !testsupport.IsAPITime(clock["createdAt"]) {
		t.Fatalf("new clock: %v", clock)
	}
	req := env.Do(t, "POST", "/payments/requests", a.APIKey, map[string]any{"amount": 10, "isSandbox": true, "recipientId": recipient, "testClockId": id}).Want(200).Map()
	if req["createdAt"] != "2031-01-01T12:00:00.000Z" || req["testClockId"] != id {
		t.Fatalf("request on the clock: %v", req)
	}
	off := env.Do(t, "POST", "/payments/requests", a.APIKey, map[string]any{"amount": 10, "isSandbox": true, "recipientId": recipient}).Want(200).Map()
	if _, has := off["testClockId"]; has {
		t.Fatalf("a request off any clock names one: %v", off)
	}

	const advance = `mutation($id: UUID!, $to: DateTime) { advanceTestClock(id: $id, input: {frozenTime: $to}) { status frozenTime } }`
	env.GraphQL(t, a.APIKey, advance, map[string]any{"id": id, "to": "2030-12-31T00:00:00Z"}).WantCode(t, "TEST_CLOCK_BACKWARDS")
	env.GraphQL(t, a.APIKey, advance, map[string]any{"id": id, "to": "2041-01-01T00:00:00Z"}).WantCode(t, "TEST_CLOCK_ADVANCE_TOO_LONG")
	env.GraphQL(t, b.APIKey, advance, map[string]any{"id": id, "to": "2031-02-01T12:00:00Z"}).WantCode(t, "TEST_CLOCK_NOT_FOUND")
	env.GraphQL(t, a.APIKey, advance, map[string]any{"id": id, "to": "2031-02-01T12:00:00Z"}).OK(t)
	testsupport.Eventually(t, "the clock's advance", 20*time.Second, func() bool {
		return env.Do(t, "GET", "/sandbox/test-clocks/"+id, a.APIKey, nil).Want(200).Map()["status"] == "ready"
	})
	data := env.GraphQL(t, a.APIKey, `query($id: UUID!) { testClock(id: $id) { frozenTime status } testClocks { total } }`, map[string]any{"id": id}).OK(t)
	if c := data["testClock"].(map[string]any); c["frozenTime"] != "2031-02-01T12:00:00.000Z" || data["testClocks"].(map[string]any)["total"] != float64(1) {
		t.Fatalf("clock after the advance: %v", data)
	}
	if got := env.Do(t, "GET", "/payments/requests/"+req["id"].(string), a.APIKey, nil).Want(200).Map(); got["status"] != "EXPIRED" || got["updatedAt"] != "2031-01-31T12:00:00.000Z" {
		t.Fatalf("request 31 clock days on: %v %v", got["status"], got["updatedAt"])
	}
	if got := env.Do(t, "GET", "/payments/requests/"+off["id"].(string), a.APIKey, nil).Want(200).Map(); got["status"] != "CREATED" {
		t.Fatalf("request off the clock: %v", got["status"])
	}

	token := env.Do(t, "POST", "/connect_token", a.APIKey, nil).Want(200).String("accessToken")
	env.Do(t, "GET", "/sandbox/test-clocks", "", nil).Want(401)
	env.Do(t, "GET", "/sandbox/test-clocks/"+id, token, nil).Want(403)
	env.Do(t, "POST", "/sandbox/test-clocks", token, map[string]any{"name": "x", "frozenTime": "2031-01-01T00:00:00Z"}).Want(403)
	env.Do(t, "GET", "/sandbox/test-clocks/"+id, b.APIKey, nil).WantError(404, "TEST_CLOCK_NOT_FOUND")
	env.Do(t, "DELETE", "/sandbox/test-clocks/"+id, b.APIKey, nil).WantError(404, "TEST_CLOCK_NOT_FOUND")
	env.Do(t, "POST", "/payments/requests", b.APIKey, map[string]any{"amount": 10, "isSandbox": true, "testClockId": id}).WantError(404, "TEST_CLOCK_NOT_FOUND")
	env.Do(t, "POST", "/payments/requests", a.APIKey, map[string]any{"amount": 10, "isSandbox": false, "recipientId": recipient, "testClockId": id}).
		WantError(403, "SANDBOX_RESOURCE_REQUIRED")
	env.Do(t, "POST", "/sandbox/test-clocks", a.APIKey, map[string]any{"name": "", "frozenTime": "2031-01-01T00:00:00Z"}).WantError(400, "TEST_CLOCK_INVALID")
	env.Do(t, "POST", "/sandbox/test-clocks/"+id+"/advance", a.APIKey, map[string]any{"frozenTime": "yesterday"}).Want(400)

	env.Do(t, "DELETE", "/sandbox/test-clocks/"+id, a.APIKey, nil).Want(200)
	env.Do(t, "GET", "/sandbox/test-clocks/"+id, a.APIKey, nil).WantError(404, "TEST_CLOCK_NOT_FOUND")
	if got := env.Do(t, "GET", "/payments/requests/"+req["id"].(string), a.APIKey, nil).Want(200).Map(); got["status"] != "EXPIRED" {
		t.Fatalf("request of a deleted clock: %v", got["status"])
	}
}
