package payments

// Reads of intents: their API form, lists, and what the payer pages need.

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

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
	n, found, err := e.db.PaymentIntent(ctx, clientID, id, false)
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
	n, found, err := e.db.PaymentIntent(ctx, uuid.Nil, id, false)
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
	p, found, err := e.db.PaymentRequest(ctx, uuid.Nil, id, false)
	if err != nil || !found {
		return uuid.Nil, found, err
	}
	return p.ClientID, true, nil
}

// PayerConnectors are the institutions the payment page offers for a request: those that
// initiate payments, the sandbox ones included when the request is a sandbox one (the
// sandbox payment institution is where its test payers pay).
func (e *Engine) PayerConnectors(ctx context.Context, req *model.PaymentRequest) ([]*model.Connector, error) {
	yes := true
	f := model.ConnectorFilter{SupportsPaymentInitiation: &yes}
	if req.IsSandbox {
		f.Sandbox = &yes
	}
	list, _, err := e.db.Connectors(ctx, f, 100, 0)
	return list, err
}
