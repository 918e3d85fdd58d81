package payments_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/ledger"
	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// publishedLine is a bank's published boleto (Banco do Brasil, R$ 1,00): another bank's,
// so this service only pays it.
const publishedLine = "00190.50095 40144.816069 06809.350314 3 37370000000100"

func (w *world) boletoRequest(client uuid.UUID, line string, in model.PaymentRequestInput) (*model.PaymentRequest, error) {
	in.Boleto = &model.BoletoPaymentInput{DigitableLine: ptr(line)}
	in.IsSandbox = ptr(true)
	return w.pay.CreateRequest(w.as(client), in)
}

// A request paying a line of this service claims its boleto: the amount is the line's, a
// second request for it is refused (naming the holder to its own application only), and
// paying the request pays the boleto once, into its issuer's account. Another bank's line
// is simply paid.
func TestRequestPayingAnOwnBoletoHoldsItUntilPaid(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	conn := must(w.pay.CreateBoletoConnection(w.ctx, ptr(w.boletoItem().String())))(t).ID
	b := w.boleto(conn, "R1", 55, 5)

	cases := []struct {
		name string
		line string
		in   model.PaymentRequestInput
		code model.Code
	}{
		{"no line", " ", model.PaymentRequestInput{}, model.CodeInvalidParameter},
		{"garbage line", "1234", model.PaymentRequestInput{}, model.CodeInvalidDigitableLine},
		{"another amount", b.DigitableLine, model.PaymentRequestInput{Amount: ptr(54.99)}, model.CodeInvalidParameter},
		{"and a recipient", b.DigitableLine, model.PaymentRequestInput{RecipientID: ptr(w.recipient)}, model.CodeInvalidParameter},
		{"and a smart account", b.DigitableLine, model.PaymentRequestInput{SmartAccountID: ptr(uuid.NewString())}, model.CodeInvalidParameter},
		{"paid daily", b.DigitableLine, model.PaymentRequestInput{Schedule: &model.PaymentSchedule{Type: "DAILY", StartDate: ptr(spDay(1)), Occurrences: ptr(2)}}, model.CodeInvalidSchedule},
		{"own bank, no such boleto", payments.BoletoCode{Bank: "955", Factor: payments.DueFactor(time.Now()), Cents: 5500, FreeField: strings.Repeat("0", 25)}.Line(),
			model.PaymentRequestInput{}, model.CodeInvalidDigitableLine},
	}
	for _, c := range cases {
		_, err := w.boletoRequest(w.client, c.line, c.in)
		t.Run(c.name, func(t *testing.T) { wantCode(t, err, c.code) })
	}

	p := must(w.boletoRequest(w.client, b.DigitableLine, model.PaymentRequestInput{}))(t)
	if *p.Amount != 55 || p.Recipient == nil || p.Recipient.Type != "BOLETO" || p.Boleto == nil || !strings.Contains(string(*p.Boleto), b.Barcode) {
		t.Fatalf("request paying a boleto: %+v", p)
	}
	_, err := w.boletoRequest(w.client, b.Barcode, model.PaymentRequestInput{})
	if e := wantCode(t, err, model.CodeBoletoBeingPaid); e.Data.(map[string]string)["paymentRequestId"] != p.ID.String() {
		t.Fatalf("the holder is not named to its own application: %v", e.Data)
	}
	_, err = w.boletoRequest(w.newClient("stranger"), b.DigitableLine, model.PaymentRequestInput{})
	if e := wantCode(t, err, model.CodeBoletoBeingPaid); e.Data != nil {
		t.Fatalf("another application is told the holder: %v", e.Data)
	}

	n := w.intent(p.ID, happyCPF)
	must(w.pay.DecideForPayer(w.ctx, n.ID, true))(t)
	w.awaitRequest(p.ID, payments.Completed)
	got := must(w.pay.Boleto(w.ctx, b.ID))(t)
	if got.Status != payments.BoletoPaid || *got.PaymentOrigin != "BOLETO" || *got.AmountPaid != 55 {
		t.Fatalf("boleto of a completed request: %s %v %v", got.Status, got.PaymentOrigin, got.AmountPaid)
	}
	w.wantBalance(ledger.Boleto(b.Barcode), 5500)
	_, err = w.boletoRequest(w.client, b.DigitableLine, model.PaymentRequestInput{})
	wantCode(t, err, model.CodeBoletoBeingPaid)

	outside := must(w.boletoRequest(w.client, publishedLine, model.PaymentRequestInput{}))(t)
	if *outside.Amount != 1 || outside.Recipient.Type != "BOLETO" {
		t.Fatalf("request paying another bank's boleto: %+v", outside)
	}
	m := w.intent(outside.ID, happyCPF)
	must(w.pay.DecideForPayer(w.ctx, m.ID, true))(t)
	w.awaitRequest(outside.ID, payments.Completed)
	w.wantBalance(ledger.Boleto("00193373700000001000500940144816060680935031"), 100)
	w.env.AuditLedger(t)
}

// A boleto that can no longer be paid refuses a payer's attempt and a new request for it;
// a request that is over frees its boleto for another.
func TestBoletoNoLongerPayableRefusesTheAttempt(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	conn := must(w.pay.CreateBoletoConnection(w.ctx, ptr(w.boletoItem().String())))(t).ID
	cancelled, freed := w.boleto(conn, "N1", 30, 5), w.boleto(conn, "N2", 31, 5)

	p := must(w.boletoRequest(w.client, cancelled.DigitableLine, model.PaymentRequestInput{}))(t)
	must(w.pay.CancelBoleto(w.ctx, cancelled.ID))(t)
	_, err := w.startIntent(p.ID, happyCPF)
	wantCode(t, err, model.CodeBoletoNotPayable)
	if got := must(w.pay.Request(w.ctx, p.ID))(t); got.Status != payments.Created {
		t.Fatalf("a refused attempt moved the request to %s", got.Status)
	}
	must(w.pay.DeleteRequest(w.ctx, p.ID))(t)
	_, err = w.boletoRequest(w.client, cancelled.DigitableLine, model.PaymentRequestInput{})
	wantCode(t, err, model.CodeBoletoNotPayable)

	first := must(w.boletoRequest(w.client, freed.DigitableLine, model.PaymentRequestInput{}))(t)
	must(w.pay.DeleteRequest(w.ctx, first.ID))(t)
	second := must(w.boletoRequest(w.client, freed.DigitableLine, model.PaymentRequestInput{}))(t)
	if second.Status != payments.Created {
		t.Fatalf("second request for a freed boleto: %s", second.Status)
	}
}

// A boleto cancelled after a payment was authorized fails the payment at settlement and
// nothing is paid: a bulk payment's request gets back what the approval debited from the
// smart account, and a dated payment fails on its date.
func TestBoletoCancelledBeforeSettlementIsNotPaid(t *testing.T) {
	t.Parallel()
	const delay = 2 * time.Second // the window in which the boleto is cancelled
	w := newWorld(t, func(s *testsupport.Setup) {
		s.Payments.StepDelay = delay
		s.Payments.ScheduleAt = func(time.Time) time.Time { return time.Now().Add(delay) }
	})
	conn := must(w.pay.CreateBoletoConnection(w.ctx, ptr(w.boletoItem().String())))(t).ID
	a := w.smartAccount()
	if err := w.env.DB.InTx(w.ctx, func(ctx context.Context, tx *db.Tx) error {
		return ledger.Move(ctx, tx, ledger.Movement{From: ledger.Payers, To: ledger.SmartAccount(a.ID), Cents: 10000,
			Kind: ledger.KindPayment, Reference: "test:fund", At: time.Now()})
	}); err != nil {
		t.Fatal(err)
	}

	bulkBoleto := w.boleto(conn, "X1", 40, 5)
	p := must(w.boletoRequest(w.client, bulkBoleto.DigitableLine, model.PaymentRequestInput{}))(t)
	bulk := must(w.bulk(a, p))(t)
	must(w.pay.DecideBulkPaymentForOwner(w.ctx, bulk.ID, true))(t)
	must(w.pay.CancelBoleto(w.ctx, bulkBoleto.ID))(t)

	datedBoleto := w.boleto(conn, "X2", 45, 5)
	d := must(w.boletoRequest(w.client, datedBoleto.DigitableLine, model.PaymentRequestInput{Schedule: &model.PaymentSchedule{Type: "SINGLE", Date: ptr(spDay(1))}}))(t)
	n := w.intent(d.ID, happyCPF)
	must(w.pay.DecideForPayer(w.ctx, n.ID, true))(t)
	must(w.pay.CancelBoleto(w.ctx, datedBoleto.ID))(t)

	w.awaitBulk(bulk.ID, payments.BulkCompleted)
	got := w.awaitRequest(p.ID, payments.RequestError)
	if got.ErrorDetail == nil || got.ErrorDetail.Code != model.CodeBoletoNotPayable.String() {
		t.Fatalf("bulk payment's request for a cancelled boleto: %+v", got.ErrorDetail)
	}
	w.wantBalance(ledger.SmartAccount(a.ID), 10000)
	w.wantBalance(ledger.Boleto(bulkBoleto.Barcode), 0)

	list := w.awaitSchedules(d.ID, func(l []*model.ScheduledPayment) bool { return count(l, payments.SchedError) == 1 })
	if list[0].ErrorDetail == nil || list[0].ErrorDetail.Code != model.CodeBoletoNotPayable.String() {
		t.Fatalf("dated payment of a cancelled boleto: %+v", list[0].ErrorDetail)
	}
	w.awaitRequest(d.ID, payments.RequestError)
	w.wantBalance(ledger.Boleto(datedBoleto.Barcode), 0)
	w.env.AuditLedger(t)
}
