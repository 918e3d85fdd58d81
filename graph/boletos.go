package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
)

func (r *mutationResolver) CreateBoletoConnection(ctx context.Context, itemID *string) (*model.BoletoConnection, error) {
	return r.Payments.CreateBoletoConnection(ctx, itemID)
}

func (r *mutationResolver) CreateBoleto(ctx context.Context, input model.CreateBoletoInput) (*model.Boleto, error) {
	return r.Payments.CreateBoleto(ctx, input)
}

func (r *mutationResolver) CancelBoleto(ctx context.Context, id uuid.UUID) (*model.Boleto, error) {
	return r.Payments.CancelBoleto(ctx, id)
}

func (r *queryResolver) BoletoConnections(ctx context.Context, page, pageSize *int) (*model.BoletoConnectionPage, error) {
	return r.Payments.BoletoConnections(ctx, page, pageSize)
}

func (r *queryResolver) BoletoConnection(ctx context.Context, id uuid.UUID) (*model.BoletoConnection, error) {
	return r.Payments.BoletoConnection(ctx, id)
}

func (r *queryResolver) Boletos(ctx context.Context, boletoConnectionID, status, dueDateFrom, dueDateTo *string, page, pageSize *int) (*model.BoletoPage, error) {
	f := model.BoletoFilter{BoletoConnectionID: boletoConnectionID, Status: status, DueDateFrom: dueDateFrom, DueDateTo: dueDateTo}
	return r.Payments.Boletos(ctx, f, page, pageSize)
}

func (r *queryResolver) Boleto(ctx context.Context, id uuid.UUID) (*model.Boleto, error) {
	return r.Payments.Boleto(ctx, id)
}

// BoletoPixCharge needs no credential: payers' banking apps fetch it by the id in the code.
func (r *queryResolver) BoletoPixCharge(ctx context.Context, id uuid.UUID) (*model.PixCharge, error) {
	return r.Payments.BoletoPixCharge(ctx, id)
}

// PayBoletoPixCharge is the sandbox PSP settling a payer's PIX to that code.
func (r *mutationResolver) PayBoletoPixCharge(ctx context.Context, id uuid.UUID) (*model.PixCharge, error) {
	return r.Payments.PayBoletoByPix(ctx, id)
}
