package payments

import (
	"context"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/metrics"
	"ponte/model"
)

// Who moved something, as events report it (section 6.2).
const (
	ByClient   = "CLIENT"
	ByUser     = "USER"
	ByInternal = "INTERNAL"
)

// CreateRequest adds a payment request.
func (e *Engine) CreateRequest(ctx context.Context, in model.PaymentRequestInput) (*model.PaymentRequest, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	now := e.now(ctx)
	p := &db.PaymentRequestRow{ID: model.NewID(), ClientID: clientID, Status: Created, IsSandbox: in.IsSandbox != nil && *in.IsSandbox, CreatedAt: now, UpdatedAt: now}
	if in.Boleto != nil {
		if err := e.boletoRecipient(ctx, p, &in); err != nil {
			return nil, err
		}
	}
	if in.SmartAccountID != nil {
		if in.RecipientID != nil || in.Boleto != nil {
			return nil, bad("smartAccountId excludes recipientId and boleto: the money goes to one place.")
		}
		a, err := e.smartAccountOf(ctx, clientID, "smartAccountId", *in.SmartAccountID)
		if err != nil {
			return nil, err
		}
		p.SmartAccountID = &a.ID
	}
	if in.Amount == nil {
		return nil, bad("amount is required.")
	}
	if ctx, err = e.attachClock(ctx, p, in.TestClockID); err != nil {
		return nil, err
	}
	if err := e.applyRequestInput(ctx, e.db, p, in, true); err != nil {
		return nil, err
	}
	if err := e.price(ctx, e.db, p); err != nil {
		return nil, err
	}
	if err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error { return e.insertRequest(ctx, tx, p) }); err != nil {
		return nil, err
	}
	return e.requestView(ctx, p, nil)
}

// applyRequestInput validates and applies the fields given; on create the recipient
// falls back to the application's default one.
func (e *Engine) applyRequestInput(ctx context.Context, q partyReader, p *db.PaymentRequestRow, in model.PaymentRequestInput, create bool) error {
	if !create && in.Boleto != nil {
		return bad("boleto cannot change after a request is created; create another request.")
	}
	if !create && in.TestClockID != nil {
		return bad("testClockId cannot change after a request is created; create another request.")
	}
	if in.Amount != nil {
		if err := checkAmount("amount", *in.Amount); err != nil {
			return err
		}
		p.Amount = *in.Amount
	}
	if in.Description != nil {
		if len(*in.Description) > 140 {
			return bad("description is longer than 140 characters (a PIX description's limit).")
		}
		p.Description = emptyAsNil(in.Description)
	}
	if in.ClientPaymentID != nil {
		if len(*in.ClientPaymentID) > 100 {
			return bad("clientPaymentId is longer than 100 characters.")
		}
		p.ClientPaymentID = emptyAsNil(in.ClientPaymentID)
	}
	if in.CallbackUrls != nil {
		for field, u := range map[string]*string{"callbackUrls.success": in.CallbackUrls.Success, "callbackUrls.pending": in.CallbackUrls.Pending, "callbackUrls.error": in.CallbackUrls.Error} {
			if u != nil {
				if err := model.CheckRedirectURL(field, *u); err != nil {
					return err
				}
			}
		}
		p.CallbackURLs = in.CallbackUrls
	}
	if in.WebhookURL != nil {
		if *in.WebhookURL == "" {
			p.WebhookURL = nil
		} else {
			if err := model.CheckEventURL("webhookUrl", *in.WebhookURL, e.cfg.AllowInsecureWebhooks); err != nil {
				return err
			}
			p.WebhookURL = in.WebhookURL
		}
	}
	if in.RecipientID != nil {
		id, err := parseID("recipientId", *in.RecipientID)
		if err != nil {
			return err
		}
		if _, err := recipientOf(ctx, q, p.ClientID, id); err != nil {
			return err
		}
		p.RecipientID = &id
	} else if create && p.PixQrCode == nil && p.Boleto == nil && p.SmartAccountID == nil {
		r, found, err := q.DefaultPaymentRecipient(ctx, p.ClientID)
		if err != nil {
			return err
		}
		if !found {
			return bad("recipientId is required: this application has no default recipient (POST /payments/recipients with isDefault true).")
		}
		p.RecipientID = &r.ID
	}
	if in.CustomerID != nil {
		id, err := parseID("customerId", *in.CustomerID)
		if err != nil {
			return err
		}
		if _, err := customerOf(ctx, q, p.ClientID, id); err != nil {
			return err
		}
		p.CustomerID = &id
	}
	if in.Schedule != nil {
		s, err := normalizeSchedule(in.Schedule)
		if err != nil {
			return err
		}
		if p.Boleto != nil && s.Type != "SINGLE" {
			return badSchedule("a request paying a boleto pays it once: its schedule is SINGLE (got %s).", s.Type)
		}
		if _, err := scheduleDates(s, e.today(ctx)); err != nil {
			return err
		}
		p.Schedule = s
	}
	return nil
}

// price sets the request's fees: none in the sandbox, otherwise the application's PIX
// pricing (a fixed part plus a percentage of the amount).
func (e *Engine) price(ctx context.Context, q partyReader, p *db.PaymentRequestRow) error {
	p.Fees = 0
	if p.IsSandbox {
		return nil
	}
	pricing, err := q.ClientPaymentPricing(ctx, p.ClientID)
	if err != nil {
		return err
	}
	if pr, ok := pricing["PIX"]; ok {
		p.Fees = fee(p.Amount, pr.Fixed, pr.Percent)
	}
	return nil
}

// fee is fixed + amount × percent / 100, computed exactly on the numbers as written (the
// shortest decimal of each float: 14.5, 1.2) and rounded to the cent, half a cent up. In
// float64 arithmetic R$ 14.50 at 1% came to 0.14 (14.5 × 0.01 is 0.14499…) while R$ 24.50
// came to 0.25. Amounts and prices are positive.
func fee(amount, fixed, percent float64) float64 {
	r := new(big.Rat).Mul(exactDecimal(amount), exactDecimal(percent))
	r.Quo(r, big.NewRat(100, 1))
	r.Add(r, exactDecimal(fixed))
	r.Mul(r, big.NewRat(100, 1))
	// Half up to whole cents: floor((2n + d) / 2d) for the fraction n/d.
	num := new(big.Int).Add(new(big.Int).Lsh(r.Num(), 1), r.Denom())
	cents := num.Quo(num, new(big.Int).Lsh(r.Denom(), 1))
	return float64(cents.Int64()) / 100
}

// exactDecimal is the rational a float64 stands for in the API: its shortest decimal.
func exactDecimal(f float64) *big.Rat {
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(f, 'f', -1, 64))
	return r
}

// CreateRequestFromPixQr adds a request that pays a PIX BR Code the caller pasted.
func (e *Engine) CreateRequestFromPixQr(ctx context.Context, in model.PixQrPaymentRequestInput) (*model.PaymentRequest, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if !nonEmpty(in.PixQrCode) {
		return nil, bad("pixQrCode is required: the PIX BR Code (copia e cola) to pay.")
	}
	code, err := ParseBRCode(*in.PixQrCode)
	if err != nil {
		return nil, model.Fail(model.CodeInvalidPixQrCode, "pixQrCode is not a valid PIX BR Code: %v.", err)
	}
	if code.Amount == 0 {
		return nil, model.Fail(model.CodeInvalidPixQrCode, "pixQrCode has no amount (field 54); codes without one cannot be paid through a payment request.")
	}
	if err := checkAmount("pixQrCode's amount (field 54)", code.Amount); err != nil {
		return nil, err
	}
	q := &model.PixQrCode{Payload: strings.TrimSpace(*in.PixQrCode), Dynamic: code.Dynamic, Amount: &code.Amount, MerchantName: code.MerchantName, MerchantCity: code.MerchantCity}
	if code.Key != "" {
		q.PixKey = &code.Key
	}
	if code.URL != "" {
		q.URL = &code.URL
	}
	if code.TxID != "" && code.TxID != "***" {
		q.TransactionID = &code.TxID
	}
	if code.Description != "" {
		q.Description = &code.Description
	}
	desc := in.Description
	if desc == nil {
		desc = q.Description
	}
	now := e.now(ctx)
	p := &db.PaymentRequestRow{ID: model.NewID(), ClientID: clientID, Status: Created, PixQrCode: q, IsSandbox: in.IsSandbox != nil && *in.IsSandbox, CreatedAt: now, UpdatedAt: now}
	if err := e.applyRequestInput(ctx, e.db, p, model.PaymentRequestInput{Amount: &code.Amount, Description: desc, CallbackUrls: in.CallbackUrls,
		CustomerID: in.CustomerID, ClientPaymentID: in.ClientPaymentID, WebhookURL: in.WebhookURL}, true); err != nil {
		return nil, err
	}
	if err := e.price(ctx, e.db, p); err != nil {
		return nil, err
	}
	if err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error { return e.insertRequest(ctx, tx, p) }); err != nil {
		return nil, err
	}
	return e.requestView(ctx, p, nil)
}

// parties caches recipients and customers while a page of requests is assembled.
type parties struct {
	recipients map[uuid.UUID]*model.PaymentRecipient
	customers  map[uuid.UUID]*model.PaymentCustomer
}

// requestView turns a stored request into its API form.
func (e *Engine) requestView(ctx context.Context, p *db.PaymentRequestRow, cache *parties) (*model.PaymentRequest, error) {
	if cache == nil {
		cache = &parties{map[uuid.UUID]*model.PaymentRecipient{}, map[uuid.UUID]*model.PaymentCustomer{}}
	}
	out := &model.PaymentRequest{ID: p.ID, Fees: p.Fees, AutomaticPix: p.AutomaticPix, Description: p.Description, Status: p.Status, ClientPaymentID: p.ClientPaymentID,
		CreatedAt: model.NewTime(p.CreatedAt), UpdatedAt: model.NewTime(p.UpdatedAt), CallbackUrls: p.CallbackURLs,
		PaymentURL: e.cfg.BaseURL + "/payments/pay/" + p.ID.String(), PixQrCode: p.PixQrCode, Boleto: boletoDocument(p.Boleto), RefundedAmount: p.RefundedAmount, SmartAccount: e.smartAccountDocument(ctx, p), Schedule: p.Schedule, ErrorDetail: p.ErrorDetail,
		IsSandbox: p.IsSandbox, WebhookURL: p.WebhookURL, TestClockID: p.TestClockID}
	if p.AutomaticPix == nil {
		amount := p.Amount
		out.Amount = &amount
	}
	if p.ConsentedRecipient != nil {
		r := *p.ConsentedRecipient
		out.Recipient = &r
	} else if p.RecipientID != nil {
		r, ok := cache.recipients[*p.RecipientID]
		if !ok {
			var err error
			if r, _, err = e.db.PaymentRecipient(ctx, p.ClientID, *p.RecipientID, true); err != nil {
				return nil, err
			}
			cache.recipients[*p.RecipientID] = r
		}
		out.Recipient = r
	}
	switch {
	case out.Recipient == nil && p.PixQrCode != nil:
		// The pasted code is the recipient: its merchant and key (or location), no account.
		q := p.PixQrCode
		key := q.PixKey
		if key == nil {
			key = q.URL
		}
		out.Recipient = &model.PaymentRecipient{Type: "PIX_QR_CODE", ID: p.ID, Name: q.MerchantName, PixKey: key,
			CreatedAt: out.CreatedAt, UpdatedAt: out.CreatedAt}
	case out.Recipient == nil && p.Boleto != nil:
		line := p.Boleto.DigitableLine
		out.Recipient = &model.PaymentRecipient{Type: "BOLETO", ID: p.ID, DigitableLine: &line, CreatedAt: out.CreatedAt, UpdatedAt: out.CreatedAt}
	}
	if p.CustomerID != nil {
		c, ok := cache.customers[*p.CustomerID]
		if !ok {
			var err error
			if c, _, err = e.db.PaymentCustomer(ctx, p.ClientID, *p.CustomerID, true); err != nil {
				return nil, err
			}
			cache.customers[*p.CustomerID] = c
		}
		out.Customer = c
	}
	return out, nil
}

// requestRow reads one of clientID's requests.
func (e *Engine) requestRow(ctx context.Context, clientID, id uuid.UUID) (*db.PaymentRequestRow, error) {
	p, found, err := e.db.PaymentRequest(ctx, clientID, id, false)
	return requestFound(id, p, found, err)
}

// lockRequest reads one of clientID's requests and holds it for the rest of tx, which
// serializes every move of the request.
func (e *Engine) lockRequest(ctx context.Context, tx *db.Tx, clientID, id uuid.UUID) (*db.PaymentRequestRow, error) {
	p, found, err := tx.PaymentRequest(ctx, clientID, id, true)
	return requestFound(id, p, found, err)
}

func requestFound(id uuid.UUID, p *db.PaymentRequestRow, found bool, err error) (*db.PaymentRequestRow, error) {
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodePaymentRequestNotFound, "Payment request %s not found.", id)
	}
	return p, nil
}

// Request reads a request.
func (e *Engine) Request(ctx context.Context, id uuid.UUID) (*model.PaymentRequest, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	p, err := e.requestRow(ctx, clientID, id)
	if err != nil {
		return nil, err
	}
	return e.requestView(ctx, p, nil)
}

// Requests lists requests created in [from, to).
func (e *Engine) Requests(ctx context.Context, page, pageSize *int, from, to *string) (*model.PaymentRequestPage, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	n, err := readPage(page, pageSize, func(limit, offset int) ([]*model.PaymentRequest, int, error) {
		f, t, err := dateRange(from, to)
		if err != nil {
			return nil, 0, err
		}
		rows, total, err := e.db.PaymentRequests(ctx, clientID, f, t, limit, offset)
		if err != nil {
			return nil, 0, err
		}
		out, err := e.requestViews(ctx, rows)
		return out, total, err
	})
	if err != nil {
		return nil, err
	}
	return &model.PaymentRequestPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

// requestViews turns a page of stored requests into their API form, reading their
// recipients and customers in one statement each.
func (e *Engine) requestViews(ctx context.Context, rows []*db.PaymentRequestRow) ([]*model.PaymentRequest, error) {
	out := make([]*model.PaymentRequest, 0, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	recipients, customers := map[uuid.UUID]bool{}, map[uuid.UUID]bool{}
	for _, p := range rows {
		if p.RecipientID != nil {
			recipients[*p.RecipientID] = true
		}
		if p.CustomerID != nil {
			customers[*p.CustomerID] = true
		}
	}
	cache := &parties{map[uuid.UUID]*model.PaymentRecipient{}, map[uuid.UUID]*model.PaymentCustomer{}}
	client := rows[0].ClientID
	rs, err := e.db.PaymentRecipientsByID(ctx, client, slices.Collect(maps.Keys(recipients)))
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		cache.recipients[r.ID] = r
	}
	cs, err := e.db.PaymentCustomersByID(ctx, client, slices.Collect(maps.Keys(customers)))
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		cache.customers[c.ID] = c
	}
	for _, p := range rows {
		v, err := e.requestView(ctx, p, cache)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// UpdateRequest changes a request no payer has started paying.
func (e *Engine) UpdateRequest(ctx context.Context, id uuid.UUID, in model.PaymentRequestInput) (*model.PaymentRequest, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	var p *db.PaymentRequestRow
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		// Found first: another application's id is a 404 whatever the body says.
		if p, err = e.lockRequest(ctx, tx, clientID, id); err != nil {
			return err
		}
		if ctx, err = e.onClock(ctx, tx, p); err != nil {
			return err
		}
		if in.IsSandbox != nil || in.SmartAccountID != nil {
			return bad("isSandbox and smartAccountId cannot change after a request is created.")
		}
		if p.Status != Created {
			return model.Fail(model.CodePaymentRequestNotEditable, "Payment request %s is %s: only a CREATED request, with no payment under way, can change.", id, p.Status)
		}
		if err := e.notInOpenBulk(ctx, tx, p, "changed"); err != nil {
			return err
		}
		if p.AutomaticPix != nil && (in.Amount != nil || in.Schedule != nil) {
			return bad("An automatic PIX request has no amount or schedule of its own: each charge is scheduled under its authorization.")
		}
		if p.PixQrCode != nil && (in.Amount != nil || in.RecipientID != nil || in.Schedule != nil) {
			return bad("A request made from a PIX QR code keeps the code's amount and receiver and has no schedule.")
		}
		if err := e.applyRequestInput(ctx, tx, p, in, false); err != nil {
			return err
		}
		if err := e.price(ctx, tx, p); err != nil {
			return err
		}
		p.UpdatedAt = e.now(ctx)
		return tx.SavePaymentRequest(ctx, p)
	})
	if err != nil {
		return nil, err
	}
	return e.requestView(ctx, p, nil)
}

// DeleteRequest cancels and removes a request. An attempt waiting for the payer is
// canceled with it; a request whose money is moving, has moved, or is scheduled is not
// deleted (cancel its schedules first).
func (e *Engine) DeleteRequest(ctx context.Context, id uuid.UUID) (*model.PaymentRequest, error) {
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
		n, active, err := tx.ActivePaymentIntent(ctx, p.ID)
		if err != nil {
			return err
		}
		if active {
			if !slices.Contains([]string{Started, Enqueued, ConsentAwaitingAuthorization}, n.Status) {
				return model.Fail(model.CodePaymentRequestNotEditable, "Payment request %s cannot be deleted: its payment is %s.", id, n.Status)
			}
			n.ErrorDetail = &model.PaymentErrorDetail{Code: model.PaymentErrorCanceled, Description: "The payment request was deleted by the application."}
			if err := e.advance(ctx, tx, p, n, IntentCanceled, ByClient); err != nil {
				return err
			}
		}
		switch p.Status {
		case Created:
			if err := e.notInOpenBulk(ctx, tx, p, "deleted"); err != nil {
				return err
			}
			if err := e.setRequestStatus(ctx, tx, p, Canceled, ByClient); err != nil {
				return err
			}
		case RequestError, Expired, Canceled:
		case Authorized:
			return model.Fail(model.CodePaymentRequestNotEditable, "Payment request %s has an automatic PIX authorization in force: cancel it first (POST /payments/requests/%s/automatic-pix/cancel).", id, id)
		case Scheduled:
			return model.Fail(model.CodePaymentRequestNotEditable, "Payment request %s is SCHEDULED: cancel its scheduled payments first (POST /payments/requests/%s/schedules/cancel).", id, id)
		default:
			return model.Fail(model.CodePaymentRequestNotEditable, "Payment request %s is %s and cannot be deleted.", id, p.Status)
		}
		return tx.DeletePaymentRequest(ctx, p.ID, e.now(ctx))
	})
	if err != nil {
		return nil, err
	}
	return e.requestView(ctx, p, nil)
}

// notInOpenBulk refuses to touch a request that a bulk payment waiting for its approval
// holds: its owner approves the requests as they are now.
func (e *Engine) notInOpenBulk(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, what string) error {
	bulk, held, err := tx.OpenBulkOf(ctx, p.ID)
	if err != nil || !held {
		return err
	}
	return model.Fail(model.CodePaymentRequestNotEditable, "Payment request %s is in bulk payment %s, which waits for its approval: it cannot be %s until that bulk payment is deleted or decided.", p.ID, bulk, what).
		WithData(map[string]string{"bulkPaymentId": bulk.String()})
}

// setRequestStatus moves a request on its own (not following an intent), with its event.
func (e *Engine) setRequestStatus(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, to, by string) error {
	if p.Status == to {
		return nil
	}
	if err := checkRequestMove(p.Status, to); err != nil {
		return err
	}
	from := p.Status
	p.Status, p.UpdatedAt = to, e.now(ctx)
	if to == Created {
		// Free again (its attempt ended without paying): the next attempt is consented anew.
		p.ConsentedRecipient = nil
	}
	if err := tx.SavePaymentRequest(ctx, p); err != nil {
		return err
	}
	if to == Completed && p.Boleto != nil {
		if err := e.settleOwnBoleto(ctx, tx, p.Boleto); err != nil {
			return err
		}
	}
	if to == Completed && kindOf(p) == single {
		// A dated or recurring request's payments post one by one as each settles.
		if err := e.payRequest(ctx, tx, p); err != nil {
			return err
		}
	}
	tx.AfterCommit(func() {
		metrics.PaymentMoves.WithLabelValues("request", to).Inc()
		e.log.InfoContext(ctx, "payment request status", "paymentRequestId", p.ID, "clientId", p.ClientID, "from", from, "status", to, "by", by)
	})
	return e.emit(ctx, tx, p, "payment_request/updated", by, map[string]any{"clientId": p.ClientID.String(), "status": to})
}

// emit records a payment event for the application's webhooks and the request's own URL.
func (e *Engine) emit(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, name, by string, payload map[string]any) error {
	payload["paymentRequestId"] = p.ID.String()
	payload["triggeredBy"] = by
	return tx.InsertEvent(ctx, &db.Event{ClientID: p.ClientID, Event: name, TargetURL: p.WebhookURL, Payload: payload})
}

func (e *Engine) today(ctx context.Context) time.Time {
	n := e.now(ctx).In(SaoPaulo)
	return time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, time.UTC)
}
