package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/payments"
)

// Smart transfers and bulk payments: each resolver checks the caller and hands over to the
// payments engine.

func (r *mutationResolver) CreateSmartTransferPreauthorization(ctx context.Context, input model.SmartTransferPreauthorizationInput) (*model.SmartTransferPreauthorization, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.CreatePreauthorization(ctx, client, input)
}

func (r *mutationResolver) RevokeSmartTransferPreauthorization(ctx context.Context, id uuid.UUID) (*model.SmartTransferPreauthorization, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.RevokePreauthorization(ctx, client, id, payments.ByClient)
}

func (r *queryResolver) SmartTransferPreauthorizations(ctx context.Context, page, pageSize *int) (*model.SmartTransferPreauthorizationPage, error) {
	n, err := payerPage(ctx, r.Resolver, page, pageSize, func(client uuid.UUID, limit, offset int) ([]*model.SmartTransferPreauthorization, int, error) {
		return r.Payments.Preauthorizations(ctx, client, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return &model.SmartTransferPreauthorizationPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

func (r *queryResolver) SmartTransferPreauthorization(ctx context.Context, id uuid.UUID) (*model.SmartTransferPreauthorization, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.Preauthorization(ctx, client, id)
}

func (r *mutationResolver) CreateSmartTransferPayment(ctx context.Context, input model.SmartTransferPaymentInput) (*model.SmartTransferPayment, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.CreateSmartTransferPayment(ctx, client, input)
}

func (r *queryResolver) SmartTransferPayment(ctx context.Context, id uuid.UUID) (*model.SmartTransferPayment, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.SmartTransferPayment(ctx, client, id)
}

func (r *mutationResolver) CreateBulkPayment(ctx context.Context, input model.BulkPaymentInput) (*model.BulkPayment, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.CreateBulkPayment(ctx, client, input)
}

func (r *mutationResolver) DeleteBulkPayment(ctx context.Context, id uuid.UUID) (*model.BulkPayment, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.DeleteBulkPayment(ctx, client, id)
}

func (r *queryResolver) BulkPayments(ctx context.Context, page, pageSize *int) (*model.BulkPaymentPage, error) {
	n, err := payerPage(ctx, r.Resolver, page, pageSize, func(client uuid.UUID, limit, offset int) ([]*model.BulkPayment, int, error) {
		return r.Payments.BulkPayments(ctx, client, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return &model.BulkPaymentPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

func (r *queryResolver) BulkPayment(ctx context.Context, id uuid.UUID) (*model.BulkPayment, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.BulkPayment(ctx, client, id)
}

// PreauthConsentView is what the pre-authorization's consent page shows.
type PreauthConsentView struct {
	Preauthorization *model.SmartTransferPreauthorization
	PayerName        string
	PayerCPF         string
}

// PayerPreauthorization reads a pre-authorization for its payer's consent page.
func (r *Resolver) PayerPreauthorization(ctx context.Context, id uuid.UUID) (*PreauthConsentView, error) {
	p, err := r.Payments.PreauthorizationForPayer(ctx, id)
	if err != nil {
		return nil, err
	}
	payer, err := r.Payments.PreauthPayer(ctx, id)
	if err != nil {
		return nil, err
	}
	v := &PreauthConsentView{Preauthorization: p, PayerName: "Pagador", PayerCPF: payer.Cpf}
	if payer.Name != nil {
		v.PayerName = *payer.Name
	}
	return v, nil
}

// PayerPreauthDecision is the payer approving or rejecting on the consent page.
func (r *Resolver) PayerPreauthDecision(ctx context.Context, id uuid.UUID, approve bool) (*model.SmartTransferPreauthorization, error) {
	return r.Payments.DecidePreauthorization(ctx, id, approve)
}

// PayerPreauthRevoke is the payer revoking on the consent page.
func (r *Resolver) PayerPreauthRevoke(ctx context.Context, id uuid.UUID) (*model.SmartTransferPreauthorization, error) {
	return r.Payments.RevokePreauthorization(ctx, uuid.Nil, id, payments.ByUser)
}

// OwnerBulkPayment reads a bulk payment for its authorization page.
func (r *Resolver) OwnerBulkPayment(ctx context.Context, id uuid.UUID) (*model.BulkPayment, error) {
	return r.Payments.BulkPaymentForOwner(ctx, id)
}

// OwnerBulkDecision is the smart account's owner authorizing or rejecting a bulk payment.
func (r *Resolver) OwnerBulkDecision(ctx context.Context, id uuid.UUID, approve bool) (*model.BulkPayment, error) {
	return r.Payments.DecideBulkPayment(ctx, id, approve)
}
