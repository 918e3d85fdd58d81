package rest_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// Each test here is one way money once moved wrongly, written from the report of it: the
// movement must now be impossible, and the ledger sound after every attempt.

// otherCPF is a valid CPF of someone who is not the sandbox's happy payer.
const otherCPF = "52998224725"

// moneyRig is one application with a funded smart account.
type moneyRig struct {
	t       *testing.T
	env     *testsupport.Env
	key     string
	account string
}

func newMoneyRig(t *testing.T, name string) *moneyRig {
	env := testsupport.New(t)
	key := env.NewClient(t, name).APIKey
	env.Recipient(t, key)
	account := env.Do(t, "POST", "/payments/smart-accounts", key, map[string]any{"name": "Loja", "taxNumber": "11222333000181",
		"email": "loja@example.com", "phoneNumber": "+5511999990000", "isSandbox": true}).Want(200).String("id")
	return &moneyRig{t: t, env: env, key: key, account: account}
}

func (m *moneyRig) balance() float64 {
	var b model.SmartAccountBalance
	m.env.Do(m.t, "GET", "/payments/smart-accounts/"+m.account+"/balance", m.key, nil).Want(200).JSON(&b)
	return b.Balance
}

func (m *moneyRig) awaitBalance(want float64) {
	m.t.Helper()
	testsupport.Eventually(m.t, "smart account balance", 20*time.Second, func() bool { return m.balance() == want })
}

// payIn has a payer pay amount into the smart account, and returns the request's id.
func (m *moneyRig) payIn(amount float64) string {
	m.t.Helper()
	id := m.env.Do(m.t, "POST", "/payments/requests", m.key, map[string]any{"amount": amount, "smartAccountId": m.account, "isSandbox": true}).Want(200).String("id")
	var n model.PaymentIntent
	m.env.Do(m.t, "POST", "/payments/intents", m.key, map[string]any{"paymentRequestId": id, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).Want(200).JSON(&n)
	consent(m.t, m.env, &n, "authorize")
	m.awaitRequest(id, payments.Completed)
	return id
}

func (m *moneyRig) request(amount float64) string {
	return m.env.Do(m.t, "POST", "/payments/requests", m.key, map[string]any{"amount": amount, "isSandbox": true}).Want(200).String("id")
}

// bulk gathers requests in a bulk payment out of the smart account.
func (m *moneyRig) bulk(ids ...string) *model.BulkPayment {
	m.t.Helper()
	var b model.BulkPayment
	m.env.Do(m.t, "POST", "/payments/bulk", m.key, map[string]any{"smartAccountId": m.account, "paymentRequestIds": ids}).Want(200).JSON(&b)
	return &b
}

func (m *moneyRig) approve(b *model.BulkPayment) {
	m.t.Helper()
	u, _ := url.Parse(b.PaymentURL)
	if r := m.env.Form(m.t, u.Path, url.Values{"decision": {"authorize"}}); r.Status != 303 && r.Status != 200 {
		m.t.Fatalf("bulk authorization answered %d: %s", r.Status, r.Body)
	}
}

func (m *moneyRig) awaitRequest(id, status string) *model.PaymentRequest {
	m.t.Helper()
	var p model.PaymentRequest
	testsupport.Eventually(m.t, "request "+id+" "+status, 20*time.Second, func() bool {
		m.env.Do(m.t, "GET", "/payments/requests/"+id, m.key, nil).Want(200).JSON(&p)
		return p.Status == status
	})
	return &p
}

func (m *moneyRig) refund(id string, amount any) *testsupport.Response {
	body := map[string]any{}
	if amount != nil {
		body["amount"] = amount
	}
	return m.env.Do(m.t, "POST", "/payments/requests/"+id+"/refund", m.key, body)
}

// 1. A request paid R$ 100 into a smart account was refunded in full after the account
// had spent R$ 90 of it: the money left twice. A refund now needs the account to hold it.
func TestRefundNeedsSmartAccountBalance(t *testing.T) {
	t.Parallel()
	m := newMoneyRig(t, "refund spent money")
	in := m.payIn(100)
	m.awaitBalance(100)
	spend := m.request(90)
	m.approve(m.bulk(spend))
	m.awaitRequest(spend, payments.Completed)
	m.awaitBalance(10)

	e := m.refund(in, nil).WantError(409, model.CodeInsufficientSmartAccountBalance.String())
	if msg := e["message"].(string); !strings.Contains(msg, "holds 10.00") || !strings.Contains(msg, "needs 100.00") {
		t.Fatalf("refusal says %q", msg)
	}
	if p := m.awaitRequest(in, payments.Completed); p.RefundedAmount != 0 {
		t.Fatalf("refused refund left %+v", p)
	}
	// A refund the institution refuses (sandbox: ,99) holds the money while it waits and
	// gives it back after.
	m.refund(in, 5.99).Want(200)
	m.awaitRequest(in, payments.RefundError)
	m.awaitBalance(10)
	// What the account holds can go back; then nothing more can.
	m.refund(in, 10).Want(200)
	if p := m.awaitRequest(in, payments.Completed); p.RefundedAmount != 10 {
		t.Fatalf("after refunding 10: %+v", p)
	}
	m.awaitBalance(0)
	m.refund(in, 0.01).WantError(409, model.CodeInsufficientSmartAccountBalance.String())
	m.env.AuditLedger(t)
}

// 2. A refund of a request paid from a smart account (by a bulk payment) showed REFUNDED
// while the account's balance stayed where it was. The money now goes back to the account.
func TestRefundOfBulkPaidRequestReturnsToSmartAccount(t *testing.T) {
	t.Parallel()
	m := newMoneyRig(t, "refund bulk paid")
	m.payIn(100)
	out := m.request(40)
	m.approve(m.bulk(out))
	m.awaitRequest(out, payments.Completed)
	m.awaitBalance(60)
	m.refund(out, 15).Want(200)
	m.awaitRequest(out, payments.Completed)
	m.awaitBalance(75)
	m.refund(out, nil).Want(200)
	if p := m.awaitRequest(out, payments.Refunded); p.RefundedAmount != 40 {
		t.Fatalf("refunded request %+v", p)
	}
	m.awaitBalance(100)
	m.env.AuditLedger(t)
}

// 3. A request already inside a bulk payment changed its amount (1.00 → 60.00): the
// approval page showed R$ 1,00 and R$ 60 was debited. It is frozen while the bulk is open.
func TestRequestInOpenBulkIsFrozen(t *testing.T) {
	t.Parallel()
	m := newMoneyRig(t, "bulk frozen")
	m.payIn(100)
	r := m.request(1)
	b := m.bulk(r)
	m.env.Do(t, "PATCH", "/payments/requests/"+r, m.key, map[string]any{"amount": 60}).WantError(409, model.CodePaymentRequestNotEditable.String())
	m.env.Do(t, "PATCH", "/payments/requests/"+r, m.key, map[string]any{"description": "outra"}).WantError(409, model.CodePaymentRequestNotEditable.String())
	m.env.Do(t, "DELETE", "/payments/requests/"+r, m.key, nil).WantError(409, model.CodePaymentRequestNotEditable.String())
	m.env.Do(t, "POST", "/payments/intents", m.key, map[string]any{"paymentRequestId": r, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).WantError(409, model.CodePaymentRequestNotAvailable.String())
	g := m.env.GraphQL(t, m.key, `mutation($id: UUID!) { updatePaymentRequest(id: $id, input: {amount: 60}) { id } }`, map[string]any{"id": r})
	g.WantCode(t, model.CodePaymentRequestNotEditable.String())

	u, _ := url.Parse(b.PaymentURL)
	page := m.env.Do(t, "GET", u.Path, "", nil).Want(200)
	if !strings.Contains(string(page.Body), "1,00") || strings.Contains(string(page.Body), "60,00") {
		t.Fatalf("approval page does not show the frozen total:\n%s", page.Body)
	}
	m.approve(b)
	if p := m.awaitRequest(r, payments.Completed); *p.Amount != 1 {
		t.Fatalf("paid %+v", p)
	}
	m.awaitBalance(99)
	var after model.BulkPayment
	m.env.Do(t, "GET", "/payments/bulk/"+b.ID.String(), m.key, nil).Want(200).JSON(&after)
	if after.TotalAmount != 1 {
		t.Fatalf("bulk total %v", after.TotalAmount)
	}

	// Out of a deleted bulk payment, the request is the application's to change again.
	free := m.request(2)
	gone := m.bulk(free)
	m.env.Do(t, "DELETE", "/payments/bulk/"+gone.ID.String(), m.key, nil).Want(200)
	m.env.Do(t, "PATCH", "/payments/requests/"+free, m.key, map[string]any{"amount": 3}).Want(200)
	m.env.AuditLedger(t)
}

// editRecipient turns a recipient into another holder's account.
func editRecipient(t *testing.T, env *testsupport.Env, key, id string) {
	t.Helper()
	env.Do(t, "PATCH", "/payments/recipients/"+id, key, map[string]any{"name": "Outra Pessoa", "taxNumber": otherCPF,
		"account": map[string]any{"branch": "0002", "number": "99999-9", "type": "CHECKING_ACCOUNT"}}).Want(200)
}

func wantOriginal(t *testing.T, what string, r *model.PaymentRecipient, name, taxNumber string) {
	t.Helper()
	if r == nil || r.Name != name || r.TaxNumber != taxNumber || r.Account == nil || r.Account.Number == "99999-9" {
		t.Fatalf("%s goes to %+v, not the consented %s (%s)", what, r, name, taxNumber)
	}
}

// 7. After the payer approved smart transfers to their own account, the application
// edited that recipient to another holder; later payments went to the new account. They go
// to the recipient the payer approved.
func TestSmartTransferPaysApprovedRecipient(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "smart transfer frozen").APIKey
	env.Recipient(t, key)
	own := recipientFor(t, env, key, "Conta do pagador", happyCPF, false)
	var pre model.SmartTransferPreauthorization
	env.Do(t, "POST", "/smart-transfers/preauthorizations", key, map[string]any{"connectorId": smartConnector,
		"parameters": map[string]any{"cpf": happyCPF}, "recipientIds": []string{own}}).Want(200).JSON(&pre)
	decidePreauth(t, env, &pre, "authorize").Want(200)
	editRecipient(t, env, key, own)

	var p model.SmartTransferPayment
	env.Do(t, "POST", "/smart-transfers/payments", key, map[string]any{"preauthorizationId": pre.ID, "recipientId": own, "amount": 10}).Want(200).JSON(&p)
	wantOriginal(t, "the new payment", p.Recipient, "Conta do pagador", happyCPF)
	testsupport.Eventually(t, "the payment settles", 20*time.Second, func() bool {
		env.Do(t, "GET", "/smart-transfers/payments/"+p.ID.String(), key, nil).Want(200).JSON(&p)
		return p.Status == payments.PaymentCompleted
	})
	wantOriginal(t, "the settled payment", p.Recipient, "Conta do pagador", happyCPF)
	env.Do(t, "GET", "/smart-transfers/preauthorizations/"+pre.ID.String(), key, nil).Want(200).JSON(&pre)
	wantOriginal(t, "the pre-authorization", pre.Recipients[0], "Conta do pagador", happyCPF)
	// The edit is real, and applies to what nobody has consented to yet.
	var now model.PaymentRecipient
	env.Do(t, "GET", "/payments/recipients/"+own, key, nil).Want(200).JSON(&now)
	if now.Name != "Outra Pessoa" {
		t.Fatalf("recipient after the edit %+v", now)
	}
	env.AuditLedger(t)
}

// 8. A payment request's recipient changed while the payer was on the consent page, and the
// payment completed to the edited account; an authorized schedule followed the edit too.
// Both pay the recipient the payer saw.
func TestPaymentPaysConsentedRecipient(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "consented recipient").APIKey
	to := recipientFor(t, env, key, "Loja Original", "11222333000181", true)

	var p model.PaymentRequest
	env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 25, "recipientId": to, "isSandbox": true}).Want(200).JSON(&p)
	var n model.PaymentIntent
	env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": p.ID, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).Want(200).JSON(&n)
	editRecipient(t, env, key, to) // while the payer reads the consent page
	u, _ := url.Parse(*n.ConsentURL)
	page := string(env.Do(t, "GET", u.Path, "", nil).Want(200).Body)
	if !strings.Contains(page, "Loja Original") || strings.Contains(page, "Outra Pessoa") {
		t.Fatalf("consent page does not show the recipient the payer consents to:\n%s", page)
	}
	consent(t, env, &n, "authorize")
	awaitIntent(t, env, key, n.ID.String(), payments.PaymentCompleted)
	env.Do(t, "GET", "/payments/requests/"+p.ID.String(), key, nil).Want(200).JSON(&p)
	wantOriginal(t, "the completed request", p.Recipient, "Loja Original", "11222333000181")
	g := env.GraphQL(t, key, `query($id: UUID!) { paymentRequest(id: $id) { recipient { name taxNumber } } }`, map[string]any{"id": p.ID}).OK(t)
	if r := g["paymentRequest"].(map[string]any)["recipient"].(map[string]any); r["name"] != "Loja Original" {
		t.Fatalf("GraphQL recipient %v", r)
	}

	// An authorized schedule keeps the recipient it was authorized for.
	other := recipientFor(t, env, key, "Escola Original", "11444777000161", false)
	var s model.PaymentRequest
	env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 30, "recipientId": other, "isSandbox": true,
		"schedule": map[string]any{"type": "DAILY", "startDate": day(1), "occurrences": 2}}).Want(200).JSON(&s)
	env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": s.ID, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).Want(200).JSON(&n)
	consent(t, env, &n, "authorize")
	testsupport.Eventually(t, "the schedule is authorized", 20*time.Second, func() bool {
		env.Do(t, "GET", "/payments/requests/"+s.ID.String(), key, nil).Want(200).JSON(&s)
		return s.Status == payments.Scheduled
	})
	editRecipient(t, env, key, other)
	env.Do(t, "GET", "/payments/requests/"+s.ID.String(), key, nil).Want(200).JSON(&s)
	wantOriginal(t, "the scheduled request", s.Recipient, "Escola Original", "11444777000161")

	// A request nobody has started paying follows the edit.
	var fresh model.PaymentRequest
	env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 5, "recipientId": other, "isSandbox": true}).Want(200).JSON(&fresh)
	if fresh.Recipient == nil || fresh.Recipient.Name != "Outra Pessoa" {
		t.Fatalf("a new request's recipient %+v", fresh.Recipient)
	}
	env.AuditLedger(t)
}

// A boleto a bulk payment pays is checked at the approval, and again when the payment
// settles: one cancelled in between fails its request and the smart account gets the
// amount back.
func TestBulkPaidBoletoCancelledBeforeSettlement(t *testing.T) {
	t.Parallel()
	// The settlement step waits long enough for the issuer to cancel first.
	env := testsupport.New(t, func(s *testsupport.Setup) { s.Payments.StepDelay = 3 * time.Second })
	key := env.NewClient(t, "bulk boleto").APIKey
	env.Recipient(t, key)
	m := &moneyRig{t: t, env: env, key: key}
	m.account = env.Do(t, "POST", "/payments/smart-accounts", key, map[string]any{"name": "Loja", "taxNumber": "11222333000181",
		"email": "loja@example.com", "phoneNumber": "+5511999990000", "isSandbox": true}).Want(200).String("id")
	m.payIn(100)
	m.awaitBalance(100)
	conn := boletoConnection(t, env, key)
	issue := func(seu string) *model.Boleto {
		var b model.Boleto
		env.Do(t, "POST", "/boletos", key, boletoBody(conn, seu, 30, spDay(5))).Want(200).JSON(&b)
		return &b
	}
	payLine := func(b *model.Boleto) string {
		return env.Do(t, "POST", "/payments/requests", key, map[string]any{"boleto": map[string]any{"digitableLine": b.DigitableLine}, "isSandbox": true}).Want(200).String("id")
	}

	// Cancelled before the approval: the approval finds it and pays nothing.
	early := issue("EARLY")
	bulk := m.bulk(payLine(early))
	env.Do(t, "POST", "/boletos/"+early.ID.String()+"/cancel", key, nil).Want(200)
	m.approve(bulk)
	env.Do(t, "GET", "/payments/bulk/"+bulk.ID.String(), key, nil).Want(200).JSON(bulk)
	if bulk.Status != payments.BulkError || bulk.ErrorDetail == nil || bulk.ErrorDetail.Code != model.CodeBoletoNotPayable.String() {
		t.Fatalf("bulk payment of a cancelled boleto %+v", bulk)
	}
	m.awaitBalance(100)

	// Cancelled after the approval debited the account: the request fails at settlement
	// and the money comes back.
	late := issue("LATE")
	id := payLine(late)
	m.approve(m.bulk(id))
	m.awaitBalance(70)
	env.Do(t, "POST", "/boletos/"+late.ID.String()+"/cancel", key, nil).Want(200)
	if p := m.awaitRequest(id, payments.RequestError); p.ErrorDetail == nil || p.ErrorDetail.Code != model.CodeBoletoNotPayable.String() {
		t.Fatalf("request of a boleto cancelled while settling %+v", p)
	}
	m.awaitBalance(100)
	var b model.Boleto
	env.Do(t, "GET", "/boletos/"+late.ID.String(), key, nil).Want(200).JSON(&b)
	if b.Status != payments.BoletoCancelled {
		t.Fatalf("boleto %+v", b)
	}
	env.AuditLedger(t)
}
