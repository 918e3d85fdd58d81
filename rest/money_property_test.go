package rest_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pgregory.net/rapid"

	"ponte/model"
	"ponte/payments"
	"ponte/sandbox/payer"
	"ponte/testsupport"
)

// TestMoneyInvariants drives random sequences of every money operation an application and
// its payers can perform (funding a smart account, paying out of it in bulk, refunds whole,
// partial, refused and racing, cancellations, payer refusals, recipients edited during
// consent and after a pre-authorization, smart transfers) through the HTTP API against a
// real database, and after every step holds the service to its invariants: every ledger
// movement balances; no smart account is below zero and each holds exactly what the
// operations add up to; no request has more refunded than it was paid; every payment went
// to the recipient its payer consented to. rapid prints the seed of a failure and keeps it
// under testdata/rapid, where every later run replays it first.
func TestMoneyInvariants(t *testing.T) {
	t.Parallel()
	// A run drives the real service through its sandbox institutions, a second or so a
	// step, so CI runs a fixed, small number of them; -rapid.checks asks for more.
	if f := flag.Lookup("rapid.checks"); f != nil && !flagGiven("rapid.checks") {
		old := f.Value.String()
		_ = f.Value.Set("6")
		defer func() { _ = f.Value.Set(old) }()
	}
	// Dated payments within two days run at once, so automatic PIX charges settle here.
	env := testsupport.New(t, func(s *testsupport.Setup) {
		s.Payments.ScheduleAt = func(d time.Time) time.Time {
			if d.Sub(spToday()) <= 48*time.Hour {
				return time.Now()
			}
			return time.Now().Add(time.Hour)
		}
	})
	// One issuer of boletos for every run: its connection needs an item's first sync.
	issuer := env.NewClient(t, "money property issuer").APIKey
	boletos := boletoConnection(t, env, issuer)
	run := 0
	rapid.Check(t, func(r *rapid.T) {
		run++
		w := newWorld(t, r, env, run)
		w.issuer, w.boletos = issuer, boletos
		steps := rapid.IntRange(3, 9).Draw(r, "steps")
		for range steps {
			op := rapid.SampledFrom([]string{"fund", "fund-refused", "spend", "refund", "refund-race", "cancel", "consent-edit", "smart-transfer",
				"boleto-pay", "boleto-cancel", "boleto-bulk", "autopix-charge", "autopix-cancel"}).Draw(r, "op")
			w.step(op)
			w.check()
		}
	})
}

func flagGiven(name string) bool {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// paidRequest is what the model knows of a request that moved money.
type paidRequest struct {
	amount, refunded int64
	intoAccount      bool // paid by a payer into the smart account
	fromAccount      bool // paid out of the smart account by a bulk payment
	payee            string
}

type world struct {
	t           *testing.T
	r           *rapid.T
	env         *testsupport.Env
	key         string
	account     string
	balance     int64
	paid        map[string]*paidRequest
	order       []string
	recipient   string
	payeeName   string
	edits       int
	preauth     string
	stRecipient string
	stName      string
	issuer      string
	boletos     string
	autoPix     string
	charges     map[string]string // live automatic PIX charge → its São Paulo month
}

func newWorld(t *testing.T, r *rapid.T, env *testsupport.Env, run int) *world {
	w := &world{t: t, r: r, env: env, paid: map[string]*paidRequest{}, charges: map[string]string{}}
	w.key = env.NewClient(t, fmt.Sprintf("money property %d", run)).APIKey
	w.payeeName = "Loja 0"
	w.recipient = recipientFor(t, env, w.key, w.payeeName, "11222333000181", true)
	_, m := w.do("POST", "/payments/smart-accounts", map[string]any{"name": "Conta", "taxNumber": "11222333000181",
		"email": "conta@example.com", "phoneNumber": "+5511999990000", "isSandbox": true}, 200)
	w.account = m["id"].(string)
	return w
}

// do sends a request and fails the run (so rapid shrinks it) unless the status is one of
// want.
func (w *world) do(method, path string, body any, want ...int) (int, map[string]any) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, w.env.URL+path, rd)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-KEY", w.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.r.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	for _, s := range want {
		if resp.StatusCode == s {
			return s, m
		}
	}
	w.r.Fatalf("%s %s answered %d, want %v: %s", method, path, resp.StatusCode, want, raw)
	return 0, nil
}

func (w *world) form(rawURL, decision string) {
	u, _ := url.Parse(rawURL)
	if r := w.env.Form(w.t, u.Path, url.Values{"decision": {decision}}); r.Status != 303 && r.Status != 200 {
		w.r.Fatalf("%s on %s answered %d: %s", decision, u.Path, r.Status, r.Body)
	}
}

func (w *world) request(id string) map[string]any {
	_, m := w.do("GET", "/payments/requests/"+id, nil, 200)
	return m
}

// await waits for a request to leave the statuses that are still moving, and returns it.
func (w *world) await(id string, done ...string) map[string]any {
	deadline := time.Now().Add(20 * time.Second)
	for {
		m := w.request(id)
		for _, s := range done {
			if m["status"] == s {
				return m
			}
		}
		if time.Now().After(deadline) {
			w.r.Fatalf("request %s stayed %v, want one of %v", id, m["status"], done)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (w *world) amount(label string) int64 { return rapid.Int64Range(1, 20_000).Draw(w.r, label) }

func reaisOf(cents int64) float64 { return float64(cents) / 100 }

// pay has a payer start paying a request and decide on the consent page.
func (w *world) pay(id, cpf, decision string) {
	_, n := w.do("POST", "/payments/intents", map[string]any{"paymentRequestId": id, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": cpf}}, 200)
	w.form(n["consentUrl"].(string), decision)
}

func (w *world) step(op string) {
	switch op {
	case "fund", "fund-refused":
		a := w.amount("fund")
		_, p := w.do("POST", "/payments/requests", map[string]any{"amount": reaisOf(a), "smartAccountId": w.account, "isSandbox": true}, 200)
		id := p["id"].(string)
		if op == "fund-refused" {
			w.pay(id, payer.CPFInsufficientFunds, "authorize")
			w.await(id, payments.RequestError)
			return
		}
		w.pay(id, happyCPF, "authorize")
		w.await(id, payments.Completed)
		w.balance += a
		w.remember(id, &paidRequest{amount: a, intoAccount: true})

	case "spend":
		n := rapid.IntRange(1, 3).Draw(w.r, "requests")
		var ids []string
		var total int64
		amounts := map[string]int64{}
		for range n {
			a := w.amount("spend")
			_, p := w.do("POST", "/payments/requests", map[string]any{"amount": reaisOf(a), "isSandbox": true}, 200)
			ids = append(ids, p["id"].(string))
			amounts[p["id"].(string)] = a
			total += a
		}
		status, b := w.do("POST", "/payments/bulk", map[string]any{"smartAccountId": w.account, "paymentRequestIds": ids}, 200, 409)
		if total > w.balance {
			if status != 409 || b["codeDescription"] != model.CodeInsufficientSmartAccountBalance.String() {
				w.r.Fatalf("a bulk payment of %d from %d answered %d %v", total, w.balance, status, b)
			}
			return
		}
		if status != 200 {
			w.r.Fatalf("a bulk payment of %d from %d refused: %v", total, w.balance, b)
		}
		w.form(b["paymentUrl"].(string), "authorize")
		for _, id := range ids {
			w.await(id, payments.Completed)
			w.remember(id, &paidRequest{amount: amounts[id], fromAccount: true, payee: w.payeeName})
		}
		w.balance -= total

	case "refund", "refund-race":
		id, p := w.refundable()
		if p == nil {
			return
		}
		left := p.amount - p.refunded
		var amount int64 = left
		var body map[string]any = map[string]any{}
		if op == "refund" && rapid.Bool().Draw(w.r, "partial") {
			amount = rapid.Int64Range(1, left).Draw(w.r, "refund")
			body["amount"] = reaisOf(amount)
		}
		covered := !p.intoAccount || w.balance >= amount
		tries := 1
		if op == "refund-race" {
			tries = 2
		}
		statuses := make([]int, tries)
		var wg sync.WaitGroup
		for i := range tries {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i] = w.post("/payments/requests/"+id+"/refund", body)
			}()
		}
		wg.Wait()
		accepted := strings.Count(fmt.Sprint(statuses), "200")
		if covered && accepted != 1 || !covered && accepted != 0 {
			w.r.Fatalf("refund of %d (balance %d, into the account %v) answered %v", amount, w.balance, p.intoAccount, statuses)
		}
		if !covered {
			return
		}
		m := w.await(id, payments.Completed, payments.Refunded, payments.RefundError)
		if m["status"] == payments.RefundError {
			if amount%100 != 99 {
				w.r.Fatalf("refund of %d failed: %v", amount, m)
			}
			return
		}
		p.refunded += amount
		switch {
		case p.intoAccount:
			w.balance -= amount
		case p.fromAccount:
			w.balance += amount
		}

	case "cancel":
		_, p := w.do("POST", "/payments/requests", map[string]any{"amount": reaisOf(w.amount("cancel")), "isSandbox": true}, 200)
		w.do("DELETE", "/payments/requests/"+p["id"].(string), nil, 200)
		if len(w.order) > 0 {
			w.do("DELETE", "/payments/requests/"+rapid.SampledFrom(w.order).Draw(w.r, "paid"), nil, 409)
		}

	case "consent-edit":
		a := w.amount("consent")
		_, p := w.do("POST", "/payments/requests", map[string]any{"amount": reaisOf(a), "recipientId": w.recipient, "isSandbox": true}, 200)
		id := p["id"].(string)
		_, n := w.do("POST", "/payments/intents", map[string]any{"paymentRequestId": id, "connectorId": payConnector,
			"parameters": map[string]any{"cpf": happyCPF}}, 200)
		consented := w.payeeName
		w.editRecipient()
		w.form(n["consentUrl"].(string), "authorize")
		w.await(id, payments.Completed)
		w.remember(id, &paidRequest{amount: a, payee: consented})

	case "boleto-pay", "boleto-cancel", "boleto-bulk", "autopix-charge", "autopix-cancel":
		w.boletoStep(op)

	case "smart-transfer":
		if w.preauth == "" {
			w.stName = "Conta do pagador"
			w.stRecipient = recipientFor(w.t, w.env, w.key, w.stName, happyCPF, false)
			_, pre := w.do("POST", "/smart-transfers/preauthorizations", map[string]any{"connectorId": smartConnector,
				"parameters": map[string]any{"cpf": happyCPF}, "recipientIds": []string{w.stRecipient}}, 200)
			w.form(pre["consentUrl"].(string), "authorize")
			w.preauth = pre["id"].(string)
		}
		w.do("PATCH", "/payments/recipients/"+w.stRecipient, map[string]any{"name": fmt.Sprintf("Outro titular %d", w.edits), "taxNumber": otherCPF}, 200)
		w.edits++
		_, sp := w.do("POST", "/smart-transfers/payments", map[string]any{"preauthorizationId": w.preauth, "recipientId": w.stRecipient,
			"amount": reaisOf(w.amount("transfer"))}, 200)
		deadline := time.Now().Add(20 * time.Second)
		for sp["status"] != payments.PaymentCompleted {
			if time.Now().After(deadline) {
				w.r.Fatalf("smart transfer stayed %v", sp["status"])
			}
			time.Sleep(20 * time.Millisecond)
			_, sp = w.do("GET", "/smart-transfers/payments/"+sp["id"].(string), nil, 200)
		}
		if got := sp["recipient"].(map[string]any)["name"]; got != w.stName {
			w.r.Fatalf("smart transfer paid %v, the payer approved %s", got, w.stName)
		}
	}
}

// issued numbers the issuer's boletos (seuNumero is unique per connection).
var issued atomic.Int64

// issue has the issuer issue a boleto of amount centavos, due in a few days.
func (w *world) issue(amount int64) map[string]any {
	var b map[string]any
	w.asIssuer(func() {
		_, b = w.do("POST", "/boletos", boletoBody(w.boletos, fmt.Sprintf("P%d", issued.Add(1)), reaisOf(amount), spDay(5)), 200)
	})
	return b
}

// asIssuer runs fn with the boleto issuer's key.
func (w *world) asIssuer(fn func()) {
	key := w.key
	w.key = w.issuer
	defer func() { w.key = key }()
	fn()
}

func (w *world) boletoStep(op string) {
	switch op {
	case "boleto-pay":
		a := w.amount("boleto")
		b := w.issue(a)
		line := map[string]any{"boleto": map[string]any{"digitableLine": b["digitableLine"]}, "isSandbox": true}
		_, p := w.do("POST", "/payments/requests", line, 200)
		id := p["id"].(string)
		// A second request for the same boleto, while the first holds it and after it paid.
		w.do("POST", "/payments/requests", line, 409)
		w.pay(id, happyCPF, "authorize")
		w.await(id, payments.Completed)
		w.remember(id, &paidRequest{amount: a})
		w.do("POST", "/payments/requests", line, 409)
	case "boleto-cancel":
		b := w.issue(w.amount("cancelled boleto"))
		w.asIssuer(func() { w.do("POST", "/boletos/"+b["id"].(string)+"/cancel", nil, 200) })
		w.do("POST", "/payments/requests", map[string]any{"boleto": map[string]any{"digitableLine": b["digitableLine"]}, "isSandbox": true}, 409)
	case "boleto-bulk":
		if w.balance < 1 {
			return
		}
		a := rapid.Int64Range(1, w.balance).Draw(w.r, "boleto in bulk")
		b := w.issue(a)
		_, p := w.do("POST", "/payments/requests", map[string]any{"boleto": map[string]any{"digitableLine": b["digitableLine"]}, "isSandbox": true}, 200)
		id := p["id"].(string)
		_, bulk := w.do("POST", "/payments/bulk", map[string]any{"smartAccountId": w.account, "paymentRequestIds": []string{id}}, 200)
		w.form(bulk["paymentUrl"].(string), "authorize")
		if rapid.Bool().Draw(w.r, "cancel while settling") {
			// The issuer cancels it between the approval and the settlement, or too late.
			w.asIssuer(func() { w.do("POST", "/boletos/"+b["id"].(string)+"/cancel", nil, 200, 409) })
		}
		if m := w.await(id, payments.Completed, payments.RequestError); m["status"] == payments.Completed {
			w.balance -= a
			w.remember(id, &paidRequest{amount: a, fromAccount: true})
		}
	case "autopix-charge", "autopix-cancel":
		if w.autoPix == "" {
			_, p := w.do("POST", "/payments/requests/automatic-pix", map[string]any{"interval": "MONTHLY", "startDate": day(1),
				"minimumVariableAmount": 0.01, "maximumVariableAmount": 100, "expiresAt": day(400), "isSandbox": true}, 200)
			w.autoPix = p["id"].(string)
			_, n := w.do("POST", "/payments/intents", map[string]any{"paymentRequestId": w.autoPix, "connectorId": payConnector,
				"parameters": map[string]any{"cpf": happyCPF, "name": "Maria Silva"}}, 200)
			w.form(n["consentUrl"].(string), "authorize")
			w.await(w.autoPix, payments.Authorized)
		}
		if op == "autopix-cancel" {
			for id := range w.charges {
				if status, _ := w.do("POST", "/payments/requests/"+w.autoPix+"/automatic-pix/schedules/"+id+"/cancel", nil, 200, 409); status == 200 {
					delete(w.charges, id)
				}
				break
			}
			return
		}
		date := day(rapid.IntRange(1, 120).Draw(w.r, "charge day"))
		a := rapid.Int64Range(1, 12_000).Draw(w.r, "charge")
		status, c := w.do("POST", "/payments/requests/"+w.autoPix+"/automatic-pix/schedule", map[string]any{"amount": reaisOf(a), "date": date}, 200, 400, 409)
		taken := false
		for _, m := range w.charges {
			taken = taken || m == date[:7]
		}
		switch {
		case a > 10_000 && status != 400, a <= 10_000 && taken && status != 409, a <= 10_000 && !taken && status != 200:
			w.r.Fatalf("charge of %d on %s (month taken: %v) answered %d %v", a, date, taken, status, c)
		case status == 200:
			w.charges[c["id"].(string)] = date[:7]
		}
	}
}

func (w *world) post(path string, body any) int {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", w.env.URL+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-KEY", w.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func (w *world) remember(id string, p *paidRequest) {
	w.paid[id] = p
	w.order = append(w.order, id)
}

func (w *world) editRecipient() {
	w.edits++
	w.payeeName = fmt.Sprintf("Loja %d", w.edits)
	w.do("PATCH", "/payments/recipients/"+w.recipient, map[string]any{"name": w.payeeName}, 200)
}

// refundable picks a paid request with something left to refund.
func (w *world) refundable() (string, *paidRequest) {
	var ids []string
	for _, id := range w.order {
		if p := w.paid[id]; p.refunded < p.amount {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return "", nil
	}
	id := rapid.SampledFrom(ids).Draw(w.r, "refunded request")
	return id, w.paid[id]
}

func (w *world) check() {
	a, err := w.env.DB.AuditLedger(w.t.Context())
	if err != nil || len(a.Unbalanced) > 0 || len(a.Negative) > 0 || len(a.PaidTwice) > 0 {
		w.r.Fatalf("ledger audit: %+v, %v", a, err)
	}
	_, b := w.do("GET", "/payments/smart-accounts/"+w.account+"/balance", nil, 200)
	if got := b["balance"].(float64); got != reaisOf(w.balance) {
		w.r.Fatalf("smart account holds %v, the operations add up to %v", got, reaisOf(w.balance))
	}
	if w.autoPix != "" {
		_, page := w.do("GET", "/payments/requests/"+w.autoPix+"/automatic-pix/schedules", nil, 200)
		months := map[string]bool{}
		for _, c := range page["results"].([]any) {
			c := c.(map[string]any)
			if c["status"] == payments.AutoCanceled || c["isFirstPayment"] == true {
				continue
			}
			if m := c["date"].(string)[:7]; months[m] {
				w.r.Fatalf("two live automatic PIX charges in %s: %v", m, page["results"])
			} else {
				months[m] = true
			}
		}
	}
	for _, id := range w.order {
		p, m := w.paid[id], w.request(id)
		if got := m["refundedAmount"].(float64); got != reaisOf(p.refunded) || p.refunded > p.amount {
			w.r.Fatalf("request %s: refunded %v of %v, the model says %v", id, got, reaisOf(p.amount), reaisOf(p.refunded))
		}
		if p.payee != "" {
			if r, _ := m["recipient"].(map[string]any); r == nil || r["name"] != p.payee {
				w.r.Fatalf("request %s paid %v; its payer consented to %s", id, m["recipient"], p.payee)
			}
		}
	}
}
