package payments

import (
	"context"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/db"
	"ponte/model"
)

// Scheduled payment statuses.
const (
	SchedScheduled = "SCHEDULED"
	SchedCompleted = "COMPLETED"
	SchedError     = "ERROR"
	SchedCanceled  = "CANCELED"
)

// createScheduled writes the dated payments of a request whose consent was just given,
// each with the job that pays it on its date.
func (e *Engine) createScheduled(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, n *db.PaymentIntentRow) error {
	dates, err := scheduleDates(p.Schedule, e.today(ctx))
	if err != nil {
		// The dates were valid when the request was made; the first may have passed since.
		n.ErrorDetail = &model.PaymentErrorDetail{Code: model.CodeInvalidSchedule.String(), Description: err.Error()}
		return e.advance(ctx, tx, p, n, IntentError, ByInternal)
	}
	now := e.now(ctx)
	for _, d := range dates {
		s := &db.ScheduledPaymentRow{ID: model.NewID(), RequestID: p.ID, ClientID: p.ClientID, ScheduledDate: d, Status: SchedScheduled,
			Description: p.Description, CreatedAt: now, UpdatedAt: now}
		if err := tx.InsertScheduledPayment(ctx, s); err != nil {
			return err
		}
		if _, err := e.insertJob(ctx, tx, ScheduledArgs{ScheduledPaymentID: s.ID}, &river.InsertOpts{Queue: Queue, ScheduledAt: e.cfg.scheduleAt(d), MaxAttempts: 25}); err != nil {
			return err
		}
		if err := e.emit(ctx, tx, p, "scheduled_payment/created", ByUser, scheduledPayload(s)); err != nil {
			return err
		}
	}
	return e.emit(ctx, tx, p, "scheduled_payment/all_created", ByUser, map[string]any{"paymentIntentId": n.ID.String(), "scheduledPaymentsCount": len(dates)})
}

func scheduledPayload(s *db.ScheduledPaymentRow) map[string]any {
	m := map[string]any{"scheduledPaymentId": s.ID.String(), "scheduledDate": s.ScheduledDate.Format("2006-01-02"), "status": s.Status}
	if s.ErrorDetail != nil {
		m["error"] = map[string]any{"code": s.ErrorDetail.Code, "description": s.ErrorDetail.Description, "detail": s.ErrorDetail.Detail}
	}
	return m
}

// ScheduledArgs pays one dated payment.
type ScheduledArgs struct {
	ScheduledPaymentID uuid.UUID `json:"scheduledPaymentId"`
}

func (ScheduledArgs) Kind() string { return "scheduled_payment" }

type scheduledWorker struct {
	river.WorkerDefaults[ScheduledArgs]
	e *Engine
}

func (w *scheduledWorker) Work(ctx context.Context, job *river.Job[ScheduledArgs]) error {
	e := w.e
	return e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		s, found, err := tx.ScheduledPayment(ctx, job.Args.ScheduledPaymentID, false)
		if err != nil || !found {
			return err
		}
		p, found, err := tx.PaymentRequest(ctx, uuid.Nil, s.RequestID, true)
		if err != nil || !found {
			return err
		}
		if s, _, err = tx.ScheduledPayment(ctx, s.ID, true); err != nil || s.Status != SchedScheduled {
			return err
		}
		n, _, err := tx.ActivePaymentIntent(ctx, p.ID)
		if err != nil {
			return err
		}
		event := "scheduled_payment/completed"
		s.Status = SchedCompleted
		if n != nil {
			a := attempt(p, n)
			a.Amount = cents(p.Amount)
			if d, err := e.settleAtOnce(ctx, a); err != nil {
				return err
			} else if d != nil {
				s.Status, s.ErrorDetail, event = SchedError, d, "scheduled_payment/error"
			}
		}
		if s.Status == SchedCompleted {
			// A boleto cancelled, paid or protested since the payer authorized: nothing is paid.
			if d, err := e.ownBoletoSettles(ctx, tx, p); err != nil {
				return err
			} else if d != nil {
				s.Status, s.ErrorDetail, event = SchedError, d, "scheduled_payment/error"
			}
		}
		return e.finishScheduled(ctx, tx, p, n, s, event, ByInternal)
	})
}

// finishScheduled records a dated payment's run (its status set): it is paid to the
// ledger when COMPLETED, its event sent, and the request ended if it was the last.
func (e *Engine) finishScheduled(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, n *db.PaymentIntentRow, s *db.ScheduledPaymentRow, event, by string) error {
	s.UpdatedAt = e.now(ctx)
	if err := tx.SaveScheduledPayment(ctx, s); err != nil {
		return err
	}
	if s.Status == SchedCompleted {
		if err := e.payDated(ctx, tx, p, "scheduled", s.ID, p.Amount); err != nil {
			return err
		}
	}
	if err := e.emit(ctx, tx, p, event, by, scheduledPayload(s)); err != nil {
		return err
	}
	return e.settleSchedule(ctx, tx, p, n, by)
}

// settleSchedule ends a scheduled request once none of its payments is left to run: it
// completed if any was paid, else it is canceled (or in error if every one failed).
func (e *Engine) settleSchedule(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, n *db.PaymentIntentRow, by string) error {
	list, err := tx.ScheduledPayments(ctx, p.ID, false)
	if err != nil {
		return err
	}
	counts := map[string]int{}
	for _, s := range list {
		counts[s.Status]++
	}
	if counts[SchedScheduled] > 0 {
		return nil
	}
	to, end := Canceled, Revoked
	switch {
	case counts[SchedCompleted] > 0:
		to, end = Completed, Consumed
		if err := e.emit(ctx, tx, p, "scheduled_payment/all_completed", by, map[string]any{"completed": counts[SchedCompleted], "failed": counts[SchedError], "canceled": counts[SchedCanceled]}); err != nil {
			return err
		}
	case counts[SchedError] > 0:
		to, end = RequestError, Consumed
	}
	if n != nil {
		// The intent ends with its schedule; its request is set explicitly below.
		if err := e.moveIntent(ctx, tx, n, end); err != nil {
			return err
		}
	}
	return e.setRequestStatus(ctx, tx, p, to, by)
}

func scheduledView(s *db.ScheduledPaymentRow) *model.ScheduledPayment {
	return &model.ScheduledPayment{ID: s.ID, Status: s.Status, ScheduledDate: s.ScheduledDate.Format("2006-01-02"), Description: s.Description,
		ErrorDetail: s.ErrorDetail, CreatedAt: model.NewTime(s.CreatedAt), UpdatedAt: model.NewTime(s.UpdatedAt)}
}

// Schedules lists a request's dated payments, in one page.
func (e *Engine) Schedules(ctx context.Context, requestID uuid.UUID) (*model.ScheduledPaymentPage, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	return e.schedulePage(ctx, clientID, requestID)
}

func (e *Engine) schedulePage(ctx context.Context, clientID, requestID uuid.UUID) (*model.ScheduledPaymentPage, error) {
	if _, err := e.requestRow(ctx, clientID, requestID); err != nil {
		return nil, err
	}
	list, err := e.db.ScheduledPayments(ctx, requestID, false)
	if err != nil {
		return nil, err
	}
	out := make([]*model.ScheduledPayment, len(list))
	for i, s := range list {
		out[i] = scheduledView(s)
	}
	n := wholeList(out)
	return &model.ScheduledPaymentPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

// SchedulesOfRequests lists the dated payments of several requests in one statement: one
// list per request, in the requests' order.
func (e *Engine) SchedulesOfRequests(ctx context.Context, requests []*model.PaymentRequest) ([][]*model.ScheduledPayment, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]uuid.UUID, len(requests))
	for i, p := range requests {
		ids[i] = p.ID
	}
	list, err := e.db.ScheduledPaymentsOfRequests(ctx, clientID, ids)
	if err != nil {
		return nil, err
	}
	by := map[uuid.UUID][]*model.ScheduledPayment{}
	for _, s := range list {
		by[s.RequestID] = append(by[s.RequestID], scheduledView(s))
	}
	out := make([][]*model.ScheduledPayment, len(requests))
	for i, p := range requests {
		out[i] = by[p.ID]
		if out[i] == nil {
			out[i] = []*model.ScheduledPayment{}
		}
	}
	return out, nil
}

// Schedule reads one dated payment of a request.
func (e *Engine) Schedule(ctx context.Context, requestID, id uuid.UUID) (*model.ScheduledPayment, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := e.requestRow(ctx, clientID, requestID); err != nil {
		return nil, err
	}
	s, found, err := e.db.ScheduledPayment(ctx, id, false)
	if err != nil {
		return nil, err
	}
	if !found || s.RequestID != requestID {
		return nil, model.Fail(model.CodeScheduledPaymentNotFound, "Scheduled payment %s of payment request %s not found.", id, requestID)
	}
	return scheduledView(s), nil
}

// CancelSchedules cancels every dated payment of a request still to run.
func (e *Engine) CancelSchedules(ctx context.Context, requestID uuid.UUID) (*model.ScheduledPaymentPage, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	return e.cancelSchedules(ctx, clientID, requestID, nil)
}

// CancelSchedule cancels one dated payment of a request.
func (e *Engine) CancelSchedule(ctx context.Context, requestID, id uuid.UUID) (*model.ScheduledPayment, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	page, err := e.cancelSchedules(ctx, clientID, requestID, &id)
	if err != nil {
		return nil, err
	}
	for _, s := range page.Results {
		if s.ID == id {
			return s, nil
		}
	}
	return nil, model.Fail(model.CodeScheduledPaymentNotFound, "Scheduled payment %s not found.", id)
}

// cancelSchedules cancels one dated payment (id non-nil) or every one still to run.
func (e *Engine) cancelSchedules(ctx context.Context, clientID, requestID uuid.UUID, id *uuid.UUID) (*model.ScheduledPaymentPage, error) {
	err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		p, err := e.lockRequest(ctx, tx, clientID, requestID)
		if err != nil {
			return err
		}
		if ctx, err = e.onClock(ctx, tx, p); err != nil {
			return err
		}
		list, err := tx.ScheduledPayments(ctx, requestID, true)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			return model.Fail(model.CodePaymentRequestNotEditable, "Payment request %s has no scheduled payments (its status is %s).", requestID, p.Status)
		}
		found, changed := false, false
		for _, s := range list {
			if id != nil && s.ID != *id {
				continue
			}
			found = true
			if s.Status != SchedScheduled {
				if id != nil {
					return model.Fail(model.CodeScheduledPaymentNotCancelable, "Scheduled payment %s is %s: only a SCHEDULED payment can be canceled.", s.ID, s.Status)
				}
				continue
			}
			s.Status, s.UpdatedAt, changed = SchedCanceled, e.now(ctx), true
			if err := tx.SaveScheduledPayment(ctx, s); err != nil {
				return err
			}
			if err := e.emit(ctx, tx, p, "scheduled_payment/canceled", ByClient, scheduledPayload(s)); err != nil {
				return err
			}
		}
		if !found {
			return model.Fail(model.CodeScheduledPaymentNotFound, "Scheduled payment %s of payment request %s not found.", *id, requestID)
		}
		if !changed {
			return nil // nothing left to cancel: the request stays as it ended
		}
		n, _, err := tx.ActivePaymentIntent(ctx, p.ID)
		if err != nil {
			return err
		}
		return e.settleSchedule(ctx, tx, p, n, ByClient)
	})
	if err != nil {
		return nil, err
	}
	return e.schedulePage(ctx, clientID, requestID)
}
