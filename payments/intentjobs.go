package payments

// The jobs that move an intent without the payer: the settlement steps after an
// authorization, and the time-out of an attempt never authorized.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/db"
	"ponte/model"
)

// StepArgs advances an intent's settlement one step, from the status it names: a copy of
// the job that runs twice finds the intent moved on and does nothing. NotBefore paces the
// payer's institution: the job waits for it itself, since the queue promotes jobs
// scheduled for later only every few seconds.
type StepArgs struct {
	IntentID  uuid.UUID `json:"intentId"`
	From      string    `json:"from"`
	NotBefore time.Time `json:"notBefore"`
}

func (StepArgs) Kind() string { return "payment_intent_step" }

func (e *Engine) nextStep(ctx context.Context, tx *db.Tx, n *db.PaymentIntentRow) error {
	_, err := e.insertJob(ctx, tx, StepArgs{IntentID: n.ID, From: n.Status, NotBefore: e.now(ctx).Add(e.cfg.StepDelay)},
		&river.InsertOpts{Queue: Queue, MaxAttempts: 25})
	return err
}

type stepWorker struct {
	river.WorkerDefaults[StepArgs]
	e *Engine
}

func (w *stepWorker) Work(ctx context.Context, job *river.Job[StepArgs]) error {
	e := w.e
	if wait := time.Until(job.Args.NotBefore); wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		p, n, err := e.lockIntent(ctx, tx, uuid.Nil, job.Args.IntentID)
		var me *model.Error
		if errors.As(err, &me) {
			return nil // the request was deleted: nothing to settle
		}
		if err != nil || n.Status != job.Args.From {
			return err
		}
		switch n.Status {
		case PaymentPending, SettlementProcessing, SettlementDebtorAccount:
		default:
			return nil
		}
		ans, err := e.settle(ctx, attempt(p, n))
		if err != nil {
			return err
		}
		switch ans.Outcome {
		case Reject:
			n.ErrorDetail = ans.Error
			return e.advance(ctx, tx, p, n, PaymentRejected, ByInternal)
		case AwaitSignature:
			// Waits for the second signer; the authorization time-out runs anew.
			n.AuthorizeBy = e.now(ctx).Add(e.cfg.AuthorizationTimeout)
			if err := e.advance(ctx, tx, p, n, PaymentPartiallyAccepted, ByInternal); err != nil {
				return err
			}
			_, err := e.insertJob(ctx, tx, TimeoutArgs{IntentID: n.ID, From: PaymentPartiallyAccepted}, &river.InsertOpts{Queue: Queue, ScheduledAt: n.AuthorizeBy, MaxAttempts: 25})
			return err
		}
		switch n.Status {
		case PaymentPending:
			if err := e.advance(ctx, tx, p, n, SettlementProcessing, ByInternal); err != nil {
				return err
			}
		case SettlementProcessing:
			if err := e.advance(ctx, tx, p, n, SettlementDebtorAccount, ByInternal); err != nil {
				return err
			}
		case SettlementDebtorAccount:
			if d, err := e.ownBoletoSettles(ctx, tx, p); err != nil {
				return err
			} else if d != nil {
				n.ErrorDetail = d
				return e.advance(ctx, tx, p, n, PaymentRejected, ByInternal)
			}
			if n.Debtor, err = e.cfg.Institution.Debtor(ctx, attempt(p, n)); err != nil {
				return err
			}
			return e.advance(ctx, tx, p, n, PaymentCompleted, ByInternal)
		}
		return e.nextStep(ctx, tx, n)
	})
}

// TimeoutArgs ends an attempt the payer did not authorize in time.
type TimeoutArgs struct {
	IntentID uuid.UUID `json:"intentId"`
	From     string    `json:"from,omitempty"`
}

func (TimeoutArgs) Kind() string { return "payment_intent_timeout" }

type timeoutWorker struct {
	river.WorkerDefaults[TimeoutArgs]
	e *Engine
}

func (w *timeoutWorker) Work(ctx context.Context, job *river.Job[TimeoutArgs]) error {
	e := w.e
	return e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		p, n, err := e.lockIntent(ctx, tx, uuid.Nil, job.Args.IntentID)
		var me *model.Error
		if errors.As(err, &me) {
			return nil
		}
		if err != nil {
			return err
		}
		from := job.Args.From
		if from == "" {
			from = ConsentAwaitingAuthorization
		}
		if n.Status != from {
			return nil
		}
		limit := e.cfg.AuthorizationTimeout
		if p.AutomaticPix != nil {
			limit = e.cfg.AutomaticPixTimeout
		}
		n.ErrorDetail = &model.PaymentErrorDetail{Code: PaymentTimeout, Description: fmt.Sprintf("The payer did not authorize the payment within %s.", limit)}
		return e.advance(ctx, tx, p, n, PaymentTimeout, ByInternal)
	})
}
