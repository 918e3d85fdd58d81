package payments

import (
	"context"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/db"
)

// A payment request nobody pays does not wait forever: RequestExpiry (30 days by default)
// after its creation, a request still CREATED (no payment done or under way) becomes
// EXPIRED, by a durable job inserted with the request. A request that was paid, is being
// paid, is scheduled or was cancelled is left as it is; EXPIRED ends a request.

// insertRequest records a new request and the job that expires it.
func (e *Engine) insertRequest(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow) error {
	if err := tx.InsertPaymentRequest(ctx, p); err != nil {
		return err
	}
	if err := e.claimOwnBoleto(ctx, tx, p); err != nil {
		return err
	}
	if e.cfg.RequestExpiry <= 0 {
		return nil
	}
	_, err := e.insertJob(ctx, tx, ExpiryArgs{RequestID: p.ID},
		&river.InsertOpts{Queue: Queue, ScheduledAt: p.CreatedAt.Add(e.cfg.RequestExpiry)})
	return err
}

// ExpiryArgs expires one request.
type ExpiryArgs struct {
	RequestID uuid.UUID `json:"requestId"`
}

func (ExpiryArgs) Kind() string { return "payment_request_expiry" }

func (ExpiryArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{Queue: Queue} }

type expiryWorker struct {
	river.WorkerDefaults[ExpiryArgs]
	e *Engine
}

func (w *expiryWorker) Work(ctx context.Context, job *river.Job[ExpiryArgs]) error {
	return w.e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		p, found, err := tx.PaymentRequest(ctx, uuid.Nil, job.Args.RequestID, true)
		if err != nil || !found || p.Status != Created {
			return err
		}
		if n, active, err := tx.ActivePaymentIntent(ctx, p.ID); err != nil || active && n != nil {
			return err // a payer is at it: the attempt decides
		}
		return w.e.setRequestStatus(ctx, tx, p, Expired, ByInternal)
	})
}
