//go:build browser

package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"ponte/testsupport"
	"ponte/testsupport/axe"
)

// The Connect page's tests drive it in headless Chromium as an application would use it:
// the application's own page (another origin, served here) opens /connect in a popup and
// listens for its messages; the test acts as the end user in the popup, with a 360 px
// wide screen. Each screen is saved as a PNG in $PONTE_CONNECT_SCREENSHOTS/<test>/ when
// that variable names a folder, in the test's temporary folder otherwise.

// connectApp is the application's page: it opens the Connect page and keeps the messages it
// receives (README's snippet, plus a list the test reads).
const connectApp = `<!doctype html><html><head><meta charset="utf-8"><title>App</title></head><body>
<button id="open">Conectar banco</button>
<script>
window.msgs = [];
window.addEventListener("message", (e) => { if (e.data && e.data.type === "ponte-connect") window.msgs.push({origin: e.origin, data: e.data}); });
document.getElementById("open").onclick = () => window.open(new URLSearchParams(location.search).get("u"), "ponte", "width=360,height=740");
</script></body></html>`

// quiet drops chromedp's own log lines about protocol events it does not follow.
var quiet = chromedp.WithErrorf(func(string, ...any) {})

type connectRig struct {
	env    *testsupport.Env
	client *testsupport.Client
	app    *httptest.Server
	// browser is the application's tab; popup the Connect page it opened.
	browser, popup context.Context
	shots          string
	shot           int
	mu             sync.Mutex
	redirects      []string // paths and queries the application's /done received
}

func newConnectRig(t *testing.T, options ...testsupport.Option) *connectRig {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is not on PATH; install it (apt-get update && apt-get install -y chromium) to run the browser tests")
	}
	r := &connectRig{env: testsupport.New(t, options...)}
	r.client = r.env.NewClient(t, "connect")
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(connectApp))
	})
	mux.HandleFunc("/done", func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.redirects = append(r.redirects, req.URL.RequestURI())
		r.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>Done</title><h1 id="done">Back in the app</h1>`))
	})
	r.app = httptest.NewServer(mux)
	t.Cleanup(r.app.Close)

	r.shots = os.Getenv("PONTE_CONNECT_SCREENSHOTS")
	if r.shots == "" {
		r.shots = t.TempDir()
	}
	r.shots = filepath.Join(r.shots, strings.ReplaceAll(t.Name(), "/", "_"))
	if err := os.MkdirAll(r.shots, 0o755); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.NoFirstRun, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-popup-blocking", true), chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true), chromedp.Flag("disable-backgrounding-occluded-windows", true),
		// A private profile keeps parallel runs and the developer's own Chromium apart.
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(360, 740),
		// With --disable-dev-shm-usage Chromium keeps its shared memory in TMPDIR, and the
		// browser is killed at the end, so it never removes that folder: one left in /tmp
		// per test, hundreds on a machine that runs the suite.
		chromedp.Env("TMPDIR="+t.TempDir()))
	t.Cleanup(cancelAlloc)
	r.browser, _ = chromedp.NewContext(alloc, quiet)
	return r
}

// token issues a Connect Token with the client's API key; body is POST /connect_token's.
func (r *connectRig) token(t *testing.T, body map[string]any) string {
	t.Helper()
	return r.env.Do(t, "POST", "/connect_token", r.client.APIKey, body).Want(200).String("accessToken")
}

// options are the usual token options: sandbox banks listed, messages to the application.
func (r *connectRig) options(extra map[string]any) map[string]any {
	o := map[string]any{"includeSandbox": true, "targetOrigin": r.app.URL}
	for k, v := range extra {
		o[k] = v
	}
	return map[string]any{"options": o}
}

// open loads the application's page, clicks its button and takes over the popup it opens
// on connectPath (the Connect page's path and query or fragment).
func (r *connectRig) open(t *testing.T, connectPath string) {
	t.Helper()
	u := r.app.URL + "/?u=" + url.QueryEscape(r.env.URL+connectPath)
	r.do(t, r.browser, chromedp.Navigate(u), chromedp.WaitVisible(chromedp.ID("open")))
	ch := chromedp.WaitNewTarget(r.browser, func(info *target.Info) bool { return info.Type == "page" })
	r.do(t, r.browser, chromedp.Click(chromedp.ID("open")))
	var id target.ID
	select {
	case id = <-ch:
	case <-r.browser.Done():
		t.Fatal("the Connect page's window never opened")
	}
	r.popup, _ = chromedp.NewContext(r.browser, chromedp.WithTargetID(id))
	r.do(t, r.popup, chromedp.EmulateViewport(360, 740))
}

func (r *connectRig) do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

func (r *connectRig) eval(t *testing.T, ctx context.Context, js string) any {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[any](js))
	if err != nil {
		t.Fatalf("browser: evaluate %s: %v", js, err)
	}
	return v
}

// until waits for a JavaScript condition in ctx's page (polled, not timed: the context's
// deadline is the only limit).
func (r *connectRig) until(t *testing.T, ctx context.Context, js string) {
	t.Helper()
	// A bound below the test's, so the failure can still show the page.
	wait, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		_, err := chromedp.Run(wait, chromedp.Poll[any](js, chromedp.WithPollingInterval(30*time.Millisecond), chromedp.WithPollingTimeout(0)))
		if err == nil {
			return
		}
		// A navigation (to the institution and back) destroys the page the condition was
		// polled in: poll again in the new one.
		if wait.Err() == nil && (strings.Contains(err.Error(), "context") || strings.Contains(err.Error(), "navigated or closed")) {
			continue
		}
		t.Fatalf("browser: waiting for %s: %v; page: %s", js, err, r.pageText(ctx))
	}
}

func (r *connectRig) pageText(ctx context.Context) string {
	c, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	v, _ := chromedp.Run(c, chromedp.Evaluate[string](`location.href + " :: " + document.body.innerText`))
	return v
}

// step waits for the Connect page to show a step, checks focus moved to its heading (the
// keyboard and screen reader user lands on the new step), checks it with axe (no serious or
// critical finding) and saves a screenshot.
func (r *connectRig) step(t *testing.T, name string) {
	t.Helper()
	r.until(t, r.popup, fmt.Sprintf(`document.activeElement && document.activeElement.id === "title-%s"`, name))
	// A phone's 360 px: nothing wider than the screen.
	if w := r.eval(t, r.popup, `[innerWidth, document.documentElement.scrollWidth]`).([]any); w[0] != float64(360) || w[1] != float64(360) {
		t.Errorf("step %s: viewport %v wide, content %v", name, w[0], w[1])
	}
	axe.Check(t, r.popup, r.where(t, name))
	r.screenshot(t, r.popup, name)
}

// where names a step of the page in a finding: the step and the page's language.
func (r *connectRig) where(t *testing.T, name string) string {
	t.Helper()
	return fmt.Sprintf("the Connect page's %s step (lang %v)", name, r.eval(t, r.popup, "document.documentElement.lang"))
}

func (r *connectRig) screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	r.shot++
	if err := os.WriteFile(filepath.Join(r.shots, fmt.Sprintf("%02d-%s.png", r.shot, name)), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fill types value into the field whose <label for> reads label (exactly, or followed by
// " (opcional)"), as a person would find it.
func (r *connectRig) fill(t *testing.T, label, value string) {
	t.Helper()
	js := fmt.Sprintf(`(() => { const l = [...document.querySelectorAll("label")].find((l) => l.textContent.trim() === %q);
		const f = l && document.getElementById(l.htmlFor); if (!f) return ""; f.value = ""; return f.id; })()`, label)
	id, _ := r.eval(t, r.popup, js).(string)
	if id == "" {
		t.Fatalf("no field labelled %q; page: %s", label, r.pageText(r.popup))
	}
	r.do(t, r.popup, chromedp.SendKeys(chromedp.ID(id), value))
}

// submit presses Enter in the field labelled label: the form is sent from the keyboard.
func (r *connectRig) submit(t *testing.T, label string) {
	t.Helper()
	js := fmt.Sprintf(`[...document.querySelectorAll("label")].find((l) => l.textContent.trim() === %q).htmlFor`, label)
	id, _ := r.eval(t, r.popup, js).(string)
	r.do(t, r.popup, chromedp.SendKeys(chromedp.ID(id), kb.Enter))
}

// logIn signs in on the credentials form as user, with the sandbox's accepted password,
// pressing Enter in the password field; the fields are found by their labels in the page's
// language.
func (r *connectRig) logIn(t *testing.T, user string) {
	t.Helper()
	userLabel, passwordLabel := "Usuário", "Senha"
	if r.eval(t, r.popup, "document.documentElement.lang") == "en" {
		userLabel, passwordLabel = "User", "Password"
	}
	r.fill(t, userLabel, user)
	r.fill(t, passwordLabel, "password-ok")
	r.submit(t, passwordLabel)
}

// pick searches the list for query and chooses connector id with the keyboard.
func (r *connectRig) pick(t *testing.T, query string, id int) {
	t.Helper()
	r.step(t, "list")
	r.do(t, r.popup, chromedp.SendKeys(chromedp.ID("search"), query))
	sel := fmt.Sprintf(`[data-connector-id="%d"]`, id)
	r.until(t, r.popup, fmt.Sprintf(`document.querySelector(%q) !== null`, sel))
	r.screenshot(t, r.popup, "search")
	r.do(t, r.popup, chromedp.Focus(chromedp.CSS(sel)), chromedp.KeyEvent(kb.Enter))
}

// visibleConnectors lists the ids the list shows.
func (r *connectRig) visibleConnectors(t *testing.T) []float64 {
	v := r.eval(t, r.popup, `[...document.querySelectorAll("[data-connector-id]")].map((b) => Number(b.dataset.connectorId))`)
	var ids []float64
	for _, x := range v.([]any) {
		ids = append(ids, x.(float64))
	}
	return ids
}

// connectMessage is one message the application's page received.
type connectMessage struct {
	Origin string `json:"origin"`
	Data   struct {
		Type  string         `json:"type"`
		Event string         `json:"event"`
		Item  map[string]any `json:"item"`
		Error map[string]any `json:"error"`
	} `json:"data"`
}

// message waits for the application's n-th message (1-based) and returns it.
func (r *connectRig) message(t *testing.T, n int) connectMessage {
	t.Helper()
	r.until(t, r.browser, fmt.Sprintf("window.msgs.length >= %d", n))
	raw := r.eval(t, r.browser, fmt.Sprintf("JSON.stringify(window.msgs[%d])", n-1))
	var m connectMessage
	if err := json.Unmarshal([]byte(raw.(string)), &m); err != nil {
		t.Fatal(err)
	}
	if m.Origin != r.env.URL || m.Data.Type != "ponte-connect" {
		t.Fatalf("message %d from %s: %+v", n, m.Origin, m.Data)
	}
	return m
}
