package payments_test

// The engine's rules tested directly, each test on a service of its own over a fresh
// database (testsupport.New): the engine's methods are called as the resolvers call them,
// and the outcomes read back from the engine and the store (statuses, refusals with their
// codes, ledger balances, recorded events).

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

func TestMain(m *testing.M) { testsupport.Main(m) }

// payConnector is the sandbox connector that initiates payments, smartConnector the one
// that offers smart transfers, retailConnector one that does neither.
const (
	payConnector    = 5
	smartConnector  = 6
	retailConnector = 0
)

// happyCPF is a valid CPF no sandbox scenario claims: its payments go through.
const happyCPF = "11144477735"

// wait bounds every wait on a job: settlement steps run with no pacing in tests.
const wait = 20 * time.Second

func ptr[T any](v T) *T { return &v }

// world is one test's service and the application it acts for, with a default recipient.
type world struct {
	t         *testing.T
	env       *testsupport.Env
	pay       *payments.Engine
	ctx       context.Context
	client    uuid.UUID
	recipient string
}

func newWorld(t *testing.T, options ...testsupport.Option) *world {
	t.Helper()
	env := testsupport.New(t, options...)
	w := &world{t: t, env: env, pay: env.Payments, ctx: context.Background()}
	w.client = w.newClient("payments engine")
	w.ctx = w.as(w.client)
	w.recipient = w.bankRecipient(w.client, "Loja Exemplo Ltda", "11222333000181", true).ID.String()
	return w
}

// newClient creates another application of the same service.
func (w *world) newClient(name string) uuid.UUID {
	w.t.Helper()
	app, _, err := w.env.Auth.NewClient(w.ctx, name)
	if err != nil {
		w.t.Fatalf("create client: %v", err)
	}
	return app.ID
}

// as is a context whose credential is client's API key, as the REST and GraphQL surfaces
// hand the engine after checking the key.
func (w *world) as(client uuid.UUID) context.Context {
	return auth.WithResult(context.Background(), &auth.Principal{ClientID: client, Kind: auth.KindAPIKey}, nil)
}

// institution is the id of a seeded payment institution found by name.
func (w *world) institution(name string) string {
	w.t.Helper()
	page, err := w.pay.Institutions(w.ctx, nil, ptr(10), &name)
	if err != nil || len(page.Results) == 0 {
		w.t.Fatalf("institution %q: %v %v", name, page, err)
	}
	return page.Results[0].ID.String()
}

// bankRecipient adds a bank-account recipient to client.
func (w *world) bankRecipient(client uuid.UUID, name, tax string, isDefault bool) *model.PaymentRecipient {
	w.t.Helper()
	r, err := w.pay.CreateRecipient(w.as(client), model.PaymentRecipientInput{Name: ptr(name), TaxNumber: ptr(tax),
		PaymentInstitutionID: ptr(w.institution("Nubank")), IsDefault: ptr(isDefault),
		Account: &model.PaymentRecipientAccount{Branch: "0001", Number: "1234567-8", Type: "CHECKING_ACCOUNT"}})
	if err != nil {
		w.t.Fatalf("create recipient: %v", err)
	}
	return r
}

// wantCode fails unless err is the service's error of code (not an internal failure).
func wantCode(t *testing.T, err error, code model.Code) *model.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", code)
	}
	e, internal := model.AsError(err)
	if internal {
		t.Fatalf("internal failure %v, want %s", err, code)
	}
	if e.Code != code {
		t.Fatalf("error %s (%s), want %s", e.Code, e.Message, code)
	}
	return e
}

// must(call())(t) is call's value, failing t when call failed.
func must[T any](v T, err error) func(t testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return v
	}
}

// request creates a sandbox request of amount to the default recipient.
func (w *world) request(amount float64) *model.PaymentRequest {
	w.t.Helper()
	return must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(amount), IsSandbox: ptr(true)}))(w.t)
}

// intent starts a payer's attempt on a request with the payment-initiation connector.
func (w *world) intent(requestID uuid.UUID, cpf string) *model.PaymentIntent {
	w.t.Helper()
	return must(w.startIntent(requestID, cpf))(w.t)
}

func (w *world) startIntent(requestID uuid.UUID, cpf string) (*model.PaymentIntent, error) {
	return w.pay.CreateIntent(w.ctx, model.PaymentIntentInput{PaymentRequestID: ptr(requestID.String()), ConnectorID: ptr(payConnector),
		Parameters: &model.PaymentPayerInput{Cpf: ptr(cpf), Name: ptr("Maria Silva")}})
}

// paid takes a request through a payer's authorization to COMPLETED.
func (w *world) paid(amount float64) *model.PaymentRequest {
	w.t.Helper()
	p := w.request(amount)
	n := w.intent(p.ID, happyCPF)
	must(w.pay.DecideForPayer(w.ctx, n.ID, true))(w.t)
	w.awaitIntent(n.ID, payments.PaymentCompleted)
	return w.awaitRequest(p.ID, payments.Completed)
}

func (w *world) awaitIntent(id uuid.UUID, status string) *model.PaymentIntent {
	w.t.Helper()
	var n *model.PaymentIntent
	testsupport.Eventually(w.t, "intent "+id.String()+" "+status, wait, func() bool {
		n = must(w.pay.Intent(w.ctx, id))(w.t)
		return n.Status == status
	})
	return n
}

func (w *world) awaitRequest(id uuid.UUID, status string) *model.PaymentRequest {
	w.t.Helper()
	var p *model.PaymentRequest
	testsupport.Eventually(w.t, "request "+id.String()+" "+status, wait, func() bool {
		p = must(w.pay.Request(w.ctx, id))(w.t)
		return p.Status == status
	})
	return p
}

// events lists the application's recorded events of one name, oldest first.
func (w *world) events(client uuid.UUID, name string) []*db.Event {
	w.t.Helper()
	all := must(w.env.DB.Events(w.ctx, client, nil))(w.t)
	return slices.DeleteFunc(all, func(e *db.Event) bool { return e.Event != name })
}

// requestEvents lists the events of one request, by name, oldest first.
func (w *world) requestEvents(id uuid.UUID) []string {
	w.t.Helper()
	var out []string
	for _, e := range must(w.env.DB.Events(w.ctx, w.client, nil))(w.t) {
		if e.Payload["paymentRequestId"] == id.String() {
			out = append(out, e.Event)
		}
	}
	return out
}

// balance is a ledger account's balance in centavos.
func (w *world) balance(account string) int64 {
	w.t.Helper()
	b, _, err := w.env.DB.Balance(w.ctx, account)
	if err != nil {
		w.t.Fatalf("balance of %s: %v", account, err)
	}
	return b
}

func (w *world) wantBalance(account string, cents int64) {
	w.t.Helper()
	if got := w.balance(account); got != cents {
		w.t.Fatalf("ledger account %s holds %d centavos, want %d", account, got, cents)
	}
}

// history is an intent's status history.
func history(n *model.PaymentIntent) []string {
	var out []string
	for _, s := range n.StatusHistory {
		out = append(out, s.Status)
	}
	return out
}

// spDay is the São Paulo date days from today, as the API writes dates.
func spDay(days int) string {
	return time.Now().In(payments.SaoPaulo).AddDate(0, 0, days).Format(time.DateOnly)
}
