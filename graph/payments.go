package graph

import (
	"context"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/graph/generated"
	"ponte/model"
	"ponte/payments"
)

// PaymentRequest returns the payment request field resolvers.
func (r *Resolver) PaymentRequest() generated.PaymentRequestResolver {
	return &paymentRequestResolver{r}
}

type paymentRequestResolver struct{ *Resolver }

func (r *Resolver) payer(ctx context.Context) (uuid.UUID, error) {
	p, err := auth.Require(ctx, auth.ManagePayments)
	if err != nil {
		return uuid.Nil, err
	}
	return p.ClientID, nil
}

// dateRange reads the from and to filters of payment lists with the rule of every date
// filter (model.ParseUpTo): a plain date to covers its whole day in UTC, a date-time to its
// whole millisecond.
func dateRange(from, to *string) (*time.Time, *time.Time, error) {
	var f, t *time.Time
	if from != nil {
		v, err := model.ParseTime(*from)
		if err != nil {
			return nil, nil, model.Fail(model.CodeInvalidParameter, "from %q is not a date (YYYY-MM-DD) or date-time (RFC 3339).", *from)
		}
		f = &v.Time
	}
	if to != nil {
		last, err := model.ParseUpTo(*to)
		if err != nil {
			return nil, nil, model.Fail(model.CodeInvalidParameter, "to %q is not a date (YYYY-MM-DD) or date-time (RFC 3339).", *to)
		}
		// The store compares created_at < end: the instant after the last one covered.
		end := last.Add(time.Microsecond)
		t = &end
	}
	if f != nil && t != nil && !f.Before(*t) {
		return nil, nil, model.Fail(model.CodeInvalidParameter, "from %s is after to %s.", *from, *to)
	}
	return f, t, nil
}

func (r *queryResolver) PaymentRequests(ctx context.Context, page, pageSize *int, from, to *string) (*model.PaymentRequestPage, error) {
	n, err := payerPage(ctx, r.Resolver, page, pageSize, func(client uuid.UUID, limit, offset int) ([]*model.PaymentRequest, int, error) {
		f, t, err := dateRange(from, to)
		if err != nil {
			return nil, 0, err
		}
		return r.Payments.Requests(ctx, client, f, t, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return &model.PaymentRequestPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

func (r *queryResolver) PaymentRequest(ctx context.Context, id uuid.UUID) (*model.PaymentRequest, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.Request(ctx, client, id)
}

func (r *queryResolver) PaymentIntents(ctx context.Context, page, pageSize *int, from, to *string, paymentRequestID *uuid.UUID) (*model.PaymentIntentPage, error) {
	n, err := payerPage(ctx, r.Resolver, page, pageSize, func(client uuid.UUID, limit, offset int) ([]*model.PaymentIntent, int, error) {
		f, t, err := dateRange(from, to)
		if err != nil {
			return nil, 0, err
		}
		return r.Payments.Intents(ctx, client, paymentRequestID, f, t, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return &model.PaymentIntentPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

func (r *queryResolver) PaymentIntent(ctx context.Context, id uuid.UUID) (*model.PaymentIntent, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.Intent(ctx, client, id)
}

func (r *queryResolver) PaymentCustomers(ctx context.Context, page, pageSize *int) (*model.PaymentCustomerPage, error) {
	n, err := payerPage(ctx, r.Resolver, page, pageSize, func(client uuid.UUID, limit, offset int) ([]*model.PaymentCustomer, int, error) {
		return r.Payments.Customers(ctx, client, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return &model.PaymentCustomerPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

func (r *queryResolver) PaymentCustomer(ctx context.Context, id uuid.UUID) (*model.PaymentCustomer, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.Customer(ctx, client, id)
}

func (r *queryResolver) PaymentRecipients(ctx context.Context, page, pageSize *int) (*model.PaymentRecipientPage, error) {
	n, err := payerPage(ctx, r.Resolver, page, pageSize, func(client uuid.UUID, limit, offset int) ([]*model.PaymentRecipient, int, error) {
		return r.Payments.Recipients(ctx, client, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return &model.PaymentRecipientPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

func (r *queryResolver) PaymentRecipient(ctx context.Context, id uuid.UUID) (*model.PaymentRecipient, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.Recipient(ctx, client, id)
}

func (r *queryResolver) PaymentInstitutions(ctx context.Context, page, pageSize *int, name *string) (*model.PaymentInstitutionPage, error) {
	if _, err := r.payer(ctx); err != nil {
		return nil, err
	}
	pg, limit, offset, err := pageArgs(page, pageSize)
	if err != nil {
		return nil, err
	}
	n := ""
	if name != nil {
		n = *name
	}
	list, total, err := r.Payments.Institutions(ctx, n, limit, offset)
	if err != nil {
		return nil, err
	}
	return &model.PaymentInstitutionPage{Total: total, TotalPages: totalPages(total, limit), Page: pg, Results: nonNil(list)}, nil
}

func (r *queryResolver) PaymentInstitution(ctx context.Context, id uuid.UUID) (*model.PaymentInstitution, error) {
	if _, err := r.payer(ctx); err != nil {
		return nil, err
	}
	return r.Payments.Institution(ctx, id)
}

func (r *queryResolver) ScheduledPayments(ctx context.Context, paymentRequestID uuid.UUID) (*model.ScheduledPaymentPage, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	list, err := r.Payments.Schedules(ctx, client, paymentRequestID)
	if err != nil {
		return nil, err
	}
	return schedulePage(list), nil
}

func schedulePage(list []*model.ScheduledPayment) *model.ScheduledPaymentPage {
	pages := 1
	if len(list) == 0 {
		pages = 0
	}
	return &model.ScheduledPaymentPage{Total: len(list), TotalPages: pages, Page: 1, Results: nonNil(list)}
}

func (r *queryResolver) ScheduledPayment(ctx context.Context, paymentRequestID, id uuid.UUID) (*model.ScheduledPayment, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.Schedule(ctx, client, paymentRequestID, id)
}

// Intents loads the intents of every request of a list at once.
func (r *paymentRequestResolver) Intents(ctx context.Context, objs []*model.PaymentRequest) ([][]*model.PaymentIntent, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	by, err := r.Payments.IntentsOfRequests(ctx, client, objs)
	if err != nil {
		return nil, err
	}
	out := make([][]*model.PaymentIntent, len(objs))
	for i, p := range objs {
		out[i] = nonNil(by[p.ID])
	}
	return out, nil
}

// ScheduledPayments loads the dated payments of every request of a list at once.
func (r *paymentRequestResolver) ScheduledPayments(ctx context.Context, objs []*model.PaymentRequest) ([][]*model.ScheduledPayment, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]uuid.UUID, len(objs))
	for i, p := range objs {
		ids[i] = p.ID
	}
	by, err := r.Payments.SchedulesOfRequests(ctx, client, ids)
	if err != nil {
		return nil, err
	}
	out := make([][]*model.ScheduledPayment, len(objs))
	for i, p := range objs {
		out[i] = nonNil(by[p.ID])
	}
	return out, nil
}

func (r *mutationResolver) CreatePaymentRequest(ctx context.Context, input model.PaymentRequestInput) (*model.PaymentRequest, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.CreateRequest(ctx, client, input)
}

func (r *mutationResolver) CreatePaymentRequestFromPixQR(ctx context.Context, input model.PixQrPaymentRequestInput) (*model.PaymentRequest, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.CreateRequestFromPixQr(ctx, client, input)
}

func (r *mutationResolver) UpdatePaymentRequest(ctx context.Context, id uuid.UUID, input model.PaymentRequestInput) (*model.PaymentRequest, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.UpdateRequest(ctx, client, id, input)
}

func (r *mutationResolver) DeletePaymentRequest(ctx context.Context, id uuid.UUID) (*model.PaymentRequest, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.DeleteRequest(ctx, client, id)
}

func (r *mutationResolver) CreatePaymentIntent(ctx context.Context, input model.PaymentIntentInput) (*model.PaymentIntent, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.CreateIntent(ctx, client, input, payments.ByClient)
}

func (r *mutationResolver) CreatePaymentCustomer(ctx context.Context, input model.PaymentCustomerInput) (*model.PaymentCustomer, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.CreateCustomer(ctx, client, input)
}

func (r *mutationResolver) UpdatePaymentCustomer(ctx context.Context, id uuid.UUID, input model.PaymentCustomerInput) (*model.PaymentCustomer, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.UpdateCustomer(ctx, client, id, input)
}

func (r *mutationResolver) DeletePaymentCustomer(ctx context.Context, id uuid.UUID) (*model.PaymentCustomer, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.DeleteCustomer(ctx, client, id)
}

func (r *mutationResolver) CreatePaymentRecipient(ctx context.Context, input model.PaymentRecipientInput) (*model.PaymentRecipient, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.CreateRecipient(ctx, client, input)
}

func (r *mutationResolver) UpdatePaymentRecipient(ctx context.Context, id uuid.UUID, input model.PaymentRecipientInput) (*model.PaymentRecipient, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.UpdateRecipient(ctx, client, id, input)
}

func (r *mutationResolver) DeletePaymentRecipient(ctx context.Context, id uuid.UUID) (*model.PaymentRecipient, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.DeleteRecipient(ctx, client, id)
}

func (r *mutationResolver) CancelScheduledPayments(ctx context.Context, paymentRequestID uuid.UUID) (*model.ScheduledPaymentPage, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	list, err := r.Payments.CancelSchedules(ctx, client, paymentRequestID, nil)
	if err != nil {
		return nil, err
	}
	return schedulePage(list), nil
}

func (r *mutationResolver) CancelScheduledPayment(ctx context.Context, paymentRequestID, id uuid.UUID) (*model.ScheduledPayment, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	list, err := r.Payments.CancelSchedules(ctx, client, paymentRequestID, &id)
	if err != nil {
		return nil, err
	}
	for _, s := range list {
		if s.ID == id {
			return s, nil
		}
	}
	return nil, model.Fail(model.CodeScheduledPaymentNotFound, "Scheduled payment %s not found.", id)
}

// The payer's pages (payment and consent) carry no credential: the unguessable ids in
// their URLs are the capability, as with a bank's own consent links.

// ConsentView is what the consent page shows of an intent.
type ConsentView struct {
	Intent       *model.PaymentIntent
	PayerName    string
	PayerCPF     string
	CanDecide    bool
	SecondSigner bool
}

// PayerConsent reads an intent for the consent page.
func (r *Resolver) PayerConsent(ctx context.Context, id uuid.UUID) (*ConsentView, error) {
	n, err := r.Payments.Intent(ctx, uuid.Nil, id)
	if err != nil {
		return nil, err
	}
	payer, err := r.Payments.PayerOf(ctx, id)
	if err != nil {
		return nil, err
	}
	v := &ConsentView{Intent: n, PayerName: "Pagador", PayerCPF: payer.Cpf}
	if payer.Name != nil {
		v.PayerName = *payer.Name
	}
	v.CanDecide, v.SecondSigner = payments.AwaitingPayer(n.Status)
	return v, nil
}

// PayerDecision records the payer's answer on the consent page.
func (r *Resolver) PayerDecision(ctx context.Context, id uuid.UUID, authorize bool) (*model.PaymentIntent, error) {
	return r.Payments.Decide(ctx, id, authorize)
}

// PaymentView is what the payment page shows of a request: the institutions to pay
// through, when it can be paid now.
type PaymentView struct {
	Request    *model.PaymentRequest
	Connectors []*model.Connector
}

// PayerPayment reads a request for the payment page.
func (r *Resolver) PayerPayment(ctx context.Context, id uuid.UUID) (*PaymentView, error) {
	client, found, err := r.Payments.ClientOfRequest(ctx, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodePaymentRequestNotFound, "Payment request %s not found.", id)
	}
	req, err := r.Payments.Request(ctx, client, id)
	if err != nil {
		return nil, err
	}
	v := &PaymentView{Request: req}
	if payments.Payable(req.Status) {
		v.Connectors, err = r.Payments.PayerConnectors(ctx, req)
	}
	return v, err
}

// PayerStartsIntent is the payment page's form: the payer picks an institution and gives
// their CPF, and the attempt starts as theirs (triggeredBy USER).
func (r *Resolver) PayerStartsIntent(ctx context.Context, requestID uuid.UUID, connectorID int, cpf, name string) (*model.PaymentIntent, error) {
	client, found, err := r.Payments.ClientOfRequest(ctx, requestID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodePaymentRequestNotFound, "Payment request %s not found.", requestID)
	}
	id := requestID.String()
	return r.Payments.CreateIntent(ctx, client, model.PaymentIntentInput{PaymentRequestID: &id, ConnectorID: &connectorID,
		Parameters: &model.PaymentPayerInput{Cpf: &cpf, Name: &name}}, payments.ByUser)
}

// PixLocation is the charge a dynamic BR Code points at; like the payer's pages it needs
// no credential (payers' banking apps fetch it).
func (r *Resolver) PixLocation(ctx context.Context, intentID uuid.UUID) (*payments.PixCharge, error) {
	return r.Payments.PixLocation(ctx, intentID)
}

func (r *queryResolver) AutomaticPixPayments(ctx context.Context, paymentRequestID uuid.UUID, page, pageSize *int) (*model.AutomaticPixPaymentPage, error) {
	n, err := payerPage(ctx, r.Resolver, page, pageSize, func(client uuid.UUID, limit, offset int) ([]*model.AutomaticPixPayment, int, error) {
		return r.Payments.AutomaticPixPayments(ctx, client, paymentRequestID, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return &model.AutomaticPixPaymentPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

func (r *queryResolver) AutomaticPixPayment(ctx context.Context, paymentRequestID, id uuid.UUID) (*model.AutomaticPixPayment, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.AutomaticPixPayment(ctx, client, paymentRequestID, id)
}

func (r *mutationResolver) CreateAutomaticPixPaymentRequest(ctx context.Context, input model.AutomaticPixRequestInput) (*model.PaymentRequest, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.CreateAutomaticPixRequest(ctx, client, input)
}

func (r *mutationResolver) ScheduleAutomaticPixPayment(ctx context.Context, paymentRequestID uuid.UUID, input model.AutomaticPixPaymentInput) (*model.AutomaticPixPayment, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.ScheduleAutomaticPixPayment(ctx, client, paymentRequestID, input)
}

func (r *mutationResolver) RetryAutomaticPixPayment(ctx context.Context, paymentRequestID, id uuid.UUID, input model.AutomaticPixPaymentInput) (*model.AutomaticPixPayment, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.RetryAutomaticPixPayment(ctx, client, paymentRequestID, id, input)
}

func (r *mutationResolver) CancelAutomaticPixPayment(ctx context.Context, paymentRequestID, id uuid.UUID) (*model.AutomaticPixPayment, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.CancelAutomaticPixPayment(ctx, client, paymentRequestID, id)
}

func (r *mutationResolver) CancelAutomaticPixAuthorization(ctx context.Context, paymentRequestID uuid.UUID) (*model.PaymentRequest, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.CancelAutomaticPixAuthorization(ctx, client, paymentRequestID)
}

func (r *mutationResolver) RefundPaymentRequest(ctx context.Context, paymentRequestID uuid.UUID, amount *float64) (*model.PaymentRequest, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.RefundRequest(ctx, client, paymentRequestID, amount)
}

func (r *mutationResolver) CreateSmartAccount(ctx context.Context, input model.SmartAccountInput) (*model.SmartAccount, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.CreateSmartAccount(ctx, client, input)
}

func (r *queryResolver) SmartAccounts(ctx context.Context, page, pageSize *int) (*model.SmartAccountPage, error) {
	n, err := payerPage(ctx, r.Resolver, page, pageSize, func(client uuid.UUID, limit, offset int) ([]*model.SmartAccount, int, error) {
		return r.Payments.SmartAccounts(ctx, client, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return &model.SmartAccountPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

func (r *queryResolver) SmartAccount(ctx context.Context, id uuid.UUID) (*model.SmartAccount, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.SmartAccount(ctx, client, id)
}

func (r *queryResolver) SmartAccountBalance(ctx context.Context, id uuid.UUID) (*model.SmartAccountBalance, error) {
	client, err := r.payer(ctx)
	if err != nil {
		return nil, err
	}
	return r.Payments.SmartAccountBalance(ctx, client, id)
}
