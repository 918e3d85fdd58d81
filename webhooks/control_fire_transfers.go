package webhooks

import (
	"context"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// Smart transfer and boleto events on demand, in the shapes payments/ emits them
// (movePreauth, the smart transfer payment step, moveBoleto). Which resource is a sandbox
// one: a pre-authorization on a sandbox connector, a smart transfer payment under such a
// pre-authorization, and a boleto whose boleto connection's item is on a sandbox
// connector (the connector the connection recorded, when that item was deleted since).
// The interface does not fix these payloads, so each carries "sandboxControl": true.

// preauthEvent builds a smart_transfer_preauthorization/* event.
func (e *Engine) preauthEvent(ctx context.Context, clientID uuid.UUID, in model.SandboxEventInput) (*db.Event, error) {
	p, err := e.sandboxPreauth(ctx, clientID, *in.PreauthorizationID)
	if err != nil {
		return nil, err
	}
	payload := map[string]any{"id": p.ID.String(), "preauthorizationId": p.ID.String(), "clientId": p.ClientID.String(),
		"status": p.Status, "sandboxControl": true}
	if p.ClientPreauthorizationID != nil {
		payload["clientPreauthorizationId"] = *p.ClientPreauthorizationID
	}
	if in.Event == "smart_transfer_preauthorization/error" {
		own := p.ErrorDetail
		if own == nil {
			// What the payer's rejection gives (payments.ConsentRejected).
			own = &model.PaymentErrorDetail{Code: consentRejected, Description: "The payer rejected the pre-authorization (fired on demand by the sandbox control surface)."}
		}
		payload["error"] = errorDetail(own, in)
	}
	return &db.Event{ID: uuid.New(), Event: in.Event, Payload: payload}, nil
}

// smartPaymentEvent builds a smart_transfer_payment/* event.
func (e *Engine) smartPaymentEvent(ctx context.Context, clientID uuid.UUID, in model.SandboxEventInput) (*db.Event, error) {
	p, found, err := e.db.SmartTransferPayment(ctx, clientID, *in.SmartTransferPaymentID, false)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeSmartTransferPaymentNotFound, "Smart transfer payment %s not found.", *in.SmartTransferPaymentID)
	}
	if _, err := e.sandboxPreauth(ctx, clientID, p.PreauthorizationID); err != nil {
		return nil, err
	}
	payload := map[string]any{"id": p.ID.String(), "smartTransferPaymentId": p.ID.String(), "preauthorizationId": p.PreauthorizationID.String(),
		"clientId": p.ClientID.String(), "status": p.Status, "sandboxControl": true}
	if p.ClientPaymentID != nil {
		payload["clientPaymentId"] = *p.ClientPaymentID
	}
	if in.Event == "smart_transfer_payment/error" {
		payload["error"] = errorDetail(p.ErrorDetail, in)
	}
	return &db.Event{ID: uuid.New(), Event: in.Event, Payload: payload}, nil
}

// sandboxPreauth reads the caller's pre-authorization and refuses one on a connector that
// is not a sandbox one.
func (e *Engine) sandboxPreauth(ctx context.Context, clientID, id uuid.UUID) (*db.PreauthorizationRow, error) {
	p, found, err := e.db.Preauthorization(ctx, clientID, id, false)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeSmartTransferPreauthorizationNotFound, "Smart transfer pre-authorization %s not found.", id)
	}
	if _, err := e.sandboxConnector(ctx, p.ConnectorID, "Smart transfer pre-authorization "+p.ID.String()); err != nil {
		return nil, err
	}
	return p, nil
}

// boletoEvent builds boleto/updated from the boleto as it is now.
func (e *Engine) boletoEvent(ctx context.Context, clientID uuid.UUID, in model.SandboxEventInput) (*db.Event, error) {
	b, found, err := e.db.Boleto(ctx, clientID, *in.BoletoID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeBoletoNotFound, "Boleto %s not found.", *in.BoletoID)
	}
	conn, found, err := e.db.BoletoConnection(ctx, clientID, b.BoletoConnectionID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeBoletoConnectionNotFound, "Boleto connection %s of boleto %s not found.", b.BoletoConnectionID, b.ID)
	}
	connector := conn.ConnectorID
	it, found, err := e.db.Item(ctx, clientID, conn.ItemID)
	if err != nil {
		return nil, err
	}
	if found {
		connector = it.ConnectorID
	}
	if _, err := e.sandboxConnector(ctx, connector, "Boleto "+b.ID.String()); err != nil {
		return nil, err
	}
	payload := map[string]any{"boletoId": b.ID.String(), "status": b.Status, "boletoConnectionId": b.BoletoConnectionID.String(),
		"amountPaid": b.AmountPaid, "paidAt": nil, "sandboxControl": true}
	if b.PaidAt != nil {
		payload["paidAt"] = b.PaidAt.String()
	}
	return &db.Event{ID: uuid.New(), Event: in.Event, Payload: payload}, nil
}
