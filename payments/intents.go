package payments

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/db"
	"ponte/model"
)

// Sandbox payers: a payer CPF picks how the simulated institution behaves. Any other
// valid CPF pays normally.
const (
	CPFInsufficientFunds = "10000000108" // the payment is rejected: not enough balance
	CPFLimitExceeded     = "10000000280" // the payment is rejected: above the account's limit
	CPFRejectedInApp     = "10000000361" // the payer refuses in the institution's app after authorizing here
	CPFSettlementFailure = "10000000442" // the debit is refused during settlement
	CPFMultiSignature    = "10000000523" // a second signer must authorize (PAYMENT_PARTIALLY_ACCEPTED)
)

var scenarioErrors = map[string]model.PaymentErrorDetail{
	CPFInsufficientFunds: {Code: "INSUFFICIENT_FUNDS", Description: "The payer's account has not enough balance for this payment.", Detail: strPtr("SALDO_INSUFICIENTE")},
	CPFLimitExceeded:     {Code: "LIMIT_EXCEEDED", Description: "The payment is above the payer account's transaction limit.", Detail: strPtr("VALOR_ACIMA_LIMITE")},
	CPFRejectedInApp:     {Code: "REJECTED_BY_USER", Description: "The payer rejected the payment in the institution's app.", Detail: strPtr("REJEITADO_USUARIO")},
	CPFSettlementFailure: {Code: "SETTLEMENT_FAILED", Description: "The institution could not settle the payment.", Detail: strPtr("FALHA_INFRAESTRUTURA_ICP")},
}

// CreateIntent starts a payer's attempt on a request. The request is locked for the
// transaction, so of several attempts racing on one request exactly one proceeds.
func (e *Engine) CreateIntent(ctx context.Context, clientID uuid.UUID, in model.PaymentIntentInput, by string) (*model.PaymentIntent, error) {
	if in.PaymentRequestID == nil {
		return nil, bad("paymentRequestId is required.")
	}
	reqID, err := parseID("paymentRequestId", *in.PaymentRequestID)
	if err != nil {
		return nil, err
	}
	if in.ConnectorID == nil {
		return nil, bad("connectorId is required: a connector with supportsPaymentInitiation (GET /connectors?supportsPaymentInitiation=true).")
	}
	conn, found, err := e.db.Connector(ctx, *in.ConnectorID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeConnectorNotFound, "Connector %d not found.", *in.ConnectorID)
	}
	if !conn.SupportsPaymentInitiation {
		return nil, model.Fail(model.CodeConnectorNoPayments, "Connector %d (%s) does not support payment initiation; list those that do with GET /connectors?supportsPaymentInitiation=true.", conn.ID, conn.Name)
	}
	if in.Parameters == nil || in.Parameters.Cpf == nil {
		return nil, bad("parameters.cpf is required: the payer's CPF.")
	}
	payer := db.PaymentPayer{Name: emptyAsNil(in.Parameters.Name)}
	if payer.Cpf, err = checkCPF("parameters.cpf", *in.Parameters.Cpf); err != nil {
		return nil, err
	}
	if c := emptyAsNil(in.Parameters.Cnpj); c != nil {
		d, err := checkCNPJ("parameters.cnpj", *c)
		if err != nil {
			return nil, err
		}
		payer.Cnpj = &d
	}
	method := "PIS"
	if in.PaymentMethod != nil {
		method = strings.ToUpper(*in.PaymentMethod)
		if method != "PIS" && method != "PIX" {
			return nil, bad("paymentMethod must be PIS (payment initiation) or PIX (got %q).", *in.PaymentMethod)
		}
	}
	dynamic := in.IsDynamicPix != nil && *in.IsDynamicPix
	if dynamic && method != "PIX" {
		return nil, bad("isDynamicPix applies only to paymentMethod PIX.")
	}
	now := e.now()
	n := &db.PaymentIntentRow{ID: uuid.New(), ClientID: clientID, RequestID: reqID, ConnectorID: conn.ID, Status: Started, PaymentMethod: method,
		IsDynamicPix: dynamic, Payer: payer, Active: true, AuthorizeBy: now.Add(e.cfg.AuthorizationTimeout), CreatedAt: now, UpdatedAt: now}
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		p, err := e.requestRow(ctx, tx.PGX, clientID, reqID, true)
		if err != nil {
			return err
		}
		if p.Status != Created {
			return model.Fail(model.CodePaymentRequestNotAvailable, "Payment request %s is %s: a new payment intent starts only on a CREATED request.", reqID, p.Status)
		}
		if p.AutomaticPix != nil {
			// Section 4.5: the payer's name is required for automatic PIX only.
			if payer.Name == nil {
				return bad("parameters.name is required for an automatic PIX request: the payer's name goes on the recurring authorization.")
			}
			if method != "PIS" {
				return bad("An automatic PIX authorization is given by payment initiation (paymentMethod PIS).")
			}
			n.AuthorizeBy = now.Add(e.cfg.AutomaticPixTimeout)
		}
		if dynamic {
			noDocument := bad("isDynamicPix needs the payment request to name a customer with a CPF or CNPJ.")
			if p.CustomerID == nil {
				return noDocument
			}
			c, _, err := e.db.PaymentCustomer(ctx, clientID, *p.CustomerID, true)
			if err != nil {
				return err
			}
			if c.Cpf == nil && c.Cnpj == nil {
				return noDocument
			}
		}
		n.ReferenceID = strPtr(e.endToEndID(ctx, conn.ID, now))
		if method == "PIX" {
			n.PixData, err = e.pixData(ctx, p, n)
			if err != nil {
				return err
			}
		}
		if err := tx.InsertPaymentIntent(ctx, n); errors.Is(err, db.ErrActiveIntent) {
			return model.Fail(model.CodePaymentRequestNotAvailable, "Payment request %s already has a payment intent under way.", reqID)
		} else if err != nil {
			return err
		}
		if err := tx.AddPaymentIntentStep(ctx, n.ID, Started, now); err != nil {
			return err
		}
		p.ErrorDetail = nil
		if err := e.emit(ctx, tx, p, "payment_intent/created", by, map[string]any{"paymentIntentId": n.ID.String()}); err != nil {
			return err
		}
		if err := e.followRequest(ctx, tx, p, n, by); err != nil {
			return err
		}
		for _, s := range []string{Enqueued, ConsentAwaitingAuthorization} {
			if err := e.advance(ctx, tx, p, n, s, by); err != nil {
				return err
			}
		}
		_, err = e.jobs.InsertTx(ctx, tx.PGX, TimeoutArgs{IntentID: n.ID}, &river.InsertOpts{Queue: Queue, ScheduledAt: n.AuthorizeBy, MaxAttempts: 25})
		return err
	})
	if err != nil {
		return nil, err
	}
	return e.Intent(ctx, clientID, n.ID)
}

// endToEndID is a PIX end-to-end identifier: E, the payer institution's ISPB, the minute
// (UTC), and eleven random characters.
func (e *Engine) endToEndID(ctx context.Context, connectorID int, t time.Time) string {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, 11)
	for i := range b {
		b[i] = alnum[rand.IntN(len(alnum))]
	}
	ispb := "00000000"
	if inst, err := e.db.PaymentInstitutionByIndex(ctx, connectorID); err == nil {
		ispb = inst.Ispb
	}
	return fmt.Sprintf("E%s%s%s", ispb, t.UTC().Format("200601021504"), b)
}

// pixData is the BR Code a PIX-method intent is paid with: dynamic codes point at this
// service's payload location and are single use; static ones name the recipient's key.
func (e *Engine) pixData(ctx context.Context, p *db.PaymentRequestRow, n *db.PaymentIntentRow) (*model.PixData, error) {
	code := BRCode{Amount: p.Amount, MerchantName: "Ponte", MerchantCity: "SAO PAULO", TxID: strings.ReplaceAll(n.ID.String(), "-", "")[:25]}
	if p.Description != nil {
		code.Description = truncate(asciiOnly(*p.Description), 40)
	}
	switch {
	case p.PixQrCode != nil:
		return &model.PixData{Qr: QRDataURL(p.PixQrCode.Payload), Value: p.PixQrCode.Payload}, nil
	case p.RecipientID != nil:
		r, _, err := e.db.PaymentRecipient(ctx, p.ClientID, *p.RecipientID, true)
		if err != nil {
			return nil, err
		}
		code.MerchantName = r.Name
		code.Key = r.TaxNumber
		if r.PixKey != nil {
			code.Key = *r.PixKey
		}
	}
	if n.IsDynamicPix {
		code.Dynamic = true
		u, err := url.Parse(e.cfg.BaseURL)
		if err != nil {
			return nil, err
		}
		code.URL = u.Host + "/payments/pix/" + n.ID.String()
		code.Description = ""
	}
	if err := code.Fits(); err != nil {
		return nil, model.Fail(model.CodePaymentFeatureNotSupported, "This payment cannot be paid by PIX code: %v. For a dynamic code, serve the service under a shorter PONTE_BASE_URL host.", err)
	}
	v := code.Encode()
	return &model.PixData{Qr: QRDataURL(v), Value: v}, nil
}

// advance moves an intent, and its request after it, recording the step and the events.
func (e *Engine) advance(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, n *db.PaymentIntentRow, to, by string) error {
	if err := e.moveIntent(ctx, tx, n, to); err != nil {
		return err
	}
	ids := map[string]any{"paymentIntentId": n.ID.String()}
	switch to {
	case ConsentAwaitingAuthorization, PaymentPartiallyAccepted:
		if err := e.emit(ctx, tx, p, "payment_intent/waiting_payer_authorization", by, ids); err != nil {
			return err
		}
	case PaymentCompleted:
		ids["referenceId"] = n.ReferenceID
		if err := e.emit(ctx, tx, p, "payment_intent/completed", by, ids); err != nil {
			return err
		}
	case ConsentRejected, PaymentRejected, IntentError, PaymentTimeout, IntentCanceled:
		ids["referenceId"] = n.ReferenceID
		d := n.ErrorDetail
		if d == nil {
			d = &model.PaymentErrorDetail{Code: to, Description: "The payment did not complete."}
		}
		ids["error"] = map[string]any{"code": d.Code, "description": d.Description, "detail": d.Detail}
		if err := e.emit(ctx, tx, p, "payment_intent/error", by, ids); err != nil {
			return err
		}
	}
	return e.followRequest(ctx, tx, p, n, by)
}

func kindOf(p *db.PaymentRequestRow) requestKind {
	switch {
	case p.AutomaticPix != nil:
		return recurring
	case p.Schedule != nil:
		return dated
	}
	return single
}

// moveIntent checks a move against the table and records it: the intent's status and its
// step. advance adds the events and the request's move; the end of a dated or recurring
// authorization, which moves its request itself, uses this alone.
func (e *Engine) moveIntent(ctx context.Context, tx *db.Tx, n *db.PaymentIntentRow, to string) error {
	if err := checkIntentMove(n.Status, to); err != nil {
		return err
	}
	now := e.now()
	n.Status, n.UpdatedAt = to, now
	if intentEnded(to) {
		n.Active = false
	}
	if err := tx.SavePaymentIntent(ctx, n); err != nil {
		return err
	}
	return tx.AddPaymentIntentStep(ctx, n.ID, to, now)
}

// followRequest puts the request in the status its intent implies.
func (e *Engine) followRequest(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, n *db.PaymentIntentRow, by string) error {
	to := requestFollows(n.Status, kindOf(p))
	if to == p.Status {
		return nil
	}
	if to == RequestError || to == Created {
		p.ErrorDetail = n.ErrorDetail
	}
	return e.setRequestStatus(ctx, tx, p, to, by)
}

// lockIntent reads an intent with its request, both locked, request first (the order every
// writer takes them in).
func (e *Engine) lockIntent(ctx context.Context, tx *db.Tx, clientID, id uuid.UUID) (*db.PaymentRequestRow, *db.PaymentIntentRow, error) {
	n, found, err := db.PaymentIntent(ctx, tx.PGX, clientID, id, false)
	if err != nil {
		return nil, nil, err
	}
	if !found {
		return nil, nil, model.Fail(model.CodePaymentIntentNotFound, "Payment intent %s not found.", id)
	}
	p, found, err := db.PaymentRequest(ctx, tx.PGX, uuid.Nil, n.RequestID, true)
	if err != nil {
		return nil, nil, err
	}
	if !found {
		return nil, nil, model.Fail(model.CodePaymentRequestNotFound, "The payment request of intent %s was deleted.", id)
	}
	n, _, err = db.PaymentIntent(ctx, tx.PGX, clientID, id, true)
	return p, n, err
}

// Decide is the payer's answer on the consent page: authorize or reject. A multi-signature
// payment waiting for its second signer takes the second authorization the same way.
func (e *Engine) Decide(ctx context.Context, intentID uuid.UUID, authorize bool) (*model.PaymentIntent, error) {
	var clientID uuid.UUID
	err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		p, n, err := e.lockIntent(ctx, tx, uuid.Nil, intentID)
		if err != nil {
			return err
		}
		clientID = n.ClientID
		// Only a waiting intent takes a decision: a second post of the page (a double
		// click, a reload, the back button) changes nothing and sends nothing.
		if waiting, _ := AwaitingPayer(n.Status); !waiting {
			return model.Fail(model.CodeInvalidIntentTransition, "Payment intent %s is no longer waiting for the payer: it is %s.", n.ID, n.Status).
				WithData(map[string]string{"status": n.Status, "decision": DecisionOf(n.Status)})
		}
		if n.Status == PaymentPartiallyAccepted {
			if !authorize {
				n.ErrorDetail = &model.PaymentErrorDetail{Code: "REJECTED_BY_USER", Description: "The second signer rejected the payment.", Detail: strPtr("REJEITADO_USUARIO")}
				return e.advance(ctx, tx, p, n, PaymentRejected, ByUser)
			}
			n.Payer.Signatures++
			if err := e.advance(ctx, tx, p, n, SettlementProcessing, ByUser); err != nil {
				return err
			}
			return e.nextStep(ctx, tx, n)
		}
		if !authorize {
			if err := checkIntentMove(n.Status, ConsentRejected); err != nil {
				return err
			}
			n.ErrorDetail = &model.PaymentErrorDetail{Code: "REJECTED_BY_USER", Description: "The payer rejected the payment consent.", Detail: strPtr("REJEITADO_USUARIO")}
			return e.advance(ctx, tx, p, n, ConsentRejected, ByUser)
		}
		if err := checkIntentMove(n.Status, ConsentAuthorized); err != nil {
			return err
		}
		if n.Payer.Cpf == CPFRejectedInApp {
			d := scenarioErrors[CPFRejectedInApp]
			n.ErrorDetail = &d
			return e.advance(ctx, tx, p, n, ConsentRejected, ByUser)
		}
		n.Payer.Signatures++
		if err := e.advance(ctx, tx, p, n, ConsentAuthorized, ByUser); err != nil {
			return err
		}
		if p.Schedule != nil {
			return e.createScheduled(ctx, tx, p, n)
		}
		if p.AutomaticPix != nil {
			return e.startAutomaticPix(ctx, tx, p, n)
		}
		if err := e.advance(ctx, tx, p, n, PaymentPending, ByUser); err != nil {
			return err
		}
		return e.nextStep(ctx, tx, n)
	})
	if err != nil {
		return nil, err
	}
	return e.Intent(ctx, clientID, intentID)
}

// DecisionOf says what became of a payer's consent once an intent left the statuses that
// wait for it: AUTHORIZED, REJECTED, EXPIRED, or ENDED (canceled or failed before a
// decision); empty while there is nothing decided yet.
func DecisionOf(status string) string {
	switch status {
	case ConsentAuthorized, PaymentPending, PaymentPartiallyAccepted, SettlementProcessing, SettlementDebtorAccount, PaymentCompleted, Consumed:
		return "AUTHORIZED"
	case ConsentRejected, PaymentRejected:
		return "REJECTED"
	case PaymentTimeout:
		return "EXPIRED"
	case IntentCanceled, Revoked, IntentError:
		return "ENDED"
	}
	return ""
}

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

// ---- reads

// intentViews turns stored intents into their API form; requests already at hand (a
// batch of requests' intents) are not read again.
func (e *Engine) intentViews(ctx context.Context, rows []*db.PaymentIntentRow, requests map[uuid.UUID]*model.PaymentRequest) ([]*model.PaymentIntent, error) {
	ids := make([]uuid.UUID, len(rows))
	for i, n := range rows {
		ids[i] = n.ID
	}
	steps, err := e.db.PaymentIntentSteps(ctx, ids)
	if err != nil {
		return nil, err
	}
	connectors := map[int]*model.Connector{}
	if requests == nil {
		requests = map[uuid.UUID]*model.PaymentRequest{}
	}
	// The requests not at hand, in one statement.
	missing := map[uuid.UUID]bool{}
	for _, n := range rows {
		if _, ok := requests[n.RequestID]; !ok {
			missing[n.RequestID] = true
		}
	}
	if len(missing) > 0 {
		found, err := e.db.PaymentRequestsByID(ctx, rows[0].ClientID, slices.Collect(maps.Keys(missing)))
		if err != nil {
			return nil, err
		}
		views, err := e.requestViews(ctx, found)
		if err != nil {
			return nil, err
		}
		for _, v := range views {
			requests[v.ID] = v
		}
	}
	out := make([]*model.PaymentIntent, 0, len(rows))
	for _, n := range rows {
		v := &model.PaymentIntent{ID: n.ID, Status: n.Status, CreatedAt: model.NewTime(n.CreatedAt), UpdatedAt: model.NewTime(n.UpdatedAt),
			ReferenceID: n.ReferenceID, PaymentMethod: n.PaymentMethod, IsDynamicPix: n.IsDynamicPix, PixData: n.PixData, Debtor: n.Debtor,
			ErrorDetail: n.ErrorDetail, StatusHistory: steps[n.ID], RequestID: n.RequestID,
			ConsentURL: strPtr(e.cfg.BaseURL + "/payments/consent/" + n.ID.String())}
		if v.StatusHistory == nil {
			v.StatusHistory = []*model.PaymentIntentStep{}
		}
		c, ok := connectors[n.ConnectorID]
		if !ok {
			if c, _, err = e.db.Connector(ctx, n.ConnectorID); err != nil {
				return nil, err
			}
			connectors[n.ConnectorID] = c
		}
		v.Connector = c
		v.PaymentRequest = requests[n.RequestID]
		out = append(out, v)
	}
	return out, nil
}

// Intent reads an intent (of any application when clientID is Nil: the consent page).
func (e *Engine) Intent(ctx context.Context, clientID, id uuid.UUID) (*model.PaymentIntent, error) {
	n, found, err := db.PaymentIntent(ctx, e.db.Pool, clientID, id, false)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodePaymentIntentNotFound, "Payment intent %s not found.", id)
	}
	list, err := e.intentViews(ctx, []*db.PaymentIntentRow{n}, nil)
	if err != nil {
		return nil, err
	}
	return list[0], nil
}

// Intents lists intents, optionally of one request, created in [from, to).
func (e *Engine) Intents(ctx context.Context, clientID uuid.UUID, requestID *uuid.UUID, from, to *time.Time, limit, offset int) ([]*model.PaymentIntent, int, error) {
	rows, total, err := e.db.PaymentIntents(ctx, clientID, requestID, from, to, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	list, err := e.intentViews(ctx, rows, nil)
	return list, total, err
}

// IntentsOfRequests lists the intents of several requests, newest first, in few statements.
func (e *Engine) IntentsOfRequests(ctx context.Context, clientID uuid.UUID, requests []*model.PaymentRequest) (map[uuid.UUID][]*model.PaymentIntent, error) {
	ids := make([]uuid.UUID, len(requests))
	known := make(map[uuid.UUID]*model.PaymentRequest, len(requests))
	for i, p := range requests {
		ids[i], known[p.ID] = p.ID, p
	}
	rows, err := e.db.PaymentIntentsOfRequests(ctx, clientID, ids)
	if err != nil {
		return nil, err
	}
	list, err := e.intentViews(ctx, rows, known)
	if err != nil {
		return nil, err
	}
	out := map[uuid.UUID][]*model.PaymentIntent{}
	for _, n := range list {
		out[n.RequestID] = append(out[n.RequestID], n)
	}
	return out, nil
}

// PayerOf is who started an intent, for the consent page.
func (e *Engine) PayerOf(ctx context.Context, id uuid.UUID) (*db.PaymentPayer, error) {
	n, found, err := db.PaymentIntent(ctx, e.db.Pool, uuid.Nil, id, false)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodePaymentIntentNotFound, "Payment intent %s not found.", id)
	}
	return &n.Payer, nil
}

// ClientOfRequest names the application a request belongs to (the payment page).
func (e *Engine) ClientOfRequest(ctx context.Context, id uuid.UUID) (uuid.UUID, bool, error) {
	p, found, err := db.PaymentRequest(ctx, e.db.Pool, uuid.Nil, id, false)
	if err != nil || !found {
		return uuid.Nil, found, err
	}
	return p.ClientID, true, nil
}

// PixCharge is what a dynamic BR Code's location serves: the charge in the Central Bank's
// PIX API vocabulary (cobrança imediata). The hosted PSPs sign it as a JWS; the sandbox
// serves it as plain JSON.
type PixCharge struct {
	Calendario struct {
		Criacao   string `json:"criacao"`
		Expiracao int    `json:"expiracao"`
	} `json:"calendario"`
	Txid    string `json:"txid"`
	Revisao int    `json:"revisao"`
	// Status is ATIVA while it can be paid, CONCLUIDA once paid, REMOVIDA_PELO_PSP after.
	Status string `json:"status"`
	Valor  struct {
		Original string `json:"original"`
	} `json:"valor"`
	Chave              string `json:"chave"`
	SolicitacaoPagador string `json:"solicitacaoPagador,omitempty"`
}

// PixLocation is the charge behind a dynamic PIX intent's code: single use, so it stops
// being payable once the intent ends.
func (e *Engine) PixLocation(ctx context.Context, intentID uuid.UUID) (*PixCharge, error) {
	n, found, err := db.PaymentIntent(ctx, e.db.Pool, uuid.Nil, intentID, false)
	if err != nil {
		return nil, err
	}
	if !found || !n.IsDynamicPix {
		return nil, model.Fail(model.CodePaymentIntentNotFound, "No dynamic PIX charge %s.", intentID)
	}
	p, found, err := db.PaymentRequest(ctx, e.db.Pool, uuid.Nil, n.RequestID, false)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodePaymentRequestNotFound, "The payment request of charge %s was deleted.", intentID)
	}
	c := &PixCharge{Txid: strings.ReplaceAll(n.ID.String(), "-", "")[:25], Status: "ATIVA"}
	c.Calendario.Criacao = model.NewTime(n.CreatedAt).String()
	c.Calendario.Expiracao = int(e.cfg.AuthorizationTimeout / time.Second)
	c.Valor.Original = fmt.Sprintf("%.2f", p.Amount)
	if p.Description != nil {
		c.SolicitacaoPagador = *p.Description
	}
	if code, err := ParseBRCode(n.PixData.Value); err == nil {
		c.Chave = code.Key
	}
	if p.RecipientID != nil {
		if r, _, err := e.db.PaymentRecipient(ctx, p.ClientID, *p.RecipientID, true); err == nil && r != nil {
			c.Chave = r.TaxNumber
			if r.PixKey != nil {
				c.Chave = *r.PixKey
			}
		}
	}
	switch {
	case n.Status == PaymentCompleted:
		c.Status = "CONCLUIDA"
	case !n.Active:
		c.Status = "REMOVIDA_PELO_PSP"
	}
	return c, nil
}
