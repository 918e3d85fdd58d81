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
// sandbox institution: the job waits for it itself, since the queue promotes jobs
// scheduled for later only every few seconds.
type StepArgs struct {
	IntentID  uuid.UUID `json:"intentId"`
	From      string    `json:"from"`
	NotBefore time.Time `json:"notBefore"`
}

func (StepArgs) Kind() string { return "payment_intent_step" }

func (e *Engine) nextStep(ctx context.Context, tx *db.Tx, n *db.PaymentIntentRow) error {
	_, err := e.jobs.InsertTx(ctx, tx.PGX, StepArgs{IntentID: n.ID, From: n.Status, NotBefore: e.now().Add(e.cfg.StepDelay)},
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
		fail := func(cpf string) error {
			d := scenarioErrors[cpf]
			n.ErrorDetail = &d
			return e.advance(ctx, tx, p, n, PaymentRejected, ByInternal)
		}
		switch n.Status {
		case PaymentPending:
			switch {
			case n.Payer.Cpf == CPFInsufficientFunds || n.Payer.Cpf == CPFLimitExceeded:
				return fail(n.Payer.Cpf)
			case n.Payer.Cpf == CPFMultiSignature && n.Payer.Signatures < 2:
				// Waits for the second signer; the authorization time-out runs anew.
				n.AuthorizeBy = e.now().Add(e.cfg.AuthorizationTimeout)
				if err := e.advance(ctx, tx, p, n, PaymentPartiallyAccepted, ByInternal); err != nil {
					return err
				}
				_, err := e.jobs.InsertTx(ctx, tx.PGX, TimeoutArgs{IntentID: n.ID, From: PaymentPartiallyAccepted}, &river.InsertOpts{Queue: Queue, ScheduledAt: n.AuthorizeBy, MaxAttempts: 25})
				return err
			}
			if err := e.advance(ctx, tx, p, n, SettlementProcessing, ByInternal); err != nil {
				return err
			}
		case SettlementProcessing:
			if n.Payer.Cpf == CPFSettlementFailure {
				return fail(n.Payer.Cpf)
			}
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
			n.Debtor = e.debtor(ctx, n)
			return e.advance(ctx, tx, p, n, PaymentCompleted, ByInternal)
		default:
			return nil
		}
		return e.nextStep(ctx, tx, n)
	})
}

// debtor is the payer's account as the sandbox institution reports it.
func (e *Engine) debtor(ctx context.Context, n *db.PaymentIntentRow) *model.PaymentDebtor {
	d := &model.PaymentDebtor{TaxNumber: n.Payer.Cpf, Branch: "0001", Number: fmt.Sprintf("%s-%s", n.Payer.Cpf[3:9], n.Payer.Cpf[9:10]), AccountType: "CHECKING_ACCOUNT"}
	if n.Payer.Name != nil {
		d.Name = *n.Payer.Name
	} else {
		d.Name = "Pagador " + n.Payer.Cpf[:3] + ".***.***-" + n.Payer.Cpf[9:]
	}
	// Each sandbox connector stands for one real institution of the seeded list.
	if inst, err := e.db.PaymentInstitutionByIndex(ctx, n.ConnectorID); err == nil {
		d.Ispb, d.Compe = inst.Ispb, inst.Compe
	}
	return d
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
