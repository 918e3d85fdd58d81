package payments

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/db"
	"ponte/model"
)

// Automatic PIX charge statuses (the official client's AUTOMATIC_PIX_PAYMENT_STATUSES).
const (
	AutoScheduled = "SCHEDULED"
	AutoCompleted = "COMPLETED"
	AutoCanceled  = "CANCELED"
	AutoError     = "ERROR"
)

var autoPixIntervals = []string{"WEEKLY", "MONTHLY", "QUARTERLY", "SEMESTER", "YEARLY"}

// maxRetryDays bounds how late a failed charge may be retried after its original date.
const maxRetryDays = 7

func badAutoPix(format string, args ...any) error {
	return bad("automatic PIX: "+format, args...)
}

func parseDay(field, v string) (time.Time, error) {
	d, err := time.Parse("2006-01-02", v)
	if err != nil {
		return time.Time{}, badAutoPix("%s %q is not a date in the form YYYY-MM-DD.", field, v)
	}
	return d, nil
}

// CreateAutomaticPixRequest adds a request for a recurring authorization: the payer
// consents once, then the receiver schedules charges within its terms.
func (e *Engine) CreateAutomaticPixRequest(ctx context.Context, in model.AutomaticPixRequestInput) (*model.PaymentRequest, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	a := &model.AutomaticPix{IsRetryAccepted: in.IsRetryAccepted != nil && *in.IsRetryAccepted, FixedAmount: in.FixedAmount,
		MinimumVariableAmount: in.MinimumVariableAmount, MaximumVariableAmount: in.MaximumVariableAmount, ExpiresAt: in.ExpiresAt, FirstPayment: in.FirstPayment}
	if in.Interval == nil || !slices.Contains(autoPixIntervals, strings.ToUpper(*in.Interval)) {
		return nil, badAutoPix("interval must be one of %s.", strings.Join(autoPixIntervals, ", "))
	}
	a.Interval = strings.ToUpper(*in.Interval)
	// On a test clock, today and the new request's times are the clock's.
	onClock := &db.PaymentRequestRow{ClientID: clientID, IsSandbox: in.IsSandbox != nil && *in.IsSandbox}
	if ctx, err = e.attachClock(ctx, onClock, in.TestClockID); err != nil {
		return nil, err
	}
	if in.StartDate == nil {
		return nil, badAutoPix("startDate (YYYY-MM-DD) is required.")
	}
	today := e.today(ctx)
	start, err := parseDay("startDate", *in.StartDate)
	if err != nil {
		return nil, err
	}
	if start.Before(today) {
		return nil, badAutoPix("startDate %s is in the past.", *in.StartDate)
	}
	a.StartDate = *in.StartDate
	if a.FixedAmount != nil && (a.MinimumVariableAmount != nil || a.MaximumVariableAmount != nil) {
		return nil, badAutoPix("fixedAmount excludes minimumVariableAmount and maximumVariableAmount.")
	}
	for field, v := range map[string]*float64{"fixedAmount": a.FixedAmount, "minimumVariableAmount": a.MinimumVariableAmount, "maximumVariableAmount": a.MaximumVariableAmount} {
		if v != nil {
			if err := checkAmount(field, *v); err != nil {
				return nil, err
			}
		}
	}
	if a.MinimumVariableAmount != nil && a.MaximumVariableAmount != nil && *a.MinimumVariableAmount > *a.MaximumVariableAmount {
		return nil, badAutoPix("minimumVariableAmount is above maximumVariableAmount.")
	}
	if a.ExpiresAt != nil {
		exp, err := parseDay("expiresAt", *a.ExpiresAt)
		if err != nil {
			return nil, err
		}
		if !exp.After(start) {
			return nil, badAutoPix("expiresAt %s must be after startDate %s.", *a.ExpiresAt, a.StartDate)
		}
	}
	if f := a.FirstPayment; f != nil {
		if err := checkAmount("firstPayment.amount", f.Amount); err != nil {
			return nil, err
		}
		if f.Date != nil {
			d, err := parseDay("firstPayment.date", *f.Date)
			if err != nil {
				return nil, err
			}
			if d.Before(today) {
				return nil, badAutoPix("firstPayment.date %s is in the past.", *f.Date)
			}
			if a.ExpiresAt != nil && *f.Date > *a.ExpiresAt { // both YYYY-MM-DD
				return nil, badAutoPix("firstPayment.date %s is after expiresAt %s.", *f.Date, *a.ExpiresAt)
			}
		}
	}
	now := e.now(ctx)
	p := &db.PaymentRequestRow{ID: model.NewID(), ClientID: clientID, Status: Created, AutomaticPix: a, IsSandbox: in.IsSandbox != nil && *in.IsSandbox,
		CreatedAt: now, UpdatedAt: now, TestClockID: onClock.TestClockID}
	if err := e.applyRequestInput(ctx, e.db, p, model.PaymentRequestInput{Description: in.Description, CallbackUrls: in.CallbackUrls, RecipientID: in.RecipientID,
		CustomerID: in.CustomerID, ClientPaymentID: in.ClientPaymentID, WebhookURL: in.WebhookURL}, true); err != nil {
		return nil, err
	}
	if err := e.price(ctx, e.db, p); err != nil { // per charge: the fixed part
		return nil, err
	}
	if err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error { return e.insertRequest(ctx, tx, p) }); err != nil {
		return nil, err
	}
	return e.requestView(ctx, p, nil)
}

// startAutomaticPix runs when the payer authorizes: the request is AUTHORIZED (by
// followRequest) and the first payment, if the terms have one, is scheduled.
func (e *Engine) startAutomaticPix(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, n *db.PaymentIntentRow) error {
	f := p.AutomaticPix.FirstPayment
	if f == nil {
		return nil
	}
	date := e.today(ctx)
	if f.Date != nil {
		date, _ = time.Parse("2006-01-02", *f.Date)
	}
	desc := f.Description
	if desc == nil {
		desc = p.Description
	}
	_, err := e.scheduleCharge(ctx, tx, p, f.Amount, desc, date, true, ByUser)
	return err
}

func (e *Engine) scheduleCharge(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, amount float64, desc *string, date time.Time, first bool, by string) (*db.AutomaticPixPaymentRow, error) {
	now := e.now(ctx)
	a := &db.AutomaticPixPaymentRow{ID: model.NewID(), RequestID: p.ID, ClientID: p.ClientID, Status: AutoScheduled, Amount: amount, Description: desc,
		Date: date, OriginalDate: date, IsFirst: first, CreatedAt: now, UpdatedAt: now}
	if !first {
		period := periodStart(p.AutomaticPix.Interval, date)
		a.PeriodStart = &period
	}
	if err := tx.InsertAutomaticPixPayment(ctx, a); errors.Is(err, db.ErrPeriodCharged) {
		// The request's row lock makes this a second line: checkPeriodFree ran under it.
		return nil, model.Fail(model.CodeAutomaticPixPeriodCharged, "automatic PIX: the %s already has a charge.", periodName(p.AutomaticPix.Interval, *a.PeriodStart))
	} else if err != nil {
		return nil, err
	}
	if err := e.queueCharge(ctx, tx, a); err != nil {
		return nil, err
	}
	return a, e.emit(ctx, tx, p, "automatic_pix_payment/created", by, autoPixPayload(a))
}

func (e *Engine) queueCharge(ctx context.Context, tx *db.Tx, a *db.AutomaticPixPaymentRow) error {
	at := e.cfg.scheduleAt(a.Date)
	if !a.Date.After(e.today(ctx)) {
		at = e.now(ctx) // due today: at once
	}
	_, err := e.insertJob(ctx, tx, AutoPixArgs{PaymentID: a.ID, Date: a.Date.Format("2006-01-02")}, &river.InsertOpts{Queue: Queue, ScheduledAt: at, MaxAttempts: 25})
	return err
}

func autoPixPayload(a *db.AutomaticPixPaymentRow) map[string]any {
	m := map[string]any{"automaticPixPaymentId": a.ID.String(), "amount": a.Amount, "date": a.Date.Format("2006-01-02"), "status": a.Status}
	if a.EndToEndID != nil {
		m["endToEndId"] = *a.EndToEndID
	}
	if a.ErrorDetail != nil {
		m["error"] = map[string]any{"code": a.ErrorDetail.Code, "description": a.ErrorDetail.Description, "detail": a.ErrorDetail.Detail}
	}
	return m
}

func autoPixView(a *db.AutomaticPixPaymentRow) *model.AutomaticPixPayment {
	return &model.AutomaticPixPayment{ID: a.ID, Status: a.Status, Amount: a.Amount, Description: a.Description, Date: a.Date.Format("2006-01-02"),
		EndToEndID: a.EndToEndID, ErrorDetail: a.ErrorDetail, CreatedAt: model.NewTime(a.CreatedAt), UpdatedAt: model.NewTime(a.UpdatedAt)}
}

// authorizedRequest reads and locks an automatic PIX request whose authorization is in force.
func (e *Engine) authorizedRequest(ctx context.Context, tx *db.Tx, clientID, id uuid.UUID) (*db.PaymentRequestRow, error) {
	p, err := e.lockRequest(ctx, tx, clientID, id)
	if err != nil {
		return nil, err
	}
	if p.AutomaticPix == nil {
		return nil, bad("Payment request %s is not an automatic PIX request.", id)
	}
	if p.Status != Authorized {
		return nil, model.Fail(model.CodePaymentRequestNotEditable, "Payment request %s is %s: charges need an AUTHORIZED automatic PIX authorization.", id, p.Status)
	}
	return p, nil
}

// ScheduleAutomaticPixPayment schedules a charge within the authorization's terms.
func (e *Engine) ScheduleAutomaticPixPayment(ctx context.Context, requestID uuid.UUID, in model.AutomaticPixPaymentInput) (*model.AutomaticPixPayment, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if in.Amount == nil || in.Date == nil {
		return nil, badAutoPix("amount and date (YYYY-MM-DD) are required.")
	}
	if err := checkAmount("amount", *in.Amount); err != nil {
		return nil, err
	}
	date, err := parseDay("date", *in.Date)
	if err != nil {
		return nil, err
	}
	var a *db.AutomaticPixPaymentRow
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		p, err := e.authorizedRequest(ctx, tx, clientID, requestID)
		if err != nil {
			return err
		}
		if ctx, err = e.onClock(ctx, tx, p); err != nil {
			return err
		}
		terms := p.AutomaticPix
		if err := checkChargeAmount(terms, *in.Amount); err != nil {
			return err
		}
		if !date.After(e.today(ctx)) {
			return badAutoPix("date %s must be after today (%s, São Paulo time).", *in.Date, e.today(ctx).Format("2006-01-02"))
		}
		if err := checkChargeDate(terms, date); err != nil {
			return err
		}
		if err := checkPeriodFree(ctx, tx, p, date); err != nil {
			return err
		}
		desc := in.Description
		if desc == nil {
			desc = p.Description
		}
		a, err = e.scheduleCharge(ctx, tx, p, *in.Amount, desc, date, false, ByClient)
		return err
	})
	if err != nil {
		return nil, err
	}
	return autoPixView(a), nil
}

// checkPeriodFree refuses a charge in a period that has one (not canceled) already. The
// caller holds the request's row lock, so two charges racing for a period take turns here.
func checkPeriodFree(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, date time.Time) error {
	start := periodStart(p.AutomaticPix.Interval, date)
	other, found, err := tx.AutomaticPixPaymentInPeriod(ctx, p.ID, start)
	if err != nil || !found {
		return err
	}
	return model.Fail(model.CodeAutomaticPixPeriodCharged, "automatic PIX: the %s already has charge %s (%s, %s); cancel it to charge another date of the period.",
		periodName(p.AutomaticPix.Interval, start), other.ID, other.OriginalDate.Format(time.DateOnly), other.Status).
		WithData(map[string]string{"automaticPixPaymentId": other.ID.String()})
}

// lockCharge reads a charge of a request, both locked, request first.
func (e *Engine) lockCharge(ctx context.Context, tx *db.Tx, clientID, requestID, id uuid.UUID) (*db.PaymentRequestRow, *db.AutomaticPixPaymentRow, error) {
	p, err := e.lockRequest(ctx, tx, clientID, requestID)
	if err != nil {
		return nil, nil, err
	}
	a, found, err := tx.AutomaticPixPayment(ctx, id, true)
	if err != nil {
		return nil, nil, err
	}
	if !found || a.RequestID != requestID {
		return nil, nil, model.Fail(model.CodeAutomaticPixPaymentNotFound, "Automatic PIX payment %s of payment request %s not found.", id, requestID)
	}
	return p, a, nil
}

// RetryAutomaticPixPayment moves a failed charge to a new date, when the authorization
// accepts retries: within a week of its original date, never the first payment.
func (e *Engine) RetryAutomaticPixPayment(ctx context.Context, requestID, id uuid.UUID, in model.AutomaticPixPaymentInput) (*model.AutomaticPixPayment, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if in.Date == nil {
		return nil, badAutoPix("date (YYYY-MM-DD) is required.")
	}
	date, err := parseDay("date", *in.Date)
	if err != nil {
		return nil, err
	}
	var a *db.AutomaticPixPaymentRow
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var p *db.PaymentRequestRow
		if p, a, err = e.lockCharge(ctx, tx, clientID, requestID, id); err != nil {
			return err
		}
		if ctx, err = e.onClock(ctx, tx, p); err != nil {
			return err
		}
		switch {
		case p.Status != Authorized:
			return model.Fail(model.CodePaymentRequestNotEditable, "Payment request %s is %s: its authorization is no longer in force.", requestID, p.Status)
		case !p.AutomaticPix.IsRetryAccepted:
			return model.Fail(model.CodeAutomaticPixRetryNotAccepted, "The authorization of payment request %s does not accept retries.", requestID)
		case a.IsFirst:
			return model.Fail(model.CodeAutomaticPixRetryNotAccepted, "The first payment of an authorization is never retried.")
		case a.Status != AutoError:
			return model.Fail(model.CodeAutomaticPixPaymentNotRetriable, "Automatic PIX payment %s is %s: only a payment in ERROR is retried.", id, a.Status)
		case !date.After(e.today(ctx)):
			return badAutoPix("a retry's date must be after today (%s, São Paulo time; got %s).", e.today(ctx).Format("2006-01-02"), *in.Date)
		}
		if err := checkRetryDate(p.AutomaticPix, a.OriginalDate, date); err != nil {
			return err
		}
		a.Status, a.Date, a.ErrorDetail, a.UpdatedAt = AutoScheduled, date, nil, e.now(ctx)
		if err := tx.SaveAutomaticPixPayment(ctx, a); err != nil {
			return err
		}
		return e.queueCharge(ctx, tx, a)
	})
	if err != nil {
		return nil, err
	}
	return autoPixView(a), nil
}

// CancelAutomaticPixPayment cancels one scheduled charge.
func (e *Engine) CancelAutomaticPixPayment(ctx context.Context, requestID, id uuid.UUID) (*model.AutomaticPixPayment, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	var a *db.AutomaticPixPaymentRow
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var p *db.PaymentRequestRow
		var err error
		if p, a, err = e.lockCharge(ctx, tx, clientID, requestID, id); err != nil {
			return err
		}
		if ctx, err = e.onClock(ctx, tx, p); err != nil {
			return err
		}
		if a.Status != AutoScheduled {
			return model.Fail(model.CodeAutomaticPixPaymentNotCancelable, "Automatic PIX payment %s is %s: only a SCHEDULED payment can be canceled.", id, a.Status)
		}
		return e.cancelCharge(ctx, tx, p, a, ByClient)
	})
	if err != nil {
		return nil, err
	}
	return autoPixView(a), nil
}

func (e *Engine) cancelCharge(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, a *db.AutomaticPixPaymentRow, by string) error {
	a.Status, a.UpdatedAt = AutoCanceled, e.now(ctx)
	if err := tx.SaveAutomaticPixPayment(ctx, a); err != nil {
		return err
	}
	return e.emit(ctx, tx, p, "automatic_pix_payment/canceled", by, autoPixPayload(a))
}

// CancelAutomaticPixAuthorization ends the authorization: its scheduled charges are
// canceled, the consent is REVOKED and the request CANCELED.
func (e *Engine) CancelAutomaticPixAuthorization(ctx context.Context, requestID uuid.UUID) (*model.PaymentRequest, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	var p *db.PaymentRequestRow
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		if p, err = e.authorizedRequest(ctx, tx, clientID, requestID); err != nil {
			return err
		}
		if ctx, err = e.onClock(ctx, tx, p); err != nil {
			return err
		}
		n, _, err := tx.ActivePaymentIntent(ctx, p.ID)
		if err != nil {
			return err
		}
		return e.endAuthorization(ctx, tx, p, n, Revoked, ByClient)
	})
	if err != nil {
		return nil, err
	}
	return e.requestView(ctx, p, nil)
}

// AutomaticPixPayments lists a request's charges by date.
func (e *Engine) AutomaticPixPayments(ctx context.Context, requestID uuid.UUID, page, pageSize *int) (*model.AutomaticPixPaymentPage, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	n, err := readPage(page, pageSize, func(limit, offset int) ([]*model.AutomaticPixPayment, int, error) {
		p, err := e.requestRow(ctx, clientID, requestID)
		if err != nil {
			return nil, 0, err
		}
		if p.AutomaticPix == nil {
			return nil, 0, bad("Payment request %s is not an automatic PIX request.", requestID)
		}
		rows, total, err := e.db.AutomaticPixPayments(ctx, requestID, limit, offset)
		if err != nil {
			return nil, 0, err
		}
		out := make([]*model.AutomaticPixPayment, len(rows))
		for i, a := range rows {
			out[i] = autoPixView(a)
		}
		return out, total, nil
	})
	if err != nil {
		return nil, err
	}
	return &model.AutomaticPixPaymentPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

// AutomaticPixPayment reads one charge.
func (e *Engine) AutomaticPixPayment(ctx context.Context, requestID, id uuid.UUID) (*model.AutomaticPixPayment, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := e.requestRow(ctx, clientID, requestID); err != nil {
		return nil, err
	}
	a, found, err := e.db.AutomaticPixPayment(ctx, id, false)
	if err != nil {
		return nil, err
	}
	if !found || a.RequestID != requestID {
		return nil, model.Fail(model.CodeAutomaticPixPaymentNotFound, "Automatic PIX payment %s of payment request %s not found.", id, requestID)
	}
	return autoPixView(a), nil
}

// AutoPixArgs runs one charge on its date. Date names the date it was queued for: a
// charge retried for another date has a job of its own, and this one does nothing.
type AutoPixArgs struct {
	PaymentID uuid.UUID `json:"paymentId"`
	Date      string    `json:"date"`
}

func (AutoPixArgs) Kind() string { return "automatic_pix_payment" }

type autoPixWorker struct {
	river.WorkerDefaults[AutoPixArgs]
	e *Engine
}

func (w *autoPixWorker) Work(ctx context.Context, job *river.Job[AutoPixArgs]) error {
	e := w.e
	return e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		a, found, err := tx.AutomaticPixPayment(ctx, job.Args.PaymentID, false)
		if err != nil || !found {
			return err
		}
		p, found, err := tx.PaymentRequest(ctx, uuid.Nil, a.RequestID, true)
		if err != nil || !found {
			return err
		}
		if a, _, err = tx.AutomaticPixPayment(ctx, a.ID, true); err != nil {
			return err
		}
		if a.Status != AutoScheduled || a.Date.Format("2006-01-02") != job.Args.Date || p.Status != Authorized {
			return nil
		}
		n, _, err := tx.ActivePaymentIntent(ctx, p.ID)
		if err != nil {
			return err
		}
		var refused *model.PaymentErrorDetail
		if n != nil {
			at := attempt(p, n)
			at.Amount = cents(a.Amount)
			if refused, err = e.settleAtOnce(ctx, at); err != nil {
				return err
			}
		}
		return e.runCharge(ctx, tx, p, n, a, refused, ByInternal)
	})
}

// runCharge records a charge's run: COMPLETED (with its end-to-end id, paid to the
// ledger) or, refused, ERROR with the refusal; its event sent.
func (e *Engine) runCharge(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, n *db.PaymentIntentRow, a *db.AutomaticPixPaymentRow, refused *model.PaymentErrorDetail, by string) error {
	event := "automatic_pix_payment/completed"
	a.Status, a.UpdatedAt = AutoCompleted, e.now(ctx)
	if refused != nil {
		a.Status, a.ErrorDetail, event = AutoError, refused, "automatic_pix_payment/error"
	} else {
		connector := 0
		if n != nil {
			connector = n.ConnectorID
		}
		a.EndToEndID = strPtr(e.endToEndID(ctx, tx, connector, e.now(ctx)))
	}
	if err := tx.SaveAutomaticPixPayment(ctx, a); err != nil {
		return err
	}
	if a.Status == AutoCompleted {
		if err := e.payDated(ctx, tx, p, "automatic_pix", a.ID, a.Amount); err != nil {
			return err
		}
	}
	return e.emit(ctx, tx, p, event, by, autoPixPayload(a))
}
