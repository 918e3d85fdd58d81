//go:build browser

package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"ponte/model"
	"ponte/testsupport"
)

// The official browser client (pluggy-js, rest/testdata/pluggyjs, with esbuild to bundle the
// application's page) drives the API from an application's own page on another origin, as
// a front end does with the Connect Token its server handed it. Every method of the client
// is called once; each answer is the token's own item's data, or the refusal the interface
// gives a Connect Token, which the page must be able to read.

// pluggyJSHost is the application's page; page.js is the bundle.
const pluggyJSHost = `<!doctype html><html><head><meta charset="utf-8"><title>Application</title></head>
<body><h1 id="ready">Application</h1><script src="/page.js"></script></body></html>`

// pluggyJSResult is what the page saw of one call (page.js).
type pluggyJSResult struct {
	Name    string         `json:"name"`
	Status  int            `json:"status"`
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data"`
}

// pluggyJSCall is what a call must answer: the status and, for a refusal, its code.
type pluggyJSCall struct {
	status int
	code   string
}

func TestPluggyJSBrowser(t *testing.T) {
	dir := filepath.Join("testdata", "pluggyjs")
	testsupport.NPMInstall(t, dir)
	bundle := filepath.Join(t.TempDir(), "page.js")
	esbuild := exec.Command(filepath.Join(dir, "node_modules", ".bin", "esbuild"), filepath.Join(dir, "page.js"),
		"--bundle", "--format=iife", "--platform=browser", "--log-level=warning", "--outfile="+bundle)
	if out, err := esbuild.CombinedOutput(); err != nil {
		t.Fatalf("esbuild: %v\n%s", err, out)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/page.js", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, bundle) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(pluggyJSHost))
	})
	host := httptest.NewServer(mux)
	t.Cleanup(host.Close)
	// The same page on an origin no token and no operator setting names.
	stranger := httptest.NewServer(mux)
	t.Cleanup(stranger.Close)

	rig := newConnectRig(t)
	env, key := rig.env, rig.client.APIKey
	// The token's item, and another item of the same application it must not reach.
	ids := map[string]string{}
	for _, name := range []string{"item", "otherItem"} {
		var it model.Item
		env.Do(t, "POST", "/items", key, map[string]any{"connectorId": 0, "parameters": okParams}).Want(200).JSON(&it)
		env.WaitItem(t, key, it.ID.String(), testsupport.Settled)
		ids[name] = it.ID.String()
	}
	first := func(path string) string {
		res := env.Do(t, "GET", path, key, nil).Want(200).Map()["results"].([]any)
		if len(res) == 0 {
			t.Fatalf("no fixture at %s", path)
		}
		return res[0].(map[string]any)["id"].(string)
	}
	ids["account"] = env.AccountIDs(t, key, ids["item"])["CHECKING_ACCOUNT"]
	ids["transaction"] = first("/transactions?accountId=" + ids["account"])
	ids["investment"] = first("/investments?itemId=" + ids["item"])
	ids["identity"] = env.Do(t, "GET", "/identity?itemId="+ids["item"], key, nil).Want(200).String("id")

	run := func(page, token string) map[string]pluggyJSResult {
		t.Helper()
		rig.do(t, rig.browser, chromedp.Navigate(page+"/"), chromedp.WaitVisible(chromedp.ID("ready")))
		rig.until(t, rig.browser, `typeof window.run === "function"`)
		args, _ := json.Marshal([]any{env.URL, token, ids})
		out, err := chromedp.Run(rig.browser, chromedp.Evaluate[string](
			fmt.Sprintf(`window.run(...%s).then((r) => JSON.stringify(r))`, args), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("browser: %v", err)
		}
		var list []pluggyJSResult
		if err := json.Unmarshal([]byte(out), &list); err != nil {
			t.Fatalf("page results: %v: %s", err, out)
		}
		got := map[string]pluggyJSResult{}
		for _, r := range list {
			got[r.Name] = r
		}
		return got
	}

	// A token for the item, naming the application's origin.
	tok := rig.token(t, map[string]any{"itemId": ids["item"], "options": map[string]any{"targetOrigin": host.URL}})
	forbidden := pluggyJSCall{403, model.CodeForbidden.String()}
	want := map[string]pluggyJSCall{
		"fetchConnectors": {200, ""}, "fetchConnector": {200, ""}, "fetchItem": {200, ""}, "fetchAccounts": {200, ""},
		// The item's credentials again: a new sync of its own item.
		"updateItem": {200, ""},
		// Nothing waits for MFA on the item (the client's documented 404).
		"updateItemMFA": {404, model.CodeMFANotFound.String()},
		// The interface's list of items is GET /v2/items; GET /items has no reader.
		"fetchItems": {405, model.CodeMethodNotAllowed.String()},
		// A token is bound to its one item: it creates no other (section 5, rule 6).
		"createItem":       forbidden,
		"fetchItem(other)": forbidden, "updateItem(other)": forbidden, "fetchAccounts(other)": forbidden,
		"deleteItem": forbidden, "fetchAccount": forbidden, "fetchTransactions": forbidden, "fetchTransaction": forbidden,
		"fetchInvestments": forbidden, "fetchInvestment": forbidden, "fetchIdentity": forbidden, "fetchIdentityByItemId": forbidden,
		"fetchCategories": forbidden, "fetchCategory": forbidden, "createConnectToken": forbidden,
	}
	got := run(host.URL, tok)
	if len(got) != len(want) {
		t.Errorf("the page made %d calls, want %d", len(got), len(want))
	}
	for name, w := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("%s: not called", name)
			continue
		}
		if g.Status != w.status || (w.code != "" && g.Code != w.code) {
			t.Errorf("%s: %d %s %q, want %d %s", name, g.Status, g.Code, g.Message, w.status, w.code)
		}
	}
	// The answers are the token's own item's data.
	if d := got["fetchItem"].Data; d["id"] != ids["item"] {
		t.Errorf("fetchItem answered %v", d)
	}
	if d := got["updateItem"].Data; d["id"] != ids["item"] {
		t.Errorf("updateItem answered %v", d)
	}
	if d := got["fetchConnector"].Data; d["id"] != float64(0) || d["health"] == nil {
		t.Errorf("fetchConnector answered %v", d)
	}
	if d := got["fetchConnectors"].Data; len(asList(d["results"])) == 0 {
		t.Errorf("fetchConnectors answered %v", d)
	}
	accounts := asList(got["fetchAccounts"].Data["results"])
	if len(accounts) == 0 {
		t.Errorf("fetchAccounts answered %v", got["fetchAccounts"].Data)
	}
	for _, a := range accounts {
		if a.(map[string]any)["itemId"] != ids["item"] {
			t.Errorf("an account of another item: %v", a)
		}
	}
	env.WaitItem(t, key, ids["item"], testsupport.Settled) // the update's sync, before the next page

	// A fresh token connects an item from the page as a front end does: created on the
	// connector that asks for a one-time code, the code answered, the item updated.
	fresh := rig.token(t, map[string]any{"options": map[string]any{"targetOrigin": host.URL}})
	args, _ := json.Marshal([]any{env.URL, fresh, 1, map[string]any{"user": "user-ok", "password": "password-ok"}, map[string]any{"token": "123456"}})
	out, err := chromedp.Run(rig.browser, chromedp.Evaluate[string](
		fmt.Sprintf(`window.connect(...%s).then((r) => JSON.stringify(r))`, args), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	var steps []pluggyJSResult
	if err := json.Unmarshal([]byte(out), &steps); err != nil {
		t.Fatalf("page results: %v: %s", err, out)
	}
	wantSteps := []struct{ name, status string }{{"createItem", ""}, {"fetchItem", "WAITING_USER_INPUT"}, {"updateItemMFA", ""}, {"fetchItem", "UPDATED"}, {"fetchAccounts", ""}}
	if len(steps) != len(wantSteps) {
		t.Fatalf("connect steps %+v", steps)
	}
	for i, w := range wantSteps {
		g := steps[i]
		if g.Name != w.name || g.Status != 200 || (w.status != "" && g.Data["status"] != w.status) {
			t.Errorf("connect step %d: %s %d %s %q %v, want %s %s", i, g.Name, g.Status, g.Code, g.Message, g.Data["status"], w.name, w.status)
		}
	}
	if accounts := asList(steps[4].Data["results"]); len(accounts) == 0 || accounts[0].(map[string]any)["itemId"] != steps[0].Data["id"] {
		t.Errorf("the connected item's accounts: %v", steps[4].Data)
	}

	// The same page on an origin nobody allowed, with a token naming another origin, one
	// naming none (the operator allows none here), and the API key, which no page may use:
	// the preflight is refused, so the browser sends no call at all (the API key's
	// deleteItem leaves the item in place). And on the application's own origin, whose
	// preflights a live token allows, with a token naming another origin: the calls are
	// sent, but the browser hides every answer.
	elsewhere := rig.token(t, map[string]any{"itemId": ids["item"], "options": map[string]any{"targetOrigin": "https://elsewhere.example"}})
	hidden := []struct{ what, page, credential string }{
		{"an unlisted origin, a token for another origin", stranger.URL, elsewhere},
		{"an unlisted origin, a token naming no origin", stranger.URL, rig.token(t, map[string]any{"itemId": ids["item"]})},
		{"an unlisted origin, the API key", stranger.URL, key},
		{"the application's origin, a token for another origin", host.URL, elsewhere},
	}
	for _, h := range hidden {
		what := h.what
		for name, g := range run(h.page, h.credential) {
			if g.Status != 0 || !strings.Contains(g.Message, "Network Error") {
				t.Errorf("%s, %s: the page read %d %s %q", what, name, g.Status, g.Code, g.Message)
			}
		}
	}
	env.Do(t, "GET", "/items/"+ids["item"], key, nil).Want(200)
}

// asList is v as a JSON array, or nil.
func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
