package payments

// Reads of intents: their API form, lists, and what the payer pages need.

import (
	"context"
	"maps"
	"slices"

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

// Intent reads one of the application's intents.
func (e *Engine) Intent(ctx context.Context, id uuid.UUID) (*model.PaymentIntent, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	return e.intent(ctx, clientID, id)
}

// intent reads an intent (of any application when clientID is Nil: the consent page).
func (e *Engine) intent(ctx context.Context, clientID, id uuid.UUID) (*model.PaymentIntent, error) {
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

// Intents lists intents created in [from, to), optionally of one request.
func (e *Engine) Intents(ctx context.Context, page, pageSize *int, from, to *string, requestID *uuid.UUID) (*model.PaymentIntentPage, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	n, err := readPage(page, pageSize, func(limit, offset int) ([]*model.PaymentIntent, int, error) {
		f, t, err := dateRange(from, to)
		if err != nil {
			return nil, 0, err
		}
		rows, total, err := e.db.PaymentIntents(ctx, clientID, requestID, f, t, limit, offset)
		if err != nil {
			return nil, 0, err
		}
		list, err := e.intentViews(ctx, rows, nil)
		return list, total, err
	})
	if err != nil {
		return nil, err
	}
	return &model.PaymentIntentPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

// IntentsOfRequests lists the intents of several requests, newest first, in few statements:
// one list per request, in the requests' order.
func (e *Engine) IntentsOfRequests(ctx context.Context, requests []*model.PaymentRequest) ([][]*model.PaymentIntent, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
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
	by := map[uuid.UUID][]*model.PaymentIntent{}
	for _, n := range list {
		by[n.RequestID] = append(by[n.RequestID], n)
	}
	out := make([][]*model.PaymentIntent, len(requests))
	for i, p := range requests {
		out[i] = by[p.ID]
		if out[i] == nil {
			out[i] = []*model.PaymentIntent{}
		}
	}
	return out, nil
}
