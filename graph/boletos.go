package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/payments"
)

func (r *mutationResolver) CreateBoletoConnection(ctx context.Context, itemID *string) (*model.BoletoConnection, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.CreateBoletoConnection(ctx, client, itemID)
}

func (r *mutationResolver) CreateBoleto(ctx context.Context, input model.CreateBoletoInput) (*model.Boleto, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.CreateBoleto(ctx, client, input)
}

func (r *mutationResolver) CancelBoleto(ctx context.Context, id uuid.UUID) (*model.Boleto, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.CancelBoleto(ctx, client, id)
}

func (r *queryResolver) BoletoConnections(ctx context.Context, page, pageSize *int) (*model.BoletoConnectionPage, error) {
	n, err := payerPage(ctx, r.Resolver, page, pageSize, func(client uuid.UUID, limit, offset int) ([]*model.BoletoConnection, int, error) {
		return r.Payments.BoletoConnections(ctx, client, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return &model.BoletoConnectionPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

func (r *queryResolver) BoletoConnection(ctx context.Context, id uuid.UUID) (*model.BoletoConnection, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.BoletoConnection(ctx, client, id)
}

func (r *queryResolver) Boletos(ctx context.Context, boletoConnectionID, status, dueDateFrom, dueDateTo *string, page, pageSize *int) (*model.BoletoPage, error) {
	n, err := payerPage(ctx, r.Resolver, page, pageSize, func(client uuid.UUID, limit, offset int) ([]*model.Boleto, int, error) {
		f := model.BoletoFilter{BoletoConnectionID: boletoConnectionID, Status: status, DueDateFrom: dueDateFrom, DueDateTo: dueDateTo}
		return r.Payments.Boletos(ctx, client, f, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return &model.BoletoPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

func (r *queryResolver) Boleto(ctx context.Context, id uuid.UUID) (*model.Boleto, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.Boleto(ctx, client, id)
}

// BoletoPixCharge is the charge a boleto's PIX code points at; like the payer's pages it
// needs no credential (payers' banking apps fetch it).
func (r *Resolver) BoletoPixCharge(ctx context.Context, id uuid.UUID) (*payments.PixCharge, error) {
	return r.Payments.BoletoPixCharge(ctx, id)
}

// PayBoletoPixCharge is the sandbox PSP settling a PIX to that code.
func (r *Resolver) PayBoletoPixCharge(ctx context.Context, id uuid.UUID) (*payments.PixCharge, error) {
	return r.Payments.PayBoletoByPix(ctx, id)
}
