package testsupport

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// Form posts an HTML form the way a browser does, without following the redirect it may
// answer with (Location says where the payer would go).
func (e *Env) Form(t testing.TB, path string, form url.Values) *Response {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Post(e.URL+path, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return &Response{t: t, Status: resp.StatusCode, Header: resp.Header, Body: b}
}

// Eventually waits until cond holds, checking every 20 ms for at most limit.
func Eventually(t testing.TB, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", limit, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Recipient creates a default bank-account recipient for a client and returns its id.
func (e *Env) Recipient(t testing.TB, key string) string {
	t.Helper()
	inst := e.Do(t, "GET", "/payments/recipients/institutions?name=Nubank", key, nil).Want(200).Map()
	results, _ := inst["results"].([]any)
	if len(results) != 1 {
		t.Fatalf("institution Nubank: %v", inst)
	}
	instID := results[0].(map[string]any)["id"]
	return e.Do(t, "POST", "/payments/recipients", key, map[string]any{"name": "Loja Exemplo Ltda", "taxNumber": "11222333000181",
		"paymentInstitutionId": instID, "isDefault": true, "account": map[string]any{"branch": "0001", "number": "1234567-8", "type": "CHECKING_ACCOUNT"}}).
		Want(200).String("id")
}

// AuditLedger fails the test when a ledger movement does not balance or a smart account's
// balance is below zero.
func (e *Env) AuditLedger(t testing.TB) {
	t.Helper()
	a, err := e.DB.AuditLedger(context.Background())
	if err != nil {
		t.Fatalf("audit the ledger: %v", err)
	}
	if len(a.Unbalanced) > 0 || len(a.Negative) > 0 || len(a.PaidTwice) > 0 {
		t.Fatalf("ledger: unbalanced movements %v, smart accounts below zero %v, boletos paid twice %v", a.Unbalanced, a.Negative, a.PaidTwice)
	}
}
