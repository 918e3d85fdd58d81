package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
)

// Smart transfers and bulk payments: each resolver hands over to the payments engine, which
// checks the caller.

func (r *mutationResolver) CreateSmartTransferPreauthorization(ctx context.Context, input model.SmartTransferPreauthorizationInput) (*model.SmartTransferPreauthorization, error) {
	return r.Payments.CreatePreauthorization(ctx, input)
}

func (r *mutationResolver) RevokeSmartTransferPreauthorization(ctx context.Context, id uuid.UUID) (*model.SmartTransferPreauthorization, error) {
	return r.Payments.RevokePreauthorization(ctx, id)
}

func (r *queryResolver) SmartTransferPreauthorizations(ctx context.Context, page, pageSize *int) (*model.SmartTransferPreauthorizationPage, error) {
	return r.Payments.Preauthorizations(ctx, page, pageSize)
}

func (r *queryResolver) SmartTransferPreauthorization(ctx context.Context, id uuid.UUID) (*model.SmartTransferPreauthorization, error) {
	return r.Payments.Preauthorization(ctx, id)
}

func (r *mutationResolver) CreateSmartTransferPayment(ctx context.Context, input model.SmartTransferPaymentInput) (*model.SmartTransferPayment, error) {
	return r.Payments.CreateSmartTransferPayment(ctx, input)
}

func (r *queryResolver) SmartTransferPayment(ctx context.Context, id uuid.UUID) (*model.SmartTransferPayment, error) {
	return r.Payments.SmartTransferPayment(ctx, id)
}

func (r *mutationResolver) CreateBulkPayment(ctx context.Context, input model.BulkPaymentInput) (*model.BulkPayment, error) {
	return r.Payments.CreateBulkPayment(ctx, input)
}

func (r *mutationResolver) DeleteBulkPayment(ctx context.Context, id uuid.UUID) (*model.BulkPayment, error) {
	return r.Payments.DeleteBulkPayment(ctx, id)
}

func (r *queryResolver) BulkPayments(ctx context.Context, page, pageSize *int) (*model.BulkPaymentPage, error) {
	return r.Payments.BulkPayments(ctx, page, pageSize)
}

func (r *queryResolver) BulkPayment(ctx context.Context, id uuid.UUID) (*model.BulkPayment, error) {
	return r.Payments.BulkPayment(ctx, id)
}

// The payer's and the smart account owner's pages: no credential, the unguessable id is
// the capability.

func (r *queryResolver) PreauthorizationConsent(ctx context.Context, id uuid.UUID) (*model.PreauthConsentView, error) {
	return r.Payments.PreauthConsentForPayer(ctx, id)
}

func (r *mutationResolver) DecidePreauthorization(ctx context.Context, id uuid.UUID, authorize bool) (*model.SmartTransferPreauthorization, error) {
	return r.Payments.DecidePreauthorizationForPayer(ctx, id, authorize)
}

func (r *mutationResolver) RevokePreauthorizationAsPayer(ctx context.Context, id uuid.UUID) (*model.SmartTransferPreauthorization, error) {
	return r.Payments.RevokePreauthorizationForPayer(ctx, id)
}

func (r *queryResolver) BulkPaymentConsent(ctx context.Context, id uuid.UUID) (*model.BulkConsentView, error) {
	return r.Payments.BulkConsentForOwner(ctx, id)
}

func (r *mutationResolver) DecideBulkPayment(ctx context.Context, id uuid.UUID, approve bool) (*model.BulkPayment, error) {
	return r.Payments.DecideBulkPaymentForOwner(ctx, id, approve)
}
