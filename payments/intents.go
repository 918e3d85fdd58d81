package payments

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/db"
	"ponte/metrics"
	"ponte/model"
)

// CreateIntent starts a payer's attempt on a request for the application (triggeredBy
// CLIENT).
func (e *Engine) CreateIntent(ctx context.Context, in model.PaymentIntentInput) (*model.PaymentIntent, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	return e.createIntent(ctx, clientID, in, ByClient)
}

// createIntent starts an attempt. The request is locked for the transaction, so of several
// attempts racing on one request exactly one proceeds.
func (e *Engine) createIntent(ctx context.Context, clientID uuid.UUID, in model.PaymentIntentInput, by string) (*model.PaymentIntent, error) {
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
	now := e.now(ctx)
	n := &db.PaymentIntentRow{ID: model.NewID(), ClientID: clientID, RequestID: reqID, ConnectorID: conn.ID, Status: Started, PaymentMethod: method,
		IsDynamicPix: dynamic, Payer: payer, Active: true, AuthorizeBy: now.Add(e.cfg.AuthorizationTimeout), CreatedAt: now, UpdatedAt: now}
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		p, err := e.lockRequest(ctx, tx, clientID, reqID)
		if err != nil {
			return err
		}
		if ctx, err = e.onClock(ctx, tx, p); err != nil {
			return err
		} else if _, ok := model.ClockOf(ctx); ok {
			now = e.now(ctx)
			n.AuthorizeBy, n.CreatedAt, n.UpdatedAt = now.Add(e.cfg.AuthorizationTimeout), now, now
		}
		if p.Status != Created {
			return model.Fail(model.CodePaymentRequestNotAvailable, "Payment request %s is %s: a new payment intent starts only on a CREATED request.", reqID, p.Status)
		}
		if bulk, held, err := tx.OpenBulkOf(ctx, p.ID); err != nil {
			return err
		} else if held {
			return model.Fail(model.CodePaymentRequestNotAvailable, "Payment request %s is in bulk payment %s, which waits for its approval: it is paid from the smart account, not by a payer.", reqID, bulk).
				WithData(map[string]string{"bulkPaymentId": bulk.String()})
		}
		if err := e.freezeTerms(ctx, tx, p, n); err != nil {
			return err
		}
		if err := tx.SavePaymentRequest(ctx, p); err != nil {
			return err
		}
		if err := e.checkOwnBoletoPayable(ctx, tx, p); err != nil {
			return err
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
			c, _, err := tx.PaymentCustomer(ctx, clientID, *p.CustomerID, true)
			if err != nil {
				return err
			}
			if c.Cpf == nil && c.Cnpj == nil {
				return noDocument
			}
		}
		n.ReferenceID = strPtr(e.endToEndID(ctx, tx, conn.ID, now))
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
		if err := tx.AddPaymentIntentStep(ctx, n.ID, Started, now, ""); err != nil {
			return err
		}
		p.ErrorDetail = nil
		if err := e.emit(ctx, tx, p, "payment_intent/created", by, map[string]any{"paymentIntentId": n.ID.String()}); err != nil {
			return err
		}
		if err := e.followRequest(ctx, tx, p, n, by); err != nil {
			return err
		}
		if err := e.advance(ctx, tx, p, n, Enqueued, by); err != nil {
			return err
		}
		if d, err := e.cfg.Institution.Open(ctx, attempt(p, n)); err != nil {
			return err
		} else if d != nil {
			// Refused by the institution before the payer is asked, for a reason that is not
			// one of the payment phase's: REJECTED, and the request is the payer's again.
			n.ErrorDetail = d
			return e.advance(ctx, tx, p, n, IntentRejected, ByInternal)
		}
		if err := e.advance(ctx, tx, p, n, ConsentAwaitingAuthorization, by); err != nil {
			return err
		}
		_, err = e.insertJob(ctx, tx, TimeoutArgs{IntentID: n.ID}, &river.InsertOpts{Queue: Queue, ScheduledAt: n.AuthorizeBy, MaxAttempts: 25})
		return err
	})
	if err != nil {
		return nil, err
	}
	return e.intent(ctx, clientID, n.ID)
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
	case ConsentRejected, PaymentRejected, IntentRejected, IntentError, PaymentTimeout, IntentCanceled:
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
	now := e.now(ctx)
	n.Status, n.UpdatedAt = to, now
	if intentEnded(to) {
		n.Active = false
	}
	if err := tx.SavePaymentIntent(ctx, n); err != nil {
		return err
	}
	tx.AfterCommit(func() {
		metrics.PaymentMoves.WithLabelValues("intent", to).Inc()
		e.log.InfoContext(ctx, "payment intent status", "paymentIntentId", n.ID, "paymentRequestId", n.RequestID, "status", to)
	})
	return tx.AddPaymentIntentStep(ctx, n.ID, to, now, stepCause(ctx))
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
	n, found, err := tx.PaymentIntent(ctx, clientID, id, false)
	if err != nil {
		return nil, nil, err
	}
	if !found {
		return nil, nil, model.Fail(model.CodePaymentIntentNotFound, "Payment intent %s not found.", id)
	}
	p, found, err := tx.PaymentRequest(ctx, uuid.Nil, n.RequestID, true)
	if err != nil {
		return nil, nil, err
	}
	if !found {
		return nil, nil, model.Fail(model.CodePaymentRequestNotFound, "The payment request of intent %s was deleted.", id)
	}
	n, _, err = tx.PaymentIntent(ctx, clientID, id, true)
	return p, n, err
}

// DecideForPayer is the payer's answer on the consent page: authorize or reject. A
// multi-signature payment waiting for its second signer takes the second authorization the
// same way.
func (e *Engine) DecideForPayer(ctx context.Context, intentID uuid.UUID, authorize bool) (*model.PaymentIntent, error) {
	var clientID uuid.UUID
	err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		p, n, err := e.lockIntent(ctx, tx, uuid.Nil, intentID)
		if err != nil {
			return err
		}
		if ctx, err = e.onClock(ctx, tx, p); err != nil {
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
				n.ErrorDetail = &model.PaymentErrorDetail{Code: model.PaymentErrorRejectedByUser, Description: "The second signer rejected the payment.", Detail: strPtr("REJEITADO_USUARIO")}
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
			n.ErrorDetail = &model.PaymentErrorDetail{Code: model.PaymentErrorRejectedByUser, Description: "The payer rejected the payment consent.", Detail: strPtr("REJEITADO_USUARIO")}
			return e.advance(ctx, tx, p, n, ConsentRejected, ByUser)
		}
		if err := checkIntentMove(n.Status, ConsentAuthorized); err != nil {
			return err
		}
		if d, err := e.cfg.Institution.Authorize(ctx, attempt(p, n)); err != nil {
			return err
		} else if d != nil {
			n.ErrorDetail = d
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
	n, err := e.intent(ctx, clientID, intentID)
	if err != nil {
		return nil, err
	}
	return intentForPayer(n), nil
}

// DecisionOf says what became of a payer's consent once an intent left the statuses that
// wait for it: AUTHORIZED, REJECTED, EXPIRED, or ENDED (canceled or failed before a
// decision); empty while there is nothing decided yet.
func DecisionOf(status string) string {
	switch status {
	case ConsentAuthorized, PaymentPending, PaymentPartiallyAccepted, SettlementProcessing, SettlementDebtorAccount, PaymentCompleted, Consumed:
		return model.DecisionAuthorized
	case ConsentRejected, PaymentRejected:
		return model.DecisionRejected
	case PaymentTimeout:
		return model.DecisionExpired
	case IntentCanceled, Revoked, IntentError:
		return model.DecisionEnded
	}
	return ""
}
