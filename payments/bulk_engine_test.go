package payments_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"ponte/ledger"
	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

func (w *world) smartAccount() *model.SmartAccount {
	w.t.Helper()
	return must(w.pay.CreateSmartAccount(w.ctx, model.SmartAccountInput{Name: ptr("Conta Inteligente"), TaxNumber: ptr("11222333000181"),
		Email: ptr("financeiro@example.com"), PhoneNumber: ptr("+55 (11) 99999-8888"), IsSandbox: ptr(true)}))(w.t)
}

// fund pays a request of amount into a smart account and returns the request.
func (w *world) fund(a *model.SmartAccount, amount float64) *model.PaymentRequest {
	w.t.Helper()
	p := must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(amount), IsSandbox: ptr(true), SmartAccountID: ptr(a.ID.String())}))(w.t)
	n := w.intent(p.ID, happyCPF)
	must(w.pay.DecideForPayer(w.ctx, n.ID, true))(w.t)
	return w.awaitRequest(p.ID, payments.Completed)
}

func (w *world) bulk(a *model.SmartAccount, requests ...*model.PaymentRequest) (*model.BulkPayment, error) {
	ids := make([]string, len(requests))
	for i, p := range requests {
		ids[i] = p.ID.String()
	}
	return w.pay.CreateBulkPayment(w.ctx, model.BulkPaymentInput{SmartAccountID: ptr(a.ID.String()), PaymentRequestIds: ids})
}

func (w *world) awaitBulk(id uuid.UUID, status string) *model.BulkPayment {
	w.t.Helper()
	var b *model.BulkPayment
	testsupport.Eventually(w.t, "bulk payment "+id.String()+" "+status, wait, func() bool {
		b = must(w.pay.BulkPayment(w.ctx, id))(w.t)
		return b.Status == status
	})
	return b
}

// A smart account opens with its owner's name, document, e-mail and phone; it starts
// empty, holds what requests pay into it, and belongs to its application alone.
func TestSmartAccountHoldsWhatIsPaidIntoIt(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	good := model.SmartAccountInput{Name: ptr("Conta"), TaxNumber: ptr(happyCPF), Email: ptr("a@example.com"), PhoneNumber: ptr("11999998888")}
	for name, change := range map[string]func(*model.SmartAccountInput){
		"no name":     func(in *model.SmartAccountInput) { in.Name = nil },
		"no document": func(in *model.SmartAccountInput) { in.TaxNumber = ptr(" ") },
		"bad e-mail":  func(in *model.SmartAccountInput) { in.Email = ptr("a@") },
		"bad phone":   func(in *model.SmartAccountInput) { in.PhoneNumber = ptr("12345") },
	} {
		in := good
		change(&in)
		_, err := w.pay.CreateSmartAccount(w.ctx, in)
		t.Run(name, func(t *testing.T) { wantCode(t, err, model.CodeInvalidParameter) })
	}
	bad := good
	bad.TaxNumber = ptr("11144477736")
	_, err := w.pay.CreateSmartAccount(w.ctx, bad)
	wantCode(t, err, model.CodeInvalidCPF)

	a := w.smartAccount()
	if b := must(w.pay.SmartAccountBalance(w.ctx, a.ID))(t); b.Balance != 0 || b.LastUpdatedAt != a.CreatedAt {
		t.Fatalf("new account's balance: %+v", b)
	}
	p := w.fund(a, 80.5)
	if p.SmartAccount == nil || p.Recipient != nil {
		t.Fatalf("a request into a smart account shows smartAccount %v, recipient %+v", p.SmartAccount, p.Recipient)
	}
	if b := must(w.pay.SmartAccountBalance(w.ctx, a.ID))(t); b.Balance != 80.5 {
		t.Fatalf("balance after R$ 80.50 paid in: %v", b.Balance)
	}
	w.wantBalance(ledger.SmartAccount(a.ID), 8050)
	if pg, err := w.pay.SmartAccounts(w.ctx, nil, ptr(10)); err != nil || pg.Total != 1 || pg.Results[0].ID != a.ID {
		t.Fatalf("smart accounts: %+v (%v)", pg, err)
	}
	stranger := w.newClient("stranger")
	_, err = w.pay.SmartAccountBalance(w.as(stranger), a.ID)
	wantCode(t, err, model.CodeSmartAccountNotFound)
	_, err = w.pay.CreateRequest(w.as(stranger), model.PaymentRequestInput{Amount: ptr(1.0), SmartAccountID: ptr(a.ID.String())})
	wantCode(t, err, model.CodeSmartAccountNotFound)
	_, err = w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(1.0), SmartAccountID: ptr("x")})
	wantCode(t, err, model.CodeInvalidParameter)
}

// A bulk payment pays CREATED requests from a smart account once its owner approves:
// while it waits, its requests are frozen (no change, deletion, attempt or second bulk
// payment); the approval debits the account once per request, and the requests and the
// bulk payment complete.
func TestBulkPaymentFreezesItsRequestsAndPaysThemOnApproval(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.smartAccount()
	w.fund(a, 100)
	p1, p2 := w.request(30), w.request(20.5)
	b := must(w.bulk(a, p1, p2))(t)
	if b.Status != payments.BulkCreated || b.TotalAmount != 50.5 || len(b.PaymentRequests) != 2 || b.SmartAccount == nil || b.SmartAccount.ID != a.ID {
		t.Fatalf("new bulk payment: %+v", b)
	}

	_, err := w.pay.UpdateRequest(w.ctx, p1.ID, model.PaymentRequestInput{Amount: ptr(1.0)})
	if e := wantCode(t, err, model.CodePaymentRequestNotEditable); e.Data.(map[string]string)["bulkPaymentId"] != b.ID.String() {
		t.Fatalf("refusal's data: %v", e.Data)
	}
	_, err = w.pay.DeleteRequest(w.ctx, p2.ID)
	wantCode(t, err, model.CodePaymentRequestNotEditable)
	_, err = w.startIntent(p1.ID, happyCPF)
	wantCode(t, err, model.CodePaymentRequestNotAvailable)
	_, err = w.bulk(a, p2)
	wantCode(t, err, model.CodePaymentRequestNotAvailable)

	if owner := must(w.pay.BulkConsentForOwner(context.Background(), b.ID))(t); owner.BulkPayment.ID != b.ID || !owner.CanDecide {
		t.Fatalf("owner's page: %+v", owner)
	}
	b = must(w.pay.DecideBulkPaymentForOwner(w.ctx, b.ID, true))(t)
	if b.Status != payments.BulkPaymentInProgress {
		t.Fatalf("approved bulk payment: %s", b.Status)
	}
	w.wantBalance(ledger.SmartAccount(a.ID), 4950) // debited at approval, under the account's lock
	b = w.awaitBulk(b.ID, payments.BulkCompleted)
	for _, p := range b.PaymentRequests {
		if p.Status != payments.Completed {
			t.Fatalf("request %s of a completed bulk payment is %s", p.ID, p.Status)
		}
	}
	w.wantBalance(ledger.SmartAccount(a.ID), 4950)
	w.wantBalance(ledger.Payees, 5050)
	w.env.AuditLedger(t)

	_, err = w.pay.DecideBulkPaymentForOwner(w.ctx, b.ID, true)
	wantCode(t, err, model.CodeBulkPaymentNotAuthorizable)
	_, err = w.pay.DeleteBulkPayment(w.ctx, b.ID)
	wantCode(t, err, model.CodeBulkPaymentNotDeletable)
	if pg, err := w.pay.BulkPayments(w.ctx, nil, ptr(10)); err != nil || pg.Total != 1 || pg.Results[0].Status != payments.BulkCompleted {
		t.Fatalf("bulk payments: %+v (%v)", pg, err)
	}
}

// A bulk payment must name payable requests the account can cover when it is created, and
// again when it is approved: one whose balance was spent meanwhile ends in ERROR, frees
// its requests and debits nothing. A rejected or deleted one frees them too.
func TestBulkPaymentNeedsTheBalanceAtCreationAndAtApproval(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.smartAccount()
	funding := w.fund(a, 100)
	into := must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(1.0), IsSandbox: ptr(true), SmartAccountID: ptr(a.ID.String())}))(t)
	dated := must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(1.0), IsSandbox: ptr(true),
		Schedule: &model.PaymentSchedule{Type: "SINGLE", Date: ptr(spDay(3))}}))(t)
	big := w.request(100.01)
	p1 := w.request(60)

	cases := []struct {
		name string
		in   model.BulkPaymentInput
		code model.Code
	}{
		{"no smart account", model.BulkPaymentInput{PaymentRequestIds: []string{p1.ID.String()}}, model.CodeInvalidParameter},
		{"unknown smart account", model.BulkPaymentInput{SmartAccountID: ptr(uuid.NewString()), PaymentRequestIds: []string{p1.ID.String()}}, model.CodeSmartAccountNotFound},
		{"no requests", model.BulkPaymentInput{SmartAccountID: ptr(a.ID.String())}, model.CodeInvalidParameter},
		{"a request twice", model.BulkPaymentInput{SmartAccountID: ptr(a.ID.String()), PaymentRequestIds: []string{p1.ID.String(), p1.ID.String()}}, model.CodeInvalidParameter},
		{"not an id", model.BulkPaymentInput{SmartAccountID: ptr(a.ID.String()), PaymentRequestIds: []string{"x"}}, model.CodeInvalidParameter},
		{"unknown request", model.BulkPaymentInput{SmartAccountID: ptr(a.ID.String()), PaymentRequestIds: []string{uuid.NewString()}}, model.CodePaymentRequestNotFound},
		{"completed request", model.BulkPaymentInput{SmartAccountID: ptr(a.ID.String()), PaymentRequestIds: []string{funding.ID.String()}}, model.CodePaymentRequestNotAvailable},
		{"request into a smart account", model.BulkPaymentInput{SmartAccountID: ptr(a.ID.String()), PaymentRequestIds: []string{into.ID.String()}}, model.CodePaymentRequestNotAvailable},
		{"scheduled request", model.BulkPaymentInput{SmartAccountID: ptr(a.ID.String()), PaymentRequestIds: []string{dated.ID.String()}}, model.CodePaymentRequestNotAvailable},
		{"more than the balance", model.BulkPaymentInput{SmartAccountID: ptr(a.ID.String()), PaymentRequestIds: []string{big.ID.String()}}, model.CodeInsufficientSmartAccountBalance},
		{"bad callback", model.BulkPaymentInput{SmartAccountID: ptr(a.ID.String()), PaymentRequestIds: []string{p1.ID.String()}, CallbackUrls: &model.CallbackURLs{Error: ptr("ftp://x")}}, model.CodeInvalidParameter},
	}
	for _, c := range cases {
		_, err := w.pay.CreateBulkPayment(w.ctx, c.in)
		t.Run(c.name, func(t *testing.T) { wantCode(t, err, c.code) })
	}
	if pg, _ := w.pay.BulkPayments(w.ctx, nil, ptr(10)); pg.Total != 0 {
		t.Fatalf("refused bulk payments stored: %+v", pg)
	}

	// Two bulk payments the balance covers one at a time: the second approval fails.
	p2 := w.request(50)
	first := must(w.bulk(a, p1))(t)
	second := must(w.bulk(a, p2))(t)
	must(w.pay.DecideBulkPaymentForOwner(w.ctx, first.ID, true))(t)
	second = must(w.pay.DecideBulkPaymentForOwner(w.ctx, second.ID, true))(t)
	if second.Status != payments.BulkError || second.ErrorDetail == nil || second.ErrorDetail.Code != model.CodeInsufficientSmartAccountBalance.String() {
		t.Fatalf("approval the balance no longer covers: %s %+v", second.Status, second.ErrorDetail)
	}
	w.awaitBulk(first.ID, payments.BulkCompleted)
	w.wantBalance(ledger.SmartAccount(a.ID), 4000)
	if got := must(w.pay.UpdateRequest(w.ctx, p2.ID, model.PaymentRequestInput{Amount: ptr(40.0)}))(t); got.Status != payments.Created {
		t.Fatalf("a failed bulk payment's request: %s", got.Status)
	}
	// What the account paid out can no longer be refunded from it.
	_, err := w.pay.RefundRequest(w.ctx, funding.ID, nil)
	wantCode(t, err, model.CodeInsufficientSmartAccountBalance)

	rejected := must(w.bulk(a, p2))(t)
	rejected = must(w.pay.DecideBulkPaymentForOwner(w.ctx, rejected.ID, false))(t)
	if rejected.Status != payments.BulkError || rejected.ErrorDetail == nil || rejected.ErrorDetail.Code != payments.ConsentRejected {
		t.Fatalf("rejected bulk payment: %s %+v", rejected.Status, rejected.ErrorDetail)
	}
	deleted := must(w.bulk(a, p2))(t)
	must(w.pay.DeleteBulkPayment(w.ctx, deleted.ID))(t)
	_, err = w.pay.BulkPayment(w.ctx, deleted.ID)
	wantCode(t, err, model.CodeBulkPaymentNotFound)
	n := w.intent(p2.ID, happyCPF) // free again: a payer may pay it
	if n.Status != payments.ConsentAwaitingAuthorization {
		t.Fatalf("attempt on a freed request: %s", n.Status)
	}
	w.wantBalance(ledger.SmartAccount(a.ID), 4000)
	w.env.AuditLedger(t)
}
