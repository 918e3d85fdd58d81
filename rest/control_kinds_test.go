package rest_test

import (
	"strings"
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

// What the tests of sandbox data control (transactions, bills, investments) assert alike
// of every kind of change: its refusals of bad input, its callers' rights, and the marks
// the collecting execution leaves.

// sbWith is good with k set to v (nil: k left out): one bad field in a good body.
func sbWith(good map[string]any, k string, v any) map[string]any {
	m := map[string]any{}
	for kk, vv := range good {
		m[kk] = vv
	}
	if v == nil {
		delete(m, k)
	} else {
		m[k] = v
	}
	return m
}

// sbKind is one kind of data change as its routes take it, for sbRefuseStrangers.
type sbKind struct {
	// noun is the routes' last word and the add body's list ("transactions", "bills").
	noun string
	// item is the owner's sandbox item; owner and stranger are the API keys of its
	// application and of another.
	item, owner, stranger string
	// good is one good element of an add; target one resource of the item and patch a
	// good change of it.
	good   map[string]any
	target string
	patch  map[string]any
}

// sbRefuseStrangers asserts the rights of a kind's routes: another application's item is
// 404, a connect token 403, no key 401, a non-sandbox item 403 SANDBOX_RESOURCE_REQUIRED.
func sbRefuseStrangers(t *testing.T, env *testsupport.Env, k sbKind) {
	t.Helper()
	path := "/sandbox/items/" + k.item + "/" + k.noun
	add := map[string]any{k.noun: []any{k.good}}
	env.Do(t, "GET", path, k.stranger, nil).WantError(404, model.CodeItemNotFound.String())
	env.Do(t, "POST", path, k.stranger, add).WantError(404, model.CodeItemNotFound.String())
	env.Do(t, "PATCH", path+"/"+k.target, k.stranger, k.patch).WantError(404, model.CodeItemNotFound.String())
	env.Do(t, "DELETE", path+"/"+k.target, k.stranger, nil).WantError(404, model.CodeItemNotFound.String())
	env.Do(t, "DELETE", path+"/"+k.target, "", nil).WantError(401, model.CodeAPIKeyMissing.String())
	token := env.Do(t, "POST", "/connect_token", k.owner, map[string]any{"itemId": k.item}).Want(200).String("accessToken")
	env.Do(t, "POST", path, token, add).WantError(403, model.CodeForbidden.String())
	env.Do(t, "GET", path, token, nil).WantError(403, model.CodeForbidden.String())
	var files model.Item
	env.Do(t, "POST", "/items", k.owner, map[string]any{"connectorId": 900, "parameters": map[string]any{}}).Want(200).JSON(&files)
	env.WaitItem(t, k.owner, files.ID.String(), testsupport.Settled)
	env.Do(t, "POST", "/sandbox/items/"+files.ID.String()+"/"+k.noun, k.owner, add).WantError(403, model.CodeSandboxOnly.String())
}

// sbAllMarked asserts that every change of history carries when the execution that
// collected it ended (the item's lastUpdatedAt).
func sbAllMarked[C any](t *testing.T, history []C, appliedAt func(C) *model.Time, synced *model.Item) {
	t.Helper()
	for _, c := range history {
		if at := appliedAt(c); at == nil || !at.Equal(synced.LastUpdatedAt.Time) {
			t.Fatalf("change %+v not marked by the execution ending at %v", c, synced.LastUpdatedAt)
		}
	}
}

// sbMarksKept asserts that a later execution left the first one's marks as they were.
func sbMarksKept[C any](t *testing.T, now, history []C, appliedAt func(C) *model.Time) {
	t.Helper()
	for i, c := range now {
		if !appliedAt(c).Equal(appliedAt(history[i]).Time) {
			t.Fatalf("a second execution moved the mark of %+v", c)
		}
	}
}

// sbNoEventOf asserts that none of the item's events since the first before names word:
// the interface documents no event of that kind of data.
func sbNoEventOf(t *testing.T, env *testsupport.Env, key, item string, before int, word string) {
	t.Helper()
	for _, e := range env.Events(t, key, item)[before:] {
		if name := e["payload"].(map[string]any)["event"].(string); strings.Contains(name, word) {
			t.Fatalf("an undocumented event %s", name)
		}
	}
}
