package rest

import (
	"context"
	"html/template"
	"net/http"

	"github.com/google/uuid"

	"ponte/model"
)

// ---- smart transfers and bulk payments (the API)

func (s *Server) createPreauthorization() http.HandlerFunc {
	return withBody(s, func(ctx context.Context, in model.SmartTransferPreauthorizationInput) (any, error) {
		return s.mut.CreateSmartTransferPreauthorization(ctx, in)
	})
}

func (s *Server) listPreauthorizations() http.HandlerFunc {
	return s.pageOf(func(ctx context.Context, page, size *int) (any, error) {
		return s.query.SmartTransferPreauthorizations(ctx, page, size)
	})
}

func (s *Server) getPreauthorization() http.HandlerFunc {
	return s.byID("Smart transfer pre-authorization id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.query.SmartTransferPreauthorization(ctx, id)
	})
}

func (s *Server) revokePreauthorization() http.HandlerFunc {
	return s.byID("Smart transfer pre-authorization id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.mut.RevokeSmartTransferPreauthorization(ctx, id)
	})
}

func (s *Server) createSmartTransferPayment() http.HandlerFunc {
	return withBody(s, func(ctx context.Context, in model.SmartTransferPaymentInput) (any, error) {
		return s.mut.CreateSmartTransferPayment(ctx, in)
	})
}

func (s *Server) getSmartTransferPayment() http.HandlerFunc {
	return s.byID("Smart transfer payment id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return s.query.SmartTransferPayment(ctx, id)
	})
}

func (s *Server) createBulkPayment() http.HandlerFunc {
	return withBody(s, func(ctx context.Context, in model.BulkPaymentInput) (any, error) {
		return s.mut.CreateBulkPayment(ctx, in)
	})
}

func (s *Server) listBulkPayments() http.HandlerFunc {
	return s.pageOf(func(ctx context.Context, page, size *int) (any, error) { return s.query.BulkPayments(ctx, page, size) })
}

func (s *Server) getBulkPayment() http.HandlerFunc {
	return s.byID("Bulk payment id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.BulkPayment(ctx, id) })
}

func (s *Server) deleteBulkPayment() http.HandlerFunc {
	return s.byID("Bulk payment id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.mut.DeleteBulkPayment(ctx, id) })
}

// ---- the pre-authorization's consent page and the bulk payment's authorization page:
// plain forms in the payment pages' look, answering HTML errors included.

var transferPages = template.Must(template.New("transfer").Funcs(template.FuncMap{"brl": brl}).Parse(`<!doctype html>
<html lang="{{.L.Tag}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>` + pageCSS + `</style></head>
<body>
<h1>{{.Title}}</h1>
{{if .Error}}<p class="error" role="alert">{{.Error}}</p>{{end}}
{{with .Preauth}}<dl>
{{with .Connector}}<dt>{{$.L.T "institution"}}</dt><dd id="institution">{{.Name}}</dd>{{end}}
<dt>{{$.L.T "payer"}}</dt><dd id="payer">{{$.PayerName}} (CPF {{$.PayerCPF}})</dd>
<dt>{{$.L.T "recipients"}}</dt><dd id="recipients">{{range $i, $r := .Recipients}}{{if $i}}; {{end}}{{$r.Name}}{{with $r.PaymentInstitution}} — {{.TradeName}}{{end}}{{end}}</dd>
{{with .Limits}}{{if .Transaction}}<dt>{{$.L.T "perPayment"}}</dt><dd>{{$.L.T "upTo"}} {{brl .Transaction}}</dd>{{end}}{{if .Daily}}<dt>{{$.L.T "perDay"}}</dt><dd>{{$.L.T "upTo"}} {{brl .Daily}}</dd>{{end}}{{if .Weekly}}<dt>{{$.L.T "perWeek"}}</dt><dd>{{$.L.T "upTo"}} {{brl .Weekly}}</dd>{{end}}{{if .Monthly}}<dt>{{$.L.T "perMonth"}}</dt><dd>{{$.L.T "upTo"}} {{brl .Monthly}}</dd>{{end}}{{if .Yearly}}<dt>{{$.L.T "perYear"}}</dt><dd>{{$.L.T "upTo"}} {{brl .Yearly}}</dd>{{end}}{{if .Total}}<dt>{{$.L.T "inTotal"}}</dt><dd>{{$.L.T "upTo"}} {{brl .Total}}</dd>{{end}}{{end}}
<dt>{{$.L.T "status"}}</dt><dd id="status">{{$.L.StatusOf "preauth" .Status}} <small class="code">({{$.L.T "code"}} {{.Status}})</small></dd>
</dl>{{end}}
{{with .Bulk}}<dl>
{{with .SmartAccount}}<dt>{{$.L.T "account"}}</dt><dd id="account">{{.Name}} — {{$.L.T "branch"}} {{.Agency}}, {{$.L.T "accountNumber"}} {{.Number}}-{{.VerifyingDigit}}</dd>{{end}}
<dt>{{$.L.T "total"}}</dt><dd id="total">{{brl .TotalAmount}}</dd>
<dt>{{$.L.T "payments"}}</dt><dd id="requests">{{len .PaymentRequests}}</dd>
<dt>{{$.L.T "status"}}</dt><dd id="status">{{$.L.StatusOf "bulk" .Status}} <small class="code">({{$.L.T "code"}} {{.Status}})</small></dd>
</dl>
<ul>{{range .PaymentRequests}}<li>{{brl .Amount}}{{with .Recipient}} {{$.L.T "to"}} {{.Name}}{{end}}{{if .Description}} — {{.Description}}{{end}}</li>{{end}}</ul>{{end}}
{{if .CanDecide}}<p>{{.L.T "sandboxConsent"}}</p>
<form method="post">
<button class="approve" name="decision" value="authorize" type="submit">{{.L.T "authorizeShort"}}</button>
<button name="decision" value="reject" type="submit">{{.L.T "reject"}}</button>
</form>{{end}}
{{if .CanRevoke}}<form method="post"><button name="decision" value="revoke" type="submit">{{.L.T "revoke"}}</button></form>{{end}}
{{if .Message}}<p id="message">{{.Message}}</p>{{end}}
</body></html>
`))

type transferView struct {
	L                     pageLang
	Title, Error, Message string
	Preauth               *model.SmartTransferPreauthorization
	PayerName, PayerCPF   string
	Bulk                  *model.BulkPayment
	CanDecide, CanRevoke  bool
}

func (s *Server) renderTransfer(w http.ResponseWriter, status int, v transferView) {
	pageHeaders(w)
	w.WriteHeader(status)
	if err := transferPages.Execute(w, v); err != nil {
		s.log.Error("smart transfer page template", "err", err)
	}
}

func (s *Server) transferError(w http.ResponseWriter, r *http.Request, title string, err error) {
	e, internal := model.AsError(err)
	if internal {
		s.log.ErrorContext(r.Context(), "smart transfer page", "path", r.URL.Path, "err", err)
	}
	l := langOf(r)
	s.renderTransfer(w, e.Status(), transferView{L: l, Title: l.T(title), Error: e.Message})
}

func (s *Server) preauthPage(w http.ResponseWriter, r *http.Request) {
	s.showPreauth(w, r, http.StatusOK, "", "")
}

func (s *Server) showPreauth(w http.ResponseWriter, r *http.Request, status int, problem, message string) {
	id, err := uuidParam(r, "id", "Smart transfer pre-authorization id")
	if err != nil {
		s.transferError(w, r, "preauthNotFound", err)
		return
	}
	v, err := s.query.PreauthorizationConsent(r.Context(), id)
	if err != nil {
		s.transferError(w, r, "preauthNotFound", err)
		return
	}
	p, l := v.Preauthorization, langOf(r)
	if message == "" && problem == "" {
		switch p.Status {
		case model.PreauthCompleted:
			message = l.T("preauthDone")
		case model.PreauthRejected:
			message = l.T("preauthRejected")
		case model.PreauthRevoked:
			message = l.T("preauthRevoked")
		case model.PreauthError:
			message = l.T("preauthError")
			if p.ErrorDetail != nil {
				message += " " + p.ErrorDetail.Description
			}
		}
	}
	s.renderTransfer(w, status, transferView{L: l, Title: l.T("preauthTitle"), Error: problem, Message: message, Preauth: p,
		PayerName: v.PayerName, PayerCPF: v.PayerCpf, CanDecide: v.CanDecide, CanRevoke: v.CanRevoke})
}

func (s *Server) preauthDecision(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Smart transfer pre-authorization id")
	if err != nil {
		s.transferError(w, r, "preauthNotFound", err)
		return
	}
	var p *model.SmartTransferPreauthorization
	switch r.PostFormValue("decision") {
	case "authorize", "reject":
		p, err = s.mut.DecidePreauthorization(r.Context(), id, r.PostFormValue("decision") == "authorize")
	case "revoke":
		p, err = s.mut.RevokePreauthorizationAsPayer(r.Context(), id)
	default:
		s.showPreauth(w, r, http.StatusBadRequest, langOf(r).T("pickPreauthDecision"), "")
		return
	}
	if err != nil {
		e, _ := model.AsError(err)
		s.showPreauth(w, r, e.Status(), e.Message, "")
		return
	}
	if cb := p.CallbackUrls; cb != nil && p.Status != model.PreauthRevoked {
		target := cb.Success
		if p.Status != model.PreauthCompleted {
			target = cb.Error
		}
		if redirectWith(w, r, target, "preauthorizationId", p.ID.String()) {
			return
		}
	}
	s.showPreauth(w, r, http.StatusOK, "", "")
}

func (s *Server) bulkPage(w http.ResponseWriter, r *http.Request) {
	s.showBulk(w, r, http.StatusOK, "")
}

func (s *Server) showBulk(w http.ResponseWriter, r *http.Request, status int, problem string) {
	id, err := uuidParam(r, "id", "Bulk payment id")
	if err != nil {
		s.transferError(w, r, "bulkNotFound", err)
		return
	}
	v, err := s.query.BulkPaymentConsent(r.Context(), id)
	if err != nil {
		s.transferError(w, r, "bulkNotFound", err)
		return
	}
	b, l := v.BulkPayment, langOf(r)
	message := ""
	switch b.Status {
	case model.BulkPaymentInProgress:
		message = l.T("bulkInProgress")
	case model.BulkCompleted:
		message = l.T("bulkDone")
	case model.BulkError:
		message = l.T("bulkError")
		if b.ErrorDetail != nil {
			message += " " + b.ErrorDetail.Description
		}
	}
	s.renderTransfer(w, status, transferView{L: l, Title: l.T("bulkTitle"), Error: problem, Message: message, Bulk: b, CanDecide: v.CanDecide})
}

func (s *Server) bulkDecision(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Bulk payment id")
	if err != nil {
		s.transferError(w, r, "bulkNotFound", err)
		return
	}
	decision := r.PostFormValue("decision")
	if decision != "authorize" && decision != "reject" {
		s.showBulk(w, r, http.StatusBadRequest, langOf(r).T("pickDecision"))
		return
	}
	b, err := s.mut.DecideBulkPayment(r.Context(), id, decision == "authorize")
	if err != nil {
		e, _ := model.AsError(err)
		s.showBulk(w, r, e.Status(), e.Message)
		return
	}
	if cb := b.CallbackUrls; cb != nil {
		target := cb.Pending
		if b.Status == model.BulkError {
			target = cb.Error
		} else if target == nil {
			target = cb.Success
		}
		if redirectWith(w, r, target, "bulkPaymentId", b.ID.String()) {
			return
		}
	}
	s.showBulk(w, r, http.StatusOK, "")
}
