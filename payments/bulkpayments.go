package payments

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/db"
	"ponte/ledger"
	"ponte/model"
)

// A bulk payment pays several CREATED payment requests from one smart account, with one
// authorization by the account's owner on its paymentUrl. The smart account must cover the
// total when the bulk payment is created and again, under a lock on the account, when it is
// authorized; the authorization moves every request to IN_PROGRESS and debits the account
// once per request (a balanced ledger movement to the payees), and the sandbox institution's
// step then completes each request as it would complete alone (its events, a paid boleto).
// The statuses are a subset of the official client's BULK_PAYMENT_STATUS: CREATED →
// PAYMENT_IN_PROGRESS → COMPLETED, or ERROR (rejected by the owner, or no longer payable at
// authorization); the TOP_UP_* ones belong to topping the account up, which is done here by
// paying requests into it.

// Bulk payment statuses.
const (
	BulkCreated           = model.BulkCreated
	BulkPaymentInProgress = model.BulkPaymentInProgress
	BulkCompleted         = model.BulkCompleted
	BulkError             = model.BulkError
)

// maxBulkRequests bounds one bulk payment's requests.
const maxBulkRequests = 100

// CreateBulkPayment gathers requests to pay from a smart account.
func (e *Engine) CreateBulkPayment(ctx context.Context, in model.BulkPaymentInput) (*model.BulkPayment, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if in.SmartAccountID == nil {
		return nil, bad("smartAccountId is required: the smart account the requests are paid from.")
	}
	account, err := e.smartAccountOf(ctx, clientID, "smartAccountId", *in.SmartAccountID)
	if err != nil {
		return nil, err
	}
	if len(in.PaymentRequestIds) == 0 {
		return nil, bad("paymentRequestIds is required: the CREATED payment requests to pay.")
	}
	if len(in.PaymentRequestIds) > maxBulkRequests {
		return nil, bad("paymentRequestIds has %d entries; a bulk payment pays at most %d.", len(in.PaymentRequestIds), maxBulkRequests)
	}
	now := e.now(ctx)
	b := &db.BulkPaymentRow{ID: model.NewID(), ClientID: clientID, SmartAccountID: account.ID, Status: BulkCreated, CreatedAt: now, UpdatedAt: now}
	seen := map[uuid.UUID]bool{}
	for i, v := range in.PaymentRequestIds {
		id, err := parseID(fmt.Sprintf("paymentRequestIds[%d]", i), v)
		if err != nil {
			return nil, err
		}
		if seen[id] {
			return nil, bad("paymentRequestIds names %s twice.", id)
		}
		seen[id] = true
		b.RequestIDs = append(b.RequestIDs, id)
	}
	if c := in.CallbackUrls; c != nil {
		for field, u := range map[string]*string{"callbackUrls.success": c.Success, "callbackUrls.pending": c.Pending, "callbackUrls.error": c.Error} {
			if u != nil {
				if err := model.CheckRedirectURL(field, *u); err != nil {
					return nil, err
				}
			}
		}
		b.CallbackSuccess, b.CallbackError, b.CallbackPending = c.Success, c.Error, c.Pending
	}
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		total, err := e.payableRequests(ctx, tx, b)
		if err != nil {
			return err
		}
		b.TotalAmount = float64(total) / 100
		if err := e.coverBulk(ctx, tx, b, total); err != nil {
			return err
		}
		if err := tx.InsertBulkPayment(ctx, b); errors.Is(err, db.ErrRequestInBulk) {
			return model.Fail(model.CodePaymentRequestNotAvailable, "A payment request of paymentRequestIds is in another bulk payment already; delete that one first.")
		} else if err != nil {
			return err
		}
		return e.freezeBulk(ctx, tx, b)
	})
	if err != nil {
		return nil, err
	}
	return e.bulkView(ctx, b)
}

// payableRequests locks a bulk payment's requests and checks each can be paid from a smart
// account now; it returns their total in cents.
func (e *Engine) payableRequests(ctx context.Context, tx *db.Tx, b *db.BulkPaymentRow) (int64, error) {
	var total int64
	for _, id := range b.RequestIDs {
		p, err := e.lockRequest(ctx, tx, b.ClientID, id)
		if err != nil {
			return 0, err
		}
		switch {
		case p.Status != Created:
			return 0, model.Fail(model.CodePaymentRequestNotAvailable, "Payment request %s is %s; a bulk payment pays only CREATED requests.", id, p.Status)
		case p.AutomaticPix != nil || p.Schedule != nil:
			return 0, model.Fail(model.CodePaymentRequestNotAvailable, "Payment request %s is scheduled or automatic PIX; a bulk payment pays single immediate requests.", id)
		case p.SmartAccountID != nil:
			return 0, model.Fail(model.CodePaymentRequestNotAvailable, "Payment request %s pays into a smart account; a bulk payment pays out of one.", id)
		}
		if err := e.checkOwnBoletoPayable(ctx, tx, p); err != nil {
			return 0, err
		}
		total += cents(p.Amount)
	}
	return total, nil
}

// freezeBulk copies each request's recipient as it is now: the owner approves, and the
// bulk payment pays, these copies whatever becomes of the recipients' records.
func (e *Engine) freezeBulk(ctx context.Context, tx *db.Tx, b *db.BulkPaymentRow) error {
	for _, id := range b.RequestIDs {
		p, err := e.lockRequest(ctx, tx, b.ClientID, id)
		if err != nil {
			return err
		}
		if p.ConsentedRecipient, err = recipientNow(ctx, tx, p); err != nil {
			return err
		}
		if err := tx.SavePaymentRequest(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// thawBulk lets the copies go when a bulk payment ends unpaid: its requests that are still
// CREATED are the application's again, and their next payer consents anew.
func (e *Engine) thawBulk(ctx context.Context, tx *db.Tx, b *db.BulkPaymentRow) error {
	for _, id := range b.RequestIDs {
		p, err := e.lockRequest(ctx, tx, b.ClientID, id)
		if err != nil {
			return err
		}
		if p.Status != Created {
			continue
		}
		p.ConsentedRecipient = nil
		if err := tx.SavePaymentRequest(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// failBulk ends a bulk payment unpaid, with why, and frees its requests.
func (e *Engine) failBulk(ctx context.Context, tx *db.Tx, b *db.BulkPaymentRow, why *model.PaymentErrorDetail) error {
	b.Status, b.ErrorDetail = BulkError, why
	if err := e.thawBulk(ctx, tx, b); err != nil {
		return err
	}
	return tx.SaveBulkPayment(ctx, b, true)
}

// coverBulk refuses a bulk payment the smart account's balance cannot cover.
func (e *Engine) coverBulk(ctx context.Context, tx *db.Tx, b *db.BulkPaymentRow, total int64) error {
	have, _, err := tx.Balance(ctx, ledger.SmartAccount(b.SmartAccountID))
	if err != nil {
		return err
	}
	if have < total {
		return model.Fail(model.CodeInsufficientSmartAccountBalance, "Smart account %s holds %s; the bulk payment's total is %s.", b.SmartAccountID, reais(have), reais(total))
	}
	return nil
}

// BulkPayment reads one bulk payment.
func (e *Engine) BulkPayment(ctx context.Context, id uuid.UUID) (*model.BulkPayment, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	return e.bulkPayment(ctx, clientID, id)
}

func (e *Engine) bulkPayment(ctx context.Context, clientID, id uuid.UUID) (*model.BulkPayment, error) {
	b, found, err := e.db.BulkPayment(ctx, clientID, id, false)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeBulkPaymentNotFound, "Bulk payment %s not found.", id)
	}
	return e.bulkView(ctx, b)
}

// BulkPayments lists the application's bulk payments, oldest first.
func (e *Engine) BulkPayments(ctx context.Context, page, pageSize *int) (*model.BulkPaymentPage, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	n, err := readPage(page, pageSize, func(limit, offset int) ([]*model.BulkPayment, int, error) {
		rows, total, err := e.db.BulkPayments(ctx, clientID, limit, offset)
		if err != nil {
			return nil, 0, err
		}
		out, err := e.bulkViews(ctx, clientID, rows)
		return out, total, err
	})
	if err != nil {
		return nil, err
	}
	return &model.BulkPaymentPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

// DeleteBulkPayment removes a bulk payment before its authorization; its requests stay
// CREATED and free.
func (e *Engine) DeleteBulkPayment(ctx context.Context, id uuid.UUID) (*model.BulkPayment, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	var b *db.BulkPaymentRow
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		if b, err = e.lockBulk(ctx, tx, clientID, id); err != nil {
			return err
		}
		if b.Status != BulkCreated {
			return model.Fail(model.CodeBulkPaymentNotDeletable, "Bulk payment %s is %s; only a CREATED one (not yet authorized) can be deleted.", id, b.Status)
		}
		if err := e.thawBulk(ctx, tx, b); err != nil {
			return err
		}
		return tx.DeleteBulkPayment(ctx, id)
	})
	if err != nil {
		return nil, err
	}
	return e.bulkView(ctx, b)
}

func (e *Engine) lockBulk(ctx context.Context, tx *db.Tx, clientID, id uuid.UUID) (*db.BulkPaymentRow, error) {
	b, found, err := tx.BulkPayment(ctx, clientID, id, true)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeBulkPaymentNotFound, "Bulk payment %s not found.", id)
	}
	return b, nil
}

// BulkConsentForOwner reads a bulk payment for its authorization page, reached by its
// unguessable id alone.
func (e *Engine) BulkConsentForOwner(ctx context.Context, id uuid.UUID) (*model.BulkConsentView, error) {
	b, err := e.bulkPayment(ctx, uuid.Nil, id)
	if err != nil {
		return nil, err
	}
	return &model.BulkConsentView{BulkPayment: bulkForOwner(b), CanDecide: BulkDecidable(b.Status)}, nil
}

// bulkForOwner is a bulk payment as its owner's page shows it: its requests as their payer
// sees them.
func bulkForOwner(b *model.BulkPayment) *model.BulkPayment {
	c := *b
	c.PaymentRequests = make([]*model.PaymentRequest, len(b.PaymentRequests))
	for i, p := range b.PaymentRequests {
		c.PaymentRequests[i] = requestForPayer(p)
	}
	return &c
}

// BulkDecidable reports whether the smart account's owner may still authorize or reject a
// bulk payment in this status, as DecideBulkPayment allows.
func BulkDecidable(status string) bool { return status == BulkCreated }

// DecideBulkPaymentForOwner is the smart account owner's answer on the paymentUrl page. Approval
// debits the account for every request under a lock on the account, so two bulk payments
// authorized at once cannot both spend the same balance; a bulk payment that can no longer
// be paid (a request paid meanwhile, the balance spent) ends in ERROR and frees its
// requests.
func (e *Engine) DecideBulkPaymentForOwner(ctx context.Context, id uuid.UUID, approve bool) (*model.BulkPayment, error) {
	var b *db.BulkPaymentRow
	err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		if b, err = e.lockBulk(ctx, tx, uuid.Nil, id); err != nil {
			return err
		}
		if !BulkDecidable(b.Status) {
			return model.Fail(model.CodeBulkPaymentNotAuthorizable, "Bulk payment %s is %s already.", id, b.Status)
		}
		b.UpdatedAt = e.now(ctx)
		if !approve {
			return e.failBulk(ctx, tx, b, &model.PaymentErrorDetail{Code: ConsentRejected, Description: "The smart account's owner rejected the bulk payment."})
		}
		return e.approveBulk(ctx, tx, b, ByUser, true)
	})
	if err != nil {
		return nil, err
	}
	v, err := e.bulkView(ctx, b)
	if err != nil {
		return nil, err
	}
	return bulkForOwner(v), nil
}

// approveBulk is the owner's approval of a bulk payment (b locked, CREATED): under a lock
// on the smart account, every request still payable and covered moves to IN_PROGRESS and is
// debited, and the institution's step is queued; otherwise the bulk payment fails and frees
// its requests. The step is queued when queue is set.
func (e *Engine) approveBulk(ctx context.Context, tx *db.Tx, b *db.BulkPaymentRow, by string, queue bool) error {
	if _, err := tx.LockSmartAccount(ctx, b.ClientID, b.SmartAccountID); err != nil {
		return err
	}
	total, err := e.payableRequests(ctx, tx, b)
	if err == nil {
		err = e.coverBulk(ctx, tx, b, total)
	}
	if err != nil {
		failure, internal := model.AsError(err)
		if internal {
			return err
		}
		return e.failBulk(ctx, tx, b, &model.PaymentErrorDetail{Code: failure.Code.String(), Description: failure.Message})
	}
	if cents(b.TotalAmount) != total {
		// Unreachable while the requests are frozen; should it happen, the owner approved
		// another total than the one that would be paid, so nothing is.
		return fmt.Errorf("bulk payment %s: approved total %s, requests now total %s", b.ID, reais(cents(b.TotalAmount)), reais(total))
	}
	for _, rid := range b.RequestIDs {
		p, err := e.lockRequest(ctx, tx, b.ClientID, rid)
		if err != nil {
			return err
		}
		source := b.SmartAccountID
		p.SourceSmartAccountID = &source
		if err := e.setRequestStatus(ctx, tx, p, InProgress, by); err != nil {
			return err
		}
		// Debited now, under the account's lock: the money is the payees' from here on.
		if err := e.payRequest(ctx, tx, p); err != nil {
			return err
		}
	}
	b.Status = BulkPaymentInProgress
	if err := tx.SaveBulkPayment(ctx, b, false); err != nil || !queue {
		return err
	}
	_, err = e.insertJob(ctx, tx, BulkStepArgs{BulkPaymentID: b.ID}, &river.InsertOpts{Queue: Queue, ScheduledAt: b.UpdatedAt.Add(e.cfg.StepDelay)})
	return err
}

func (e *Engine) bulkView(ctx context.Context, b *db.BulkPaymentRow) (*model.BulkPayment, error) {
	views, err := e.bulkViews(ctx, b.ClientID, []*db.BulkPaymentRow{b})
	if err != nil {
		return nil, err
	}
	return views[0], nil
}

// bulkViews builds the answers of several bulk payments of one application with one read
// of all their requests (and their views' parties) and one of each smart account.
func (e *Engine) bulkViews(ctx context.Context, clientID uuid.UUID, rows []*db.BulkPaymentRow) ([]*model.BulkPayment, error) {
	var ids []uuid.UUID
	for _, b := range rows {
		ids = append(ids, b.RequestIDs...)
	}
	requests, err := e.db.PaymentRequestsByID(ctx, clientID, ids)
	if err != nil {
		return nil, err
	}
	views, err := e.requestViews(ctx, requests)
	if err != nil {
		return nil, err
	}
	byID := make(map[uuid.UUID]*model.PaymentRequest, len(views))
	fees := make(map[uuid.UUID]int64, len(requests))
	for i, p := range requests {
		byID[p.ID], fees[p.ID] = views[i], cents(p.Fees)
	}
	accounts := map[uuid.UUID]*model.SmartAccount{}
	out := make([]*model.BulkPayment, 0, len(rows))
	for _, b := range rows {
		v := &model.BulkPayment{ID: b.ID, Status: b.Status, TotalAmount: b.TotalAmount, ErrorDetail: b.ErrorDetail,
			PaymentURL: strings.TrimSuffix(e.cfg.BaseURL, "/") + "/payments/bulk-consent/" + b.ID.String(),
			CreatedAt:  model.NewTime(b.CreatedAt), UpdatedAt: model.NewTime(b.UpdatedAt), PaymentRequests: []*model.PaymentRequest{}}
		if b.CallbackSuccess != nil || b.CallbackError != nil || b.CallbackPending != nil {
			v.CallbackUrls = &model.CallbackURLs{Success: b.CallbackSuccess, Error: b.CallbackError, Pending: b.CallbackPending}
		}
		a, seen := accounts[b.SmartAccountID]
		if !seen {
			if a, _, err = e.db.SmartAccount(ctx, clientID, b.SmartAccountID); err != nil {
				return nil, err
			}
			accounts[b.SmartAccountID] = a
		}
		v.SmartAccount = a
		var fee int64
		for _, id := range b.RequestIDs {
			if p := byID[id]; p != nil {
				v.PaymentRequests = append(v.PaymentRequests, p)
				fee += fees[id]
			}
		}
		v.FeesAmount = float64(fee) / 100
		v.GrossAmount = float64(cents(b.TotalAmount)+fee) / 100
		out = append(out, v)
	}
	return out, nil
}

// BulkStepArgs is the sandbox institution settling an authorized bulk payment's requests.
type BulkStepArgs struct {
	BulkPaymentID uuid.UUID `json:"bulkPaymentId"`
}

func (BulkStepArgs) Kind() string { return "bulk_payment_step" }

func (BulkStepArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{Queue: Queue} }

type bulkWorker struct {
	river.WorkerDefaults[BulkStepArgs]
	e *Engine
}

// Work completes every request of the bulk payment and then the bulk payment, in one
// transaction: a retry finds it done.
func (w *bulkWorker) Work(ctx context.Context, job *river.Job[BulkStepArgs]) error {
	e := w.e
	return e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		b, found, err := tx.BulkPayment(ctx, uuid.Nil, job.Args.BulkPaymentID, true)
		if err != nil || !found || b.Status != BulkPaymentInProgress {
			return err
		}
		return e.completeBulk(ctx, tx, b, ByInternal)
	})
}

// completeBulk is the institution settling an authorized bulk payment (b locked,
// PAYMENT_IN_PROGRESS): each request still IN_PROGRESS completes, or fails with its money
// back to the smart account when the boleto it pays no longer settles; then the bulk
// payment is COMPLETED.
func (e *Engine) completeBulk(ctx context.Context, tx *db.Tx, b *db.BulkPaymentRow, by string) error {
	for _, id := range b.RequestIDs {
		p, found, err := tx.PaymentRequest(ctx, uuid.Nil, id, true)
		if err != nil {
			return err
		}
		if !found || p.Status != InProgress {
			continue
		}
		// A boleto cancelled or paid since the approval: this request fails, and what the
		// approval debited goes back to the smart account.
		if d, err := e.ownBoletoSettles(ctx, tx, p); err != nil {
			return err
		} else if d != nil {
			p.ErrorDetail = d
			if err := e.returnPayment(ctx, tx, p); err != nil {
				return err
			}
			if err := e.setRequestStatus(ctx, tx, p, RequestError, by); err != nil {
				return err
			}
			continue
		}
		if err := e.setRequestStatus(ctx, tx, p, Completed, by); err != nil {
			return err
		}
	}
	b.Status, b.UpdatedAt = BulkCompleted, e.now(ctx)
	return tx.SaveBulkPayment(ctx, b, false)
}
