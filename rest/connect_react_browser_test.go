//go:build browser

package rest_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"ponte/model"
	"ponte/testsupport"
)

// The React wrapper of the Connect widget SDK (react-pluggy-connect 2.12.0, React 19, from
// npm) in a React application's page, with its url prop pointed at Ponte's Connect page. The
// page (testdata/reactconnect/host.jsx) keeps its callbacks as the SDK's host page does, so
// the SDK's rig (connect_sdk_browser_test.go) drives it.

// reactHost bundles the React application's page with esbuild, as a production build.
func reactHost(t *testing.T) (origin string) {
	t.Helper()
	return widgetHost(t, "reactconnect", "host.jsx", "--jsx=automatic", `--define:process.env.NODE_ENV="production"`)
}

// TestConnectWidgetReact connects a sandbox bank with MFA through <PluggyConnect>: onOpen,
// the events in the hosted widget's order, onSuccess with the item the API then holds.
// Unmounting the component closes the widget (onClose, the frame gone). A second component,
// whose user the bank locks out, ends in onError with the item.
func TestConnectWidgetReact(t *testing.T) {
	r := newWidgetRig(t, reactHost(t))
	r.env.Exec(t, `UPDATE client_applications SET items_v2_enabled = true WHERE id = $1`, r.client.ID)
	r.openWidget(t, r.token(t, map[string]any{}), `{language: "en"}`)
	r.frameUntil(t, `document.querySelector('[data-connector-id="1"]') !== null`)
	r.screenshot(t, r.browser, "react-widget-list")
	r.do(t, r.inFrame(), chromedp.Click(chromedp.CSS(`[data-connector-id="1"]`)))
	r.frameUntil(t, `document.getElementById("title-form") !== null`)
	r.logIn(t, "user-ok")
	r.frameUntil(t, `document.getElementById("title-mfa") !== null`)
	id := r.fill(t, "Token", "123456")
	r.do(t, r.inFrame(), chromedp.SendKeys(chromedp.ID(id), kb.Enter))
	r.until(t, r.browser, `window.calls.some((c) => c.name === "onSuccess")`)
	r.screenshot(t, r.browser, "react-widget-success")

	item, events := r.succeeded(t)
	// The item the application is told of is the one connection the API holds for it.
	var held struct{ Results []model.Item }
	r.env.Do(t, "GET", "/v2/items", r.client.APIKey, nil).Want(200).JSON(&held)
	if len(held.Results) != 1 || held.Results[0].ID.String() != item["id"] || held.Results[0].Status != model.ItemUpdated {
		t.Fatalf("onSuccess item %v, the API holds %+v", item["id"], held.Results)
	}
	want := "SELECTED_INSTITUTION SUBMITTED_LOGIN ITEM_RESPONSE SUBMITTED_MFA LOGIN_MFA_SUCCESS LOGIN_STEP_COMPLETED"
	if got := eventNames(events); got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	for _, e := range events {
		if _, ok := e["timestamp"].(float64); !ok {
			t.Errorf("event %v has no timestamp", e)
		}
		switch e["event"] {
		case "ITEM_RESPONSE", "LOGIN_MFA_SUCCESS", "LOGIN_STEP_COMPLETED":
			if it, _ := e["item"].(map[string]any); it == nil || it["id"] != item["id"] {
				t.Errorf("%v: item %v", e["event"], e["item"])
			}
		}
	}

	// The application unmounts the component (a route change would): the widget closes. The
	// modal covers the page, so the button is pressed by the application's code.
	if gone := r.eval(t, r.browser, `window.calls.some((c) => c.name === "onClose")`); gone != false {
		t.Fatal("onClose before the component was unmounted")
	}
	r.eval(t, r.browser, `document.getElementById("unmount").click(); true`)
	r.until(t, r.browser, `window.calls.some((c) => c.name === "onClose") && document.querySelector("iframe, #PluggyConnect") === null`)
	testsupport.Eventually(t, "the widget's frame to go", 10*time.Second, func() bool {
		infos, err := chromedp.Targets(r.browser)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range infos {
			if i.TargetID == r.frame {
				return false
			}
		}
		return true
	})

	// A user the bank locks out, on a fresh load of the page: onError with the item's error
	// and the item, after the events up to the item's answer.
	failed, events := r.lockedOut(t, "en")
	if got := r.env.Item(t, r.client.APIKey, failed["id"].(string)); got.Status != model.ItemLoginError {
		t.Errorf("onError's item is %s in the API", got.Status)
	}
	if got, want := eventNames(events), "SELECTED_INSTITUTION SUBMITTED_LOGIN ITEM_RESPONSE"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	r.screenshot(t, r.browser, "react-widget-error")
}
