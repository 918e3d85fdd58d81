//go:build browser

package rest_test

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The Connect widget SDK's props that change what the page shows (language, theme,
// countries) and what it sends (openFinanceParameters), each checked on the page in the
// widget's frame or on the item the API then holds (the rig is connect_sdk_browser_test.go's).

// TestConnectWidgetLanguageTheme: language "en…" shows the page's words in English, "pt"
// in Portuguese, and an unknown language in the browser's language, or English when the
// browser's is neither (as the SDK declares), with the list still working; theme "dark"
// paints the page dark, "light" and no theme light.
func TestConnectWidgetLanguageTheme(t *testing.T) {
	r := newSDKRig(t)
	const dark, light = "rgb(22, 24, 28)", "rgb(246, 247, 249)"
	for _, tc := range []struct {
		props, title, close, count, background string
	}{
		{`{language: "en", theme: "dark"}`, "Choose your institution", "Close", "institutions", dark},
		{`{language: "pt", theme: "light"}`, "Escolha sua instituição", "Fechar", "instituições", light},
		{`{language: "en-GB"}`, "Choose your institution", "Close", "institutions", light},
		{`{language: "xx-unknown", theme: "dark"}`, "", "", "", dark}, // words: the browser's language
	} {
		r.openWidget(t, r.token(t, map[string]any{}), tc.props)
		if tc.title == "" {
			tc.title, tc.close, tc.count = "Choose your institution", "Close", "institutions"
			if lang := fmt.Sprint(r.frameEval(t, `navigator.language`)); strings.HasPrefix(lang, "pt") {
				tc.title, tc.close, tc.count = "Escolha sua instituição", "Fechar", "instituições"
			}
		}
		listed := r.widgetListed(t)
		if len(listed) < 5 {
			t.Errorf("%s: the list shows %v", tc.props, listed)
		}
		got := r.frameEval(t, `[document.getElementById("title-list").textContent, document.getElementById("close").textContent,
			document.getElementById("count").textContent, getComputedStyle(document.body).backgroundColor,
			getComputedStyle(document.querySelector(".connector")).backgroundColor]`).([]any)
		if got[0] != tc.title || got[1] != tc.close || !strings.HasSuffix(fmt.Sprint(got[2]), " "+tc.count) {
			t.Errorf("%s: the page says %q, %q, %q; want %q, %q, \"N %s\"", tc.props, got[0], got[1], got[2], tc.title, tc.close, tc.count)
		}
		if got[3] != tc.background {
			t.Errorf("%s: page background %v, want %s", tc.props, got[3], tc.background)
		}
		// The institutions' buttons follow the theme too: white on light, dark grey on dark.
		if want := map[string]string{dark: "rgb(35, 38, 43)", light: "rgb(255, 255, 255)"}[tc.background]; got[4] != want {
			t.Errorf("%s: institution button background %v, want %s", tc.props, got[4], want)
		}
		calls, _ := r.sdkCalls(t)
		for _, c := range calls {
			if c.Name == "onError" || c.Name == "renderFailed" {
				t.Errorf("%s: %s %v", tc.props, c.Name, c.Data)
			}
		}
	}
}

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

// TestConnectWidgetOpenFinanceParameters: the CPF of openFinanceParameters (written with
// its dots and dash) pre-fills an Open Finance institution's form, digits only; sent as
// it is, it is the CPF the item logs in with: once the user consents, the item's identity
// is that CPF's. Another institution's form, which also asks for a CPF and a CNPJ, starts
// empty.
func TestConnectWidgetOpenFinanceParameters(t *testing.T) {
	r := newSDKRig(t)
	const cpf = "52998224725"
	r.openWidget(t, r.token(t, map[string]any{}), `{selectedConnectorId: 6, language: "en", openFinanceParameters: {cpf: "529.982.247-25"}}`)
	r.frameUntil(t, `document.getElementById("title-form") !== null`)
	field := r.frameEval(t, `(() => { const l = [...document.querySelectorAll("label")].find((l) => l.textContent.trim() === "CPF");
		const f = l && document.getElementById(l.htmlFor); return f ? [f.id, f.value] : ["", ""]; })()`).([]any)
	if field[0] == "" || field[1] != cpf {
		t.Fatalf("the Open Finance form's CPF field holds %q, want %q", field[1], cpf)
	}
	// Sent untouched: the user only confirms.
	r.do(t, r.inFrame(), chromedp.SendKeys(chromedp.ID(field[0].(string)), kb.Enter))
	r.until(t, r.browser, `window.events.some((e) => e.event === "ITEM_RESPONSE")`)
	r.frameUntil(t, `document.getElementById("action-link") !== null`)
	link := fmt.Sprint(r.frameEval(t, `document.getElementById("action-link").href`))
	if !strings.HasPrefix(link, r.env.URL+"/sandbox/authorize/") {
		t.Fatalf("institution link %q", link)
	}
	// The user's approval at the institution (its page in a tab is TestConnectWidgetConsent's).
	resp, err := http.PostForm(link, url.Values{"decision": {"approve"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("approving at the institution: %s", resp.Status)
	}
	r.until(t, r.browser, `window.calls.some((c) => c.name === "onSuccess" || c.name === "onError")`)
	calls, events := r.sdkCalls(t)
	var id string
	for _, e := range events {
		if i, _ := e["item"].(map[string]any); e["event"] == "ITEM_RESPONSE" && i != nil {
			id, _ = i["id"].(string)
		}
	}
	wantWidgetSuccess(t, calls, id, 6)
	var identity struct {
		Document string `json:"document"`
	}
	r.env.Do(t, "GET", "/identity?itemId="+id, r.client.APIKey, nil).Want(200).JSON(&identity)
	if identity.Document != cpf {
		t.Errorf("the item's identity is of document %q, want the prop's CPF %s", identity.Document, cpf)
	}

	// Banco Aurora Empresas asks for a CNPJ and a CPF but is no Open Finance institution.
	r.openWidget(t, r.token(t, map[string]any{}), `{selectedConnectorId: 2, language: "en", openFinanceParameters: {cpf: "52998224725", cnpj: "11222333000181"}}`)
	r.frameUntil(t, `document.getElementById("title-form") !== null && document.getElementById("f-cnpj") !== null`)
	if got := r.frameEval(t, `[document.getElementById("f-cnpj").value, document.getElementById("f-cpf").value]`).([]any); got[0] != "" || got[1] != "" {
		t.Errorf("a form of no Open Finance institution was pre-filled with %v", got)
	}
}

// sizedScreenshot shows the application's page, with the widget open in it, on a screen of
// width × height CSS pixels, saves what the screen shows as name (beside the rig's other
// screenshots) and checks the picture: a PNG of exactly that size, and the widget's frame
// laid out within that width with nothing wider than itself.
func (r *sdkRig) sizedScreenshot(t *testing.T, name string, width, height int64) {
	t.Helper()
	r.do(t, r.browser, chromedp.EmulateViewport(width, height))
	r.frameUntil(t, fmt.Sprintf(`innerWidth > 0 && innerWidth <= %d && document.documentElement.scrollWidth <= innerWidth`, width))
	shot, err := chromedp.Run(r.browser, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot %s is no PNG: %v", name, err)
	}
	if b := img.Bounds(); int64(b.Dx()) != width || int64(b.Dy()) != height {
		t.Errorf("screenshot %s is %d×%d, want %d×%d", name, b.Dx(), b.Dy(), width, height)
	}
	// A blank screen is one colour; the widget's list has text, logos and borders.
	colours := map[color.Color]bool{}
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y && len(colours) < 16; y += 4 {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 4 {
			colours[img.At(x, y)] = true
		}
	}
	if len(colours) < 16 {
		t.Errorf("screenshot %s shows %d colours: blank", name, len(colours))
	}
	r.shot++
	path := filepath.Join(r.shots, fmt.Sprintf("%02d-%s.png", r.shot, name))
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		t.Fatalf("screenshot %s not written: %v", path, err)
	}
}
