package payments

import (
	"context"
	"strconv"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/db"
	"ponte/model"
)

// Refunds give back what a COMPLETED request collected, all of it by default or a part,
// as often as something remains. The request goes REFUND_IN_PROGRESS, then, after the
// institution's answer, REFUNDED once everything is back, COMPLETED again after a partial
// refund, or REFUND_ERROR when the institution refuses it (sandbox: a refund whose cents
// are ,99), from which a new refund may be asked. Each move sends
// payment_request/updated. The ledger holds the amount from the start (money.go): a
// request paid into a smart account is refunded only from what the account still holds.

// RefundRequest starts a refund of amount (nil: all that remains).
func (e *Engine) RefundRequest(ctx context.Context, id uuid.UUID, amount *float64) (*model.PaymentRequest, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	var p *db.PaymentRequestRow
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		if p, err = e.lockRequest(ctx, tx, clientID, id); err != nil {
			return err
		}
		if ctx, err = e.onClock(ctx, tx, p); err != nil {
			return err
		}
		if p.Status != Completed && p.Status != RefundError {
			return model.Fail(model.CodePaymentRequestNotRefundable, "Payment request %s is %s; only a COMPLETED one (or one whose refund failed) can be refunded.", id, p.Status)
		}
		remaining := cents(p.Amount) - cents(p.RefundedAmount)
		if remaining <= 0 {
			return model.Fail(model.CodePaymentRequestNotRefundable, "Payment request %s is refunded already.", id)
		}
		want := remaining
		if amount != nil {
			if err := checkAmount("amount", *amount); err != nil {
				return err
			}
			if want = cents(*amount); want > remaining {
				return bad("amount %v is more than what remains to refund (%s).", *amount, reais(remaining))
			}
		}
		return e.startRefund(ctx, tx, p, want, ByClient, true)
	})
	if err != nil {
		return nil, err
	}
	return e.requestView(ctx, p, nil)
}

// startRefund holds want centavos of p and moves it to REFUND_IN_PROGRESS; ask queues the
// institution's answer (a sandbox control move leaves the answer to the next move).
func (e *Engine) startRefund(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, want int64, by string, ask bool) error {
	pending := float64(want) / 100
	refund := uuid.New()
	p.RefundPending, p.RefundPendingID = &pending, &refund
	// Held now: a smart account that has spent what it was paid cannot give it back.
	if err := e.holdRefund(ctx, tx, p, refund, want); err != nil {
		return err
	}
	if err := e.setRequestStatus(ctx, tx, p, RefundInProgress, by); err != nil {
		return err
	}
	if !ask {
		return nil
	}
	_, err := e.insertJob(ctx, tx, RefundStepArgs{RequestID: p.ID}, &river.InsertOpts{Queue: Queue, ScheduledAt: e.now(ctx).Add(e.cfg.StepDelay)})
	return err
}

func reais(cents int64) string { return strconv.FormatFloat(float64(cents)/100, 'f', 2, 64) }

// RefundStepArgs is the payer's institution answering a refund.
type RefundStepArgs struct {
	RequestID uuid.UUID `json:"requestId"`
}

func (RefundStepArgs) Kind() string { return "payment_refund_step" }

func (RefundStepArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{Queue: Queue} }

type refundWorker struct {
	river.WorkerDefaults[RefundStepArgs]
	e *Engine
}

func (w *refundWorker) Work(ctx context.Context, job *river.Job[RefundStepArgs]) error {
	e := w.e
	return e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		p, found, err := tx.PaymentRequest(ctx, uuid.Nil, job.Args.RequestID, true)
		if err != nil || !found || p.Status != RefundInProgress || p.RefundPending == nil {
			return err
		}
		r := Refund{RequestID: p.ID, Amount: cents(*p.RefundPending)}
		if p.RefundPendingID != nil {
			r.RefundID = *p.RefundPendingID
		}
		refused, err := e.cfg.Institution.Refund(ctx, r)
		if err != nil {
			return err
		}
		return e.answerRefund(ctx, tx, p, refused, ByInternal)
	})
}

// answerRefund ends p's pending refund as its institution answered: refused (REFUND_ERROR,
// the hold returned) or paid (REFUNDED when nothing remains, COMPLETED after a part).
func (e *Engine) answerRefund(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, refused *model.PaymentErrorDetail, by string) error {
	pending := cents(*p.RefundPending)
	refund := p.RefundPendingID
	p.RefundPending, p.RefundPendingID = nil, nil
	if refund != nil {
		if err := e.endRefund(ctx, tx, p, *refund, pending, refused == nil); err != nil {
			return err
		}
	}
	if refused != nil {
		p.ErrorDetail = refused
		return e.setRequestStatus(ctx, tx, p, RefundError, by)
	}
	p.RefundedAmount = float64(cents(p.RefundedAmount)+pending) / 100
	to := Completed
	if cents(p.RefundedAmount) >= cents(p.Amount) {
		to = Refunded
	}
	return e.setRequestStatus(ctx, tx, p, to, by)
}
