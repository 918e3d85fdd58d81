package payments_test

// The engine with a payer's institution of the test's own: what the engine tells the
// institution, and what each of its answers moves. The sandbox's scenarios are answers of the
// same kind (intents_engine_test.go runs them); these tests hold the engine's side of the
// interface whatever institution is wired in.

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"ponte/ledger"
	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// fakeBank answers from its tables and records every settlement step it was asked.
type fakeBank struct {
	mu       sync.Mutex
	open     *model.PaymentErrorDetail
	auth     *model.PaymentErrorDetail
	answers  map[string]payments.Answer // by step; Proceed where absent
	asked    []payments.Attempt
	debtors  int
	refunded []payments.Refund
}

func (b *fakeBank) Open(context.Context, payments.Attempt) (*model.PaymentErrorDetail, error) {
	return b.open, nil
}

func (b *fakeBank) Authorize(context.Context, payments.Attempt) (*model.PaymentErrorDetail, error) {
	return b.auth, nil
}

func (b *fakeBank) Settle(_ context.Context, a payments.Attempt) (payments.Answer, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.asked = append(b.asked, a)
	return b.answers[a.Status], nil
}

func (b *fakeBank) Debtor(_ context.Context, a payments.Attempt) (*model.PaymentDebtor, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.debtors++
	return &model.PaymentDebtor{Name: "Conta do Teste", TaxNumber: a.Payer.CPF, Ispb: "99999999", Branch: "0042", Number: "777-7", AccountType: "SAVINGS_ACCOUNT"}, nil
}

func (b *fakeBank) Refund(_ context.Context, r payments.Refund) (*model.PaymentErrorDetail, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refunded = append(b.refunded, r)
	return nil, nil
}

// steps is the statuses the institution was asked to settle from, in order.
func (b *fakeBank) steps() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, a := range b.asked {
		out = append(out, a.Status)
	}
	return out
}

func withBank(b *fakeBank) testsupport.Option {
	return func(s *testsupport.Setup) { s.Payments.Institution = b }
}

// A payment that goes through is told to the institution as the payer consented to it
// (amount in centavos, the frozen recipient, the connector, the signatures) one step at a
// time, the debtor on the completed intent is the one the institution reported, and a
// refund is asked of it in centavos.
func TestEngineTellsTheInstitutionEachStepAndKeepsItsDebtor(t *testing.T) {
	t.Parallel()
	bank := &fakeBank{}
	w := newWorld(t, withBank(bank))
	p := w.request(12.34)
	n := w.intent(p.ID, happyCPF)
	must(w.pay.DecideForPayer(w.ctx, n.ID, true))(t)
	n = w.awaitIntent(n.ID, payments.PaymentCompleted)
	want := []string{payments.PaymentPending, payments.SettlementProcessing, payments.SettlementDebtorAccount}
	if got := bank.steps(); !slices.Equal(got, want) {
		t.Fatalf("institution asked at %v, want %v", got, want)
	}
	bank.mu.Lock()
	a, debtors := bank.asked[0], bank.debtors
	bank.mu.Unlock()
	if a.ID != n.ID || a.Amount != 1234 || a.ConnectorID != payConnector || a.Payer.CPF != happyCPF || a.Payer.Name == nil ||
		*a.Payer.Name != "Maria Silva" || a.Signatures != 1 || a.Preauthorized || a.Recipient == nil || a.Recipient.Name != "Loja Exemplo Ltda" {
		t.Fatalf("attempt told to the institution: %+v", a)
	}
	if n.Debtor == nil || n.Debtor.Name != "Conta do Teste" || n.Debtor.Branch != "0042" || debtors != 1 {
		t.Fatalf("debtor %+v (asked %d times)", n.Debtor, debtors)
	}
	w.awaitRequest(p.ID, payments.Completed)
	w.wantBalance(ledger.Payees, 1234)

	// The refund is the institution's to give back too.
	must(w.pay.RefundRequest(w.ctx, p.ID, nil))(t)
	w.awaitRequest(p.ID, payments.Refunded)
	bank.mu.Lock()
	defer bank.mu.Unlock()
	if len(bank.refunded) != 1 || bank.refunded[0].RequestID != p.ID || bank.refunded[0].Amount != 1234 {
		t.Fatalf("refunds asked: %+v", bank.refunded)
	}
}

// Whatever the payer's CPF, the institution's answers decide: a refusal on opening ends the
// attempt REJECTED before consent, one in the app CONSENT_REJECTED, one at any settlement step
// PAYMENT_REJECTED with the institution's reason, and nothing is paid or asked after it.
func TestEngineMovesWhereTheInstitutionAnswers(t *testing.T) {
	t.Parallel()
	refusal := &model.PaymentErrorDetail{Code: model.PaymentErrorSettlementFailed, Description: "Recusado pelo banco do teste."}
	bank := &fakeBank{answers: map[string]payments.Answer{payments.SettlementDebtorAccount: {Outcome: payments.Reject, Error: refusal}}}
	w := newWorld(t, withBank(bank))

	p := w.request(10)
	n := w.intent(p.ID, happyCPF)
	must(w.pay.DecideForPayer(w.ctx, n.ID, true))(t)
	n = w.awaitIntent(n.ID, payments.PaymentRejected)
	h := history(n)
	bank.mu.Lock()
	debtors := bank.debtors
	bank.mu.Unlock()
	if n.ErrorDetail == nil || n.ErrorDetail.Description != refusal.Description || h[len(h)-2] != payments.SettlementDebtorAccount || debtors != 0 {
		t.Fatalf("rejected at the last step: %+v after %v, debtor asked %d times", n.ErrorDetail, h, debtors)
	}
	if got := w.awaitRequest(p.ID, payments.RequestError); got.ErrorDetail == nil || got.ErrorDetail.Description != refusal.Description {
		t.Fatalf("request error %+v", got.ErrorDetail)
	}
	w.wantBalance(ledger.Payees, 0)

	blocked := &fakeBank{open: &model.PaymentErrorDetail{Code: model.PaymentErrorAccountBlocked, Description: "Conta bloqueada no teste."}}
	w = newWorld(t, withBank(blocked))
	p = w.request(10)
	n = w.intent(p.ID, happyCPF)
	if n.Status != payments.IntentRejected || n.ErrorDetail == nil || n.ErrorDetail.Description != "Conta bloqueada no teste." ||
		strings.Join(history(n), " ") != "STARTED ENQUEUED REJECTED" {
		t.Fatalf("refused on opening: %s %+v %v", n.Status, n.ErrorDetail, history(n))
	}
	if got := must(w.pay.Request(w.ctx, p.ID))(t); got.Status != payments.Created {
		t.Fatalf("request after a refusal before consent: %s", got.Status)
	}

	inApp := &fakeBank{auth: &model.PaymentErrorDetail{Code: model.PaymentErrorRejectedByUser, Description: "Recusado no app do teste."}}
	w = newWorld(t, withBank(inApp))
	p = w.request(10)
	n = w.intent(p.ID, happyCPF)
	n = must(w.pay.DecideForPayer(w.ctx, n.ID, true))(t)
	if n.Status != payments.ConsentRejected || n.ErrorDetail == nil || n.ErrorDetail.Description != "Recusado no app do teste." || len(inApp.steps()) != 0 {
		t.Fatalf("refused in the app: %s %+v, settlement asked %v", n.Status, n.ErrorDetail, inApp.steps())
	}
}

// An institution cannot take a payment where the engine's rules do not go: holding a
// payment for another signer after it is already being settled is refused, the job fails
// and is retried, and the payment stays where it was.
func TestEngineRefusesAnAnswerTheStepCannotTake(t *testing.T) {
	t.Parallel()
	bank := &fakeBank{answers: map[string]payments.Answer{payments.SettlementProcessing: {Outcome: payments.AwaitSignature}}}
	w := newWorld(t, withBank(bank))
	p := w.request(10)
	n := w.intent(p.ID, happyCPF)
	must(w.pay.DecideForPayer(w.ctx, n.ID, true))(t)
	testsupport.Eventually(t, "the step asked again after the refused answer", wait, func() bool {
		return len(slices.DeleteFunc(bank.steps(), func(s string) bool { return s != payments.SettlementProcessing })) >= 2
	})
	if got := must(w.pay.Intent(w.ctx, n.ID))(t); got.Status != payments.SettlementProcessing {
		t.Fatalf("intent moved to %s on an answer its step cannot take", got.Status)
	}
	w.wantBalance(ledger.Payees, 0)
}
