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
<html lang="{{.L.Tag}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>` + pageCSS + `</style></head>
<body>
<h1>{{.Title}}</h1>
{{if .Error}}<p class="error" role="alert">{{.Error}}</p>{{end}}
{{with .Request}}<dl>
{{if .Amount}}<dt>{{$.L.T "amount"}}</dt><dd id="amount">{{brl .Amount}}</dd>{{end}}
{{with .AutomaticPix}}<dt>{{$.L.T "automaticPix"}}</dt><dd id="automatic-pix">{{.Interval}} {{$.L.T "from"}} {{.StartDate}}{{if .FixedAmount}}, {{brl .FixedAmount}} {{$.L.T "perCharge"}}{{end}}{{if .MaximumVariableAmount}}, {{$.L.T "upTo"}} {{brl .MaximumVariableAmount}} {{$.L.T "perCharge"}}{{end}}{{with .FirstPayment}}; {{$.L.T "firstCharge"}} {{brl .Amount}}{{end}}</dd>{{end}}
{{if .Description}}<dt>{{$.L.T "description"}}</dt><dd>{{.Description}}</dd>{{end}}
{{with .Recipient}}<dt>{{$.L.T "recipient"}}</dt><dd id="recipient">{{.Name}}{{with .PaymentInstitution}} — {{.TradeName}}{{end}}</dd>{{end}}
{{with .PixQrCode}}<dt>{{$.L.T "recipient"}}</dt><dd id="recipient">{{.MerchantName}} ({{.MerchantCity}})</dd>{{end}}
</dl>{{end}}
{{with .Intent}}<dl>
{{with .Connector}}<dt>{{$.L.T "institution"}}</dt><dd id="institution">{{.Name}}</dd>{{end}}
<dt>{{$.L.T "payer"}}</dt><dd id="payer">{{$.PayerName}} (CPF {{$.PayerCPF}})</dd>
<dt>{{$.L.T "status"}}</dt><dd id="status">{{$.L.Status .Status}} <small class="code">({{$.L.T "code"}} {{.Status}})</small></dd>
</dl>
{{with .PixData}}<p><img alt="{{$.L.T "qrAlt"}}" width="200" height="200" src="{{.Qr | urlsafe}}"></p><p><small>{{$.L.T "pixCopyPaste"}}: <code id="pix">{{.Value}}</code></small></p>{{end}}
{{end}}
{{if .Connectors}}<form method="post">
<label for="connectorId">{{.L.T "payFrom"}}</label>
<select id="connectorId" name="connectorId" required>{{range .Connectors}}<option value="{{.ID}}">{{.Name}}</option>{{end}}</select>
<label for="cpf">{{.L.T "yourCPF"}}</label>
<input id="cpf" name="cpf" inputmode="numeric" autocomplete="off" required placeholder="000.000.000-00">
<label for="name">{{.L.T "yourName"}}{{if not .Request.AutomaticPix}} {{.L.T "optional"}}{{end}}</label>
<input id="name" name="name" autocomplete="name"{{if .Request.AutomaticPix}} required{{end}}>
<button class="approve" type="submit">{{.L.T "continue"}}</button>
</form>{{end}}
{{if .CanDecide}}<p>{{.L.T "sandboxConsent"}}{{if .SecondSigner}} {{.L.T "secondSigner"}}{{end}}</p>
<form method="post">
<button class="approve" name="decision" value="authorize" type="submit">{{.L.T "authorize"}}</button>
<button name="decision" value="reject" type="submit">{{.L.T "reject"}}</button>
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
	L            pageLang
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
.approve{background:#0a7d48;color:#fff;border-color:#0a7d48}.error{color:#a4000f}.code{color:#555;font-family:monospace}`

func (s *Server) renderPay(w http.ResponseWriter, status int, v payView) {
	pageHeaders(w)
	w.WriteHeader(status)
	if err := payPages.Execute(w, v); err != nil {
		// Half a page is already sent; the log says why it stops there.
		s.log.Error("payment page template", "err", err)
	}
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
	l := langOf(r)
	s.renderPay(w, e.Status(), payView{L: l, Title: l.T(title), Error: e.Message})
}

func (s *Server) payPage(w http.ResponseWriter, r *http.Request) {
	s.showPay(w, r, http.StatusOK, "")
}

func (s *Server) showPay(w http.ResponseWriter, r *http.Request, status int, problem string) {
	id, err := uuidParam(r, "id", "Payment request id")
	if err != nil {
		s.pageError(w, r, "payNotFound", err)
		return
	}
	pv, err := s.query.PaymentPage(r.Context(), id)
	if err != nil {
		s.pageError(w, r, "payNotFound", err)
		return
	}
	l := langOf(r)
	v := payView{L: l, Title: l.T("payTitle"), Request: pv.Request, Error: problem}
	if pv.CanPay {
		v.Connectors = pv.Connectors
	} else {
		v.Message = l.T("notAvailable") + ": " + l.Status(pv.Request.Status) + " (" + l.T("code") + " " + pv.Request.Status + ")."
	}
	s.renderPay(w, status, v)
}

func (s *Server) payStart(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Payment request id")
	if err != nil {
		s.pageError(w, r, "payNotFound", err)
		return
	}
	connector, err := strconv.Atoi(r.PostFormValue("connectorId"))
	if err != nil {
		s.showPay(w, r, http.StatusBadRequest, langOf(r).T("pickInstitution"))
		return
	}
	name := r.PostFormValue("name")
	intent, err := s.mut.StartPaymentIntentAsPayer(r.Context(), id, connector, r.PostFormValue("cpf"), &name)
	if err != nil {
		e, _ := model.AsError(err)
		s.showPay(w, r, e.Status(), e.Message)
		return
	}
	target := *intent.ConsentURL
	if r.URL.Query().Get("lang") != "" {
		// The language the payer chose follows them to the consent page.
		if u, err := url.Parse(target); err == nil {
			q := u.Query()
			q.Set("lang", langOf(r).Tag())
			u.RawQuery = q.Encode()
			target = u.String()
		}
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

func (s *Server) consentPage(w http.ResponseWriter, r *http.Request) {
	s.showConsent(w, r, http.StatusOK, "", "")
}

func (s *Server) showConsent(w http.ResponseWriter, r *http.Request, status int, problem, message string) {
	id, err := uuidParam(r, "id", "Payment intent id")
	if err != nil {
		s.pageError(w, r, "consentNotFound", err)
		return
	}
	c, err := s.query.PaymentConsent(r.Context(), id)
	if err != nil {
		s.pageError(w, r, "consentNotFound", err)
		return
	}
	l := langOf(r)
	if message == "" && problem == "" && !c.CanDecide {
		message = decidedMessage(l, c.Decision)
	}
	s.renderPay(w, status, payView{L: l, Title: l.T("consentTitle"), Request: c.Intent.PaymentRequest, Intent: c.Intent, PayerName: c.PayerName,
		PayerCPF: c.PayerCpf, CanDecide: c.CanDecide, SecondSigner: c.SecondSigner, Error: problem, Message: message})
}

// decidedMessage tells the payer what became of a consent no longer waiting for them (the
// status, in words and code, is beside it).
func decidedMessage(l pageLang, decision *string) string {
	if decision == nil {
		return ""
	}
	switch *decision {
	case model.DecisionAuthorized:
		return l.T("decidedAuthorized")
	case model.DecisionRejected:
		return l.T("decidedRejected")
	case model.DecisionExpired:
		return l.T("decidedExpired")
	case model.DecisionEnded:
		return l.T("decidedEnded")
	}
	return ""
}

func (s *Server) consentDecision(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Payment intent id")
	if err != nil {
		s.pageError(w, r, "consentNotFound", err)
		return
	}
	decision := r.PostFormValue("decision")
	if decision != "authorize" && decision != "reject" {
		s.showConsent(w, r, http.StatusBadRequest, langOf(r).T("pickDecision"), "")
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
	l := langOf(r)
	msg := l.T("authorizedDone")
	if failed {
		msg = l.T("notMade") + ": " + n.ErrorDetail.Description
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
