//go:build browser

package rest_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"ponte/model"
)

// TestConnectWidgetOtherApplicationsToken: a Connect Token another application of the same
// Ponte issued, handed to the widget with updateItem naming this application's item, reads
// nothing of it: the widget ends in onError with no item, shows the refused-token step and
// none of the item's data, and the API calls the page makes with that token are refused.
func TestConnectWidgetOtherApplicationsToken(t *testing.T) {
	r := newSDKRig(t)
	var it model.Item
	r.env.Do(t, "POST", "/items", r.client.APIKey, map[string]any{"connectorId": 0,
		"parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}).Want(200).JSON(&it)
	r.env.WaitItem(t, r.client.APIKey, it.ID.String(), func(i *model.Item) bool { return i.Status == model.ItemUpdated })
	id := it.ID.String()

	other := r.env.NewClient(t, "other")
	// The other application cannot even have a token issued for the item.
	if res := r.env.Do(t, "POST", "/connect_token", other.APIKey, map[string]any{"itemId": id}); res.Status != 403 && res.Status != 404 {
		t.Errorf("a token for another application's item: status %d, body %s", res.Status, res.Body)
	}
	tok := r.env.Do(t, "POST", "/connect_token", other.APIKey, map[string]any{}).Want(200).String("accessToken")

	r.openWidget(t, tok, fmt.Sprintf(`{updateItem: %q, language: "en"}`, id))
	r.frameUntil(t, `document.getElementById("title-token") !== null || document.getElementById("title-form") !== null`)
	if r.frameEval(t, `document.getElementById("title-token") !== null`) == true {
		r.until(t, r.browser, `window.calls.some((c) => c.name === "onError")`)
	}
	calls, events := r.sdkCalls(t)
	if !slices.ContainsFunc(calls, func(c sdkCall) bool { return c.Name == "onError" }) {
		t.Errorf("no onError; callbacks %v", calls)
	}
	for _, c := range calls {
		switch c.Name {
		case "onSuccess":
			t.Errorf("onSuccess with another application's token: %v", c.Data)
		case "onError":
			if msg, _ := c.Data["message"].(string); msg == "" || c.Data["data"] != nil {
				t.Errorf("onError got %v, want a message and no item", c.Data)
			}
		}
	}
	for _, e := range events {
		if e["item"] != nil || e["connector"] != nil {
			t.Errorf("event %v carries the item's or its institution's data", e)
		}
	}
	if r.frameEval(t, `document.getElementById("title-token") !== null && document.getElementById("credentials") === null`) != true {
		t.Errorf("the widget does not show the refused token; it shows %q", r.frameEval(t, `document.body.innerText`))
	}
	shown := fmt.Sprint(r.frameEval(t, `document.body.innerText + " " + document.title`))
	for _, leak := range []string{id, "Ponte Bank", "UPDATED"} {
		if leak != "" && strings.Contains(shown, leak) {
			t.Errorf("the widget shows %q of the other application's item: %q", leak, shown)
		}
	}

	// What the page asked with that token, and what else it could ask, is refused.
	var accounts struct {
		Results []model.Account `json:"results"`
	}
	r.env.Do(t, "GET", "/accounts?itemId="+id, r.client.APIKey, nil).Want(200).JSON(&accounts)
	if len(accounts.Results) == 0 {
		t.Fatal("the item has no account to ask for")
	}
	account := accounts.Results[0].ID.String()
	for _, path := range []string{"/items/" + id, "/accounts?itemId=" + id, "/accounts/" + account,
		"/transactions?accountId=" + account, "/identity?itemId=" + id} {
		if res := r.env.Do(t, "GET", path, tok, nil); res.Status != 403 && res.Status != 404 {
			t.Errorf("GET %s with another application's token: status %d, body %s", path, res.Status, res.Body)
		}
	}
	if res := r.env.Do(t, "PATCH", "/items/"+id, tok, map[string]any{"parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}); res.Status != 403 && res.Status != 404 {
		t.Errorf("PATCH /items/%s with another application's token: status %d", id, res.Status)
	}
	if res := r.env.Do(t, "GET", "/items", tok, nil); strings.Contains(string(res.Body), id) {
		t.Errorf("GET /items with another application's token lists the item: %d %s", res.Status, res.Body)
	}
}
