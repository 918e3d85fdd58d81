package rest

import (
	"html/template"
	"net/http"

	"ponte/model"
)

// The page that stands in for an institution's consent or app-authorisation screen: the
// user approves or denies, and the waiting execution continues. Like the payer's pages it
// answers HTML, errors included, so its handlers are written by hand (not handle.go's shape).
var authorizePage = template.Must(template.New("authorize").Parse(`<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}
button{font-size:1rem;padding:.6rem 1.2rem;margin-right:.6rem;border-radius:.4rem;border:1px solid #888;cursor:pointer}
.approve{background:#0a7d48;color:#fff;border-color:#0a7d48}</style></head>
<body>
<h1>{{.Title}}</h1>
{{if .Action}}
<p>{{.Action.Instructions}}</p>
<p>Ambiente de testes Ponte: esta página simula {{if eq .Action.Type "qr"}}a leitura do QR code{{else}}a autorização{{end}} no aplicativo da instituição.</p>
<form method="post">
<button class="approve" name="decision" value="approve" type="submit">Autorizar</button>
<button name="decision" value="deny" type="submit">Recusar</button>
</form>
{{else}}<p>{{.Message}}</p>{{end}}
</body></html>
`))

type authorizeView struct {
	Title   string
	Action  *model.UserAction
	Message string
}

func (s *Server) renderAuthorize(w http.ResponseWriter, status int, v authorizeView) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	// form-action allows the redirect to the application's oauthRedirectUri after a decision.
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' https: http:; frame-ancestors 'none'")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Frame-Options", "DENY")
	w.WriteHeader(status)
	_ = authorizePage.Execute(w, v)
}

func (s *Server) authorizePage(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Authorization id")
	if err != nil {
		s.renderAuthorize(w, http.StatusNotFound, authorizeView{Title: "Autorização não encontrada", Message: "Este link não é válido."})
		return
	}
	a, err := s.query.SandboxAuthorization(r.Context(), id)
	if err != nil {
		s.log.ErrorContext(r.Context(), "authorize page", "err", err)
		s.renderAuthorize(w, http.StatusInternalServerError, authorizeView{Title: "Erro", Message: "Tente novamente em instantes."})
		return
	}
	if a == nil {
		s.renderAuthorize(w, http.StatusNotFound, authorizeView{Title: "Nada a autorizar", Message: "Esta autorização expirou ou já foi respondida."})
		return
	}
	s.renderAuthorize(w, http.StatusOK, authorizeView{Title: a.ConnectorName, Action: &a.Action})
}

func (s *Server) authorizeDecision(w http.ResponseWriter, r *http.Request) {
	id, err := uuidParam(r, "id", "Authorization id")
	if err != nil {
		s.renderAuthorize(w, http.StatusNotFound, authorizeView{Title: "Autorização não encontrada", Message: "Este link não é válido."})
		return
	}
	decision := r.PostFormValue("decision")
	if decision != "approve" && decision != "deny" {
		s.renderAuthorize(w, http.StatusBadRequest, authorizeView{Title: "Resposta inválida", Message: "Escolha autorizar ou recusar."})
		return
	}
	a, err := s.mut.DecideSandboxAuthorization(r.Context(), id, decision)
	if err != nil {
		e, internal := model.AsError(err)
		if internal {
			s.log.ErrorContext(r.Context(), "authorize decision", "err", err)
		}
		if e.Status() == http.StatusNotFound {
			// A second decision (a double click, a reload) changes nothing: the first stands.
			s.renderAuthorize(w, e.Status(), authorizeView{Title: "Nada a autorizar", Message: "Esta autorização já foi respondida ou expirou; a primeira resposta vale."})
			return
		}
		s.renderAuthorize(w, e.Status(), authorizeView{Title: "Não foi possível concluir", Message: e.Message})
		return
	}
	if a.RedirectURI != nil && *a.RedirectURI != "" {
		http.Redirect(w, r, *a.RedirectURI, http.StatusSeeOther)
		return
	}
	msg := "Acesso autorizado. Você já pode voltar ao aplicativo."
	if decision == "deny" {
		msg = "Acesso recusado. Você já pode voltar ao aplicativo."
	}
	s.renderAuthorize(w, http.StatusOK, authorizeView{Title: "Pronto", Message: msg})
}
