package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/graph/generated"
	"ponte/model"
)

// Payments: each resolver hands its arguments to the payments engine, which checks the
// caller (payments/caller.go) and applies the rules.

// PaymentRequest returns the payment request field resolvers.
func (r *Resolver) PaymentRequest() generated.PaymentRequestResolver {
	return &paymentRequestResolver{r}
}

type paymentRequestResolver struct{ *Resolver }

func (r *queryResolver) PaymentRequests(ctx context.Context, page, pageSize *int, from, to *string) (*model.PaymentRequestPage, error) {
	return r.Payments.Requests(ctx, page, pageSize, from, to)
}

func (r *queryResolver) PaymentRequest(ctx context.Context, id uuid.UUID) (*model.PaymentRequest, error) {
	return r.Payments.Request(ctx, id)
}

func (r *queryResolver) PaymentIntents(ctx context.Context, page, pageSize *int, from, to *string, paymentRequestID *uuid.UUID) (*model.PaymentIntentPage, error) {
	return r.Payments.Intents(ctx, page, pageSize, from, to, paymentRequestID)
}

func (r *queryResolver) PaymentIntent(ctx context.Context, id uuid.UUID) (*model.PaymentIntent, error) {
	return r.Payments.Intent(ctx, id)
}

func (r *queryResolver) PaymentCustomers(ctx context.Context, page, pageSize *int) (*model.PaymentCustomerPage, error) {
	return r.Payments.Customers(ctx, page, pageSize)
}

func (r *queryResolver) PaymentCustomer(ctx context.Context, id uuid.UUID) (*model.PaymentCustomer, error) {
	return r.Payments.Customer(ctx, id)
}

func (r *queryResolver) PaymentRecipients(ctx context.Context, page, pageSize *int) (*model.PaymentRecipientPage, error) {
	return r.Payments.Recipients(ctx, page, pageSize)
}

func (r *queryResolver) PaymentRecipient(ctx context.Context, id uuid.UUID) (*model.PaymentRecipient, error) {
	return r.Payments.Recipient(ctx, id)
}

func (r *queryResolver) PaymentInstitutions(ctx context.Context, page, pageSize *int, name *string) (*model.PaymentInstitutionPage, error) {
	return r.Payments.Institutions(ctx, page, pageSize, name)
}

func (r *queryResolver) PaymentInstitution(ctx context.Context, id uuid.UUID) (*model.PaymentInstitution, error) {
	return r.Payments.Institution(ctx, id)
}

func (r *queryResolver) ScheduledPayments(ctx context.Context, paymentRequestID uuid.UUID) (*model.ScheduledPaymentPage, error) {
	return r.Payments.Schedules(ctx, paymentRequestID)
}

func (r *queryResolver) ScheduledPayment(ctx context.Context, paymentRequestID, id uuid.UUID) (*model.ScheduledPayment, error) {
	return r.Payments.Schedule(ctx, paymentRequestID, id)
}

// Intents loads the intents of every request of a list at once.
func (r *paymentRequestResolver) Intents(ctx context.Context, objs []*model.PaymentRequest) ([][]*model.PaymentIntent, error) {
	return r.Payments.IntentsOfRequests(ctx, objs)
}

// ScheduledPayments loads the dated payments of every request of a list at once.
func (r *paymentRequestResolver) ScheduledPayments(ctx context.Context, objs []*model.PaymentRequest) ([][]*model.ScheduledPayment, error) {
	return r.Payments.SchedulesOfRequests(ctx, objs)
}

func (r *mutationResolver) CreatePaymentRequest(ctx context.Context, input model.PaymentRequestInput) (*model.PaymentRequest, error) {
	return r.Payments.CreateRequest(ctx, input)
}

func (r *mutationResolver) CreatePaymentRequestFromPixQR(ctx context.Context, input model.PixQrPaymentRequestInput) (*model.PaymentRequest, error) {
	return r.Payments.CreateRequestFromPixQr(ctx, input)
}

func (r *mutationResolver) UpdatePaymentRequest(ctx context.Context, id uuid.UUID, input model.PaymentRequestInput) (*model.PaymentRequest, error) {
	return r.Payments.UpdateRequest(ctx, id, input)
}

func (r *mutationResolver) DeletePaymentRequest(ctx context.Context, id uuid.UUID) (*model.PaymentRequest, error) {
	return r.Payments.DeleteRequest(ctx, id)
}

func (r *mutationResolver) CreatePaymentIntent(ctx context.Context, input model.PaymentIntentInput) (*model.PaymentIntent, error) {
	return r.Payments.CreateIntent(ctx, input)
}

func (r *mutationResolver) CreatePaymentCustomer(ctx context.Context, input model.PaymentCustomerInput) (*model.PaymentCustomer, error) {
	return r.Payments.CreateCustomer(ctx, input)
}

func (r *mutationResolver) UpdatePaymentCustomer(ctx context.Context, id uuid.UUID, input model.PaymentCustomerInput) (*model.PaymentCustomer, error) {
	return r.Payments.UpdateCustomer(ctx, id, input)
}

func (r *mutationResolver) DeletePaymentCustomer(ctx context.Context, id uuid.UUID) (*model.PaymentCustomer, error) {
	return r.Payments.DeleteCustomer(ctx, id)
}

func (r *mutationResolver) CreatePaymentRecipient(ctx context.Context, input model.PaymentRecipientInput) (*model.PaymentRecipient, error) {
	return r.Payments.CreateRecipient(ctx, input)
}

func (r *mutationResolver) UpdatePaymentRecipient(ctx context.Context, id uuid.UUID, input model.PaymentRecipientInput) (*model.PaymentRecipient, error) {
	return r.Payments.UpdateRecipient(ctx, id, input)
}

func (r *mutationResolver) DeletePaymentRecipient(ctx context.Context, id uuid.UUID) (*model.PaymentRecipient, error) {
	return r.Payments.DeleteRecipient(ctx, id)
}

func (r *mutationResolver) CancelScheduledPayments(ctx context.Context, paymentRequestID uuid.UUID) (*model.ScheduledPaymentPage, error) {
	return r.Payments.CancelSchedules(ctx, paymentRequestID)
}

func (r *mutationResolver) CancelScheduledPayment(ctx context.Context, paymentRequestID, id uuid.UUID) (*model.ScheduledPayment, error) {
	return r.Payments.CancelSchedule(ctx, paymentRequestID, id)
}

func (r *queryResolver) AutomaticPixPayments(ctx context.Context, paymentRequestID uuid.UUID, page, pageSize *int) (*model.AutomaticPixPaymentPage, error) {
	return r.Payments.AutomaticPixPayments(ctx, paymentRequestID, page, pageSize)
}

func (r *queryResolver) AutomaticPixPayment(ctx context.Context, paymentRequestID, id uuid.UUID) (*model.AutomaticPixPayment, error) {
	return r.Payments.AutomaticPixPayment(ctx, paymentRequestID, id)
}

func (r *mutationResolver) CreateAutomaticPixPaymentRequest(ctx context.Context, input model.AutomaticPixRequestInput) (*model.PaymentRequest, error) {
	return r.Payments.CreateAutomaticPixRequest(ctx, input)
}

func (r *mutationResolver) ScheduleAutomaticPixPayment(ctx context.Context, paymentRequestID uuid.UUID, input model.AutomaticPixPaymentInput) (*model.AutomaticPixPayment, error) {
	return r.Payments.ScheduleAutomaticPixPayment(ctx, paymentRequestID, input)
}

func (r *mutationResolver) RetryAutomaticPixPayment(ctx context.Context, paymentRequestID, id uuid.UUID, input model.AutomaticPixPaymentInput) (*model.AutomaticPixPayment, error) {
	return r.Payments.RetryAutomaticPixPayment(ctx, paymentRequestID, id, input)
}

func (r *mutationResolver) CancelAutomaticPixPayment(ctx context.Context, paymentRequestID, id uuid.UUID) (*model.AutomaticPixPayment, error) {
	return r.Payments.CancelAutomaticPixPayment(ctx, paymentRequestID, id)
}

func (r *mutationResolver) CancelAutomaticPixAuthorization(ctx context.Context, paymentRequestID uuid.UUID) (*model.PaymentRequest, error) {
	return r.Payments.CancelAutomaticPixAuthorization(ctx, paymentRequestID)
}

func (r *mutationResolver) RefundPaymentRequest(ctx context.Context, paymentRequestID uuid.UUID, amount *float64) (*model.PaymentRequest, error) {
	return r.Payments.RefundRequest(ctx, paymentRequestID, amount)
}

func (r *mutationResolver) CreateSmartAccount(ctx context.Context, input model.SmartAccountInput) (*model.SmartAccount, error) {
	return r.Payments.CreateSmartAccount(ctx, input)
}

func (r *queryResolver) SmartAccounts(ctx context.Context, page, pageSize *int) (*model.SmartAccountPage, error) {
	return r.Payments.SmartAccounts(ctx, page, pageSize)
}

func (r *queryResolver) SmartAccount(ctx context.Context, id uuid.UUID) (*model.SmartAccount, error) {
	return r.Payments.SmartAccount(ctx, id)
}

func (r *queryResolver) SmartAccountBalance(ctx context.Context, id uuid.UUID) (*model.SmartAccountBalance, error) {
	return r.Payments.SmartAccountBalance(ctx, id)
}

// The payer's pages: no credential, the unguessable id is the capability.

func (r *queryResolver) PaymentPage(ctx context.Context, id uuid.UUID) (*model.PaymentView, error) {
	return r.Payments.PaymentPageForPayer(ctx, id)
}

func (r *queryResolver) PaymentConsent(ctx context.Context, id uuid.UUID) (*model.ConsentView, error) {
	return r.Payments.ConsentForPayer(ctx, id)
}

func (r *queryResolver) PixCharge(ctx context.Context, id uuid.UUID) (*model.PixCharge, error) {
	return r.Payments.PixLocation(ctx, id)
}

func (r *mutationResolver) StartPaymentIntentAsPayer(ctx context.Context, id uuid.UUID, connectorID int, cpf string, name *string) (*model.PaymentIntent, error) {
	return r.Payments.StartIntentForPayer(ctx, id, connectorID, cpf, name)
}

func (r *mutationResolver) DecidePaymentIntent(ctx context.Context, id uuid.UUID, authorize bool) (*model.PaymentIntent, error) {
	return r.Payments.DecideForPayer(ctx, id, authorize)
}
