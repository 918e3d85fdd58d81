//go:build browser

package rest_test

import (
	"strings"
	"testing"

	"ponte/model"
)

// TestConnectHappyPath: the end user searches, picks Ponte Bank (connector 0) with the
// keyboard, is stopped by the browser's check of the user parameter's rule, fills the form
// by its labels, submits, and the application's page receives the success message with the
// item, which the application reads as UPDATED.
func TestConnectHappyPath(t *testing.T) {
	r := newConnectRig(t)
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

	r.fill(t, "Usuário", "x")
	r.fill(t, "Senha", "password-ok")
	r.submit(t, "Senha")
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
