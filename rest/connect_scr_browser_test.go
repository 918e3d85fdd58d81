//go:build browser

package rest_test

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestConnectCreditInformation: the SCR connector asks for the CPF, sends the user to give
// consent at the institution's page, and the item's report can then be read.
func TestConnectCreditInformation(t *testing.T) {
	r := newConnectRig(t)
	r.open(t, "/connect#connect_token="+r.token(t, r.options(nil)))
	r.pick(t, "scr", 13)
	r.step(t, "form")
	r.fill(t, "CPF ou CNPJ", "52998224725")
	r.submit(t, "CPF ou CNPJ")
	r.step(t, "action")
	r.do(t, r.popup, chromedp.Focus(chromedp.ID("action-link")), chromedp.KeyEvent(kb.Enter))
	r.until(t, r.popup, `location.pathname.startsWith("/sandbox/authorize/") && document.querySelector("button.approve") !== null`)
	r.do(t, r.popup, chromedp.Click(chromedp.CSS("button.approve")))
	m := r.message(t, 1)
	if m.Data.Event != "success" || m.Data.Item["status"] != "UPDATED" {
		t.Fatalf("message %+v", m.Data)
	}
	r.step(t, "success")
	var report struct {
		Document string `json:"document"`
	}
	r.env.Do(t, "GET", "/credit-information?itemId="+m.Data.Item["id"].(string), r.client.APIKey, nil).Want(200).JSON(&report)
	if report.Document != "52998224725" {
		t.Fatalf("report of %q", report.Document)
	}
}
