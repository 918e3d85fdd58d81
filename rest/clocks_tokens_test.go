package rest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

// advanceClock moves a test clock to at and waits until its advance has run.
func advanceClock(t *testing.T, env *testsupport.Env, key, clock, at string) {
	t.Helper()
	env.Do(t, "POST", "/sandbox/test-clocks/"+clock+"/advance", key, map[string]any{"frozenTime": at}).Want(200)
	testsupport.Eventually(t, "the clock's advance", 20*time.Second, func() bool {
		return env.Do(t, "GET", "/sandbox/test-clocks/"+clock, key, nil).Want(200).String("status") == "ready"
	})
}

// A Connect Token issued for an item on a test clock lives in the clock's time: the clock
// stands in 2020, so real time would have expired it long ago, yet it works until an
// advance passes its 30 minutes, and is then refused as a token expired in real time is.
// A token of an item off the clock is untouched by the advance.
func TestConnectTokenOnATestClock(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	c := env.NewClient(t, "clock tokens")
	key := c.APIKey
	clock := env.Do(t, "POST", "/sandbox/test-clocks", key, map[string]any{"name": "tokens", "frozenTime": "2020-01-01T12:00:00Z"}).Want(200).String("id")
	on := env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "testClockId": clock,
		"parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}).Want(200).String("id")
	env.WaitItem(t, key, on, testsupport.Settled)
	off := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"}).ID.String()
	env.WaitItem(t, key, off, testsupport.Settled)

	onTok := env.Do(t, "POST", "/connect_token", key, map[string]any{"itemId": on}).Want(200).String("accessToken")
	offTok := env.Do(t, "POST", "/connect_token", key, map[string]any{"itemId": off}).Want(200).String("accessToken")
	const q = `query($id: UUID!) { item(id: $id) { id } }`
	for _, tok := range []struct{ tok, item string }{{onTok, on}, {offTok, off}} {
		env.Do(t, "GET", "/items/"+tok.item, tok.tok, nil).Want(200)
		env.GraphQL(t, tok.tok, q, map[string]any{"id": tok.item}).OK(t)
	}

	// 29 minutes of clock time: still inside the token's life.
	advanceClock(t, env, key, clock, "2020-01-01T12:29:00Z")
	env.Do(t, "GET", "/items/"+on, onTok, nil).Want(200)

	// A token expired in real time, issued 31 minutes ago, for the item off the clock.
	ctx := context.Background()
	p, err := env.Auth.Verify(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	offID := uuid.MustParse(off)
	stale, err := env.Auth.WithClock(func() time.Time { return time.Now().Add(-31 * time.Minute) }).IssueConnectToken(ctx, p, &offID, model.ConnectTokenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := env.Do(t, "GET", "/items/"+off, stale.AccessToken, nil).WantError(401, model.CodeAPIKeyExpired.String())

	advanceClock(t, env, key, clock, "2020-01-01T12:31:00Z")
	got := env.Do(t, "GET", "/items/"+on, onTok, nil).WantError(401, model.CodeAPIKeyExpired.String())
	if got["message"] != "The credential in X-API-KEY expired at 2020-01-01T12:30:00.000Z; request a new one." ||
		!strings.HasPrefix(want["message"].(string), "The credential in X-API-KEY expired at ") {
		t.Fatalf("expired on the clock: %v; expired in real time: %v", got, want)
	}
	env.GraphQL(t, onTok, q, map[string]any{"id": on}).WantCode(t, model.CodeAPIKeyExpired.String())
	env.GraphQL(t, stale.AccessToken, q, map[string]any{"id": off}).WantCode(t, model.CodeAPIKeyExpired.String())
	env.Do(t, "GET", "/items/"+off, offTok, nil).Want(200)
	env.GraphQL(t, offTok, q, map[string]any{"id": off}).OK(t)

	// A new token for the item starts from the clock's time, and a deleted clock ends it.
	again := env.Do(t, "POST", "/connect_token", key, map[string]any{"itemId": on}).Want(200).String("accessToken")
	env.Do(t, "GET", "/items/"+on, again, nil).Want(200)
	env.Do(t, "DELETE", "/sandbox/test-clocks/"+clock, key, nil).Want(200)
	env.Do(t, "GET", "/items/"+on, again, nil).WantError(401, model.CodeAPIKeyExpired.String())
}
