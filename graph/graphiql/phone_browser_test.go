//go:build browser

package graphiql_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ponte/graph/graphiql"
)

// A link with ?query= opens GraphiQL with that operation in the editor, and at a phone's
// width the editor and the response stack, each as wide as the screen, instead of sharing
// 360 pixels.
func TestSharedQueryOnPhone(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is not on PATH; install it (apt-get update && apt-get install -y chromium) to run the browser tests")
	}
	mux := http.NewServeMux()
	gi := graphiql.Handler("/graphiql", "/graphql")
	mux.Handle("/graphiql", gi)
	mux.Handle("/graphiql/", gi)
	mux.HandleFunc("/graphql", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"errors":[{"message":"no schema in this test"}]}`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.NoFirstRun, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(360, 740))
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(alloc, chromedp.WithErrorf(func(string, ...any) {}))
	defer cancelBrowser()

	const query = "query Shared { connectors { total } }"
	page := srv.URL + "/graphiql?query=" + url.QueryEscape(query)
	if err := chromedp.Do(browser, chromedp.EmulateViewport(360, 740), chromedp.Navigate(page),
		chromedp.WaitVisible(chromedp.CSS(".graphiql-query-editor .CodeMirror"))); err != nil {
		t.Fatal(err)
	}
	editor, err := chromedp.Run(browser, chromedp.Poll[string](
		`(() => { const cm = document.querySelector('.graphiql-query-editor .CodeMirror'); const v = cm && cm.CodeMirror.getValue(); return v || false; })()`,
		chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil || editor != query {
		t.Fatalf("the query editor holds %q (%v), want the link's %q", editor, err, query)
	}
	type box struct{ Left, Top, Width, Bottom float64 }
	layout, err := chromedp.Run(browser, chromedp.Evaluate[map[string]box](`(() => {
		const r = el => { const b = document.querySelector(el).getBoundingClientRect(); return {Left: b.left, Top: b.top, Width: b.width, Bottom: b.bottom}; };
		return {editors: r('.graphiql-editors'), response: r('.graphiql-response')};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	ed, resp := layout["editors"], layout["response"]
	if resp.Top < ed.Bottom-1 || ed.Width < 250 || resp.Width < 250 {
		t.Fatalf("at 360 px the editor (%+v) and the response (%+v) do not stack", ed, resp)
	}
}
