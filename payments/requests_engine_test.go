package payments_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/ledger"
	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// A request needs an amount in whole cents and somewhere for the money to go: the
// recipient named, or else the application's default one; each field's limits are refused
// with the code that names the fault, and nothing is written by a refused create.
func TestCreateRequestRefusesBadInputAndFallsBackToTheDefaultRecipient(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	other := w.newClient("no default recipient")
	otherRecipient := w.bankRecipient(other, "Outra Loja", "11222333000181", false)

	cases := []struct {
		name   string
		client uuid.UUID
		in     model.PaymentRequestInput
		code   model.Code
	}{
		{"no amount", w.client, model.PaymentRequestInput{}, model.CodeInvalidParameter},
		{"a tenth of a cent", w.client, model.PaymentRequestInput{Amount: ptr(10.001)}, model.CodeInvalidParameter},
		{"zero", w.client, model.PaymentRequestInput{Amount: ptr(0.0)}, model.CodeInvalidParameter},
		{"above the maximum", w.client, model.PaymentRequestInput{Amount: ptr(float64(payments.MaxAmount) + 1)}, model.CodeInvalidParameter},
		{"description over 140", w.client, model.PaymentRequestInput{Amount: ptr(5.0), Description: ptr(strings.Repeat("x", 141))}, model.CodeInvalidParameter},
		{"clientPaymentId over 100", w.client, model.PaymentRequestInput{Amount: ptr(5.0), ClientPaymentID: ptr(strings.Repeat("x", 101))}, model.CodeInvalidParameter},
		{"callback not a URL", w.client, model.PaymentRequestInput{Amount: ptr(5.0), CallbackUrls: &model.CallbackURLs{Success: ptr("javascript:alert(1)")}}, model.CodeInvalidParameter},
		{"plain http webhook", w.client, model.PaymentRequestInput{Amount: ptr(5.0), WebhookURL: ptr("http://example.com/hook")}, model.CodeInvalidParameter},
		{"recipient not an id", w.client, model.PaymentRequestInput{Amount: ptr(5.0), RecipientID: ptr("nope")}, model.CodeInvalidParameter},
		{"unknown recipient", w.client, model.PaymentRequestInput{Amount: ptr(5.0), RecipientID: ptr(uuid.NewString())}, model.CodePaymentRecipientNotFound},
		{"another application's recipient", w.client, model.PaymentRequestInput{Amount: ptr(5.0), RecipientID: ptr(otherRecipient.ID.String())}, model.CodePaymentRecipientNotFound},
		{"unknown customer", w.client, model.PaymentRequestInput{Amount: ptr(5.0), CustomerID: ptr(uuid.NewString())}, model.CodePaymentCustomerNotFound},
		{"no default recipient", other, model.PaymentRequestInput{Amount: ptr(5.0)}, model.CodeInvalidParameter},
		{"smart account and recipient", w.client, model.PaymentRequestInput{Amount: ptr(5.0), RecipientID: ptr(w.recipient), SmartAccountID: ptr(uuid.NewString())}, model.CodeInvalidParameter},
		{"unknown smart account", w.client, model.PaymentRequestInput{Amount: ptr(5.0), SmartAccountID: ptr(uuid.NewString())}, model.CodeSmartAccountNotFound},
		{"bad schedule", w.client, model.PaymentRequestInput{Amount: ptr(5.0), Schedule: &model.PaymentSchedule{Type: "SINGLE", Date: ptr(spDay(0))}}, model.CodeInvalidSchedule},
	}
	for _, c := range cases {
		_, err := w.pay.CreateRequest(w.as(c.client), c.in)
		t.Run(c.name, func(t *testing.T) { wantCode(t, err, c.code) })
	}
	for _, c := range []uuid.UUID{w.client, other} {
		if pg, err := w.pay.Requests(w.as(c), nil, ptr(10), nil, nil); err != nil || pg.Total != 0 || len(pg.Results) != 0 {
			t.Fatalf("refused creates wrote requests: %+v (%v)", pg, err)
		}
	}

	p := must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(12.34), Description: ptr("Pedido 1"),
		ClientPaymentID: ptr("order-1"), IsSandbox: ptr(true), CallbackUrls: &model.CallbackURLs{Success: ptr("https://shop.example.com/ok")}}))(t)
	if p.Status != payments.Created || p.Amount == nil || *p.Amount != 12.34 || p.Recipient == nil || p.Recipient.ID.String() != w.recipient ||
		p.Fees != 0 || !p.IsSandbox || *p.ClientPaymentID != "order-1" || !strings.HasSuffix(p.PaymentURL, "/payments/pay/"+p.ID.String()) {
		t.Fatalf("created request: %+v", p)
	}
	if got := must(w.pay.Request(w.ctx, p.ID))(t); got.Recipient.Name != "Loja Exemplo Ltda" || *got.Description != "Pedido 1" {
		t.Fatalf("read back: %+v", got)
	}
	_, err := w.pay.Request(w.as(other), p.ID)
	wantCode(t, err, model.CodePaymentRequestNotFound)
}

// Fees are the application's PIX price (a fixed part plus a percentage, exact to the cent,
// half a cent up), none in the sandbox; a change of amount reprices the request, and the
// fee is charged to the application in the ledger when the payment completes.
func TestRequestFeesFollowTheApplicationsPixPricingAndPostOnCompletion(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	if err := w.env.DB.SetClientPaymentPricing(w.ctx, w.client, map[string]db.PaymentPrice{"PIX": {Fixed: 0.5, Percent: 1}}); err != nil {
		t.Fatal(err)
	}
	live := must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(14.5)}))(t)
	if live.Fees != 0.65 { // 0.145 rounds up to 0.15, plus 0.50
		t.Fatalf("fees of R$ 14.50 at 0.50 + 1%%: %v, want 0.65", live.Fees)
	}
	sandbox := w.request(14.5)
	if sandbox.Fees != 0 {
		t.Fatalf("a sandbox request has fees %v", sandbox.Fees)
	}
	live = must(w.pay.UpdateRequest(w.ctx, live.ID, model.PaymentRequestInput{Amount: ptr(100.0)}))(t)
	if live.Fees != 1.5 || *live.Amount != 100 {
		t.Fatalf("repriced: amount %v fees %v, want 100 and 1.5", *live.Amount, live.Fees)
	}

	n := w.intent(live.ID, happyCPF)
	must(w.pay.DecideForPayer(w.ctx, n.ID, true))(t)
	w.awaitRequest(live.ID, payments.Completed)
	w.wantBalance(ledger.Fees, 150)
	w.wantBalance(ledger.Client(w.client), -150)
	w.wantBalance(ledger.Payees, 10000)
	w.env.AuditLedger(t)
}

// Only a CREATED request with no attempt under way changes; what it was created as
// (sandbox, smart account, boleto) never does, and another application's id is not found
// whatever the body says.
func TestUpdateRequestChangesOnlyACreatedRequest(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	second := w.bankRecipient(w.client, "Segunda Loja", "11444777000161", false)
	p := w.request(10)

	up := must(w.pay.UpdateRequest(w.ctx, p.ID, model.PaymentRequestInput{Amount: ptr(11.5), Description: ptr("novo"),
		RecipientID: ptr(second.ID.String()), WebhookURL: ptr("https://hooks.example.com/p")}))(t)
	if *up.Amount != 11.5 || *up.Description != "novo" || up.Recipient.ID != second.ID || *up.WebhookURL != "https://hooks.example.com/p" {
		t.Fatalf("updated: %+v", up)
	}
	if up = must(w.pay.UpdateRequest(w.ctx, p.ID, model.PaymentRequestInput{WebhookURL: ptr("")}))(t); up.WebhookURL != nil {
		t.Fatalf("an empty webhookUrl left %q", *up.WebhookURL)
	}

	for name, in := range map[string]model.PaymentRequestInput{
		"isSandbox":    {IsSandbox: ptr(false)},
		"smartAccount": {SmartAccountID: ptr(uuid.NewString())},
		"boleto":       {Boleto: &model.BoletoPaymentInput{DigitableLine: ptr("00190500954014481606906809350314337370000000100")}},
		"bad amount":   {Amount: ptr(-1.0)},
	} {
		_, err := w.pay.UpdateRequest(w.ctx, p.ID, in)
		t.Run(name, func(t *testing.T) { wantCode(t, err, model.CodeInvalidParameter) })
	}
	_, err := w.pay.UpdateRequest(w.as(w.newClient("stranger")), p.ID, model.PaymentRequestInput{IsSandbox: ptr(false)})
	wantCode(t, err, model.CodePaymentRequestNotFound)

	w.intent(p.ID, happyCPF)
	_, err = w.pay.UpdateRequest(w.ctx, p.ID, model.PaymentRequestInput{Amount: ptr(1.0)})
	wantCode(t, err, model.CodePaymentRequestNotEditable)
	if got := must(w.pay.Request(w.ctx, p.ID))(t); *got.Amount != 11.5 || got.Status != payments.WaitingPayerAuthorization {
		t.Fatalf("after a refused change: %v %s", *got.Amount, got.Status)
	}
}

// Deleting cancels: a CREATED request goes CANCELED (with its event) and is gone from
// reads; an attempt waiting for the payer is canceled with it; a request whose money moved
// is not deleted.
func TestDeleteRequestCancelsAWaitingAttemptButNotAPayment(t *testing.T) {
	t.Parallel()
	w := newWorld(t)

	idle := w.request(5)
	gone := must(w.pay.DeleteRequest(w.ctx, idle.ID))(t)
	if gone.Status != payments.Canceled {
		t.Fatalf("deleted request answered %s", gone.Status)
	}
	_, err := w.pay.Request(w.ctx, idle.ID)
	wantCode(t, err, model.CodePaymentRequestNotFound)
	_, err = w.pay.DeleteRequest(w.ctx, idle.ID)
	wantCode(t, err, model.CodePaymentRequestNotFound)
	if ev := w.requestEvents(idle.ID); strings.Join(ev, " ") != "payment_request/updated" {
		t.Fatalf("events of a deleted request: %v", ev)
	}

	waiting := w.request(6)
	n := w.intent(waiting.ID, happyCPF)
	must(w.pay.DeleteRequest(w.ctx, waiting.ID))(t)
	got := must(w.pay.Intent(w.ctx, n.ID))(t)
	if got.Status != payments.IntentCanceled || got.ErrorDetail == nil || got.ErrorDetail.Code != "CANCELED" {
		t.Fatalf("the waiting attempt of a deleted request: %s %+v", got.Status, got.ErrorDetail)
	}
	_, err = w.pay.DecideForPayer(w.ctx, n.ID, true)
	wantCode(t, err, model.CodePaymentRequestNotFound)

	done := w.paid(7)
	_, err = w.pay.DeleteRequest(w.ctx, done.ID)
	wantCode(t, err, model.CodePaymentRequestNotEditable)
	if got := must(w.pay.Request(w.ctx, done.ID))(t); got.Status != payments.Completed {
		t.Fatalf("a paid request after a refused delete: %s", got.Status)
	}
}

// Lists are newest first, bounded by the creation window, and count the whole window.
func TestRequestsListNewestFirstWithinTheWindow(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	customer := must(w.pay.CreateCustomer(w.ctx, model.PaymentCustomerInput{Type: ptr("INDIVIDUAL"), Name: ptr("Ana"), Cpf: ptr(happyCPF)}))(t)
	var ids []uuid.UUID
	for i := range 3 {
		p := must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(float64(i + 1)), IsSandbox: ptr(true), CustomerID: ptr(customer.ID.String())}))(t)
		ids = append(ids, p.ID)
	}
	pg, err := w.pay.Requests(w.ctx, nil, ptr(2), nil, nil)
	if err != nil || pg.Total != 3 || pg.TotalPages != 2 || len(pg.Results) != 2 || pg.Results[0].ID != ids[2] || pg.Results[1].ID != ids[1] {
		t.Fatalf("first page: %+v (%v)", pg, err)
	}
	list := pg.Results
	if list[0].Customer == nil || list[0].Customer.ID != customer.ID || list[0].Recipient == nil {
		t.Fatalf("a listed request lacks its parties: %+v", list[0])
	}
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	if pg, _ = w.pay.Requests(w.ctx, nil, nil, &future, nil); pg.Total != 0 || len(pg.Results) != 0 {
		t.Fatalf("requests created after the future: %+v", pg)
	}
	if pg, _ = w.pay.Requests(w.ctx, ptr(2), ptr(2), nil, nil); pg.Total != 3 || len(pg.Results) != 1 || pg.Results[0].ID != ids[0] {
		t.Fatalf("last page: %+v", pg)
	}
	_, err = w.pay.Requests(w.ctx, nil, nil, ptr("not a date"), nil)
	wantCode(t, err, model.CodeInvalidParameter)
	_, err = w.pay.Requests(w.ctx, ptr(0), nil, nil, nil)
	wantCode(t, err, model.CodeInvalidParameter)
	_, err = w.pay.Requests(context.Background(), nil, nil, nil, nil)
	wantCode(t, err, model.CodeAPIKeyMissing)
}

// A request nobody pays expires after RequestExpiry, with its event; one a payer is at is
// left to the payer; an expired request takes no attempt.
func TestRequestExpiresUnlessAPayerIsAtIt(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(s *testsupport.Setup) { s.Payments.RequestExpiry = time.Second })
	idle := w.request(5)
	busy := w.request(6)
	w.intent(busy.ID, happyCPF)
	w.awaitRequest(idle.ID, payments.Expired)
	found := false
	for _, e := range w.events(w.client, "payment_request/updated") {
		found = found || e.Payload["paymentRequestId"] == idle.ID.String() && e.Payload["status"] == payments.Expired && e.Payload["triggeredBy"] == payments.ByInternal
	}
	if !found {
		t.Fatal("no payment_request/updated event says the request EXPIRED")
	}
	// The busy request's expiry job ran too (same delay): it left the request alone.
	testsupport.Eventually(t, "the busy request's expiry job to run", wait, func() bool {
		var left int
		err := w.env.DB.Pool.QueryRow(w.ctx, `SELECT count(*) FROM river_job WHERE kind = 'payment_request_expiry' AND state <> 'completed'`).Scan(&left)
		return err == nil && left == 0
	})
	if got := must(w.pay.Request(w.ctx, busy.ID))(t); got.Status != payments.WaitingPayerAuthorization {
		t.Fatalf("a request being paid became %s", got.Status)
	}
	_, err := w.startIntent(idle.ID, happyCPF)
	wantCode(t, err, model.CodePaymentRequestNotAvailable)
	_, err = w.pay.DeleteRequest(w.ctx, idle.ID)
	if err != nil {
		t.Fatalf("an EXPIRED request is deleted: %v", err)
	}
}

// A request made from a pasted PIX BR Code takes the code's amount, receiver and
// description; a code without an amount, or not a code, is refused; its amount and
// receiver never change, and a PIX attempt pays the very code pasted.
func TestPixQrRequestKeepsTheCodesAmountAndReceiver(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	code := payments.BRCode{Key: "ana@example.com", Amount: 23.45, MerchantName: "ANA DOCES", MerchantCity: "RECIFE", TxID: "PEDIDO42", Description: "Bolo"}.Encode()
	for name, c := range map[string]struct {
		code *string
		want model.Code
	}{
		"no code":      {nil, model.CodeInvalidParameter},
		"not a code":   {ptr("hello"), model.CodeInvalidPixQrCode},
		"no amount":    {ptr(payments.BRCode{Key: "ana@example.com", MerchantName: "ANA", MerchantCity: "RECIFE", TxID: "***"}.Encode()), model.CodeInvalidPixQrCode},
		"bad CRC":      {ptr(code[:len(code)-4] + "0000"), model.CodeInvalidPixQrCode},
		"over the max": {ptr(payments.BRCode{Key: "ana@example.com", Amount: 2_000_000_000, MerchantName: "ANA", MerchantCity: "RECIFE", TxID: "***"}.Encode()), model.CodeInvalidParameter},
	} {
		_, err := w.pay.CreateRequestFromPixQr(w.ctx, model.PixQrPaymentRequestInput{PixQrCode: c.code})
		t.Run(name, func(t *testing.T) { wantCode(t, err, c.want) })
	}

	p := must(w.pay.CreateRequestFromPixQr(w.ctx, model.PixQrPaymentRequestInput{PixQrCode: ptr(" " + code + " "), IsSandbox: ptr(true)}))(t)
	if *p.Amount != 23.45 || *p.Description != "Bolo" || p.PixQrCode == nil || p.PixQrCode.Payload != code || *p.PixQrCode.TransactionID != "PEDIDO42" ||
		p.Recipient == nil || p.Recipient.Type != "PIX_QR_CODE" || p.Recipient.Name != "ANA DOCES" || *p.Recipient.PixKey != "ana@example.com" {
		t.Fatalf("request from a PIX code: %+v", p)
	}
	for name, in := range map[string]model.PaymentRequestInput{"amount": {Amount: ptr(1.0)}, "recipient": {RecipientID: ptr(w.recipient)}} {
		_, err := w.pay.UpdateRequest(w.ctx, p.ID, in)
		t.Run("change "+name, func(t *testing.T) { wantCode(t, err, model.CodeInvalidParameter) })
	}
	n := must(w.pay.CreateIntent(w.ctx, model.PaymentIntentInput{PaymentRequestID: ptr(p.ID.String()), ConnectorID: ptr(payConnector),
		Parameters: &model.PaymentPayerInput{Cpf: ptr(happyCPF)}, PaymentMethod: ptr("PIX")}))(t)
	if n.PixData == nil || n.PixData.Value != code {
		t.Fatalf("a PIX attempt pays %v, not the pasted code", n.PixData)
	}
	must(w.pay.DecideForPayer(w.ctx, n.ID, true))(t)
	w.awaitRequest(p.ID, payments.Completed)
	w.wantBalance(ledger.Payees, 2345)
}

// The engine decides who may call it: no credential is a 401, a Connect Token a 403 (a
// token reaches only the Connect flow), and an API key acts for its own application only.
func TestOperationsCheckTheCaller(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.request(5)
	token := auth.WithResult(context.Background(), &auth.Principal{ClientID: w.client, Kind: auth.KindConnectToken}, nil)
	refused := auth.WithResult(context.Background(), nil, model.Fail(model.CodeAPIKeyExpired, "expired"))
	for _, c := range []struct {
		ctx  context.Context
		code model.Code
	}{{context.Background(), model.CodeAPIKeyMissing}, {token, model.CodeForbidden}, {refused, model.CodeAPIKeyExpired}} {
		_, err := w.pay.Request(c.ctx, p.ID)
		wantCode(t, err, c.code)
		_, err = w.pay.Requests(c.ctx, ptr(0), nil, nil, nil) // the credential before the arguments
		wantCode(t, err, c.code)
		_, err = w.pay.CreateRequest(c.ctx, model.PaymentRequestInput{Amount: ptr(1.0)})
		wantCode(t, err, c.code)
		_, err = w.pay.Institutions(c.ctx, nil, nil, nil)
		wantCode(t, err, c.code)
		_, err = w.pay.IntentsOfRequests(c.ctx, []*model.PaymentRequest{p})
		wantCode(t, err, c.code)
	}
	_, err := w.pay.Request(w.as(w.newClient("stranger")), p.ID)
	wantCode(t, err, model.CodePaymentRequestNotFound)
}
