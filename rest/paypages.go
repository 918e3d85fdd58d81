package rest

import (
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"ponte/model"
)

// The payer's two pages: paymentUrl (pick an institution, give a CPF) and consentUrl
// (stands in for the institution's consent screen: authorize or reject). Both are plain
// forms with inline styles, so they work without scripts or any outside asset. They answer
// HTML to a browser, errors included, so they are written by hand rather than with the
// JSON shape of handle.go.
var payPages = template.Must(template.New("pay").Funcs(template.FuncMap{"brl": brl, "urlsafe": qrImage}).Parse(`<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>` + pageCSS + `</style></head>
<body>
<h1>{{.Title}}</h1>
{{if .Error}}<p class="error" role="alert">{{.Error}}</p>{{end}}
{{with .Request}}<dl>
{{if .Amount}}<dt>Valor</dt><dd id="amount">{{brl .Amount}}</dd>{{end}}
{{with .AutomaticPix}}<dt>Pix Automático</dt><dd id="automatic-pix">{{.Interval}} a partir de {{.StartDate}}{{if .FixedAmount}}, {{brl .FixedAmount}} por cobrança{{end}}{{if .MaximumVariableAmount}}, até {{brl .MaximumVariableAmount}} por cobrança{{end}}{{with .FirstPayment}}; primeira cobrança {{brl .Amount}}{{end}}</dd>{{end}}
{{if .Description}}<dt>Descrição</dt><dd>{{.Description}}</dd>{{end}}
{{with .Recipient}}<dt>Recebedor</dt><dd id="recipient">{{.Name}}{{with .PaymentInstitution}} — {{.TradeName}}{{end}}</dd>{{end}}
{{with .PixQrCode}}<dt>Recebedor</dt><dd id="recipient">{{.MerchantName}} ({{.MerchantCity}})</dd>{{end}}
</dl>{{end}}
{{with .Intent}}<dl>
{{with .Connector}}<dt>Instituição</dt><dd id="institution">{{.Name}}</dd>{{end}}
<dt>Pagador</dt><dd id="payer">{{$.PayerName}} (CPF {{$.PayerCPF}})</dd>
<dt>Situação</dt><dd class="status" id="status">{{.Status}}</dd>
</dl>
{{with .PixData}}<p><img alt="QR code PIX" width="200" height="200" src="{{.Qr | urlsafe}}"></p><p><small>PIX copia e cola: <code id="pix">{{.Value}}</code></small></p>{{end}}
{{end}}
{{if .Connectors}}<form method="post">
<label for="connectorId">Instituição de onde sai o pagamento</label>
<select id="connectorId" name="connectorId" required>{{range .Connectors}}<option value="{{.ID}}">{{.Name}}</option>{{end}}</select>
<label for="cpf">Seu CPF</label>
<input id="cpf" name="cpf" inputmode="numeric" autocomplete="off" required placeholder="000.000.000-00">
<label for="name">Seu nome{{if not .Request.AutomaticPix}} (opcional){{end}}</label>
<input id="name" name="name" autocomplete="name"{{if .Request.AutomaticPix}} required{{end}}>
<button class="approve" type="submit">Continuar</button>
</form>{{end}}
{{if .CanDecide}}<p>Ambiente de testes Ponte: esta página simula a tela de consentimento da instituição.{{if .SecondSigner}} O pagamento aguarda a assinatura de um segundo responsável.{{end}}</p>
<form method="post">
<button class="approve" name="decision" value="authorize" type="submit">Autorizar pagamento</button>
<button name="decision" value="reject" type="submit">Recusar</button>
</form>{{end}}
{{if .Message}}<p id="message">{{.Message}}</p>{{end}}
</body></html>
`))

// qrImage lets only the PNG data URLs the service itself renders into an img src.
func qrImage(s string) template.URL {
	if strings.HasPrefix(s, "data:image/png;base64,") {
		return template.URL(s)
	}
	return ""
}

type payView struct {
	Title        string
	Error        string
	Message      string
	Request      *model.PaymentRequest
	Intent       *model.PaymentIntent
	Connectors   []*model.Connector
	PayerName    string
	PayerCPF     string // masked by the engine
	CanDecide    bool
	SecondSigner bool
}

func brl(x any) string {
	var v float64
	switch a := x.(type) {
	case float64:
		v = a
	case *float64:
		if a == nil {
			return ""
		}
		v = *a
	}
	s := strconv.FormatFloat(v, 'f', 2, 64)
	whole, cents, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte('.')
		}
		b.WriteRune(c)
	}
	return "R$ " + b.String() + "," + cents
}

// pageCSS is the look every page of the service's own shares.
const pageCSS = `body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}
dl{display:grid;grid-template-columns:7rem 1fr;gap:.3rem 1rem}dt{color:#555}dd{margin:0}
label{display:block;margin:.8rem 0 .3rem}select,input{font-size:1rem;padding:.4rem;width:100%;box-sizing:border-box}
button{font-size:1rem;padding:.6rem 1.2rem;margin:1rem .6rem 0 0;border-radius:.4rem;border:1px solid #888;cursor:pointer}
.approve{background:#0a7d48;color:#fff;border-color:#0a7d48}.error{color:#a4000f}.status{font-family:monospace}`

func (s *Server) renderPay(w http.ResponseWriter, status int, v payView) {
	pageHeaders(w)
	w.WriteHeader(status)
	_ = payPages.Execute(w, v)
}

// pageHeaders are the headers of the service's HTML pages.
func pageHeaders(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	// Browsers apply form-action to the redirect that follows a post too: the consent page's
	// decision redirects to the application's callbackUrls, on any host.
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self' https: http:; frame-ancestors 'none'")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Frame-Options", "DENY")
}

func (s *Server) pageError(w http.ResponseWriter, r *http.Request, title string, err error) {
	e, internal := model.AsError(err)
	if internal {
		s.log.ErrorContext(r.Context(), "payment page", "path", r.URL.Path, "err", err)
	}
	s.renderPay(w, e.Status(), payView{Title: title, Error: e.Message})
}

func (s *Server) payPage(w http.ResponseWriter, r *http.Request) {
	s.showPay(w, r, http.StatusOK, "")
}

func (s *Server) showPay(w http.ResponseWriter, r *http.Request, status int, problem string) {
	id, err := uuidParam(r, "id", "Payment request id")
	if err != nil {
		s.pageError(w, r, "Pagamento não encontrado", err)
		return
	}
	pv, err := s.query.PaymentPage(r.Context(), id)
	if err != nil {
		s.pageError(w, r, "Pagamento não encontrado", err)
		return
	}
	v := payView{Title: "Pagamento", Request: pv.Request, Error: problem}
	if pv.CanPay {
		v.Connectors = pv.Connectors
	} else {
		v.Message = "Este pagamento não está disponível (situação " + pv.Request.Status + ")."
	}
	s.renderPay(w, status, v)
}

func (s *Server) payStart(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Payment request id")
	if err != nil {
		s.pageError(w, r, "Pagamento não encontrado", err)
		return
	}
	connector, err := strconv.Atoi(r.PostFormValue("connectorId"))
	if err != nil {
		s.showPay(w, r, http.StatusBadRequest, "Escolha uma instituição.")
		return
	}
	name := r.PostFormValue("name")
	intent, err := s.mut.StartPaymentIntentAsPayer(r.Context(), id, connector, r.PostFormValue("cpf"), &name)
	if err != nil {
		e, _ := model.AsError(err)
		s.showPay(w, r, e.Status(), e.Message)
		return
	}
	http.Redirect(w, r, *intent.ConsentURL, http.StatusSeeOther)
}

func (s *Server) consentPage(w http.ResponseWriter, r *http.Request) {
	s.showConsent(w, r, http.StatusOK, "", "")
}

func (s *Server) showConsent(w http.ResponseWriter, r *http.Request, status int, problem, message string) {
	id, err := uuidParam(r, "id", "Payment intent id")
	if err != nil {
		s.pageError(w, r, "Consentimento não encontrado", err)
		return
	}
	c, err := s.query.PaymentConsent(r.Context(), id)
	if err != nil {
		s.pageError(w, r, "Consentimento não encontrado", err)
		return
	}
	if message == "" && problem == "" && !c.CanDecide {
		message = decidedMessage(c.Decision, c.Intent.Status)
	}
	s.renderPay(w, status, payView{Title: "Autorizar pagamento", Request: c.Intent.PaymentRequest, Intent: c.Intent, PayerName: c.PayerName,
		PayerCPF: c.PayerCpf, CanDecide: c.CanDecide, SecondSigner: c.SecondSigner, Error: problem, Message: message})
}

// decidedMessage tells the payer what became of a consent no longer waiting for them.
func decidedMessage(decision *string, status string) string {
	if decision == nil {
		return ""
	}
	switch *decision {
	case model.DecisionAuthorized:
		return "Este pagamento já foi autorizado (situação " + status + ")."
	case model.DecisionRejected:
		return "Este pagamento já foi recusado (situação " + status + ")."
	case model.DecisionExpired:
		return "O prazo para autorizar este pagamento terminou (situação " + status + ")."
	case model.DecisionEnded:
		return "Este pagamento foi encerrado e não pode mais ser autorizado (situação " + status + ")."
	}
	return ""
}

func (s *Server) consentDecision(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Payment intent id")
	if err != nil {
		s.pageError(w, r, "Consentimento não encontrado", err)
		return
	}
	decision := r.PostFormValue("decision")
	if decision != "authorize" && decision != "reject" {
		s.showConsent(w, r, http.StatusBadRequest, "Escolha autorizar ou recusar.", "")
		return
	}
	n, err := s.mut.DecidePaymentIntent(r.Context(), id, decision == "authorize")
	if err != nil {
		e, _ := model.AsError(err)
		if e.Code == model.CodeInvalidIntentTransition {
			// Decided before (a second click, a reload): the page shows what was decided,
			// with 409 since this decision was not taken.
			s.showConsent(w, r, e.Status(), "", "")
			return
		}
		s.showConsent(w, r, e.Status(), e.Message, "")
		return
	}
	failed := n.ErrorDetail != nil
	if req := n.PaymentRequest; req != nil && req.CallbackUrls != nil {
		target := req.CallbackUrls.Success
		if failed {
			target = req.CallbackUrls.Error
		}
		if redirectWith(w, r, target, "paymentIntentId", n.ID.String()) {
			return
		}
	}
	msg := "Pagamento autorizado. Você já pode voltar ao aplicativo."
	if failed {
		msg = "Pagamento não realizado: " + n.ErrorDetail.Description
	}
	s.showConsent(w, r, http.StatusOK, "", msg)
}

// redirectWith sends a page's visitor to the application's callback URL, with the id of what
// was decided added to its query; false when there is no usable URL.
func redirectWith(w http.ResponseWriter, r *http.Request, target *string, param, id string) bool {
	if target == nil {
		return false
	}
	u, err := url.Parse(*target)
	if err != nil {
		return false
	}
	q := u.Query()
	q.Set(param, id)
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
	return true
}
