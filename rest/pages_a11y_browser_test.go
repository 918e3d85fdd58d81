//go:build browser

package rest_test

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/chromedp/chromedp"

	"ponte/testsupport/axe"
)

// TestReferenceA11y: the API reference, rendered from the OpenAPI document, has no serious
// or critical axe finding, with its operations listed and one opened.
func TestReferenceA11y(t *testing.T) {
	r := newConnectRig(t)
	r.do(t, r.browser, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(r.env.URL+"/reference"))
	r.until(t, r.browser, `document.querySelectorAll("details, section, h2").length > 10`)
	axe.Check(t, r.browser, "/reference")
	// Opened, an operation shows its parameters and answers.
	r.eval(t, r.browser, `document.querySelectorAll("details").forEach((d) => { d.open = true; }), true`)
	axe.Check(t, r.browser, "/reference (every operation opened)")
	r.screenshot(t, r.browser, "reference")
}

// TestGraphiQLA11y: GraphiQL, with the schema loaded, a link's query in the editor and its
// answer shown, has no serious or critical axe finding, at a desktop's width and a phone's.
func TestGraphiQLA11y(t *testing.T) {
	r := newConnectRig(t)
	q := url.Values{"apiKey": {r.client.APIKey}, "query": {"query Shared { connectors(pageSize: 2) { total } }"}}
	for _, w := range []int64{1280, 360} {
		r.do(t, r.browser, chromedp.EmulateViewport(w, 800), chromedp.Navigate(r.env.URL+"/graphiql?"+q.Encode()))
		r.until(t, r.browser, `document.querySelector(".graphiql-query-editor .CodeMirror") !== null`)
		r.do(t, r.browser, chromedp.Click(chromedp.CSS(".graphiql-execute-button")))
		r.until(t, r.browser, `document.querySelector(".graphiql-response").textContent.includes("total")`)
		axe.Check(t, r.browser, fmt.Sprintf("/graphiql at %d px", w))
		r.screenshot(t, r.browser, "graphiql")
	}
	// Without a key the Headers editor opens first; the Variables one is a tab away.
	r.do(t, r.browser, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(r.env.URL+"/graphiql"))
	r.until(t, r.browser, `document.querySelectorAll(".graphiql-editor-tool .CodeMirror").length === 2`)
	axe.Check(t, r.browser, "/graphiql without a key (Headers editor open)")
	r.do(t, r.browser, chromedp.Click(chromedp.CSS(`.graphiql-editor-tools button[data-name="variables"]`)))
	r.until(t, r.browser, `document.querySelector(".graphiql-editor-tool").getAttribute("aria-label") === "Variables"`)
	axe.Check(t, r.browser, "/graphiql (Variables editor open)")
	if names := r.eval(t, r.browser, `[...document.querySelectorAll(".CodeMirror textarea")].map((t) => t.getAttribute("aria-label")).join(",")`); names != "Query,Variables,Headers,Response" {
		t.Errorf("the editors' inputs are named %q", names)
	}
}
