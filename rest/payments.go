package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"ponte/model"
)

// Section 4.5's endpoints and the official client's payments calls. The payer's HTML
// pages are in paypages.go.

const (
	requestID      = "Payment request id"
	scheduleID     = "Scheduled payment id"
	automaticPixID = "Automatic PIX payment id"
)

// ---- payment requests

func (s *Server) listPaymentRequests() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		q := in.query("page", "pageSize", "from", "to")
		page, size, from, to := q.integer("page"), q.integer("pageSize"), q.str("from"), q.str("to")
		return func(ctx context.Context) (any, error) { return s.query.PaymentRequests(ctx, page, size, from, to) }
	})
}

func (s *Server) createPaymentRequest() http.HandlerFunc {
	return withBody(s, func(ctx context.Context, in model.PaymentRequestInput) (any, error) {
		return s.mut.CreatePaymentRequest(ctx, in)
	})
}

func (s *Server) createPixQRPaymentRequest() http.HandlerFunc {
	return withBody(s, func(ctx context.Context, in model.PixQrPaymentRequestInput) (any, error) {
		return s.mut.CreatePaymentRequestFromPixQR(ctx, in)
	})
}

func (s *Server) getPaymentRequest() http.HandlerFunc {
	return s.byID(requestID, func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.PaymentRequest(ctx, id) })
}

func (s *Server) updatePaymentRequest() http.HandlerFunc {
	return withIDBody(s, requestID, func(ctx context.Context, id uuid.UUID, in model.PaymentRequestInput) (any, error) {
		return s.mut.UpdatePaymentRequest(ctx, id, in)
	})
}

func (s *Server) deletePaymentRequest() http.HandlerFunc {
	return s.byID(requestID, func(ctx context.Context, id uuid.UUID) (any, error) { return s.mut.DeletePaymentRequest(ctx, id) })
}

// ---- scheduled payments of a request

func (s *Server) listScheduledPayments() http.HandlerFunc {
	return s.byID(requestID, func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.ScheduledPayments(ctx, id) })
}

func (s *Server) cancelScheduledPayments() http.HandlerFunc {
	return s.byID(requestID, func(ctx context.Context, id uuid.UUID) (any, error) { return s.mut.CancelScheduledPayments(ctx, id) })
}

func (s *Server) getScheduledPayment() http.HandlerFunc {
	return s.byTwoIDs(requestID, scheduleID, func(ctx context.Context, id, sid uuid.UUID) (any, error) {
		return s.query.ScheduledPayment(ctx, id, sid)
	})
}

func (s *Server) cancelScheduledPayment() http.HandlerFunc {
	return s.byTwoIDs(requestID, scheduleID, func(ctx context.Context, id, sid uuid.UUID) (any, error) {
		return s.mut.CancelScheduledPayment(ctx, id, sid)
	})
}

// ---- automatic PIX

func (s *Server) createAutomaticPixRequest() http.HandlerFunc {
	return withBody(s, func(ctx context.Context, in model.AutomaticPixRequestInput) (any, error) {
		return s.mut.CreateAutomaticPixPaymentRequest(ctx, in)
	})
}

func (s *Server) scheduleAutomaticPixPayment() http.HandlerFunc {
	return withIDBody(s, requestID, func(ctx context.Context, id uuid.UUID, in model.AutomaticPixPaymentInput) (any, error) {
		return s.mut.ScheduleAutomaticPixPayment(ctx, id, in)
	})
}

func (s *Server) listAutomaticPixPayments() http.HandlerFunc {
	return s.pageByID(requestID, func(ctx context.Context, id uuid.UUID, page, size *int) (any, error) {
		return s.query.AutomaticPixPayments(ctx, id, page, size)
	})
}

func (s *Server) getAutomaticPixPayment() http.HandlerFunc {
	return s.byTwoIDs(requestID, automaticPixID, func(ctx context.Context, id, pid uuid.UUID) (any, error) {
		return s.query.AutomaticPixPayment(ctx, id, pid)
	})
}

func (s *Server) cancelAutomaticPixPayment() http.HandlerFunc {
	return s.byTwoIDs(requestID, automaticPixID, func(ctx context.Context, id, pid uuid.UUID) (any, error) {
		return s.mut.CancelAutomaticPixPayment(ctx, id, pid)
	})
}

func (s *Server) retryAutomaticPixPayment() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		id, pid := in.id("id", requestID), in.id("scheduleId", automaticPixID)
		var body model.AutomaticPixPaymentInput
		in.body(&body)
		return func(ctx context.Context) (any, error) { return s.mut.RetryAutomaticPixPayment(ctx, id, pid, body) }
	})
}

func (s *Server) cancelAutomaticPixAuthorization() http.HandlerFunc {
	return s.byID(requestID, func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.mut.CancelAutomaticPixAuthorization(ctx, id)
	})
}

// ---- payment intents

func (s *Server) listPaymentIntents() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		q := in.query("page", "pageSize", "from", "to", "paymentRequestId")
		page, size, from, to, req := q.integer("page"), q.integer("pageSize"), q.str("from"), q.str("to"), q.uuid("paymentRequestId")
		return func(ctx context.Context) (any, error) { return s.query.PaymentIntents(ctx, page, size, from, to, req) }
	})
}

func (s *Server) createPaymentIntent() http.HandlerFunc {
	return withBody(s, func(ctx context.Context, in model.PaymentIntentInput) (any, error) {
		return s.mut.CreatePaymentIntent(ctx, in)
	})
}

func (s *Server) getPaymentIntent() http.HandlerFunc {
	return s.byID("Payment intent id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.PaymentIntent(ctx, id) })
}

// getPixLocation is the payload of a dynamic PIX charge, where its BR Code points.
func (s *Server) getPixLocation() http.HandlerFunc {
	return s.byID("PIX charge id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.PixCharge(ctx, id) })
}

// ---- customers

func (s *Server) listPaymentCustomers() http.HandlerFunc {
	return s.pageOf(func(ctx context.Context, page, size *int) (any, error) {
		return s.query.PaymentCustomers(ctx, page, size)
	})
}

func (s *Server) createPaymentCustomer() http.HandlerFunc {
	return withBody(s, func(ctx context.Context, in model.PaymentCustomerInput) (any, error) {
		return s.mut.CreatePaymentCustomer(ctx, in)
	})
}

func (s *Server) getPaymentCustomer() http.HandlerFunc {
	return s.byID("Payment customer id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.PaymentCustomer(ctx, id) })
}

func (s *Server) updatePaymentCustomer() http.HandlerFunc {
	return withIDBody(s, "Payment customer id", func(ctx context.Context, id uuid.UUID, in model.PaymentCustomerInput) (any, error) {
		return s.mut.UpdatePaymentCustomer(ctx, id, in)
	})
}

func (s *Server) deletePaymentCustomer() http.HandlerFunc {
	return s.byID("Payment customer id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.mut.DeletePaymentCustomer(ctx, id) })
}

// ---- recipients and their institutions

func (s *Server) listPaymentInstitutions() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		q := in.query("page", "pageSize", "name")
		page, size, name := q.integer("page"), q.integer("pageSize"), q.str("name")
		return func(ctx context.Context) (any, error) { return s.query.PaymentInstitutions(ctx, page, size, name) }
	})
}

func (s *Server) getPaymentInstitution() http.HandlerFunc {
	return s.byID("Payment institution id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.query.PaymentInstitution(ctx, id)
	})
}

func (s *Server) listPaymentRecipients() http.HandlerFunc {
	return s.pageOf(func(ctx context.Context, page, size *int) (any, error) {
		return s.query.PaymentRecipients(ctx, page, size)
	})
}

func (s *Server) createPaymentRecipient() http.HandlerFunc {
	return withBody(s, func(ctx context.Context, in model.PaymentRecipientInput) (any, error) {
		return s.mut.CreatePaymentRecipient(ctx, in)
	})
}

func (s *Server) getPaymentRecipient() http.HandlerFunc {
	return s.byID("Payment recipient id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.PaymentRecipient(ctx, id) })
}

func (s *Server) updatePaymentRecipient() http.HandlerFunc {
	return withIDBody(s, "Payment recipient id", func(ctx context.Context, id uuid.UUID, in model.PaymentRecipientInput) (any, error) {
		return s.mut.UpdatePaymentRecipient(ctx, id, in)
	})
}

func (s *Server) deletePaymentRecipient() http.HandlerFunc {
	return s.byID("Payment recipient id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.mut.DeletePaymentRecipient(ctx, id) })
}

func (s *Server) refundPaymentRequest() http.HandlerFunc {
	type body struct {
		Amount *float64 `json:"amount"`
	}
	return withIDBody(s, "Payment request id", func(ctx context.Context, id uuid.UUID, in body) (any, error) {
		return s.mut.RefundPaymentRequest(ctx, id, in.Amount)
	})
}

// ---- smart accounts

func (s *Server) createSmartAccount() http.HandlerFunc {
	return withBody(s, func(ctx context.Context, in model.SmartAccountInput) (any, error) {
		return s.mut.CreateSmartAccount(ctx, in)
	})
}

func (s *Server) listSmartAccounts() http.HandlerFunc {
	return s.pageOf(func(ctx context.Context, page, size *int) (any, error) { return s.query.SmartAccounts(ctx, page, size) })
}

func (s *Server) getSmartAccount() http.HandlerFunc {
	return s.byID("Smart account id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.SmartAccount(ctx, id) })
}

func (s *Server) smartAccountBalance() http.HandlerFunc {
	return s.byID("Smart account id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.SmartAccountBalance(ctx, id) })
}
