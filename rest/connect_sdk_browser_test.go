//go:build browser

package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"ponte/testsupport"
)

// The Connect widget SDK (pluggy-connect-sdk 2.14.2, from npm) on an application's page,
// with its url prop pointed at Ponte's Connect page: the SDK frames the page through zoid,
// the end user connects in the frame, and the application's callbacks hear it in the
// SDK's shapes. The application's page is served on another origin (localhost, where
// Ponte is on 127.0.0.1: another site, so the frame runs as the browser isolates a real
// widget), allowed by the operator's browser origins.

// sdkHost bundles the application's page script (testdata/connectsdk/host.js) with esbuild
// from the packages of the lock file, and serves it on its own origin.
func sdkHost(t *testing.T) (origin string) {
	t.Helper()
	return widgetHost(t, "connectsdk", "host.js")
}

// widgetHost serves, on an origin of its own, a page running testdata/<name>/<entry>
// bundled with esbuild (and flags) from that folder's lock file: an application that opens
// the widget through the SDK, directly or through a wrapper of it.
func widgetHost(t *testing.T, name, entry string, flags ...string) (origin string) {
	t.Helper()
	dir := filepath.Join("testdata", name)
	testsupport.NPMInstall(t, dir)
	// The page's zoid is the SDK's, byte for byte: the SDK refuses a child of another version.
	embedded, err := os.ReadFile(filepath.Join("connectpage", "zoid-frame.js"))
	if err != nil {
		t.Fatal(err)
	}
	published, err := os.ReadFile(filepath.Join(dir, "node_modules", "zoid", "dist", "zoid.frame.min.js"))
	if err != nil || !bytes.Equal(embedded, published) {
		t.Fatalf("connectpage/zoid-frame.js is not the SDK's zoid (%s's dist/zoid.frame.min.js): %v", dir, err)
	}
	out := filepath.Join(t.TempDir(), "host.js")
	args := append([]string{entry, "--bundle", "--format=iife", "--log-level=warning", "--outfile=" + out}, flags...)
	cmd := exec.Command(filepath.Join("node_modules", ".bin", "esbuild"), args...)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("esbuild: %v\n%s", err, b)
	}
	script, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/host.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		_, _ = w.Write(script)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><script src="/host.js"></script></head>
<body><h1>Shop</h1></body></html>`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
}

// sdkRig is the Connect page's rig with the SDK's page as the application, and the widget's
// frame as the window the end user acts in (inFrame).
type sdkRig struct {
	*connectRig
	host   string
	frames map[target.ID]bool // the widgets' frames taken over so far
	frame  target.ID          // the current one
}

func newSDKRig(t *testing.T) *sdkRig {
	t.Helper()
	return newWidgetRig(t, sdkHost(t))
}

// newWidgetRig is the rig with the application's page at host (a widgetHost), whose
// origin the operator allows.
func newWidgetRig(t *testing.T, host string) *sdkRig {
	t.Helper()
	r := newConnectRig(t, func(s *testsupport.Setup) { s.REST.BrowserOrigins = []string{host} })
	return &sdkRig{connectRig: r, host: host, frames: map[target.ID]bool{}}
}

// openWidget loads the application's page, opens the widget with token and the extra props
// (a JavaScript object literal) and takes over the widget's frame.
func (r *sdkRig) openWidget(t *testing.T, token, extra string) {
	t.Helper()
	r.do(t, r.browser, chromedp.Navigate(r.host+"/"), chromedp.WaitVisible(chromedp.CSS("h1")))
	r.eval(t, r.browser, fmt.Sprintf(`openWidget(%q + "/connect", %q, %s)`, r.env.URL, token, extra))
	// zoid's render ends when the page in the frame has shaken hands with the SDK.
	r.until(t, r.browser, `window.calls.some((c) => c.name === "rendered" || c.name === "renderFailed")`)
	// The frame is of another site, so the browser runs it as a target of its own; the
	// newest one is this widget's.
	infos, err := chromedp.Targets(r.browser)
	if err != nil {
		t.Fatal(err)
	}
	var frame *target.Info
	for _, i := range infos {
		if i.Type == "iframe" && strings.HasPrefix(i.URL, r.env.URL+"/connect") && !r.frames[i.TargetID] {
			frame = i
		}
	}
	if frame == nil {
		t.Fatalf("no frame of the Connect page; calls: %v", r.eval(t, r.browser, "JSON.stringify(window.calls)"))
	}
	r.frames[frame.TargetID] = true
	r.frame = frame.TargetID
}

// frameEval is the rig's eval in the widget's frame. Runtime.evaluate with no execution
// context never answers in a frame's own target, so the expression runs as a poll
// (callFunctionOn in the frame's context) whose predicate is always true.
func (r *sdkRig) frameEval(t *testing.T, js string) any {
	t.Helper()
	ctx, cancel := context.WithTimeout(r.inFrame(), 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Poll[map[string]any]("({v: ("+js+")})", chromedp.WithPollingInterval(30*time.Millisecond)))
	if err != nil {
		t.Fatalf("browser: evaluate %s in the widget: %v", js, err)
	}
	return v["v"]
}

// frameUntil waits for a JavaScript condition in the widget's frame.
func (r *sdkRig) frameUntil(t *testing.T, js string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(r.inFrame(), 30*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[any](js, chromedp.WithPollingInterval(30*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("browser: waiting for %s in the widget: %v; application's callbacks: %v", js, err, r.eval(t, r.browser, "JSON.stringify([window.calls, window.events])"))
	}
}

// fill types value into the widget's field labelled label; submit presses Enter in it.
func (r *sdkRig) fill(t *testing.T, label, value string) string {
	t.Helper()
	id, _ := r.frameEval(t, fmt.Sprintf(`(() => { const l = [...document.querySelectorAll("label")].find((l) => l.textContent.trim() === %q);
		const f = l && document.getElementById(l.htmlFor); if (!f) return ""; f.value = ""; return f.id; })()`, label)).(string)
	if id == "" {
		t.Fatalf("no field labelled %q in the widget", label)
	}
	r.do(t, r.inFrame(), chromedp.SendKeys(chromedp.ID(id), value))
	return id
}

func (r *sdkRig) logIn(t *testing.T, user string) {
	t.Helper()
	r.fill(t, "User", user)
	id := r.fill(t, "Password", "password-ok")
	r.do(t, r.inFrame(), chromedp.SendKeys(chromedp.ID(id), kb.Enter))
}

// inFrame is a new context attached to the widget's frame. A second Run in a context
// attached to a frame's target never answers, so each action attaches afresh.
func (r *sdkRig) inFrame() context.Context {
	ctx, _ := chromedp.NewContext(r.browser, chromedp.WithTargetID(r.frame))
	return ctx
}

type sdkCall struct {
	Name string         `json:"name"`
	Data map[string]any `json:"data"`
}

// sdkCalls are the application's callbacks so far, and onEvent's event names.
func (r *sdkRig) sdkCalls(t *testing.T) (calls []sdkCall, events []map[string]any) {
	t.Helper()
	raw := r.eval(t, r.browser, `JSON.stringify([window.calls, window.events])`).(string)
	var both [2]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &both); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(both[0], &calls); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(both[1], &events); err != nil {
		t.Fatal(err)
	}
	return calls, events
}

func eventNames(events []map[string]any) string {
	var names []string
	for _, e := range events {
		names = append(names, fmt.Sprint(e["event"]))
	}
	return strings.Join(names, " ")
}

// TestConnectWidgetSDK connects a sandbox bank with MFA through the SDK: onOpen, the events
// in the hosted widget's order, onSuccess with the item, then onClose from the page's
// close button. A second widget, whose user the bank locks out, ends in onError with the
// item.
func TestConnectWidgetSDK(t *testing.T) {
	r := newSDKRig(t)
	tok := r.token(t, map[string]any{})
	r.openWidget(t, tok, `{language: "en", theme: "dark"}`)
	r.frameUntil(t, `document.querySelector('[data-connector-id="1"]') !== null`)
	if v := r.frameEval(t, `[document.documentElement.lang, document.documentElement.dataset.theme]`).([]any); v[0] != "en" || v[1] != "dark" {
		t.Errorf("language and theme props: %v", v)
	}
	r.sizedScreenshot(t, "widget-list-phone", 360, 740)
	r.sizedScreenshot(t, "widget-list-desktop", 1280, 800)
	r.do(t, r.browser, chromedp.EmulateViewport(360, 740))
	r.do(t, r.inFrame(), chromedp.Click(chromedp.CSS(`[data-connector-id="1"]`)))
	r.frameUntil(t, `document.getElementById("title-form") !== null`)
	r.logIn(t, "user-ok")
	r.frameUntil(t, `document.getElementById("title-mfa") !== null`)
	r.screenshot(t, r.browser, "widget-mfa")
	id := r.fill(t, "Token", "123456")
	r.do(t, r.inFrame(), chromedp.SendKeys(chromedp.ID(id), kb.Enter))
	r.until(t, r.browser, `window.calls.some((c) => c.name === "onSuccess")`)
	r.frameUntil(t, `document.getElementById("title-success") !== null`)
	r.screenshot(t, r.browser, "widget-success")

	item, events := r.succeeded(t)
	want := "SELECTED_INSTITUTION SUBMITTED_LOGIN ITEM_RESPONSE SUBMITTED_MFA LOGIN_MFA_SUCCESS LOGIN_STEP_COMPLETED"
	if got := eventNames(events); got != want {
		t.Errorf("events %q, want %q", got, want)
	}
	for _, e := range events {
		if _, ok := e["timestamp"].(float64); !ok {
			t.Errorf("event %v has no timestamp", e)
		}
		switch e["event"] {
		case "SELECTED_INSTITUTION":
			if c, _ := e["connector"].(map[string]any); c == nil || c["id"] != float64(1) {
				t.Errorf("SELECTED_INSTITUTION %v", e)
			}
		case "ITEM_RESPONSE", "LOGIN_MFA_SUCCESS", "LOGIN_STEP_COMPLETED":
			if it, _ := e["item"].(map[string]any); it == nil || it["id"] != item["id"] {
				t.Errorf("%v: item %v", e["event"], e["item"])
			}
		}
	}
	// The page's own close button closes the widget: the SDK calls onClose.
	r.do(t, r.inFrame(), chromedp.Click(chromedp.ID("close")))
	r.until(t, r.browser, `window.calls.some((c) => c.name === "onClose")`)

	// A user the bank locks out: onError with the item's error and the item, and the events
	// up to the item's answer. The connector is chosen by the application (selectedConnectorId).
	_, events = r.lockedOut(t, "en-US")
	if got, want := eventNames(events), "SELECTED_INSTITUTION SUBMITTED_LOGIN ITEM_RESPONSE"; !strings.HasSuffix(got, want) {
		t.Errorf("events %q, want them to end with %q", got, want)
	}
	r.screenshot(t, r.browser, "widget-error")
}

// succeeded checks the host page's callbacks after a connection: rendered and onOpen, then
// onSuccess with the UPDATED item, which it returns with the events the page received.
func (r *sdkRig) succeeded(t *testing.T) (item map[string]any, events []map[string]any) {
	t.Helper()
	calls, events := r.sdkCalls(t)
	var names []string
	for _, c := range calls {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, " "); got != "rendered onOpen onSuccess" && got != "onOpen rendered onSuccess" {
		t.Errorf("callbacks %q", got)
	}
	item, _ = calls[len(calls)-1].Data["item"].(map[string]any)
	if item == nil || item["status"] != "UPDATED" || item["id"] == nil {
		t.Fatalf("onSuccess got %v", calls[len(calls)-1].Data)
	}
	return item, events
}

// lockedOut opens the widget on connector 1 and logs in as a user the bank locks out: the
// SDK's onError must carry a message and the LOGIN_ERROR item, which it returns with the
// events the host page received.
func (r *sdkRig) lockedOut(t *testing.T, language string) (failed map[string]any, events []map[string]any) {
	t.Helper()
	r.openWidget(t, r.token(t, map[string]any{}), `{selectedConnectorId: 1, language: "`+language+`"}`)
	r.frameUntil(t, `document.getElementById("title-form") !== null`)
	r.logIn(t, "user-locked")
	r.until(t, r.browser, `window.calls.some((c) => c.name === "onError")`)
	calls, events := r.sdkCalls(t)
	var onError sdkCall
	for _, c := range calls {
		if c.Name == "onError" {
			onError = c
		}
	}
	data, _ := onError.Data["data"].(map[string]any)
	failed, _ = data["item"].(map[string]any)
	if msg, _ := onError.Data["message"].(string); msg == "" || failed == nil || failed["status"] != "LOGIN_ERROR" {
		t.Fatalf("onError got %v", onError.Data)
	}
	return failed, events
}

// TestConnectWidgetHostileProps: props the page does not expect (an unknown key, a 1 MB
// language) are ignored and the page works as if they were not sent. (Props of the wrong
// type never reach it: the SDK's zoid refuses them before rendering.)
func TestConnectWidgetHostileProps(t *testing.T) {
	r := newSDKRig(t)
	r.openWidget(t, r.token(t, map[string]any{}), `{language: "en".repeat(1 << 19), unknownProp: {deep: [1, 2, 3]}, _parentContainerContext: "x".repeat(1 << 20)}`)
	r.frameUntil(t, `document.querySelector('[data-connector-id="1"]') !== null`)
	if lang := r.frameEval(t, `document.documentElement.lang`); lang != "pt-BR" {
		t.Errorf("a 1 MB language made the page %v", lang)
	}
}

// TestConnectWidgetFramingRefused: the browser shows the Connect page in a frame of an
// allowed origin, and refuses it in a frame of any other (here the application's own page
// under another origin, 127.0.0.1 rather than localhost).
func TestConnectWidgetFramingRefused(t *testing.T) {
	r := newSDKRig(t)
	// framed loads origin's page, frames the Connect page in it and says whether the page
	// loaded in the frame: a frame runs in the page's process (same site) or as a target
	// of its own (another site), so both are looked at.
	framed := func(origin string) bool {
		t.Helper()
		r.do(t, r.browser, chromedp.Navigate(origin+"/"), chromedp.WaitVisible(chromedp.CSS("h1")))
		r.eval(t, r.browser, fmt.Sprintf(`window.loaded = false; const f = document.createElement("iframe");
			f.onload = () => { window.loaded = true; }; f.src = %q; document.body.append(f); true`, r.env.URL+"/connect?lang=en"))
		r.until(t, r.browser, `window.loaded`)
		var urls []string
		r.do(t, r.browser, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			res, err := cdp.Call(ctx, tg, page.GetFrameTree, cdp.Empty{})
			if err != nil {
				return err
			}
			for _, c := range res.FrameTree.ChildFrames {
				urls = append(urls, c.Frame.URL)
			}
			return nil
		}))
		infos, err := chromedp.Targets(r.browser)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range infos {
			if i.Type == "iframe" {
				urls = append(urls, i.URL)
			}
		}
		t.Logf("frames from %s: %q", origin, urls)
		for _, u := range urls {
			if strings.HasPrefix(u, r.env.URL+"/connect") {
				return true
			}
		}
		return false
	}
	if !framed(r.host) {
		t.Errorf("the allowed origin %s could not frame the Connect page", r.host)
	}
	other := strings.Replace(r.host, "localhost", "127.0.0.1", 1)
	if framed(other) {
		t.Errorf("origin %s, not allowed, framed the Connect page", other)
	}
}

// TestConnectWidgetProps: connectorIds narrows the list to those institutions, and with
// allowConnectInBackground the page's close button hides the widget (onHide) rather than
// closing it.
func TestConnectWidgetProps(t *testing.T) {
	r := newSDKRig(t)
	r.openWidget(t, r.token(t, map[string]any{}), `{connectorIds: [1, 2], allowConnectInBackground: true}`)
	r.frameUntil(t, `document.querySelectorAll("[data-connector-id]").length > 0`)
	ids := r.frameEval(t, `[...document.querySelectorAll("[data-connector-id]")].map((b) => Number(b.dataset.connectorId)).sort()`)
	if fmt.Sprint(ids) != "[1 2]" {
		t.Errorf("connectorIds [1, 2] listed %v", ids)
	}
	r.do(t, r.inFrame(), chromedp.Click(chromedp.ID("close")))
	r.until(t, r.browser, `window.calls.some((c) => c.name === "onHide")`)
	if closed := r.eval(t, r.browser, `window.calls.some((c) => c.name === "onClose")`); closed != false {
		t.Error("hiding the widget closed it")
	}
}
