//go:build browser

package rest_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"ponte/model"
	"ponte/testsupport"
	"ponte/testsupport/axe"
)

// TestConnectHappyPath: the end user searches, picks Ponte Bank (connector 0) with the
// keyboard, is stopped by the browser's check of the user parameter's rule, fills the form
// by its labels, submits, and the application's page receives the success message with the
// item, which the application reads as UPDATED.
func TestConnectHappyPath(t *testing.T) {
	// Paced steps, so the progress screen can be seen (it is not waited for by time: the
	// test looks at it only if it is there).
	r := newConnectRig(t, func(s *testsupport.Setup) { s.Sync.StepDelay = 150 * time.Millisecond })
	tok := r.token(t, r.options(nil))
	r.open(t, "/connect#connect_token="+tok)
	r.pick(t, "PONTE bank", 0)
	for _, id := range r.visibleConnectors(t) {
		if id != 0 && id != 1 {
			t.Errorf("searching Ponte Bank lists connector %v", id)
		}
	}
	r.step(t, "form")
	if loc := r.eval(t, r.popup, "location.href").(string); strings.Contains(loc, tok) {
		t.Fatalf("the token stays in the address bar: %s", loc)
	}

	r.logIn(t, "x")
	r.until(t, r.popup, `document.getElementById("f-user").getAttribute("aria-invalid") === "true"`)
	if msg := r.eval(t, r.popup, `document.getElementById("f-user-error").textContent`); msg != "O usuário deve ter de 3 a 64 letras, números ou . _ @ -" {
		t.Fatalf("validation message %q", msg)
	}
	if focused := r.eval(t, r.popup, "document.activeElement.id"); focused != "f-user" {
		t.Fatalf("focus on %v after a refused submit, want the invalid field", focused)
	}
	r.screenshot(t, r.popup, "form-invalid")

	r.fill(t, "Usuário", "user-ok")
	r.submit(t, "Senha")
	r.until(t, r.popup, `document.getElementById("step-progress") || document.getElementById("step-success")`)
	if r.eval(t, r.popup, `document.getElementById("step-progress") !== null`) == true {
		r.screenshot(t, r.popup, "progress")
		if said := r.eval(t, r.popup, `document.getElementById("live").textContent`).(string); !strings.HasSuffix(said, "…") {
			t.Errorf("progress announced as %q", said)
		}
	}
	m := r.message(t, 1)
	if m.Data.Event != "success" {
		t.Fatalf("first message %+v", m.Data)
	}
	id, _ := m.Data.Item["id"].(string)
	conn, _ := m.Data.Item["connector"].(map[string]any)
	if id == "" || conn["id"] != float64(0) || conn["name"] != "Ponte Bank" || m.Data.Item["status"] != "UPDATED" {
		t.Fatalf("success item %+v", m.Data.Item)
	}
	r.step(t, "success")
	if it := r.env.Item(t, r.client.APIKey, id); it.Status != model.ItemUpdated {
		t.Fatalf("item %s is %s", id, it.Status)
	}
}

// TestConnectMFA: Ponte Bank MFA asks for its token after the password; the page asks for
// it in place (in English here) and the connection completes.
func TestConnectMFA(t *testing.T) {
	r := newConnectRig(t)
	r.open(t, "/connect?lang=en&connect_token="+r.token(t, r.options(nil)))
	r.pick(t, "mfa", 1)
	r.step(t, "form")
	if h := r.eval(t, r.popup, `document.getElementById("title-form").textContent`); h != "Connect Ponte Bank MFA" {
		t.Fatalf("heading %q", h)
	}
	if n := r.eval(t, r.popup, `document.querySelectorAll("#credentials input").length`); n != float64(2) {
		t.Fatalf("%v fields: the MFA token is asked when the bank asks for it, not up front", n)
	}
	r.logIn(t, "user-ok")
	r.step(t, "mfa")
	if h := r.eval(t, r.popup, `document.getElementById("title-mfa").textContent`); h != "Confirm it is you" {
		t.Fatalf("heading %q", h)
	}
	r.fill(t, "Token", "123456")
	r.submit(t, "Token")
	if m := r.message(t, 1); m.Data.Event != "success" || m.Data.Item["status"] != "UPDATED" {
		t.Fatalf("message %+v", m.Data)
	}
	r.step(t, "success")
}

// TestConnectWrongPassword: a wrong password brings the form back with the error announced,
// the application hears of the error, and the retry updates the same item to success.
func TestConnectWrongPassword(t *testing.T) {
	r := newConnectRig(t)
	r.open(t, "/connect#connect_token="+r.token(t, r.options(nil)))
	r.pick(t, "ponte", 0)
	r.step(t, "form")
	r.fill(t, "Usuário", "user-ok")
	r.fill(t, "Senha", "wrong-password")
	r.submit(t, "Senha")
	failed := r.message(t, 1)
	if failed.Data.Event != "error" || failed.Data.Error["code"] != "INVALID_CREDENTIALS" {
		t.Fatalf("message %+v", failed.Data)
	}
	r.step(t, "form")
	r.until(t, r.popup, `document.getElementById("form-error") !== null`)
	if e := r.eval(t, r.popup, `document.getElementById("form-error").textContent`); e != "Usuário ou senha incorretos. Confira e tente de novo." {
		t.Fatalf("form error %q", e)
	}
	if a := r.eval(t, r.popup, `document.getElementById("alert").textContent`); a != "Usuário ou senha incorretos. Confira e tente de novo." {
		t.Fatalf("announced %q", a)
	}
	r.screenshot(t, r.popup, "form-wrong-password")
	r.logIn(t, "user-ok")
	ok := r.message(t, 2)
	if ok.Data.Event != "success" || ok.Data.Item["id"] != failed.Data.Item["id"] {
		t.Fatalf("retry message %+v after %+v", ok.Data, failed.Data)
	}
	r.step(t, "success")
}

// TestConnectErrorScreen: an error the user cannot fix in the form (a locked account) gets a
// screen of its own saying what to do, with a way back to the form; closing the page then
// tells the application.
func TestConnectErrorScreen(t *testing.T) {
	r := newConnectRig(t)
	r.open(t, "/connect#connect_token="+r.token(t, r.options(nil)))
	r.pick(t, "ponte bank", 0)
	r.step(t, "form")
	r.logIn(t, "user-locked")
	r.step(t, "error")
	if code := r.eval(t, r.popup, `document.getElementById("error-text").dataset.code`); code != "ACCOUNT_LOCKED" {
		t.Fatalf("error code %v", code)
	}
	if m := r.message(t, 1); m.Data.Event != "error" || m.Data.Error["code"] != "ACCOUNT_LOCKED" {
		t.Fatalf("message %+v", m.Data)
	}
	r.do(t, r.popup, chromedp.Focus(chromedp.ID("retry")), chromedp.KeyEvent(kb.Enter))
	r.step(t, "form")
	// Closing tells the application, with the item as it stands.
	// The window closes while the key is handled: the browser may then report the tab gone.
	if err := chromedp.Do(r.popup, chromedp.Focus(chromedp.ID("close")), chromedp.KeyEvent(kb.Enter)); err != nil && !strings.Contains(err.Error(), "detached") {
		t.Fatal(err)
	}
	if m := r.message(t, 2); m.Data.Event != "close" || m.Data.Item["status"] != "LOGIN_ERROR" {
		t.Fatalf("message %+v", m.Data)
	}
}

// TestConnectQRCode: the bank asks for a QR code scan (or an authorization in its app); the
// page shows the instructions and the link, the user's phone (the test) approves there, and
// the page completes by itself.
func TestConnectQRCode(t *testing.T) {
	for _, c := range []struct{ user, title, instructions string }{
		{"user-ok-qr", "Escaneie o QR code", "Escaneie o QR code com o aplicativo do banco para entrar."},
		{"user-ok-auth-pending", "Autorize o acesso", "Abra o aplicativo do banco e autorize o novo acesso."},
	} {
		t.Run(c.user, func(t *testing.T) {
			r := newConnectRig(t)
			r.open(t, "/connect#connect_token="+r.token(t, r.options(nil)))
			r.pick(t, "ponte bank", 0)
			r.step(t, "form")
			r.logIn(t, c.user)
			r.step(t, "action")
			if got := r.eval(t, r.popup, `[document.getElementById("title-action").textContent, document.getElementById("instructions").textContent,
				document.getElementById("action-link").target]`).([]any); got[0] != c.title || got[1] != c.instructions || got[2] != "_blank" {
				t.Fatalf("action step %q", got)
			}
			href, _ := r.eval(t, r.popup, `document.getElementById("action-link").href`).(string)
			if !strings.HasPrefix(href, r.env.URL+"/sandbox/authorize/") {
				t.Fatalf("link %q", href)
			}
			resp, err := http.PostForm(href, url.Values{"decision": {"approve"}})
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Fatalf("approving: %d", resp.StatusCode)
			}
			if m := r.message(t, 1); m.Data.Event != "success" {
				t.Fatalf("message %+v", m.Data)
			}
			r.step(t, "success")
		})
	}
}

// TestConnectOpenFinanceOAuth: an Open Finance connector sends the user to the institution's
// page; the user authorizes there, comes back to the Connect page (the token waits in the
// tab's storage, not in the return address), which finishes and tells the application.
func TestConnectOpenFinanceOAuth(t *testing.T) {
	r := newConnectRig(t)
	r.open(t, "/connect#connect_token="+r.token(t, r.options(nil)))
	r.pick(t, "pagamentos", 6)
	r.step(t, "form")
	r.fill(t, "CPF", "52998224725")
	r.submit(t, "CPF")
	r.step(t, "action")
	r.do(t, r.popup, chromedp.Focus(chromedp.ID("action-link")), chromedp.KeyEvent(kb.Enter))
	r.until(t, r.popup, `location.pathname.startsWith("/sandbox/authorize/") && document.querySelector("button.approve") !== null`)
	axe.Check(t, r.popup, "the sandbox institution's authorization page")
	r.screenshot(t, r.popup, "institution")
	r.do(t, r.popup, chromedp.Click(chromedp.CSS("button.approve")))
	m := r.message(t, 1)
	if m.Data.Event != "success" || m.Data.Item["status"] != "UPDATED" {
		t.Fatalf("message %+v", m.Data)
	}
	r.step(t, "success")
	if loc := r.eval(t, r.popup, "location.href"); loc != r.env.URL+"/connect" {
		t.Fatalf("back at %v", loc)
	}
	if it := r.env.Item(t, r.client.APIKey, m.Data.Item["id"].(string)); it.OAuthRedirectURI == nil || *it.OAuthRedirectURI != r.env.URL+"/connect" {
		t.Fatalf("item oauthRedirectUri %v", it.OAuthRedirectURI)
	}
}

// TestConnectUpdateItem: a token issued for an existing item opens its update form directly;
// credentials of another account are refused in words, the right ones update that item.
func TestConnectUpdateItem(t *testing.T) {
	r := newConnectRig(t)
	var it model.Item
	r.env.Do(t, "POST", "/items", r.client.APIKey, map[string]any{"connectorId": 0,
		"parameters": map[string]any{"user": "user-ok", "password": "password-ok"}}).Want(200).JSON(&it)
	r.env.WaitItem(t, r.client.APIKey, it.ID.String(), testsupport.Settled)
	body := r.options(nil)
	body["itemId"] = it.ID.String()
	r.open(t, "/connect#connect_token="+r.token(t, body))
	r.step(t, "form")
	if h := r.eval(t, r.popup, `document.getElementById("title-form").textContent`); h != "Atualizar conexão com Ponte Bank" {
		t.Fatalf("heading %q", h)
	}
	// Another user logs in to another account: the API refuses, the page says so in its words.
	r.logIn(t, "user-ok-two-checking-accounts")
	r.until(t, r.popup, `document.getElementById("form-error") !== null`)
	if e := r.eval(t, r.popup, `document.getElementById("form-error").textContent`); e != "Estes dados entram em outra conta, não na que está conectada." {
		t.Fatalf("form error %q", e)
	}
	r.logIn(t, "user-ok")
	m := r.message(t, 1)
	if m.Data.Event != "success" || m.Data.Item["id"] != it.ID.String() {
		t.Fatalf("message %+v", m.Data)
	}
	r.step(t, "success")
}

// TestConnectUpdateMFAItem: updating an item whose connector takes a one-time code asks for
// the code with the credentials, since an update must bring a new one (items rule 4).
func TestConnectUpdateMFAItem(t *testing.T) {
	r := newConnectRig(t)
	var it model.Item
	r.env.Do(t, "POST", "/items", r.client.APIKey, map[string]any{"connectorId": 1,
		"parameters": map[string]any{"user": "user-ok", "password": "password-ok", "token": "123456"}}).Want(200).JSON(&it)
	r.env.WaitItem(t, r.client.APIKey, it.ID.String(), func(i *model.Item) bool { return i.Status == model.ItemUpdated })
	body := r.options(nil)
	body["itemId"] = it.ID.String()
	r.open(t, "/connect#connect_token="+r.token(t, body))
	r.step(t, "form")
	r.fill(t, "Usuário", "user-ok")
	r.fill(t, "Senha", "password-ok")
	r.fill(t, "Token", "222222")
	r.submit(t, "Token")
	m := r.message(t, 1)
	if m.Data.Event != "success" || m.Data.Item["id"] != it.ID.String() {
		t.Fatalf("message %+v", m.Data)
	}
	r.step(t, "success")
}

// TestConnectTokenOptions: the application's options shape the page and the item. The list
// holds only personal banks offering accounts and credit cards (sandbox ones included, and
// the statement files of any bank, which hold either);
// the search ignores accents and case; the item gets the token's clientUserId and
// webhookUrl; and the user is sent to redirectUri with ?itemId= after the message.
func TestConnectTokenOptions(t *testing.T) {
	r := newConnectRig(t)
	tok := r.token(t, r.options(map[string]any{"clientUserId": "cliente-42", "webhookUrl": "https://hooks.example.com/ponte",
		"connectorTypes": []string{"PERSONAL_BANK"}, "countries": []string{"BR"}, "products": []string{"ACCOUNTS", "CREDIT_CARDS"},
		"redirectUri": r.app.URL + "/done?from=connect"}))
	r.open(t, "/connect?connect_token="+tok)
	r.step(t, "list")
	got := map[float64]bool{}
	for _, id := range r.visibleConnectors(t) {
		got[id] = true
	}
	if len(got) != 6 || !got[0] || !got[1] || !got[5] || !got[9] || !got[900] || !got[901] {
		t.Fatalf("listed %v, want 0, 1, 5, 9, 900 and 901 (personal banks with accounts and credit cards)", got)
	}
	r.do(t, r.popup, chromedp.SendKeys(chromedp.ID("search"), "CAIXA economica sao"))
	r.until(t, r.popup, `document.querySelectorAll("[data-connector-id]").length === 1`)
	if ids := r.visibleConnectors(t); ids[0] != 9 {
		t.Fatalf("searching without accents found %v", ids)
	}
	r.screenshot(t, r.popup, "search-accents")
	r.eval(t, r.popup, `(() => { const s = document.getElementById("search"); s.value = ""; s.dispatchEvent(new Event("input")); })()`)
	r.do(t, r.popup, chromedp.SendKeys(chromedp.ID("search"), "ponte"), chromedp.Focus(chromedp.CSS(`[data-connector-id="0"]`)), chromedp.KeyEvent(kb.Enter))
	r.step(t, "form")
	r.logIn(t, "user-ok")
	m := r.message(t, 1)
	id, _ := m.Data.Item["id"].(string)
	if m.Data.Event != "success" || m.Data.Item["clientUserId"] != "cliente-42" {
		t.Fatalf("message %+v", m.Data)
	}
	r.until(t, r.popup, `location.pathname === "/done" && document.getElementById("done") !== null`)
	r.screenshot(t, r.popup, "redirected")
	r.mu.Lock()
	redirects := append([]string(nil), r.redirects...)
	r.mu.Unlock()
	if len(redirects) != 1 || redirects[0] != "/done?from=connect&itemId="+id {
		t.Fatalf("redirected to %v", redirects)
	}
	it := r.env.Item(t, r.client.APIKey, id)
	if it.ClientUserID == nil || *it.ClientUserID != "cliente-42" || it.WebhookURL == nil || *it.WebhookURL != "https://hooks.example.com/ponte" {
		t.Fatalf("item clientUserId %v webhookUrl %v", it.ClientUserID, it.WebhookURL)
	}
}

// TestConnectBadToken: an expired or made-up token gets a screen saying so, announced.
func TestConnectBadToken(t *testing.T) {
	r := newConnectRig(t)
	r.open(t, "/connect#connect_token=not-a-token")
	r.step(t, "token")
	if a := r.eval(t, r.popup, `document.getElementById("alert").textContent`); !strings.Contains(a.(string), "expirou") {
		t.Fatalf("announced %q", a)
	}
	// No message: without a valid token the page does not know the application's origin.
}

// TestConnectMFAKinds: the other prompts an institution may send are answered in place too:
// a choice (select) and the code of an image.
func TestConnectMFAKinds(t *testing.T) {
	for _, c := range []struct{ user, label, js string }{
		{"user-ok-select", "Onde receber o código?", `document.getElementById("f-device").value = "123456"`},
		{"user-ok-img", "Digite o código da imagem", ""},
	} {
		t.Run(c.user, func(t *testing.T) {
			r := newConnectRig(t)
			r.open(t, "/connect#connect_token="+r.token(t, r.options(nil)))
			r.pick(t, "ponte bank", 0)
			r.step(t, "form")
			r.logIn(t, c.user)
			r.step(t, "mfa")
			if c.js != "" {
				r.eval(t, r.popup, c.js)
			} else {
				if src := r.eval(t, r.popup, `document.querySelector("img.captcha").src`).(string); !strings.HasPrefix(src, "data:image/png;base64,") {
					t.Fatalf("captcha image %q", src)
				}
				r.fill(t, c.label, "123456")
			}
			// Enter does not send a form from a select: the button, from the keyboard.
			r.do(t, r.popup, chromedp.Focus(chromedp.CSS(`#credentials button[type="submit"]`)), chromedp.KeyEvent(kb.Enter))
			if m := r.message(t, 1); m.Data.Event != "success" {
				t.Fatalf("message %+v", m.Data)
			}
		})
	}
}

// TestConnectServerValidation: what the browser's check lets through (here it is switched
// off) the server refuses, and the page puts the server's message under the field.
func TestConnectServerValidation(t *testing.T) {
	r := newConnectRig(t)
	r.open(t, "/connect#connect_token="+r.token(t, r.options(nil)))
	r.pick(t, "ponte bank", 0)
	r.step(t, "form")
	r.eval(t, r.popup, `RegExp.prototype.test = () => true`)
	r.logIn(t, "x")
	r.until(t, r.popup, `document.getElementById("form-error") !== null`)
	if e := r.eval(t, r.popup, `[document.getElementById("form-error").textContent, document.getElementById("f-user-error").textContent,
		document.getElementById("f-user").getAttribute("aria-invalid"), document.getElementById("f-user").value]`).([]any); e[0] != "Corrija 1 campo." ||
		e[1] != "O usuário deve ter de 3 a 64 letras, números ou . _ @ -" || e[2] != "true" || e[3] != "x" {
		t.Fatalf("after the server's refusal: %v", e)
	}
	r.screenshot(t, r.popup, "server-refusal")
}

// TestConnectOAuthAppRedirect: with the token's own oauthRedirectUri the institution opens in
// a new tab that ends at the application's address, while the Connect page follows the item
// to the end and tells the application.
func TestConnectOAuthAppRedirect(t *testing.T) {
	r := newConnectRig(t)
	r.open(t, "/connect#connect_token="+r.token(t, r.options(map[string]any{"oauthRedirectUri": r.app.URL + "/done?oauth=1"})))
	r.pick(t, "pagamentos", 6)
	r.step(t, "form")
	r.fill(t, "CPF", "52998224725")
	r.submit(t, "CPF")
	r.step(t, "action")
	href, _ := r.eval(t, r.popup, `document.getElementById("action-link").href`).(string)
	if opens, _ := r.eval(t, r.popup, `document.getElementById("action-link").target`).(string); opens != "_blank" {
		t.Fatalf("the institution's link opens in %q, want a new tab", opens)
	}
	ch := chromedp.WaitNewTarget(r.popup, func(info *target.Info) bool { return info.Type == "page" })
	r.do(t, r.popup, chromedp.Focus(chromedp.ID("action-link")), chromedp.KeyEvent(kb.Enter))
	var id target.ID
	select {
	case id = <-ch:
	case <-r.popup.Done():
		t.Fatal("the institution's tab never opened")
	}
	// The user approves there. That tab is now in front and the test cannot drive it
	// (Chromium runs no input in the tab it does not show, which the Connect page then is):
	// the decision is posted as its form would post it, the institution answers with the
	// application's address, and the tab is closed, bringing the Connect page back.
	bank, _ := chromedp.NewContext(r.popup, chromedp.WithTargetID(id))
	resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).
		PostForm(href, url.Values{"decision": {"approve"}})
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != r.app.URL+"/done?oauth=1" {
		t.Fatalf("the institution answered %d, Location %q", resp.StatusCode, loc)
	}
	if err := chromedp.Cancel(bank); err != nil {
		t.Fatal(err)
	}
	m := r.message(t, 1)
	if m.Data.Event != "success" {
		t.Fatalf("message %+v", m.Data)
	}
	r.step(t, "success")
}

// TestConnectWindowClosed: a user who closes the window (not the page's button) is a close
// too, which the application hears.
func TestConnectWindowClosed(t *testing.T) {
	r := newConnectRig(t)
	r.open(t, "/connect#connect_token="+r.token(t, r.options(nil)))
	r.step(t, "list")
	if err := chromedp.Cancel(r.popup); err != nil {
		t.Fatal(err)
	}
	if m := r.message(t, 1); m.Data.Event != "close" || m.Data.Item != nil {
		t.Fatalf("message %+v", m.Data)
	}
}
