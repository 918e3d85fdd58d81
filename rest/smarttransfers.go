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
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>` + pageCSS + `</style></head>
<body>
<h1>{{.Title}}</h1>
{{if .Error}}<p class="error" role="alert">{{.Error}}</p>{{end}}
{{with .Preauth}}<dl>
{{with .Connector}}<dt>Instituição</dt><dd id="institution">{{.Name}}</dd>{{end}}
<dt>Pagador</dt><dd id="payer">{{$.PayerName}} (CPF {{$.PayerCPF}})</dd>
<dt>Recebedores</dt><dd id="recipients">{{range $i, $r := .Recipients}}{{if $i}}; {{end}}{{$r.Name}}{{with $r.PaymentInstitution}} — {{.TradeName}}{{end}}{{end}}</dd>
{{with .Limits}}{{if .Transaction}}<dt>Por pagamento</dt><dd>até {{brl .Transaction}}</dd>{{end}}{{if .Daily}}<dt>Por dia</dt><dd>até {{brl .Daily}}</dd>{{end}}{{if .Weekly}}<dt>Por semana</dt><dd>até {{brl .Weekly}}</dd>{{end}}{{if .Monthly}}<dt>Por mês</dt><dd>até {{brl .Monthly}}</dd>{{end}}{{if .Yearly}}<dt>Por ano</dt><dd>até {{brl .Yearly}}</dd>{{end}}{{if .Total}}<dt>No total</dt><dd>até {{brl .Total}}</dd>{{end}}{{end}}
<dt>Situação</dt><dd class="status" id="status">{{.Status}}</dd>
</dl>{{end}}
{{with .Bulk}}<dl>
{{with .SmartAccount}}<dt>Conta</dt><dd id="account">{{.Name}} — agência {{.Agency}}, conta {{.Number}}-{{.VerifyingDigit}}</dd>{{end}}
<dt>Total</dt><dd id="total">{{brl .TotalAmount}}</dd>
<dt>Pagamentos</dt><dd id="requests">{{len .PaymentRequests}}</dd>
<dt>Situação</dt><dd class="status" id="status">{{.Status}}</dd>
</dl>
<ul>{{range .PaymentRequests}}<li>{{brl .Amount}}{{with .Recipient}} para {{.Name}}{{end}}{{if .Description}} — {{.Description}}{{end}}</li>{{end}}</ul>{{end}}
{{if .CanDecide}}<p>Ambiente de testes Ponte: esta página simula a tela de consentimento da instituição.</p>
<form method="post">
<button class="approve" name="decision" value="authorize" type="submit">Autorizar</button>
<button name="decision" value="reject" type="submit">Recusar</button>
</form>{{end}}
{{if .CanRevoke}}<form method="post"><button name="decision" value="revoke" type="submit">Revogar esta autorização</button></form>{{end}}
{{if .Message}}<p id="message">{{.Message}}</p>{{end}}
</body></html>
`))

type transferView struct {
	Title, Error, Message string
	Preauth               *model.SmartTransferPreauthorization
	PayerName, PayerCPF   string
	Bulk                  *model.BulkPayment
	CanDecide, CanRevoke  bool
}

func (s *Server) renderTransfer(w http.ResponseWriter, status int, v transferView) {
	pageHeaders(w)
	w.WriteHeader(status)
	_ = transferPages.Execute(w, v)
}

func (s *Server) transferError(w http.ResponseWriter, r *http.Request, title string, err error) {
	e, internal := model.AsError(err)
	if internal {
		s.log.ErrorContext(r.Context(), "smart transfer page", "path", r.URL.Path, "err", err)
	}
	s.renderTransfer(w, e.Status(), transferView{Title: title, Error: e.Message})
}

const preauthTitle = "Autorizar transferências inteligentes"

func (s *Server) preauthPage(w http.ResponseWriter, r *http.Request) {
	s.showPreauth(w, r, http.StatusOK, "", "")
}

func (s *Server) showPreauth(w http.ResponseWriter, r *http.Request, status int, problem, message string) {
	id, err := uuidParam(r, "id", "Smart transfer pre-authorization id")
	if err != nil {
		s.transferError(w, r, "Autorização não encontrada", err)
		return
	}
	v, err := s.query.PreauthorizationConsent(r.Context(), id)
	if err != nil {
		s.transferError(w, r, "Autorização não encontrada", err)
		return
	}
	p := v.Preauthorization
	if message == "" && problem == "" {
		switch p.Status {
		case model.PreauthCompleted:
			message = "Transferências autorizadas. Você pode revogar esta autorização quando quiser."
		case model.PreauthRejected:
			message = "Esta autorização foi recusada."
		case model.PreauthRevoked:
			message = "Esta autorização foi revogada."
		case model.PreauthError:
			message = "A instituição não concluiu esta autorização."
			if p.ErrorDetail != nil {
				message += " " + p.ErrorDetail.Description
			}
		}
	}
	s.renderTransfer(w, status, transferView{Title: preauthTitle, Error: problem, Message: message, Preauth: p,
		PayerName: v.PayerName, PayerCPF: v.PayerCpf, CanDecide: v.CanDecide, CanRevoke: v.CanRevoke})
}

func (s *Server) preauthDecision(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Smart transfer pre-authorization id")
	if err != nil {
		s.transferError(w, r, "Autorização não encontrada", err)
		return
	}
	var p *model.SmartTransferPreauthorization
	switch r.PostFormValue("decision") {
	case "authorize", "reject":
		p, err = s.mut.DecidePreauthorization(r.Context(), id, r.PostFormValue("decision") == "authorize")
	case "revoke":
		p, err = s.mut.RevokePreauthorizationAsPayer(r.Context(), id)
	default:
		s.showPreauth(w, r, http.StatusBadRequest, "Escolha autorizar, recusar ou revogar.", "")
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

const bulkTitle = "Autorizar pagamentos em lote"

func (s *Server) bulkPage(w http.ResponseWriter, r *http.Request) {
	s.showBulk(w, r, http.StatusOK, "")
}

func (s *Server) showBulk(w http.ResponseWriter, r *http.Request, status int, problem string) {
	id, err := uuidParam(r, "id", "Bulk payment id")
	if err != nil {
		s.transferError(w, r, "Pagamento em lote não encontrado", err)
		return
	}
	v, err := s.query.BulkPaymentConsent(r.Context(), id)
	if err != nil {
		s.transferError(w, r, "Pagamento em lote não encontrado", err)
		return
	}
	b := v.BulkPayment
	message := ""
	switch b.Status {
	case model.BulkPaymentInProgress:
		message = "Pagamentos autorizados e em andamento."
	case model.BulkCompleted:
		message = "Pagamentos concluídos."
	case model.BulkError:
		message = "Este pagamento em lote não foi realizado."
		if b.ErrorDetail != nil {
			message += " " + b.ErrorDetail.Description
		}
	}
	s.renderTransfer(w, status, transferView{Title: bulkTitle, Error: problem, Message: message, Bulk: b, CanDecide: v.CanDecide})
}

func (s *Server) bulkDecision(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Bulk payment id")
	if err != nil {
		s.transferError(w, r, "Pagamento em lote não encontrado", err)
		return
	}
	decision := r.PostFormValue("decision")
	if decision != "authorize" && decision != "reject" {
		s.showBulk(w, r, http.StatusBadRequest, "Escolha autorizar ou recusar.")
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
