package payments_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/ledger"
	"ponte/model"
	"ponte/payments"
	"ponte/sandbox/payer"
	"ponte/testsupport"
)

// e2eRE is a PIX end-to-end id: E, an ISPB, yyyyMMddHHmm and 11 characters.
var e2eRE = regexp.MustCompile(`^E\d{8}20\d{10}[A-Z0-9]{11}$`)

// An attempt needs a request of the application, a connector that initiates payments and
// a valid payer document; each fault is refused with its code before anything is written.
func TestCreateIntentRefusesBadInput(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.request(10)
	req := ptr(p.ID.String())
	payer := &model.PaymentPayerInput{Cpf: ptr(happyCPF)}
	cases := []struct {
		name string
		in   model.PaymentIntentInput
		code model.Code
	}{
		{"no request", model.PaymentIntentInput{ConnectorID: ptr(payConnector), Parameters: payer}, model.CodeInvalidParameter},
		{"request not an id", model.PaymentIntentInput{PaymentRequestID: ptr("x"), ConnectorID: ptr(payConnector), Parameters: payer}, model.CodeInvalidParameter},
		{"unknown request", model.PaymentIntentInput{PaymentRequestID: ptr(uuid.NewString()), ConnectorID: ptr(payConnector), Parameters: payer}, model.CodePaymentRequestNotFound},
		{"no connector", model.PaymentIntentInput{PaymentRequestID: req, Parameters: payer}, model.CodeInvalidParameter},
		{"unknown connector", model.PaymentIntentInput{PaymentRequestID: req, ConnectorID: ptr(9999), Parameters: payer}, model.CodeConnectorNotFound},
		{"connector without payments", model.PaymentIntentInput{PaymentRequestID: req, ConnectorID: ptr(retailConnector), Parameters: payer}, model.CodeConnectorNoPayments},
		{"no payer", model.PaymentIntentInput{PaymentRequestID: req, ConnectorID: ptr(payConnector)}, model.CodeInvalidParameter},
		{"bad CPF", model.PaymentIntentInput{PaymentRequestID: req, ConnectorID: ptr(payConnector), Parameters: &model.PaymentPayerInput{Cpf: ptr("11144477736")}}, model.CodeInvalidCPF},
		{"bad CNPJ", model.PaymentIntentInput{PaymentRequestID: req, ConnectorID: ptr(payConnector), Parameters: &model.PaymentPayerInput{Cpf: ptr(happyCPF), Cnpj: ptr("11222333000182")}}, model.CodeInvalidCNPJ},
		{"unknown method", model.PaymentIntentInput{PaymentRequestID: req, ConnectorID: ptr(payConnector), Parameters: payer, PaymentMethod: ptr("TED")}, model.CodeInvalidParameter},
		{"dynamic PIS", model.PaymentIntentInput{PaymentRequestID: req, ConnectorID: ptr(payConnector), Parameters: payer, IsDynamicPix: ptr(true)}, model.CodeInvalidParameter},
		{"dynamic PIX, no customer", model.PaymentIntentInput{PaymentRequestID: req, ConnectorID: ptr(payConnector), Parameters: payer, PaymentMethod: ptr("PIX"), IsDynamicPix: ptr(true)}, model.CodeInvalidParameter},
	}
	for _, c := range cases {
		_, err := w.pay.CreateIntent(w.ctx, c.in)
		t.Run(c.name, func(t *testing.T) { wantCode(t, err, c.code) })
	}
	_, err := w.pay.CreateIntent(w.as(w.newClient("stranger")), model.PaymentIntentInput{PaymentRequestID: req, ConnectorID: ptr(payConnector), Parameters: payer})
	wantCode(t, err, model.CodePaymentRequestNotFound)
	if pg, err := w.pay.Intents(w.ctx, nil, ptr(10), nil, nil, &p.ID); err != nil || pg.Total != 0 || len(pg.Results) != 0 {
		t.Fatalf("refused attempts wrote %+v intents (%v)", pg, err)
	}
	if got := must(w.pay.Request(w.ctx, p.ID))(t); got.Status != payments.Created {
		t.Fatalf("a refused attempt moved the request to %s", got.Status)
	}
}

// Of several attempts racing on one request exactly one proceeds; the others are told the
// request is not available.
func TestOnlyOneAttemptProceedsOnARequest(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.request(10)
	const racers = 6
	errs := make([]error, racers)
	var wg sync.WaitGroup
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = w.startIntent(p.ID, happyCPF)
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		if err == nil {
			won++
			continue
		}
		if e, internal := model.AsError(err); internal || e.Code != model.CodePaymentRequestNotAvailable {
			t.Fatalf("a losing attempt failed with %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d attempts proceeded on one request, want 1", won)
	}
	if pg, _ := w.pay.Intents(w.ctx, nil, ptr(10), nil, nil, &p.ID); pg.Total != 1 {
		t.Fatalf("%+v intents stored", pg)
	}
}

// An authorized payment settles through every step to PAYMENT_COMPLETED, the request
// follows it with its events in order, the payer's account is reported, and the money
// moves once from the payers to the payees. A second answer of the payer changes nothing.
func TestAuthorizedPaymentSettlesStepByStepAndMovesTheMoneyOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.request(12.34)
	n := w.intent(p.ID, happyCPF)
	if n.Status != payments.ConsentAwaitingAuthorization || strings.Join(history(n), " ") != "STARTED ENQUEUED CONSENT_AWAITING_AUTHORIZATION" ||
		n.ReferenceID == nil || !e2eRE.MatchString(*n.ReferenceID) || n.PaymentMethod != "PIS" || n.ConsentURL == nil ||
		!strings.HasSuffix(*n.ConsentURL, "/payments/consent/"+n.ID.String()) || n.PaymentRequest == nil || n.PaymentRequest.ID != p.ID {
		t.Fatalf("new intent: %+v", n)
	}
	if waiting, second := payments.AwaitingPayer(n.Status); !waiting || second {
		t.Fatal("a new intent does not wait for its payer")
	}
	must(w.pay.DecideForPayer(w.ctx, n.ID, true))(t)
	n = w.awaitIntent(n.ID, payments.PaymentCompleted)
	want := "STARTED ENQUEUED CONSENT_AWAITING_AUTHORIZATION CONSENT_AUTHORIZED PAYMENT_PENDING PAYMENT_SETTLEMENT_PROCESSING PAYMENT_SETTLEMENT_DEBTOR_ACCOUNT PAYMENT_COMPLETED"
	if got := strings.Join(history(n), " "); got != want {
		t.Fatalf("history %s, want %s", got, want)
	}
	if d := n.Debtor; d == nil || d.TaxNumber != happyCPF || d.Name != "Maria Silva" || d.Ispb == "" || d.AccountType != "CHECKING_ACCOUNT" {
		t.Fatalf("debtor %+v", n.Debtor)
	}
	w.awaitRequest(p.ID, payments.Completed)
	wantEvents := "payment_intent/created payment_request/updated payment_intent/waiting_payer_authorization payment_request/updated " +
		"payment_request/updated payment_intent/completed payment_request/updated"
	if got := strings.Join(w.requestEvents(p.ID), " "); got != wantEvents {
		t.Fatalf("events %s\nwant %s", got, wantEvents)
	}
	var statuses []any
	for _, e := range w.events(w.client, "payment_request/updated") {
		statuses = append(statuses, e.Payload["status"])
	}
	if !slices.Equal(statuses, []any{payments.InProgress, payments.WaitingPayerAuthorization, payments.InProgress, payments.Completed}) {
		t.Fatalf("request statuses announced: %v", statuses)
	}

	_, err := w.pay.DecideForPayer(w.ctx, n.ID, false)
	e := wantCode(t, err, model.CodeInvalidIntentTransition)
	if d, _ := e.Data.(map[string]string); d["decision"] != "AUTHORIZED" || d["status"] != payments.PaymentCompleted {
		t.Fatalf("second answer's data: %v", e.Data)
	}
	w.wantBalance(ledger.Payers, -1234)
	w.wantBalance(ledger.Payees, 1234)
	w.env.AuditLedger(t)
	_, err = w.startIntent(p.ID, happyCPF)
	wantCode(t, err, model.CodePaymentRequestNotAvailable)
}

// A payer who refuses (here, or in the institution's app after authorizing) ends the
// attempt CONSENT_REJECTED and gives the request back, with the reason, to a new attempt.
func TestPayerRefusalGivesTheRequestBackForANewAttempt(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.request(10)
	first := w.intent(p.ID, happyCPF)
	first = must(w.pay.DecideForPayer(w.ctx, first.ID, false))(t)
	if first.Status != payments.ConsentRejected || first.ErrorDetail == nil || first.ErrorDetail.Code != "REJECTED_BY_USER" {
		t.Fatalf("refused: %s %+v", first.Status, first.ErrorDetail)
	}
	got := must(w.pay.Request(w.ctx, p.ID))(t)
	if got.Status != payments.Created || got.ErrorDetail == nil || got.ErrorDetail.Code != "REJECTED_BY_USER" {
		t.Fatalf("request after a refusal: %s %+v", got.Status, got.ErrorDetail)
	}
	if payments.DecisionOf(first.Status) != "REJECTED" {
		t.Fatalf("decision of %s: %q", first.Status, payments.DecisionOf(first.Status))
	}

	second := w.intent(p.ID, payer.CPFRejectedInApp)
	second = must(w.pay.DecideForPayer(w.ctx, second.ID, true))(t)
	if second.Status != payments.ConsentRejected || second.ErrorDetail == nil || second.ErrorDetail.Detail == nil || *second.ErrorDetail.Detail != "REJEITADO_USUARIO" {
		t.Fatalf("rejected in the app: %s %+v", second.Status, second.ErrorDetail)
	}
	third := w.intent(p.ID, happyCPF)
	if third.Status != payments.ConsentAwaitingAuthorization {
		t.Fatalf("third attempt: %s", third.Status)
	}
	if got := must(w.pay.Request(w.ctx, p.ID))(t); got.ErrorDetail != nil {
		t.Fatalf("a new attempt kept the last one's error: %+v", got.ErrorDetail)
	}
	w.wantBalance(ledger.Payers, 0)
}

// The sandbox payers fail where their scenario says: refused before consent (REJECTED,
// request free again), or rejected by the institution after authorization (request in
// ERROR). No money moves for any of them.
func TestSandboxPayersFailWhereTheirScenarioSays(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cases := []struct {
		cpf, code, intent, request, lastStep string
	}{
		{payer.CPFInsufficientFunds, "INSUFFICIENT_FUNDS", payments.PaymentRejected, payments.RequestError, payments.PaymentPending},
		{payer.CPFLimitExceeded, "LIMIT_EXCEEDED", payments.PaymentRejected, payments.RequestError, payments.PaymentPending},
		{payer.CPFSettlementFailure, "SETTLEMENT_FAILED", payments.PaymentRejected, payments.RequestError, payments.SettlementProcessing},
	}
	for _, c := range cases {
		p := w.request(10)
		n := w.intent(p.ID, c.cpf)
		must(w.pay.DecideForPayer(w.ctx, n.ID, true))(t)
		n = w.awaitIntent(n.ID, c.intent)
		h := history(n)
		if n.ErrorDetail == nil || n.ErrorDetail.Code != c.code || len(h) < 2 || h[len(h)-2] != c.lastStep {
			t.Fatalf("payer %s: %+v after %v", c.cpf, n.ErrorDetail, h)
		}
		if got := w.awaitRequest(p.ID, c.request); got.ErrorDetail == nil || got.ErrorDetail.Code != c.code {
			t.Fatalf("payer %s: request error %+v", c.cpf, got.ErrorDetail)
		}
	}

	p := w.request(10)
	n := w.intent(p.ID, payer.CPFAccountBlocked)
	if n.Status != payments.IntentRejected || n.ErrorDetail == nil || n.ErrorDetail.Code != "ACCOUNT_BLOCKED" ||
		strings.Join(history(n), " ") != "STARTED ENQUEUED REJECTED" {
		t.Fatalf("blocked account: %s %+v %v", n.Status, n.ErrorDetail, history(n))
	}
	if got := must(w.pay.Request(w.ctx, p.ID))(t); got.Status != payments.Created {
		t.Fatalf("request after an attempt refused before consent: %s", got.Status)
	}
	_, err := w.pay.DecideForPayer(w.ctx, n.ID, true)
	wantCode(t, err, model.CodeInvalidIntentTransition)
	w.wantBalance(ledger.Payers, 0)
	w.wantBalance(ledger.Payees, 0)
}

// A multi-signature account's payment waits, after the first authorization, for a second
// signer (PAYMENT_PARTIALLY_ACCEPTED, the request waiting again); the second signer's
// authorization completes it and a refusal rejects it.
func TestMultiSignaturePaymentWaitsForTheSecondSigner(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	approved := w.request(10)
	n := w.intent(approved.ID, payer.CPFMultiSignature)
	must(w.pay.DecideForPayer(w.ctx, n.ID, true))(t)
	n = w.awaitIntent(n.ID, payments.PaymentPartiallyAccepted)
	if waiting, second := payments.AwaitingPayer(n.Status); !waiting || !second {
		t.Fatal("a partially accepted payment does not wait for a second signer")
	}
	if got := must(w.pay.Request(w.ctx, approved.ID))(t); got.Status != payments.WaitingPayerAuthorization {
		t.Fatalf("request while the second signer decides: %s", got.Status)
	}
	must(w.pay.DecideForPayer(w.ctx, n.ID, true))(t)
	w.awaitIntent(n.ID, payments.PaymentCompleted)
	w.awaitRequest(approved.ID, payments.Completed)

	refused := w.request(20)
	m := w.intent(refused.ID, payer.CPFMultiSignature)
	must(w.pay.DecideForPayer(w.ctx, m.ID, true))(t)
	w.awaitIntent(m.ID, payments.PaymentPartiallyAccepted)
	m = must(w.pay.DecideForPayer(w.ctx, m.ID, false))(t)
	if m.Status != payments.PaymentRejected || m.ErrorDetail == nil || m.ErrorDetail.Code != "REJECTED_BY_USER" {
		t.Fatalf("second signer's refusal: %s %+v", m.Status, m.ErrorDetail)
	}
	w.awaitRequest(refused.ID, payments.RequestError)
	w.wantBalance(ledger.Payees, 1000)
}

// An attempt the payer does not authorize in time ends PAYMENT_TIMEOUT and frees the
// request; so does a second signer who never answers.
func TestUnauthorizedAttemptTimesOut(t *testing.T) {
	t.Parallel()
	w := newWorld(t, func(s *testsupport.Setup) { s.Payments.AuthorizationTimeout = 2 * time.Second })
	p := w.request(10)
	n := w.intent(p.ID, happyCPF)
	n = w.awaitIntent(n.ID, payments.PaymentTimeout)
	if n.ErrorDetail == nil || n.ErrorDetail.Code != payments.PaymentTimeout || payments.DecisionOf(n.Status) != "EXPIRED" {
		t.Fatalf("timed out: %+v", n.ErrorDetail)
	}
	if got := must(w.pay.Request(w.ctx, p.ID))(t); got.Status != payments.Created {
		t.Fatalf("request after a time-out: %s", got.Status)
	}
	_, err := w.pay.DecideForPayer(w.ctx, n.ID, true)
	wantCode(t, err, model.CodeInvalidIntentTransition)

	multi := w.request(11)
	m := w.intent(multi.ID, payer.CPFMultiSignature)
	must(w.pay.DecideForPayer(w.ctx, m.ID, true))(t)
	m = w.awaitIntent(m.ID, payments.PaymentTimeout)
	if !slices.Contains(history(m), payments.PaymentPartiallyAccepted) {
		t.Fatalf("the second signer's time-out came from %v", history(m))
	}
	w.awaitRequest(multi.ID, payments.Created)
}

// A PIX-method attempt carries a BR Code for the request's amount and recipient; a dynamic
// one points at this service's location, whose charge is ATIVA while it can be paid and
// CONCLUIDA once paid, and which serves only dynamic attempts.
func TestPixAttemptCarriesABRCodeAndADynamicOneALiveCharge(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	static := w.request(12.34)
	n := must(w.pay.CreateIntent(w.ctx, model.PaymentIntentInput{PaymentRequestID: ptr(static.ID.String()), ConnectorID: ptr(payConnector),
		Parameters: &model.PaymentPayerInput{Cpf: ptr(happyCPF)}, PaymentMethod: ptr("pix")}))(t)
	if n.PaymentMethod != "PIX" || n.PixData == nil || !strings.HasPrefix(n.PixData.Qr, "data:image/png;base64,") {
		t.Fatalf("PIX intent: %+v", n)
	}
	code := must(payments.ParseBRCode(n.PixData.Value))(t)
	if code.Dynamic || code.Amount != 12.34 || code.Key != "11222333000181" || code.MerchantName != "Loja Exemplo Ltda" {
		t.Fatalf("static code: %+v", code)
	}
	_, err := w.pay.PixLocation(w.ctx, n.ID)
	wantCode(t, err, model.CodePaymentIntentNotFound)

	customer := must(w.pay.CreateCustomer(w.ctx, model.PaymentCustomerInput{Type: ptr("INDIVIDUAL"), Name: ptr("Ana"), Cpf: ptr("529.982.247-25")}))(t)
	dyn := must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(50.0), IsSandbox: ptr(true),
		CustomerID: ptr(customer.ID.String()), Description: ptr("Mensalidade")}))(t)
	d := must(w.pay.CreateIntent(w.ctx, model.PaymentIntentInput{PaymentRequestID: ptr(dyn.ID.String()), ConnectorID: ptr(payConnector),
		Parameters: &model.PaymentPayerInput{Cpf: ptr(happyCPF)}, PaymentMethod: ptr("PIX"), IsDynamicPix: ptr(true)}))(t)
	code = must(payments.ParseBRCode(d.PixData.Value))(t)
	if !code.Dynamic || !strings.HasSuffix(code.URL, "/payments/pix/"+d.ID.String()) {
		t.Fatalf("dynamic code: %+v", code)
	}
	charge := must(w.pay.PixLocation(w.ctx, d.ID))(t)
	if charge.Status != "ATIVA" || charge.Valor.Original != "50.00" || charge.Chave != "11222333000181" || charge.SolicitacaoPagador != "Mensalidade" {
		t.Fatalf("live charge: %+v", charge)
	}
	must(w.pay.DecideForPayer(w.ctx, d.ID, true))(t)
	w.awaitIntent(d.ID, payments.PaymentCompleted)
	if charge = must(w.pay.PixLocation(w.ctx, d.ID))(t); charge.Status != "CONCLUIDA" {
		t.Fatalf("paid charge: %s", charge.Status)
	}

	ended := must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(5.0), IsSandbox: ptr(true), CustomerID: ptr(customer.ID.String())}))(t)
	e := must(w.pay.CreateIntent(w.ctx, model.PaymentIntentInput{PaymentRequestID: ptr(ended.ID.String()), ConnectorID: ptr(payConnector),
		Parameters: &model.PaymentPayerInput{Cpf: ptr(happyCPF)}, PaymentMethod: ptr("PIX"), IsDynamicPix: ptr(true)}))(t)
	must(w.pay.DecideForPayer(w.ctx, e.ID, false))(t)
	if charge = must(w.pay.PixLocation(w.ctx, e.ID))(t); charge.Status != "REMOVIDA_PELO_PSP" {
		t.Fatalf("charge of a refused attempt: %s", charge.Status)
	}
}

// The reads of attempts: by request, in batches of requests, the payer and application
// behind them, and the institutions a request's payment page offers.
func TestIntentReadsFindAttemptsByRequestAndPayer(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, b := w.request(1), w.request(2)
	a1 := w.intent(a.ID, happyCPF)
	must(w.pay.DecideForPayer(w.ctx, a1.ID, false))(t)
	a2 := w.intent(a.ID, "52998224725")
	b1 := w.intent(b.ID, happyCPF)

	pg, err := w.pay.Intents(w.ctx, nil, ptr(10), nil, nil, &a.ID)
	if err != nil || pg.Total != 2 || len(pg.Results) != 2 || pg.Results[0].ID != a2.ID || pg.Results[1].ID != a1.ID {
		t.Fatalf("intents of a request: %+v (%v)", pg, err)
	}
	if pg, _ = w.pay.Intents(w.ctx, nil, ptr(10), nil, nil, nil); pg.Total != 3 {
		t.Fatalf("all intents: %d", pg.Total)
	}
	byRequest := must(w.pay.IntentsOfRequests(w.ctx, []*model.PaymentRequest{a, b}))(t)
	if len(byRequest[0]) != 2 || len(byRequest[1]) != 1 || byRequest[1][0].ID != b1.ID || byRequest[1][0].PaymentRequest.ID != b.ID {
		t.Fatalf("intents of requests: %v", byRequest)
	}
	// The consent page: no credential, the payer's CPF masked, the request as its payer sees it.
	c := must(w.pay.ConsentForPayer(context.Background(), a2.ID))(t)
	if c.PayerCpf != "529.***.***-25" || !c.CanDecide || c.SecondSigner || c.Decision != nil || c.Intent.ID != a2.ID {
		t.Fatalf("consent page of a waiting intent: %+v", c)
	}
	if c = must(w.pay.ConsentForPayer(context.Background(), a1.ID))(t); c.CanDecide || c.Decision == nil || *c.Decision != model.DecisionRejected {
		t.Fatalf("consent page of a rejected intent: %+v", c)
	}
	_, err = w.pay.ConsentForPayer(context.Background(), uuid.New())
	wantCode(t, err, model.CodePaymentIntentNotFound)
	_, err = w.pay.Intent(w.as(w.newClient("stranger")), a1.ID)
	wantCode(t, err, model.CodePaymentIntentNotFound)
	page := must(w.pay.PaymentPageForPayer(context.Background(), b.ID))(t)
	if page.CanPay || len(page.Connectors) != 0 {
		t.Fatalf("payment page of a request being paid: %+v", page)
	}
	_, err = w.pay.PaymentPageForPayer(context.Background(), uuid.New())
	wantCode(t, err, model.CodePaymentRequestNotFound)
	page = must(w.pay.PaymentPageForPayer(context.Background(), w.request(3).ID))(t)
	conns := page.Connectors
	if !page.CanPay || !slices.ContainsFunc(conns, func(c *model.Connector) bool { return c.ID == payConnector }) ||
		slices.ContainsFunc(conns, func(c *model.Connector) bool { return c.ID == retailConnector }) {
		t.Fatalf("payment page connectors of a sandbox request: %v", conns)
	}
}
