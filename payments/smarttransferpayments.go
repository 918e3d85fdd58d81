package payments

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/db"
	"ponte/ledger"
	"ponte/metrics"
	"ponte/model"
)

// A smart transfer payment needs no payer: it is accepted when its pre-authorization is
// COMPLETED, names the recipient and leaves every limit whole, and then settles through the
// sandbox institution's steps (PAYMENT_PENDING → PAYMENT_SETTLEMENT_PROCESSING →
// PAYMENT_SETTLEMENT_DEBTOR_ACCOUNT → PAYMENT_COMPLETED), or is PAYMENT_REJECTED for the
// sandbox payers of insufficient funds, the account's own limit, or a failed settlement.

// stFailed are the statuses of payments that moved no money: they count against no limit.
var stFailed = []string{PaymentRejected, IntentError, IntentCanceled}

// periodStarts are the starts of the São Paulo calendar day, week (from Monday), month and
// year that now falls in: the limits' periods.
func periodStarts(now time.Time) [4]time.Time {
	t := now.In(SaoPaulo)
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, SaoPaulo)
	monday := day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
	return [4]time.Time{day, monday, time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, SaoPaulo), time.Date(t.Year(), 1, 1, 0, 0, 0, 0, SaoPaulo)}
}

// overLimit names the first limit that a payment of want cents would exceed, given what
// was spent in each period (day, week, month, year, in all); "" when none.
func overLimit(l model.SmartTransferLimits, spent [5]int64, want int64) (name string, limit, left int64) {
	if l.Transaction != nil && want > cents(*l.Transaction) {
		return "per-transaction", cents(*l.Transaction), cents(*l.Transaction)
	}
	periods := []struct {
		name  string
		limit *float64
	}{{"daily", l.Daily}, {"weekly", l.Weekly}, {"monthly", l.Monthly}, {"yearly", l.Yearly}, {"total", l.Total}}
	for i, p := range periods {
		if p.limit == nil {
			continue
		}
		max := cents(*p.limit)
		if spent[i]+want > max {
			return p.name, max, max - spent[i]
		}
	}
	return "", 0, 0
}

// CreateSmartTransferPayment pays under a pre-authorization. The pre-authorization's row
// is locked while its limits are summed and the payment recorded, so payments racing on one
// pre-authorization are counted one after another and never overrun a limit together.
func (e *Engine) CreateSmartTransferPayment(ctx context.Context, in model.SmartTransferPaymentInput) (*model.SmartTransferPayment, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if in.PreauthorizationID == nil {
		return nil, bad("preauthorizationId is required.")
	}
	preauthID, err := parseID("preauthorizationId", *in.PreauthorizationID)
	if err != nil {
		return nil, err
	}
	if in.RecipientID == nil {
		return nil, bad("recipientId is required: one of the pre-authorization's recipients.")
	}
	recipientID, err := parseID("recipientId", *in.RecipientID)
	if err != nil {
		return nil, err
	}
	if in.Amount == nil {
		return nil, bad("amount is required.")
	}
	if err := checkAmount("amount", *in.Amount); err != nil {
		return nil, err
	}
	now := e.now(ctx)
	p := &db.SmartTransferPaymentRow{ID: model.NewID(), ClientID: clientID, PreauthorizationID: preauthID, RecipientID: recipientID,
		Amount: *in.Amount, Status: PaymentPending, CreatedAt: now, UpdatedAt: now}
	if d := emptyAsNil(in.Description); d != nil {
		if len(*d) > 140 {
			return nil, bad("description is longer than 140 characters (a PIX description's limit).")
		}
		p.Description = d
	}
	if c := emptyAsNil(in.ClientPaymentID); c != nil {
		if len(*c) > 100 {
			return nil, bad("clientPaymentId is longer than 100 characters.")
		}
		p.ClientPaymentID = c
	}
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		pre, err := e.lockPreauth(ctx, tx, clientID, preauthID)
		if err != nil {
			return err
		}
		if pre.Status != PreauthCompleted {
			return model.Fail(model.CodeSmartTransferPreauthorizationInactive, "Smart transfer pre-authorization %s is %s; payments need it COMPLETED (approved by its payer and not revoked).", preauthID, pre.Status)
		}
		named := false
		for _, id := range pre.RecipientIDs {
			named = named || id == recipientID
		}
		for _, r := range pre.Recipients {
			if r.ID == recipientID {
				p.Recipient = r
			}
		}
		if !named {
			return model.Fail(model.CodeSmartTransferRecipientNotAllowed, "Recipient %s is not one of pre-authorization %s's recipients.", recipientID, preauthID)
		}
		// A payment under a pre-authorization on a test clock is dated by the clock, and
		// its limits' periods are the clock's; its settlement steps wait for the clock.
		if ctx, err = e.preauthOnClock(ctx, tx, pre); err != nil {
			return err
		}
		now = e.now(ctx)
		p.CreatedAt, p.UpdatedAt = now, now
		spent, err := tx.SmartTransferSpent(ctx, preauthID, periodStarts(now), stFailed)
		if err != nil {
			return err
		}
		if name, limit, left := overLimit(pre.Limits, spent, cents(p.Amount)); name != "" {
			if left < 0 {
				left = 0
			}
			return model.Fail(model.CodeSmartTransferLimitExceeded, "amount %s would exceed the pre-authorization's %s limit of %s: %s is left of it (periods are São Paulo calendar days, weeks from Monday, months and years).",
				reais(cents(p.Amount)), name, reais(limit), reais(left))
		}
		if err := tx.InsertSmartTransferPayment(ctx, p); err != nil {
			return err
		}
		tx.AfterCommit(func() { metrics.PaymentMoves.WithLabelValues("smart_transfer_payment", PaymentPending).Inc() })
		_, err = e.insertJob(ctx, tx, SmartTransferStepArgs{PaymentID: p.ID}, &river.InsertOpts{Queue: Queue, ScheduledAt: now.Add(e.cfg.StepDelay)})
		return err
	})
	if err != nil {
		return nil, err
	}
	return e.smartTransferPaymentView(ctx, p)
}

// SmartTransferPayment reads one payment.
func (e *Engine) SmartTransferPayment(ctx context.Context, id uuid.UUID) (*model.SmartTransferPayment, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	p, found, err := e.db.SmartTransferPayment(ctx, clientID, id, false)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeSmartTransferPaymentNotFound, "Smart transfer payment %s not found.", id)
	}
	return e.smartTransferPaymentView(ctx, p)
}

func (e *Engine) smartTransferPaymentView(ctx context.Context, p *db.SmartTransferPaymentRow) (*model.SmartTransferPayment, error) {
	v := &model.SmartTransferPayment{ID: p.ID, PreauthorizationID: p.PreauthorizationID, Status: p.Status, Amount: p.Amount,
		Description: p.Description, ClientPaymentID: p.ClientPaymentID, ErrorDetail: p.ErrorDetail,
		CreatedAt: model.NewTime(p.CreatedAt), UpdatedAt: model.NewTime(p.UpdatedAt)}
	if p.Recipient != nil {
		v.Recipient = p.Recipient
		return v, nil
	}
	r, _, err := e.db.PaymentRecipient(ctx, p.ClientID, p.RecipientID, true)
	v.Recipient = r
	return v, err
}

// SmartTransferStepArgs is the payer's institution taking a smart transfer payment one
// step on.
type SmartTransferStepArgs struct {
	PaymentID uuid.UUID `json:"paymentId"`
}

func (SmartTransferStepArgs) Kind() string { return "smart_transfer_payment_step" }

func (SmartTransferStepArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{Queue: Queue} }

type smartTransferWorker struct {
	river.WorkerDefaults[SmartTransferStepArgs]
	e *Engine
}

// Work takes the payment one step, in one transaction with the step's event and the job
// of the next: a retried job finds the step taken and moves on from where it is.
func (w *smartTransferWorker) Work(ctx context.Context, job *river.Job[SmartTransferStepArgs]) error {
	e := w.e
	return e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		p, found, err := tx.SmartTransferPayment(ctx, uuid.Nil, job.Args.PaymentID, true)
		if err != nil || !found {
			return err
		}
		pre, found, err := tx.Preauthorization(ctx, uuid.Nil, p.PreauthorizationID, false)
		if err != nil || !found {
			return err
		}
		next := ""
		switch p.Status {
		case PaymentPending:
			next = SettlementProcessing
		case SettlementProcessing:
			next = SettlementDebtorAccount
		case SettlementDebtorAccount:
			next = PaymentCompleted
		default:
			return nil
		}
		ans, err := e.settle(ctx, Attempt{ID: p.ID, ConnectorID: pre.ConnectorID, Payer: Payer{CPF: pre.Payer.Cpf, CNPJ: pre.Payer.Cnpj, Name: pre.Payer.Name},
			Signatures: pre.Payer.Signatures, Amount: cents(p.Amount), Recipient: p.Recipient, Status: p.Status, Preauthorized: true})
		if err != nil {
			return err
		}
		if ans.Outcome == Reject {
			next, p.ErrorDetail = PaymentRejected, ans.Error
		}
		return e.stepSmartTransfer(ctx, tx, p, next, ByInternal, true)
	})
}

// stepSmartTransfer records a smart transfer payment's move to next (p locked, its
// ErrorDetail set for a rejection): the payment to the ledger when COMPLETED, its event at
// an end, and the job of its next step while it runs when queue is set.
func (e *Engine) stepSmartTransfer(ctx context.Context, tx *db.Tx, p *db.SmartTransferPaymentRow, next, by string, queue bool) error {
	p.Status, p.UpdatedAt = next, e.now(ctx)
	if err := tx.SaveSmartTransferPayment(ctx, p); err != nil {
		return err
	}
	if next == PaymentCompleted {
		// From the payer's bank to the pre-authorized copy of the recipient.
		if err := ledger.MoveOnce(ctx, tx, ledger.Movement{From: ledger.Payers, To: ledger.Payees, Cents: cents(p.Amount),
			Kind: ledger.KindPayment, Reference: "smart_transfer:" + p.ID.String(), At: p.UpdatedAt}); err != nil {
			return err
		}
	}
	tx.AfterCommit(func() {
		metrics.PaymentMoves.WithLabelValues("smart_transfer_payment", next).Inc()
		e.log.InfoContext(ctx, "smart transfer payment status", "smartTransferPaymentId", p.ID, "clientId", p.ClientID, "status", next)
	})
	name := "smart_transfer_payment/completed"
	switch next {
	case PaymentRejected:
		name = "smart_transfer_payment/error"
	case PaymentCompleted:
	default:
		if !queue {
			return nil
		}
		_, err := e.insertJob(ctx, tx, SmartTransferStepArgs{PaymentID: p.ID}, &river.InsertOpts{Queue: Queue, ScheduledAt: e.now(ctx).Add(e.cfg.StepDelay)})
		return err
	}
	payload := map[string]any{"id": p.ID.String(), "smartTransferPaymentId": p.ID.String(), "preauthorizationId": p.PreauthorizationID.String(),
		"clientId": p.ClientID.String(), "status": next, "triggeredBy": by}
	if p.ClientPaymentID != nil {
		payload["clientPaymentId"] = *p.ClientPaymentID
	}
	if p.ErrorDetail != nil {
		payload["error"] = p.ErrorDetail
	}
	return tx.InsertEvent(ctx, &db.Event{ClientID: p.ClientID, Event: name, Payload: payload})
}
