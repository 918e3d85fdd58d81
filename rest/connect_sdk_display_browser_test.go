//go:build browser

package rest_test

import (
	"slices"
	"testing"
)

// The Connect widget SDK's props that change what the page shows (language, theme,
// countries) and what it sends (openFinanceParameters), each checked on the page in the
// widget's frame or on the item the API then holds (the rig is connect_sdk_browser_test.go's).

// TestConnectWidgetCountries: countries lists only the institutions of those countries;
// every sandbox institution is Brazilian, so ["AR"] lists none (the page says so) and
// ["BR"] the whole catalogue.
func TestConnectWidgetCountries(t *testing.T) {
	r := newSDKRig(t)
	var all []int
	for _, c := range r.catalogue(t) {
		if c.Country != "BR" {
			t.Fatalf("connector %d of country %q: the cases below assume every one is BR", c.ID, c.Country)
		}
		all = append(all, c.ID)
	}
	slices.Sort(all)

	r.openWidget(t, r.token(t, map[string]any{}), `{countries: ["AR"], language: "en"}`)
	r.frameUntil(t, `document.getElementById("title-list") !== null && document.getElementById("count").textContent !== ""`)
	if got := r.frameEval(t, `[document.querySelectorAll("[data-connector-id]").length, document.getElementById("count").textContent]`).([]any); got[0] != float64(0) || got[1] != "No institution found." {
		t.Errorf(`countries ["AR"]: %v institutions listed, the page says %q`, got[0], got[1])
	}

	r.openWidget(t, r.token(t, map[string]any{}), `{countries: ["BR"], language: "en"}`)
	if got := r.widgetListed(t); !slices.Equal(got, all) {
		t.Errorf(`countries ["BR"] listed %v, want %v`, got, all)
	}
	calls, _ := r.sdkCalls(t)
	for _, c := range calls {
		if c.Name == "onError" {
			t.Errorf("onError %v", c.Data)
		}
	}
}
