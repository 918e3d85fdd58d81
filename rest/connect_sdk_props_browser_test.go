//go:build browser

package rest_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"ponte/model"
)

// The Connect widget SDK's props that narrow the list, open an update, and the consent
// event of an Open Finance connector, each checked on what the application's callbacks
// receive (the rig and the host page are connect_sdk_browser_test.go's).

// widgetListed is the connectors the widget's list shows, by id, ascending.
func (r *sdkRig) widgetListed(t *testing.T) []int {
	t.Helper()
	r.frameUntil(t, `document.getElementById("title-list") !== null && document.getElementById("count").textContent !== ""`)
	var ids []int
	for _, v := range r.frameEval(t, `[...document.querySelectorAll("[data-connector-id]")].map((b) => Number(b.dataset.connectorId))`).([]any) {
		ids = append(ids, int(v.(float64)))
	}
	slices.Sort(ids)
	return ids
}

// catalogue is every connector the API lists to a client with sandbox ones included, the
// reference the widget's narrowed lists are compared with.
func (r *sdkRig) catalogue(t *testing.T) []model.Connector {
	t.Helper()
	var page struct {
		Results []model.Connector `json:"results"`
	}
	r.env.Do(t, "GET", "/connectors?sandbox=true&pageSize=500", r.client.APIKey, nil).Want(200).JSON(&page)
	if len(page.Results) < 5 {
		t.Fatalf("catalogue of %d connectors", len(page.Results))
	}
	return page.Results
}

// TestConnectWidgetNarrowingProps: connectorTypes lists only connectors of those types,
// products only those that offer every product named, and both together their
// intersection; a token that sets connectorTypes itself wins over the prop.
func TestConnectWidgetNarrowingProps(t *testing.T) {
	r := newSDKRig(t)
	all := r.catalogue(t)
	want := func(keep func(c model.Connector) bool) []int {
		var ids []int
		for _, c := range all {
			if keep(c) {
				ids = append(ids, c.ID)
			}
		}
		slices.Sort(ids)
		if len(ids) == 0 || len(ids) == len(all) {
			t.Fatalf("a filter that keeps %d of %d connectors tells nothing", len(ids), len(all))
		}
		return ids
	}
	typed := func(types ...model.ConnectorType) func(c model.Connector) bool {
		return func(c model.Connector) bool { return slices.Contains(types, c.Type) }
	}
	offering := func(products ...model.Product) func(c model.Connector) bool {
		return func(c model.Connector) bool {
			for _, p := range products {
				if !slices.Contains(c.Products, p) {
					return false
				}
			}
			return true
		}
	}
	for _, tc := range []struct {
		name, props string
		options     map[string]any
		keep        func(c model.Connector) bool
	}{
		{"connectorTypes", `{connectorTypes: ["INVESTMENT", "TELECOMMUNICATION"]}`, nil,
			typed(model.ConnectorTypeInvestment, model.ConnectorTypeTelecommunication)},
		{"products", `{products: ["PAYMENT_DATA", "IDENTITY"]}`, nil,
			offering(model.ProductPaymentData, model.ProductIdentity)},
		{"both", `{connectorTypes: ["PERSONAL_BANK"], products: ["PAYMENT_DATA"]}`, nil,
			func(c model.Connector) bool {
				return typed(model.ConnectorTypePersonalBank)(c) && offering(model.ProductPaymentData)(c)
			}},
		{"token wins", `{connectorTypes: ["INVESTMENT"]}`, map[string]any{"connectorTypes": []string{"TELECOMMUNICATION"}},
			typed(model.ConnectorTypeTelecommunication)},
	} {
		r.openWidget(t, r.token(t, map[string]any{"options": tc.options}), tc.props)
		if got, want := r.widgetListed(t), want(tc.keep); !slices.Equal(got, want) {
			t.Errorf("%s: %s listed %v, want %v", tc.name, tc.props, got, want)
		}
		calls, events := r.sdkCalls(t)
		if len(events) != 0 || slices.ContainsFunc(calls, func(c sdkCall) bool { return c.Name == "onError" }) {
			t.Errorf("%s: listing alone gave events %v and callbacks %v", tc.name, events, calls)
		}
	}
}

// TestConnectWidgetUpdateItem: updateItem opens the update form of an existing item of
// the sandbox bank with no MFA; the right credentials log in (LOGIN_SUCCESS, no MFA event)
// and onSuccess receives that same item, updated. updateItem naming an item the token
// does not reach ends in onError with a message and no item.
func TestConnectWidgetUpdateItem(t *testing.T) {
	r := newSDKRig(t)
	var it model.Item
	r.env.Do(t, "POST", "/items", r.client.APIKey, map[string]any{"connectorId": 0,
		"parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}).Want(200).JSON(&it)
	r.env.WaitItem(t, r.client.APIKey, it.ID.String(), func(i *model.Item) bool { return i.Status == model.ItemUpdated })
	id := it.ID.String()

	r.openWidget(t, r.token(t, map[string]any{"itemId": id}), fmt.Sprintf(`{updateItem: %q, language: "en"}`, id))
	r.frameUntil(t, `document.getElementById("title-form") !== null`)
	if h := r.frameEval(t, `document.getElementById("title-form").textContent`); !strings.Contains(fmt.Sprint(h), "Ponte Bank") {
		t.Errorf("update form heading %q", h)
	}
	r.logIn(t, "user-ok")
	r.until(t, r.browser, `window.calls.some((c) => c.name === "onSuccess")`)
	calls, events := r.sdkCalls(t)
	wantWidgetSuccess(t, calls, id, 0)
	if names, want := eventNames(events), "SUBMITTED_LOGIN ITEM_RESPONSE LOGIN_SUCCESS LOGIN_STEP_COMPLETED"; names != want {
		t.Errorf("events %q, want %q", names, want)
	}
	for _, e := range events {
		if e["event"] == "ITEM_RESPONSE" || e["event"] == "LOGIN_SUCCESS" || e["event"] == "LOGIN_STEP_COMPLETED" {
			if i, _ := e["item"].(map[string]any); i == nil || i["id"] != id {
				t.Errorf("%v: item %v, want %s", e["event"], e["item"], id)
			}
		}
	}
	// The item was updated, not another made: a new execution ran after the widget's.
	after := r.env.Item(t, r.client.APIKey, id)
	if !after.UpdatedAt.After(it.UpdatedAt.Time) {
		t.Errorf("item updatedAt %v, before the widget %v", after.UpdatedAt, it.UpdatedAt)
	}

	// A token of no item cannot reach it: the widget says the token is refused.
	r.openWidget(t, r.token(t, map[string]any{}), fmt.Sprintf(`{updateItem: %q}`, id))
	r.until(t, r.browser, `window.calls.some((c) => c.name === "onError")`)
	calls, _ = r.sdkCalls(t)
	for _, c := range calls {
		if c.Name == "onError" {
			if msg, _ := c.Data["message"].(string); msg == "" || c.Data["data"] != nil {
				t.Errorf("onError for an unreachable item got %v", c.Data)
			}
		}
	}
	r.frameUntil(t, `document.getElementById("title-token") !== null`)
}

// TestConnectWidgetConsent: an Open Finance connector's form sends SUBMITTED_CONSENT (not
// SUBMITTED_LOGIN), then ITEM_RESPONSE with the item, which waits for the user at the
// institution; the widget shows the link to the institution's authorization page, and no
// callback ends the connection yet. The authorization page refuses every frame
// (frame-ancestors 'none'), so the link opens it in a new tab, where the user approves,
// while the widget keeps following the item: onSuccess then receives it UPDATED, after the
// login-success events. The page's own consent flow, in a popup, is
// TestConnectOpenFinanceOAuth's.
func TestConnectWidgetConsent(t *testing.T) {
	r := newSDKRig(t)
	r.openWidget(t, r.token(t, map[string]any{}), `{selectedConnectorId: 6, language: "en"}`)
	r.frameUntil(t, `document.getElementById("title-form") !== null`)
	id := r.fill(t, "CPF", "52998224725")
	r.do(t, r.inFrame(), chromedp.SendKeys(chromedp.ID(id), kb.Enter))
	r.until(t, r.browser, `window.events.some((e) => e.event === "ITEM_RESPONSE")`)
	r.frameUntil(t, `document.getElementById("action-link") !== null`)
	link := fmt.Sprint(r.frameEval(t, `document.getElementById("action-link").href`))
	if !strings.HasPrefix(link, r.env.URL+"/sandbox/authorize/") {
		t.Errorf("institution link %q", link)
	}

	calls, events := r.sdkCalls(t)
	if names, want := eventNames(events), "SELECTED_INSTITUTION SUBMITTED_CONSENT ITEM_RESPONSE"; names != want {
		t.Errorf("events %q, want %q", names, want)
	}
	for _, e := range events {
		switch e["event"] {
		case "SELECTED_INSTITUTION":
			if c, _ := e["connector"].(map[string]any); c == nil || c["id"] != float64(6) || c["oauth"] != true {
				t.Errorf("SELECTED_INSTITUTION %v", e)
			}
		case "SUBMITTED_CONSENT":
			if _, ok := e["timestamp"].(float64); !ok || len(e) != 2 {
				t.Errorf("SUBMITTED_CONSENT %v", e)
			}
		case "ITEM_RESPONSE":
			i, _ := e["item"].(map[string]any)
			if i == nil || i["id"] == nil || i["status"] == "UPDATED" || i["status"] == "LOGIN_ERROR" {
				t.Fatalf("ITEM_RESPONSE item %v", e["item"])
			}
			got := r.env.Item(t, r.client.APIKey, i["id"].(string))
			if got.Connector == nil || got.Connector.ID != 6 {
				t.Errorf("item of connector %v", got.Connector)
			}
			if want := r.env.URL + "/connect?consented=1&lang=en"; got.OAuthRedirectURI == nil || *got.OAuthRedirectURI != want {
				t.Errorf("item oauthRedirectUri %v, want %s", got.OAuthRedirectURI, want)
			}
		}
	}
	for _, c := range calls {
		if c.Name == "onSuccess" || c.Name == "onError" {
			t.Errorf("%s before the user consented at the institution: %v", c.Name, c.Data)
		}
	}
	var itemID string
	for _, e := range events {
		if i, _ := e["item"].(map[string]any); e["event"] == "ITEM_RESPONSE" && i != nil {
			itemID, _ = i["id"].(string)
		}
	}

	// The user follows the link: the institution's page must open in a tab of its own, since
	// in the frame the browser refuses it.
	if opens := r.frameEval(t, `document.getElementById("action-link").target`); opens != "_blank" {
		t.Fatalf("the institution's link opens in %q, want a new tab", opens)
	}
	ch := chromedp.WaitNewTarget(r.browser, func(info *target.Info) bool {
		return info.Type == "page" && strings.HasPrefix(info.URL, r.env.URL+"/sandbox/authorize/")
	})
	r.do(t, r.inFrame(), chromedp.Click(chromedp.ID("action-link")))
	var tab target.ID
	select {
	case tab = <-ch:
	case <-time.After(30 * time.Second):
		t.Fatal("the institution's tab never opened")
	}
	// As with the frame (inFrame), a context attached to a target it did not open answers one
	// Run only, so each action attaches afresh.
	bank := func() context.Context {
		ctx, _ := chromedp.NewContext(r.browser, chromedp.WithTargetID(tab))
		return ctx
	}
	r.until(t, bank(), `location.pathname.startsWith("/sandbox/authorize/") && document.querySelector("button.approve") !== null`)
	r.do(t, bank(), chromedp.Click(chromedp.CSS("button.approve")))

	// The institution sends that tab back to this service's page, which has no token there
	// (the tab was opened noopener from another site's frame): it must say the authorization
	// is done, in the widget's language, not that the link is invalid.
	r.until(t, bank(), `document.getElementById("title-consented") !== null || document.getElementById("title-token") !== null`)
	if done := fmt.Sprint(r.eval(t, bank(), `(document.querySelector("section.step") || {}).innerText || ""`)); !strings.Contains(done, "Authorization complete. You can close this tab and return to the app.") {
		t.Errorf("the institution's tab, back at %s, shows %q", r.eval(t, bank(), `location.href`), done)
	}

	r.until(t, r.browser, `window.calls.some((c) => c.name === "onSuccess" || c.name === "onError")`)
	calls, events = r.sdkCalls(t)
	wantWidgetSuccess(t, calls, itemID, 6)
	if names, want := eventNames(events), "SELECTED_INSTITUTION SUBMITTED_CONSENT ITEM_RESPONSE LOGIN_SUCCESS LOGIN_STEP_COMPLETED"; names != want {
		t.Errorf("events after the consent %q, want %q", names, want)
	}
	for _, e := range events {
		if e["event"] == "LOGIN_SUCCESS" || e["event"] == "LOGIN_STEP_COMPLETED" {
			if i, _ := e["item"].(map[string]any); i == nil || i["id"] != itemID {
				t.Errorf("%v: item %v, want %s", e["event"], e["item"], itemID)
			}
		}
	}
}

// wantWidgetSuccess checks that the SDK's onSuccess received item id, UPDATED, of connector
// conn, and that onError was never called.
func wantWidgetSuccess(t *testing.T, calls []sdkCall, id string, conn int) {
	t.Helper()
	var success sdkCall
	for _, c := range calls {
		if c.Name == "onError" {
			t.Errorf("onError %v", c.Data)
		}
		if c.Name == "onSuccess" {
			success = c
		}
	}
	got, _ := success.Data["item"].(map[string]any)
	if got == nil || got["id"] != id || got["status"] != "UPDATED" {
		t.Fatalf("onSuccess got %v, want item %s UPDATED", success.Data, id)
	}
	if c, _ := got["connector"].(map[string]any); c == nil || c["id"] != float64(conn) {
		t.Errorf("onSuccess item's connector %v", got["connector"])
	}
}
