package rest

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"ponte/model"
)

// paymentRoutes are section 4.5's endpoints and the official client's payments calls.
func (s *Server) paymentRoutes(r chi.Router) {
	r.Get("/payments/requests", s.listPaymentRequests)
	r.Post("/payments/requests", withBody(s, func(ctx context.Context, in model.PaymentRequestInput) (any, error) {
		return s.mut.CreatePaymentRequest(ctx, in)
	}))
	r.Post("/payments/requests/pix-qr", withBody(s, func(ctx context.Context, in model.PixQrPaymentRequestInput) (any, error) {
		return s.mut.CreatePaymentRequestFromPixQR(ctx, in)
	}))
	r.Get("/payments/requests/{id}", s.byID("Payment request id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.query.PaymentRequest(ctx, id)
	}))
	r.Patch("/payments/requests/{id}", withIDBody(s, "Payment request id", func(ctx context.Context, id uuid.UUID, in model.PaymentRequestInput) (any, error) {
		return s.mut.UpdatePaymentRequest(ctx, id, in)
	}))
	r.Delete("/payments/requests/{id}", s.byID("Payment request id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.mut.DeletePaymentRequest(ctx, id)
	}))
	r.Get("/payments/requests/{id}/schedules", s.byID("Payment request id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.query.ScheduledPayments(ctx, id)
	}))
	r.Post("/payments/requests/{id}/schedules/cancel", s.byID("Payment request id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.mut.CancelScheduledPayments(ctx, id)
	}))
	r.Get("/payments/requests/{id}/schedules/{scheduleId}", s.byTwoIDs(func(ctx context.Context, id, sid uuid.UUID) (any, error) {
		return s.query.ScheduledPayment(ctx, id, sid)
	}))
	r.Post("/payments/requests/{id}/schedules/{scheduleId}/cancel", s.byTwoIDs(func(ctx context.Context, id, sid uuid.UUID) (any, error) {
		return s.mut.CancelScheduledPayment(ctx, id, sid)
	}))

	r.Post("/payments/requests/automatic-pix", withBody(s, func(ctx context.Context, in model.AutomaticPixRequestInput) (any, error) {
		return s.mut.CreateAutomaticPixPaymentRequest(ctx, in)
	}))
	r.Post("/payments/requests/{id}/automatic-pix/schedule", withIDBody(s, "Payment request id", func(ctx context.Context, id uuid.UUID, in model.AutomaticPixPaymentInput) (any, error) {
		return s.mut.ScheduleAutomaticPixPayment(ctx, id, in)
	}))
	r.Get("/payments/requests/{id}/automatic-pix/schedules", s.pageByID("Payment request id", func(ctx context.Context, id uuid.UUID, page, size *int) (any, error) {
		return s.query.AutomaticPixPayments(ctx, id, page, size)
	}))
	r.Get("/payments/requests/{id}/automatic-pix/schedules/{scheduleId}", s.byTwoIDs(func(ctx context.Context, id, pid uuid.UUID) (any, error) {
		return s.query.AutomaticPixPayment(ctx, id, pid)
	}))
	r.Post("/payments/requests/{id}/automatic-pix/schedules/{scheduleId}/cancel", s.byTwoIDs(func(ctx context.Context, id, pid uuid.UUID) (any, error) {
		return s.mut.CancelAutomaticPixPayment(ctx, id, pid)
	}))
	r.Post("/payments/requests/{id}/automatic-pix/schedules/{scheduleId}/retry", s.retryAutomaticPixPayment)
	r.Post("/payments/requests/{id}/automatic-pix/cancel", s.byID("Payment request id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.mut.CancelAutomaticPixAuthorization(ctx, id)
	}))

	r.Get("/payments/intents", s.listPaymentIntents)
	r.Post("/payments/intents", withBody(s, func(ctx context.Context, in model.PaymentIntentInput) (any, error) {
		return s.mut.CreatePaymentIntent(ctx, in)
	}))
	r.Get("/payments/intents/{id}", s.byID("Payment intent id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.query.PaymentIntent(ctx, id)
	}))

	r.Get("/payments/customers", s.pageOf(func(ctx context.Context, page, size *int) (any, error) {
		return s.query.PaymentCustomers(ctx, page, size)
	}))
	r.Post("/payments/customers", withBody(s, func(ctx context.Context, in model.PaymentCustomerInput) (any, error) {
		return s.mut.CreatePaymentCustomer(ctx, in)
	}))
	r.Get("/payments/customers/{id}", s.byID("Payment customer id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.query.PaymentCustomer(ctx, id)
	}))
	r.Patch("/payments/customers/{id}", withIDBody(s, "Payment customer id", func(ctx context.Context, id uuid.UUID, in model.PaymentCustomerInput) (any, error) {
		return s.mut.UpdatePaymentCustomer(ctx, id, in)
	}))
	r.Delete("/payments/customers/{id}", s.byID("Payment customer id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.mut.DeletePaymentCustomer(ctx, id)
	}))

	r.Get("/payments/recipients/institutions", s.listPaymentInstitutions)
	r.Get("/payments/recipients/institutions/{id}", s.byID("Payment institution id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.query.PaymentInstitution(ctx, id)
	}))
	r.Get("/payments/recipients", s.pageOf(func(ctx context.Context, page, size *int) (any, error) {
		return s.query.PaymentRecipients(ctx, page, size)
	}))
	r.Post("/payments/recipients", withBody(s, func(ctx context.Context, in model.PaymentRecipientInput) (any, error) {
		return s.mut.CreatePaymentRecipient(ctx, in)
	}))
	r.Get("/payments/recipients/{id}", s.byID("Payment recipient id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.query.PaymentRecipient(ctx, id)
	}))
	r.Patch("/payments/recipients/{id}", withIDBody(s, "Payment recipient id", func(ctx context.Context, id uuid.UUID, in model.PaymentRecipientInput) (any, error) {
		return s.mut.UpdatePaymentRecipient(ctx, id, in)
	}))
	r.Delete("/payments/recipients/{id}", s.byID("Payment recipient id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.mut.DeletePaymentRecipient(ctx, id)
	}))

	r.Get("/payments/pay/{id}", s.payPage)
	r.Post("/payments/pay/{id}", s.payStart)
	r.Get("/payments/consent/{id}", s.consentPage)
	r.Get("/payments/pix/{id}", s.byID("PIX charge id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.res.PixLocation(ctx, id)
	}))
	r.Post("/payments/consent/{id}", s.consentDecision)
}

// withBody decodes a JSON body into T and answers fn's result.
func withBody[T any](s *Server, fn func(context.Context, T) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in T
		if err := decode(r, &in); err != nil {
			s.writeError(w, r, err)
			return
		}
		out, err := fn(r.Context(), in)
		s.respond(w, r, out, err)
	}
}

// withIDBody reads {id} and a JSON body.
func withIDBody[T any](s *Server, what string, fn func(context.Context, uuid.UUID, T) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := uuidParam(r, "id", what)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		var in T
		if err := decode(r, &in); err != nil {
			s.writeError(w, r, err)
			return
		}
		out, err := fn(r.Context(), id, in)
		s.respond(w, r, out, err)
	}
}

func (s *Server) byID(what string, fn func(context.Context, uuid.UUID) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := uuidParam(r, "id", what)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		out, err := fn(r.Context(), id)
		s.respond(w, r, out, err)
	}
}

func (s *Server) byTwoIDs(fn func(context.Context, uuid.UUID, uuid.UUID) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := uuidParam(r, "id", "Payment request id")
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		sid, err := uuidParam(r, "scheduleId", "Scheduled payment id")
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		out, err := fn(r.Context(), id, sid)
		s.respond(w, r, out, err)
	}
}

func (s *Server) pageOf(fn func(ctx context.Context, page, size *int) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := queryOf(r, "page", "pageSize")
		page, size := q.integer("page"), q.integer("pageSize")
		if q.err != nil {
			s.writeError(w, r, q.err)
			return
		}
		out, err := fn(r.Context(), page, size)
		s.respond(w, r, out, err)
	}
}

// pageByID reads {id} and the page parameters of a list that belongs to one resource.
func (s *Server) pageByID(what string, fn func(ctx context.Context, id uuid.UUID, page, size *int) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := uuidParam(r, "id", what)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		q := queryOf(r, "page", "pageSize")
		page, size := q.integer("page"), q.integer("pageSize")
		if q.err != nil {
			s.writeError(w, r, q.err)
			return
		}
		out, err := fn(r.Context(), id, page, size)
		s.respond(w, r, out, err)
	}
}

func (s *Server) listPaymentRequests(w http.ResponseWriter, r *http.Request) {
	q := queryOf(r, "page", "pageSize", "from", "to")
	page, size, from, to := q.integer("page"), q.integer("pageSize"), q.str("from"), q.str("to")
	if q.err != nil {
		s.writeError(w, r, q.err)
		return
	}
	out, err := s.query.PaymentRequests(r.Context(), page, size, from, to)
	s.respond(w, r, out, err)
}

func (s *Server) listPaymentIntents(w http.ResponseWriter, r *http.Request) {
	q := queryOf(r, "page", "pageSize", "from", "to", "paymentRequestId")
	page, size, from, to, req := q.integer("page"), q.integer("pageSize"), q.str("from"), q.str("to"), q.uuid("paymentRequestId")
	if q.err != nil {
		s.writeError(w, r, q.err)
		return
	}
	out, err := s.query.PaymentIntents(r.Context(), page, size, from, to, req)
	s.respond(w, r, out, err)
}

func (s *Server) listPaymentInstitutions(w http.ResponseWriter, r *http.Request) {
	q := queryOf(r, "page", "pageSize", "name")
	page, size, name := q.integer("page"), q.integer("pageSize"), q.str("name")
	if q.err != nil {
		s.writeError(w, r, q.err)
		return
	}
	out, err := s.query.PaymentInstitutions(r.Context(), page, size, name)
	s.respond(w, r, out, err)
}

func (s *Server) retryAutomaticPixPayment(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Payment request id")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	pid, err := uuidParam(r, "scheduleId", "Automatic PIX payment id")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var in model.AutomaticPixPaymentInput
	if err := decode(r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	out, err := s.mut.RetryAutomaticPixPayment(r.Context(), id, pid, in)
	s.respond(w, r, out, err)
}
