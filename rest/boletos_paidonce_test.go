package rest_test

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ponte/model"
	"ponte/payments"
	"ponte/sandbox/payer"
	"ponte/testsupport"
)

// boletoPayRig issues boletos and pays them by payment requests, as an application would.
type boletoPayRig struct {
	t    *testing.T
	env  *testsupport.Env
	key  string
	conn string
}

func newBoletoPayRig(t *testing.T, env *testsupport.Env, name string) *boletoPayRig {
	key := env.NewClient(t, name).APIKey
	return &boletoPayRig{t: t, env: env, key: key, conn: boletoConnection(t, env, key)}
}

func (r *boletoPayRig) issue(seu string, amount float64) model.Boleto {
	r.t.Helper()
	var b model.Boleto
	r.env.Do(r.t, "POST", "/boletos", r.key, boletoBody(r.conn, seu, amount, spDay(5))).Want(200).JSON(&b)
	return b
}

// pay creates a request paying a line, with the key given (another application's too).
func (r *boletoPayRig) pay(key, line string) *testsupport.Response {
	r.t.Helper()
	return r.env.Do(r.t, "POST", "/payments/requests", key, map[string]any{"boleto": map[string]any{"digitableLine": line}, "isSandbox": true})
}

// start begins a payer's attempt on a request and returns it waiting for the consent.
func (r *boletoPayRig) start(reqID, cpf string) *model.PaymentIntent {
	r.t.Helper()
	var n model.PaymentIntent
	r.env.Do(r.t, "POST", "/payments/intents", r.key, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": cpf}}).Want(200).JSON(&n)
	return &n
}

func (r *boletoPayRig) boleto(id string) model.Boleto {
	r.t.Helper()
	var b model.Boleto
	r.env.Do(r.t, "GET", "/boletos/"+id, r.key, nil).Want(200).JSON(&b)
	return b
}

func (r *boletoPayRig) request(id string) model.PaymentRequest {
	r.t.Helper()
	var p model.PaymentRequest
	r.env.Do(r.t, "GET", "/payments/requests/"+id, r.key, nil).Want(200).JSON(&p)
	return p
}

// heldBy checks a refusal names the request that pays the boleto.
func heldBy(t *testing.T, m map[string]any, reqID string) {
	t.Helper()
	data, _ := m["data"].(map[string]any)
	if data == nil || data["paymentRequestId"] != reqID {
		t.Fatalf("refusal does not name request %s: %v", reqID, m)
	}
}

// Finding 4: one boleto issued here was paid by two requests, and a third request was
// accepted after it was PAID. A boleto is paid by one request at most: a second is refused
// at creation naming the first (in both the line's and the barcode's form, and racing), a
// request that ended without paying frees it, and its PIX code paying it first makes the
// request's payment fail at settlement, paying nothing.
func TestBoletoPaidOnce(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	r := newBoletoPayRig(t, env, "boleto paid once")
	other := env.NewClient(t, "boleto paid once other").APIKey
	being := model.CodeBoletoBeingPaid.String()

	b := r.issue("ONCE-1", 250.4)
	// A line made up with the boleto's nosso número and another amount, its check digits
	// right, names no boleto: it would pay this one for a cent.
	forged, err := payments.ParseBoletoLine(b.DigitableLine)
	if err != nil {
		t.Fatal(err)
	}
	forged.Cents = 1
	r.pay(r.key, forged.Line()).WantError(400, model.CodeInvalidDigitableLine.String())
	first := r.pay(r.key, b.DigitableLine).Want(200).String("id")
	for _, line := range []string{b.DigitableLine, b.Barcode} {
		heldBy(t, r.pay(r.key, line).WantError(409, being), first)
	}
	// Another application is refused the same, without learning the first request's id.
	if m := r.pay(other, b.Barcode).WantError(409, being); m["data"] != nil || strings.Contains(m["message"].(string), first) {
		t.Fatalf("another application's refusal shows the holder: %v", m)
	}
	// A schedule of several dates would pay the boleto several times.
	sched := r.issue("ONCE-S", 12.3)
	env.Do(t, "POST", "/payments/requests", r.key, map[string]any{"boleto": map[string]any{"digitableLine": sched.DigitableLine}, "isSandbox": true,
		"schedule": map[string]any{"type": "DAILY", "startDate": day(1), "occurrences": 3}}).WantError(400, model.CodeInvalidSchedule.String())

	n := r.start(first, happyCPF)
	consent(t, env, n, "authorize")
	awaitIntent(t, env, r.key, n.ID.String(), payments.PaymentCompleted)
	var paid model.Boleto
	testsupport.Eventually(t, "the boleto paid by the first request", 20*time.Second, func() bool {
		paid = r.boleto(b.ID.String())
		return paid.Status == payments.BoletoPaid
	})
	if *paid.AmountPaid != 250.4 || *paid.PaymentOrigin != "BOLETO" {
		t.Fatalf("paid %+v", paid)
	}
	// Once PAID, a third request is refused, naming the request that paid it.
	m := r.pay(r.key, b.DigitableLine).WantError(409, being)
	heldBy(t, m, first)
	if !strings.Contains(m["message"].(string), "was paid") {
		t.Fatalf("message %q", m["message"])
	}

	// Requests racing for one boleto: exactly one is created.
	race := r.issue("ONCE-2", 99.5)
	const racers = 12
	results := make([]*testsupport.Response, racers)
	var wg sync.WaitGroup
	startRace := make(chan struct{})
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-startRace
			results[i] = r.pay(r.key, race.DigitableLine)
		}()
	}
	close(startRace)
	wg.Wait()
	var won []string
	for _, res := range results {
		switch res.Status {
		case 200:
			won = append(won, res.String("id"))
		case 409:
			res.WantError(409, being)
		default:
			t.Fatalf("status %d: %s", res.Status, res.Body)
		}
	}
	if len(won) != 1 {
		t.Fatalf("%d racing requests were created for one boleto, want 1", len(won))
	}

	// A request that ends without paying frees the boleto: deleted, or its payment failed.
	// One given back to its payer (consent refused) still holds it.
	freed := r.issue("ONCE-3", 75.25)
	gone := r.pay(r.key, freed.DigitableLine).Want(200).String("id")
	env.Do(t, "DELETE", "/payments/requests/"+gone, r.key, nil).Want(200)
	failing := r.pay(r.key, freed.DigitableLine).Want(200).String("id")
	n = r.start(failing, payer.CPFInsufficientFunds)
	consent(t, env, n, "authorize")
	awaitIntent(t, env, r.key, n.ID.String(), payments.PaymentRejected)
	if s := r.request(failing).Status; s != payments.RequestError {
		t.Fatalf("request of a rejected payment %s", s)
	}
	again := r.pay(r.key, freed.DigitableLine).Want(200).String("id")
	n = r.start(again, happyCPF)
	consent(t, env, n, "reject")
	if s := r.request(again).Status; s != payments.Created {
		t.Fatalf("request after a refused consent %s", s)
	}
	heldBy(t, r.pay(r.key, freed.DigitableLine).WantError(409, being), again)

	// The boleto's own PIX code pays it while a request's payer is deciding: the request's
	// payment fails at settlement and the boleto stays paid once, by PIX.
	raced := r.issue("ONCE-4", 64.3)
	reqID := r.pay(r.key, raced.DigitableLine).Want(200).String("id")
	n = r.start(reqID, happyCPF)
	env.Do(t, "POST", "/boletos/pix/"+raced.ID.String(), "", nil).Want(200)
	consent(t, env, n, "authorize")
	got := awaitIntent(t, env, r.key, n.ID.String(), payments.PaymentRejected)
	if got.ErrorDetail == nil || got.ErrorDetail.Code != model.CodeBoletoNotPayable.String() || !strings.Contains(got.ErrorDetail.Description, "PAID") ||
		slices.Contains(historyOf(got), payments.PaymentCompleted) {
		t.Fatalf("intent paying a boleto paid meanwhile: %+v %v", got.ErrorDetail, historyOf(got))
	}
	if p := r.request(reqID); p.Status != payments.RequestError || p.ErrorDetail == nil || p.ErrorDetail.Code != model.CodeBoletoNotPayable.String() {
		t.Fatalf("request paying a boleto paid meanwhile: %s %+v", p.Status, p.ErrorDetail)
	}
	if bb := r.boleto(raced.ID.String()); bb.Status != payments.BoletoPaid || *bb.PaymentOrigin != "PIX" || *bb.AmountPaid != 64.3 {
		t.Fatalf("boleto %+v", bb)
	}
}

// Finding 5: a CANCELLED boleto was paid, money moving and the boleto staying CANCELLED.
// A boleto that cannot be paid (cancelled, protested, overdue past the protest delay) is
// refused when a request is created for it, when a payer starts paying, and at
// settlement when it was cancelled after the payer authorized; nothing completes.
func TestCancelledBoletoNotPaid(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t, func(s *testsupport.Setup) {
		// Dated payments run at once, so the scheduled case below settles in the test.
		s.Payments.ScheduleAt = func(time.Time) time.Time { return time.Now() }
	})
	r := newBoletoPayRig(t, env, "cancelled boleto")
	notPayable := model.CodeBoletoNotPayable.String()
	cancel := func(b model.Boleto) {
		t.Helper()
		env.Do(t, "POST", "/boletos/"+b.ID.String()+"/cancel", r.key, nil).Want(200)
	}
	unpaid := func(b model.Boleto) {
		t.Helper()
		if got := r.boleto(b.ID.String()); got.Status != payments.BoletoCancelled || got.AmountPaid != nil || got.PaidAt != nil {
			t.Fatalf("cancelled boleto %+v", got)
		}
	}

	// Cancelled before the request: refused at creation.
	b := r.issue("CAN-1", 40.1)
	cancel(b)
	if m := r.pay(r.key, b.DigitableLine).WantError(409, notPayable); !strings.Contains(m["message"].(string), "CANCELLED") {
		t.Fatalf("message %q", m["message"])
	}

	// Cancelled after the request, before a payer starts: the attempt is refused.
	b = r.issue("CAN-2", 40.2)
	reqID := r.pay(r.key, b.DigitableLine).Want(200).String("id")
	cancel(b)
	env.Do(t, "POST", "/payments/intents", r.key, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).WantError(409, notPayable)
	if s := r.request(reqID).Status; s != payments.Created {
		t.Fatalf("request %s after a refused attempt", s)
	}
	unpaid(b)

	// Cancelled while the payer decides: the payment fails at settlement.
	b = r.issue("CAN-3", 40.3)
	reqID = r.pay(r.key, b.DigitableLine).Want(200).String("id")
	n := r.start(reqID, happyCPF)
	cancel(b)
	consent(t, env, n, "authorize")
	got := awaitIntent(t, env, r.key, n.ID.String(), payments.PaymentRejected)
	if got.ErrorDetail == nil || got.ErrorDetail.Code != notPayable || !strings.Contains(got.ErrorDetail.Description, "CANCELLED") ||
		slices.Contains(historyOf(got), payments.PaymentCompleted) {
		t.Fatalf("intent paying a cancelled boleto: %+v %v", got.ErrorDetail, historyOf(got))
	}
	if p := r.request(reqID); p.Status != payments.RequestError || p.ErrorDetail == nil || p.ErrorDetail.Code != notPayable {
		t.Fatalf("request paying a cancelled boleto: %s %+v", p.Status, p.ErrorDetail)
	}
	unpaid(b)

	// A scheduled payment of a boleto cancelled after the payer authorized fails on its date.
	b = r.issue("CAN-4", 40.4)
	reqID = env.Do(t, "POST", "/payments/requests", r.key, map[string]any{"boleto": map[string]any{"digitableLine": b.DigitableLine}, "isSandbox": true,
		"schedule": map[string]any{"type": "SINGLE", "date": day(3)}}).Want(200).String("id")
	n = r.start(reqID, happyCPF)
	cancel(b)
	consent(t, env, n, "authorize")
	testsupport.Eventually(t, "the scheduled request in ERROR", 20*time.Second, func() bool { return r.request(reqID).Status == payments.RequestError })
	var page model.ScheduledPaymentPage
	env.Do(t, "GET", "/payments/requests/"+reqID+"/schedules", r.key, nil).Want(200).JSON(&page)
	if len(page.Results) != 1 || page.Results[0].Status != payments.SchedError || page.Results[0].ErrorDetail == nil || page.Results[0].ErrorDetail.Code != notPayable {
		t.Fatalf("scheduled payments of a cancelled boleto %+v", page.Results)
	}
	unpaid(b)

	// Protested, and overdue past the protest delay before the daily sweep: not payable,
	// by a request or by its PIX code.
	protested := r.issue("CAN-5", 40.94) // ,94: OVERDUE then PROTESTED by its sandbox payer
	testsupport.Eventually(t, "the boleto protested", 20*time.Second, func() bool { return r.boleto(protested.ID.String()).Status == payments.BoletoProtested })
	r.pay(r.key, protested.DigitableLine).WantError(409, notPayable)
	late := r.issue("CAN-6", 40.6)
	env.Exec(t, `UPDATE boletos SET status = 'OVERDUE', due_date = current_date - 45 WHERE id = $1`, late.ID)
	if m := r.pay(r.key, late.DigitableLine).WantError(409, notPayable); !strings.Contains(m["message"].(string), "protest delay") {
		t.Fatalf("message %q", m["message"])
	}
	env.Do(t, "POST", "/boletos/pix/"+late.ID.String(), "", nil).WantError(409, notPayable)
}
