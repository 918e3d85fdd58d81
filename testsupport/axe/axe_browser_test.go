//go:build browser

package axe_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ponte/testsupport/axe"
)

// Both pages forbid every script, as the service's pages forbid foreign ones: axe must run
// all the same.
const (
	broken = `<!doctype html><html lang="en"><head><title>Broken</title></head><body><main>
<h1>Broken</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><p style="color:#ccc;background:#fff">Faint text</p>
<a href="#" style="color:#ccc;background:#fff">Faint link</a></main></body></html>`
	clean = `<!doctype html><html lang="en"><head><title>Clean</title></head><body><main>
<h1>Clean</h1><img alt="A dot" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><p style="color:#555;background:#fff">Readable text</p></main></body></html>`
)

// TestAxeFindsAndPasses: the helper reports a page's serious and critical violations by
// rule, and none on a page without them, across a navigation (axe is injected again).
func TestAxeFindsAndPasses(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is not on PATH; install it (apt-get update && apt-get install -y chromium) to run the browser tests")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'none'; img-src data:; style-src 'unsafe-inline'")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/clean" {
			_, _ = w.Write([]byte(clean))
			return
		}
		_, _ = w.Write([]byte(broken))
	}))
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox,
		chromedp.NoFirstRun, chromedp.DisableGPU, chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.Env("TMPDIR="+t.TempDir()))
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(alloc, chromedp.WithErrorf(func(string, ...any) {}))
	defer cancelBrowser()

	if err := chromedp.Do(browser, chromedp.Navigate(srv.URL+"/broken")); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range axe.Run(t, browser) {
		ids = append(ids, v.ID)
		if len(v.Nodes) == 0 || len(v.Nodes[0].Target) == 0 || v.Help == "" {
			t.Errorf("violation %s without its elements or help: %+v", v.ID, v)
		}
	}
	sort.Strings(ids)
	if len(ids) != 2 || ids[0] != "color-contrast" || ids[1] != "image-alt" {
		t.Fatalf("broken page: violations %v, want color-contrast and image-alt", ids)
	}

	if err := chromedp.Do(browser, chromedp.Navigate(srv.URL+"/clean")); err != nil {
		t.Fatal(err)
	}
	if vs := axe.Run(t, browser); len(vs) != 0 {
		t.Fatalf("clean page: violations %v", vs)
	}
}
