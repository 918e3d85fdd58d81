package payments_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"ponte/ledger"
	"ponte/model"
	"ponte/payments"
	"ponte/sandbox/payer"
	"ponte/testsupport"
)

func (w *world) preauth(cpf string, limits *model.SmartTransferLimits, recipients ...string) (*model.SmartTransferPreauthorization, error) {
	return w.pay.CreatePreauthorization(w.ctx, model.SmartTransferPreauthorizationInput{ConnectorID: ptr(smartConnector),
		Parameters: &model.PaymentPayerInput{Cpf: ptr(cpf), Name: ptr("Maria Silva")}, RecipientIds: recipients, Limits: limits,
		ClientPreauthorizationID: ptr("pre-1")})
}

// approved is a pre-authorization its payer approved.
func (w *world) approved(cpf string, limits *model.SmartTransferLimits, recipients ...string) *model.SmartTransferPreauthorization {
	w.t.Helper()
	p := must(w.preauth(cpf, limits, recipients...))(w.t)
	return must(w.pay.DecidePreauthorizationForPayer(w.ctx, p.ID, true))(w.t)
}

func (w *world) transfer(preauth uuid.UUID, recipient string, amount float64) (*model.SmartTransferPayment, error) {
	return w.pay.CreateSmartTransferPayment(w.ctx, model.SmartTransferPaymentInput{PreauthorizationID: ptr(preauth.String()),
		RecipientID: ptr(recipient), Amount: ptr(amount), ClientPaymentID: ptr("tr-1")})
}

func (w *world) awaitTransfer(id uuid.UUID, status string) *model.SmartTransferPayment {
	w.t.Helper()
	var p *model.SmartTransferPayment
	testsupport.Eventually(w.t, "smart transfer payment "+status, wait, func() bool {
		p = must(w.pay.SmartTransferPayment(w.ctx, id))(w.t)
		return p.Status == status
	})
	return p
}

// A pre-authorization names only the payer's own accounts (same document) or the
// application's default one, each once, on a connector that offers smart transfers; it
// waits CREATED for the payer, with copies of its recipients taken when it was asked.
func TestPreauthorizationNamesOnlyThePayersOrTheApplicationsAccounts(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	own := w.bankRecipient(w.client, "Maria Silva", happyCPF, false).ID.String()
	stranger := w.bankRecipient(w.client, "Outra Pessoa", "52998224725", false).ID.String()
	payer := &model.PaymentPayerInput{Cpf: ptr(happyCPF)}
	base := func(change func(*model.SmartTransferPreauthorizationInput)) model.SmartTransferPreauthorizationInput {
		in := model.SmartTransferPreauthorizationInput{ConnectorID: ptr(smartConnector), Parameters: payer, RecipientIds: []string{own}}
		change(&in)
		return in
	}
	cases := []struct {
		name string
		in   model.SmartTransferPreauthorizationInput
		code model.Code
	}{
		{"no connector", base(func(in *model.SmartTransferPreauthorizationInput) { in.ConnectorID = nil }), model.CodeInvalidParameter},
		{"unknown connector", base(func(in *model.SmartTransferPreauthorizationInput) { in.ConnectorID = ptr(9999) }), model.CodeConnectorNotFound},
		{"connector without smart transfers", base(func(in *model.SmartTransferPreauthorizationInput) { in.ConnectorID = ptr(retailConnector) }), model.CodeConnectorNoSmartTransfers},
		{"no payer", base(func(in *model.SmartTransferPreauthorizationInput) { in.Parameters = nil }), model.CodeInvalidParameter},
		{"bad CPF", base(func(in *model.SmartTransferPreauthorizationInput) {
			in.Parameters = &model.PaymentPayerInput{Cpf: ptr("123")}
		}), model.CodeInvalidCPF},
		{"bad CNPJ", base(func(in *model.SmartTransferPreauthorizationInput) {
			in.Parameters = &model.PaymentPayerInput{Cpf: ptr(happyCPF), Cnpj: ptr("11222333000100")}
		}), model.CodeInvalidCNPJ},
		{"long name", base(func(in *model.SmartTransferPreauthorizationInput) {
			in.Parameters = &model.PaymentPayerInput{Cpf: ptr(happyCPF), Name: ptr(strings.Repeat("n", 101))}
		}), model.CodeInvalidParameter},
		{"no recipients", base(func(in *model.SmartTransferPreauthorizationInput) { in.RecipientIds = nil }), model.CodeInvalidParameter},
		{"a recipient twice", base(func(in *model.SmartTransferPreauthorizationInput) { in.RecipientIds = []string{own, own} }), model.CodeInvalidParameter},
		{"unknown recipient", base(func(in *model.SmartTransferPreauthorizationInput) { in.RecipientIds = []string{uuid.NewString()} }), model.CodePaymentRecipientNotFound},
		{"someone else's account", base(func(in *model.SmartTransferPreauthorizationInput) { in.RecipientIds = []string{own, stranger} }), model.CodeSmartTransferRecipientNotAllowed},
		{"limit of a tenth of a cent", base(func(in *model.SmartTransferPreauthorizationInput) {
			in.Limits = &model.SmartTransferLimits{Daily: ptr(0.001)}
		}), model.CodeInvalidParameter},
		{"pending callback", base(func(in *model.SmartTransferPreauthorizationInput) {
			in.CallbackUrls = &model.CallbackURLs{Pending: ptr("https://x.example.com")}
		}), model.CodeInvalidParameter},
		{"bad success callback", base(func(in *model.SmartTransferPreauthorizationInput) {
			in.CallbackUrls = &model.CallbackURLs{Success: ptr("nope")}
		}), model.CodeInvalidParameter},
		{"long client id", base(func(in *model.SmartTransferPreauthorizationInput) {
			in.ClientPreauthorizationID = ptr(strings.Repeat("c", 101))
		}), model.CodeInvalidParameter},
	}
	for _, c := range cases {
		_, err := w.pay.CreatePreauthorization(w.ctx, c.in)
		t.Run(c.name, func(t *testing.T) { wantCode(t, err, c.code) })
	}
	if pg, _ := w.pay.Preauthorizations(w.ctx, nil, ptr(10)); pg.Total != 0 {
		t.Fatalf("refused pre-authorizations stored: %+v", pg)
	}

	p := must(w.pay.CreatePreauthorization(w.ctx, base(func(in *model.SmartTransferPreauthorizationInput) {
		in.RecipientIds = []string{own, w.recipient}
		in.CallbackUrls = &model.CallbackURLs{Success: ptr("https://shop.example.com/ok")}
		in.Limits = &model.SmartTransferLimits{Daily: ptr(50.0)}
	})))(t)
	if p.Status != payments.PreauthCreated || p.ConsentURL == nil || len(p.Recipients) != 2 || p.Connector == nil || p.Connector.ID != smartConnector ||
		p.Limits == nil || *p.Limits.Daily != 50 || p.CallbackUrls == nil || !payments.PreauthDecidable(p.Status) {
		t.Fatalf("new pre-authorization: %+v", p)
	}
	must(w.pay.UpdateRecipient(w.ctx, uuid.MustParse(own), model.PaymentRecipientInput{Name: ptr("Renamed")}))(t)
	got := must(w.pay.PreauthConsentForPayer(context.Background(), p.ID))(t)
	if got.Preauthorization.Recipients[0].Name != "Maria Silva" {
		t.Fatalf("the consent page shows %q, not the copy taken when it was asked", got.Preauthorization.Recipients[0].Name)
	}
	if got.PayerCpf != "111.***.***-35" || !got.CanDecide || got.CanRevoke {
		t.Fatalf("consent page: %+v", got)
	}
	_, err := w.pay.Preauthorization(w.as(w.newClient("stranger")), p.ID)
	wantCode(t, err, model.CodeSmartTransferPreauthorizationNotFound)
}

// The payer decides once: approval completes it (or the institution refuses a blocked
// account: ERROR), refusal rejects it, each with its event; either side may revoke one
// that has not ended, after which no payment is accepted.
func TestPreauthorizationIsDecidedOnceAndRevocable(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ok := w.approved(happyCPF, nil, w.recipient)
	if ok.Status != payments.PreauthCompleted || ok.ConsentURL != nil || !payments.PreauthRevocableByPayer(ok.Status) {
		t.Fatalf("approved: %+v", ok)
	}
	_, err := w.pay.DecidePreauthorizationForPayer(w.ctx, ok.ID, false)
	wantCode(t, err, model.CodeSmartTransferPreauthorizationDecided)

	refused := must(w.preauth(happyCPF, nil, w.recipient))(t)
	refused = must(w.pay.DecidePreauthorizationForPayer(w.ctx, refused.ID, false))(t)
	if refused.Status != payments.PreauthRejected || refused.ErrorDetail == nil || refused.ErrorDetail.Code != payments.ConsentRejected {
		t.Fatalf("refused: %+v", refused)
	}
	blocked := w.approved(payer.CPFAccountBlocked, nil, w.recipient)
	if blocked.Status != payments.PreauthError || blocked.ErrorDetail == nil || blocked.ErrorDetail.Code != "ACCOUNT_BLOCKED" {
		t.Fatalf("blocked account: %+v", blocked)
	}
	completed, failed := w.events(w.client, "smart_transfer_preauthorization/completed"), w.events(w.client, "smart_transfer_preauthorization/error")
	if len(completed) != 1 || completed[0].Payload["preauthorizationId"] != ok.ID.String() || completed[0].Payload["clientPreauthorizationId"] != "pre-1" || len(failed) != 2 {
		t.Fatalf("events: %d completed, %d error", len(completed), len(failed))
	}

	_, err = w.pay.RevokePreauthorization(w.ctx, refused.ID)
	wantCode(t, err, model.CodeSmartTransferNotRevocable)
	waiting := must(w.preauth(happyCPF, nil, w.recipient))(t)
	_, err = w.transfer(waiting.ID, w.recipient, 1)
	wantCode(t, err, model.CodeSmartTransferPreauthorizationInactive)
	if r := must(w.pay.RevokePreauthorization(w.ctx, waiting.ID))(t); r.Status != payments.PreauthRevoked {
		t.Fatalf("revoked before the payer decided: %s", r.Status)
	}
	_, err = w.pay.DecidePreauthorizationForPayer(w.ctx, waiting.ID, true)
	wantCode(t, err, model.CodeSmartTransferPreauthorizationDecided)
	must(w.pay.RevokePreauthorizationForPayer(w.ctx, ok.ID))(t)
	_, err = w.transfer(ok.ID, w.recipient, 1)
	wantCode(t, err, model.CodeSmartTransferPreauthorizationInactive)
	if pg, _ := w.pay.Preauthorizations(w.ctx, nil, ptr(10)); pg.Total != 4 || pg.Results[0].ID != ok.ID {
		t.Fatalf("pre-authorizations, oldest first: %+v", pg)
	}
}

// Payments under a pre-authorization go to its recipients only, within every limit
// (per transaction, and what was spent in the period), settle step by step with their
// event, and move the money once from the payers to the payees.
func TestSmartTransferPaymentsStayWithinTheLimits(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	other := w.bankRecipient(w.client, "Outra", "52998224725", false).ID.String()
	pre := w.approved(happyCPF, &model.SmartTransferLimits{Transaction: ptr(50.0), Daily: ptr(80.0)}, w.recipient)
	for name, in := range map[string]model.SmartTransferPaymentInput{
		"no pre-authorization":  {RecipientID: ptr(w.recipient), Amount: ptr(1.0)},
		"bad pre-authorization": {PreauthorizationID: ptr("x"), RecipientID: ptr(w.recipient), Amount: ptr(1.0)},
		"no recipient":          {PreauthorizationID: ptr(pre.ID.String()), Amount: ptr(1.0)},
		"bad recipient":         {PreauthorizationID: ptr(pre.ID.String()), RecipientID: ptr("x"), Amount: ptr(1.0)},
		"no amount":             {PreauthorizationID: ptr(pre.ID.String()), RecipientID: ptr(w.recipient)},
		"long description":      {PreauthorizationID: ptr(pre.ID.String()), RecipientID: ptr(w.recipient), Amount: ptr(1.0), Description: ptr(strings.Repeat("d", 141))},
		"long client id":        {PreauthorizationID: ptr(pre.ID.String()), RecipientID: ptr(w.recipient), Amount: ptr(1.0), ClientPaymentID: ptr(strings.Repeat("c", 101))},
	} {
		_, err := w.pay.CreateSmartTransferPayment(w.ctx, in)
		t.Run(name, func(t *testing.T) { wantCode(t, err, model.CodeInvalidParameter) })
	}
	_, err := w.transfer(uuid.New(), w.recipient, 1)
	wantCode(t, err, model.CodeSmartTransferPreauthorizationNotFound)
	_, err = w.transfer(pre.ID, other, 1)
	wantCode(t, err, model.CodeSmartTransferRecipientNotAllowed)
	_, err = w.transfer(pre.ID, w.recipient, 50.01)
	if e := wantCode(t, err, model.CodeSmartTransferLimitExceeded); !strings.Contains(e.Message, "per-transaction") {
		t.Fatalf("refusal names the wrong limit: %s", e.Message)
	}

	first := must(w.transfer(pre.ID, w.recipient, 50))(t)
	if first.Status != payments.PaymentPending || first.Recipient == nil || first.Recipient.ID.String() != w.recipient {
		t.Fatalf("accepted payment: %+v", first)
	}
	_, err = w.transfer(pre.ID, w.recipient, 30.01)
	if e := wantCode(t, err, model.CodeSmartTransferLimitExceeded); !strings.Contains(e.Message, "daily") || !strings.Contains(e.Message, "30.00 is left") {
		t.Fatalf("daily refusal: %s", e.Message)
	}
	second := must(w.transfer(pre.ID, w.recipient, 30))(t)
	w.awaitTransfer(first.ID, payments.PaymentCompleted)
	w.awaitTransfer(second.ID, payments.PaymentCompleted)
	done := w.events(w.client, "smart_transfer_payment/completed")
	if len(done) != 2 || done[0].Payload["clientPaymentId"] != "tr-1" {
		t.Fatalf("completed events: %d", len(done))
	}
	w.wantBalance(ledger.Payees, 8000)
	w.wantBalance(ledger.Payers, -8000)
	_, err = w.pay.SmartTransferPayment(w.as(w.newClient("stranger")), first.ID)
	wantCode(t, err, model.CodeSmartTransferPaymentNotFound)
}

// The sandbox payers' payments are rejected where their scenario says, with the error
// event; a rejected payment moved no money and counts against no limit.
func TestRejectedSmartTransferPaymentsCountAgainstNoLimit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	poor := w.approved(payer.CPFInsufficientFunds, &model.SmartTransferLimits{Total: ptr(10.0)}, w.recipient)
	a := must(w.transfer(poor.ID, w.recipient, 10))(t)
	if got := w.awaitTransfer(a.ID, payments.PaymentRejected); got.ErrorDetail == nil || got.ErrorDetail.Code != "INSUFFICIENT_FUNDS" {
		t.Fatalf("insufficient funds: %+v", got.ErrorDetail)
	}
	b := must(w.transfer(poor.ID, w.recipient, 10))(t) // the total of 10 is still whole
	w.awaitTransfer(b.ID, payments.PaymentRejected)

	failing := w.approved(payer.CPFSettlementFailure, nil, w.recipient)
	c := must(w.transfer(failing.ID, w.recipient, 5))(t)
	if got := w.awaitTransfer(c.ID, payments.PaymentRejected); got.ErrorDetail == nil || got.ErrorDetail.Code != "SETTLEMENT_FAILED" {
		t.Fatalf("settlement failure: %+v", got.ErrorDetail)
	}
	if errs := w.events(w.client, "smart_transfer_payment/error"); len(errs) != 3 {
		t.Fatalf("%d error events, want 3", len(errs))
	}
	w.wantBalance(ledger.Payees, 0)
}
