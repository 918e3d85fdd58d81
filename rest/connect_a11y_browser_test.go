//go:build browser

package rest_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"ponte/testsupport"
	"ponte/testsupport/axe"
)

// reopen closes the Connect page's window and has the application open a new one on
// connectPath, so one rig walks several flows.
func (r *connectRig) reopen(t *testing.T, connectPath string) {
	t.Helper()
	if err := chromedp.Cancel(r.popup); err != nil {
		t.Fatal(err)
	}
	r.open(t, connectPath)
}

// labels are the sandbox's user and password labels in a page language.
func labels(lang string) (user, password string) {
	if lang == "en" {
		return "User", "Password"
	}
	return "Usuário", "Senha"
}

// TestConnectA11y walks every step of the Connect page in Portuguese and in English, with
// the states a step can be in (a refused field, a wrong password, each kind of MFA prompt,
// an action outside the page, a statement file missing or refused), and axe finds no
// serious or critical violation on any (r.step checks each step as it comes; the states
// within a step are checked here).
func TestConnectA11y(t *testing.T) {
	for _, lang := range []string{"pt-BR", "en"} {
		user, password := labels(lang)
		t.Run(lang+"/login", func(t *testing.T) {
			// Paced, so the progress step stays long enough to be checked.
			r := newConnectRig(t, func(s *testsupport.Setup) { s.Sync.StepDelay = 300 * time.Millisecond })
			r.open(t, "/connect?lang="+lang+"&connect_token="+r.token(t, r.options(nil)))
			r.pick(t, "ponte bank", 0)
			r.step(t, "form")
			r.logIn(t, "x")
			r.until(t, r.popup, `document.getElementById("f-user").getAttribute("aria-invalid") === "true"`)
			axe.Check(t, r.popup, r.where(t, "form (a field refused)"))
			r.fill(t, user, "user-ok")
			r.fill(t, password, "wrong-password")
			r.submit(t, password)
			r.message(t, 1)
			r.until(t, r.popup, `document.getElementById("form-error") !== null`)
			axe.Check(t, r.popup, r.where(t, "form (wrong password)"))
			r.logIn(t, "user-ok")
			r.step(t, "progress")
			r.step(t, "success")
			// A locked account: the error step, and back to the form from it.
			r.reopen(t, "/connect?lang="+lang+"&connect_token="+r.token(t, r.options(nil)))
			r.pick(t, "ponte bank", 0)
			r.step(t, "form")
			r.logIn(t, "user-locked")
			r.step(t, "error")
			r.do(t, r.popup, chromedp.Focus(chromedp.ID("retry")), chromedp.KeyEvent(kb.Enter))
			r.step(t, "form")
		})
		t.Run(lang+"/mfa", func(t *testing.T) {
			r := newConnectRig(t)
			r.open(t, "/connect?lang="+lang+"&connect_token="+r.token(t, r.options(nil)))
			r.pick(t, "mfa", 1)
			r.step(t, "form")
			r.logIn(t, "user-ok")
			r.step(t, "mfa")
			r.fill(t, "Token", "111111")
			r.submit(t, "Token")
			// The wrong code is refused on the prompt or ends on the form, as the bank decides.
			r.until(t, r.popup, `document.querySelector(".error-box") !== null`)
			axe.Check(t, r.popup, r.where(t, "mfa (a wrong code)"))
			for _, user := range []string{"user-ok-select", "user-ok-img"} {
				r.reopen(t, "/connect?lang="+lang+"&connect_token="+r.token(t, r.options(nil)))
				r.pick(t, "ponte bank", 0)
				r.step(t, "form")
				r.logIn(t, user)
				r.step(t, "mfa")
			}
		})
		t.Run(lang+"/file", func(t *testing.T) {
			r := newConnectRig(t)
			r.open(t, "/connect?lang="+lang+"&connect_token="+r.token(t, r.options(nil)))
			r.pick(t, "ofx", 900)
			r.step(t, "file")
			r.do(t, r.popup, chromedp.Focus(chromedp.CSS(`#statement button[type="submit"]`)), chromedp.KeyEvent(kb.Enter))
			r.until(t, r.popup, `document.getElementById("f-file").getAttribute("aria-invalid") === "true"`)
			axe.Check(t, r.popup, r.where(t, "file (none chosen)"))
			r.upload(t, writeFile(t, "extrato.ofx", notOFX))
			r.until(t, r.popup, `document.getElementById("form-error") !== null && document.activeElement.id === "title-file"`)
			axe.Check(t, r.popup, r.where(t, "file (a refused file)"))
			// The API's message is English: a Portuguese page says so, for screen readers.
			if lang != "en" && r.eval(t, r.popup, `document.querySelector("#form-error span[lang=en]") !== null`) != true {
				t.Error("the API's English message is not marked lang=en on the Portuguese page")
			}
			r.upload(t, writeFile(t, "extrato.ofx", statementOFX))
			r.step(t, "success")
		})
		t.Run(lang+"/action", func(t *testing.T) {
			r := newConnectRig(t)
			r.open(t, "/connect?lang="+lang+"&connect_token="+r.token(t, r.options(nil)))
			r.pick(t, "ponte bank", 0)
			r.step(t, "form")
			r.logIn(t, "user-ok-qr")
			r.step(t, "action")
			r.reopen(t, "/connect?lang="+lang+"&connect_token="+r.token(t, r.options(nil)))
			r.pick(t, "pagamentos", 6)
			r.step(t, "form")
			r.fill(t, "CPF", "52998224725")
			r.submit(t, "CPF")
			r.step(t, "action")
			r.reopen(t, "/connect?lang="+lang+"#connect_token=not-a-token")
			r.step(t, "token")
		})
	}
}

// TestConnectEnglishLabels: with lang=en the institutions' own words are English too, not
// only the page's: a sandbox connector's labels, placeholders, hints, options and
// validation messages, and the prompt of an MFA it asks. In Portuguese they stay as the
// institution sent them.
func TestConnectEnglishLabels(t *testing.T) {
	fields := `[...document.querySelectorAll("#credentials .field")].map((f) => [
		f.querySelector("label").textContent,
		(f.querySelector("input") || {}).placeholder || "",
		[...f.querySelectorAll(".hint")].map((h) => h.textContent).join(" | "),
		[...f.querySelectorAll("option")].map((o) => o.textContent).join(" | ")].join(" ; "))`
	for _, c := range []struct {
		lang        string
		want        []string
		cnpjRefused string
	}{
		{"en", []string{
			"CNPJ ; 00.000.000/0000-00 ; Numbers only ; ",
			"CPF ; 000.000.000-00 ; Numbers only ; ",
			"Electronic password ; 8 digits ;  ; ",
			"Access profile ;  ; The profile you sign in to internet banking with ; — | Master | Operator | View only",
		}, "The CNPJ has 14 digits"},
		{"pt-BR", []string{
			"CNPJ ; 00.000.000/0000-00 ; Somente números ; ",
			"CPF ; 000.000.000-00 ; Somente números ; ",
			"Senha eletrônica ; 8 dígitos ;  ; ",
			"Perfil de acesso ;  ; O perfil com que você entra no internet banking ; — | Master | Operador | Consulta",
		}, "O CNPJ deve ter 14 dígitos"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			r := newConnectRig(t)
			r.open(t, "/connect?lang="+c.lang+"&connect_token="+r.token(t, r.options(nil)))
			r.pick(t, "aurora", 2)
			r.step(t, "form")
			got := r.eval(t, r.popup, fields).([]any)
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Fatalf("fields:\n%q\nwant\n%q", got, c.want)
			}
			r.fill(t, "CNPJ", "123")
			r.submit(t, "CNPJ")
			r.until(t, r.popup, `document.getElementById("f-cnpj").getAttribute("aria-invalid") === "true"`)
			if msg := r.eval(t, r.popup, `document.getElementById("f-cnpj-error").textContent`); msg != c.cnpjRefused {
				t.Fatalf("validation message %q, want %q", msg, c.cnpjRefused)
			}

			// An MFA prompt and an action's instructions, as the institution asks them.
			r.reopen(t, "/connect?lang="+c.lang+"&connect_token="+r.token(t, r.options(nil)))
			r.pick(t, "ponte bank", 0)
			r.step(t, "form")
			r.logIn(t, "user-ok-select")
			r.step(t, "mfa")
			prompt := r.eval(t, r.popup, `document.querySelector("label[for=f-device]").textContent + " ; " +
				[...document.querySelectorAll("#f-device option")].map((o) => o.textContent).join(" | ")`)
			want := "Where should the code go? ; — | Text message to (11) ****-1234 | Email j***@example.com"
			if c.lang != "en" {
				want = "Onde receber o código? ; — | SMS para (11) ****-1234 | E-mail j***@example.com"
			}
			if prompt != want {
				t.Fatalf("MFA prompt %q, want %q", prompt, want)
			}
			r.reopen(t, "/connect?lang="+c.lang+"&connect_token="+r.token(t, r.options(nil)))
			r.pick(t, "ponte bank", 0)
			r.step(t, "form")
			r.logIn(t, "user-ok-qr")
			r.step(t, "action")
			want = "Scan the QR code with the bank's app to sign in."
			if c.lang != "en" {
				want = "Escaneie o QR code com o aplicativo do banco para entrar."
			}
			if got := r.eval(t, r.popup, `document.getElementById("instructions").textContent`); got != want {
				t.Fatalf("action instructions %q, want %q", got, want)
			}
		})
	}
	// The server's refusal of a field, put under it, is the institution's words too.
	t.Run("server refusal", func(t *testing.T) {
		r := newConnectRig(t)
		r.open(t, "/connect?lang=en&connect_token="+r.token(t, r.options(nil)))
		r.pick(t, "ponte bank", 0)
		r.step(t, "form")
		r.eval(t, r.popup, `RegExp.prototype.test = () => true`)
		r.logIn(t, "x")
		r.until(t, r.popup, `document.getElementById("form-error") !== null`)
		if e := r.eval(t, r.popup, `document.getElementById("f-user-error").textContent`); e != "The user must have 3 to 64 letters, digits or . _ @ -" {
			t.Fatalf("the server's refusal reads %q", e)
		}
	})
}
