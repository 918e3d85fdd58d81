package rest

import (
	"net/http"
	"strings"
)

// The words of the pages a payer (or a smart account's owner) opens from a link, in
// Portuguese (the default) and English: ?lang=en, or a browser that prefers English. A
// status is shown as words the payer understands; its code follows only as a detail, for
// whoever reports a problem.

type pageLang int

const (
	langPT pageLang = iota
	langEN
)

// langOf is the page's language: ?lang= first (pt, pt-BR, en, en-US...), then the browser's
// first preference.
func langOf(r *http.Request) pageLang {
	if l := r.URL.Query().Get("lang"); l != "" {
		if strings.HasPrefix(strings.ToLower(l), "en") {
			return langEN
		}
		return langPT
	}
	first, _, _ := strings.Cut(r.Header.Get("Accept-Language"), ",")
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(first)), "en") {
		return langEN
	}
	return langPT
}

func (l pageLang) Tag() string {
	if l == langEN {
		return "en"
	}
	return "pt-BR"
}

// T is a fixed text of the pages in this language; a key without one shows the key, which
// TestPageWords refuses.
func (l pageLang) T(key string) string {
	w, ok := pageTexts[key]
	if !ok {
		return key
	}
	return w[l]
}

// StatusOf is a status code of a kind of resource in words: a pre-authorization's or a bulk
// payment's CREATED waits for a decision, where a request's waits for a payment.
func (l pageLang) StatusOf(kind, code string) string {
	if w, ok := statusWords[kind+":"+code]; ok {
		return w[l]
	}
	return l.Status(code)
}

// Status is a status code in words.
func (l pageLang) Status(code string) string {
	w, ok := statusWords[code]
	if !ok {
		return code
	}
	return w[l]
}

var pageTexts = map[string][2]string{
	"amount":              {"Valor", "Amount"},
	"automaticPix":        {"Pix Automático", "Automatic PIX"},
	"description":         {"Descrição", "Description"},
	"recipient":           {"Recebedor", "Recipient"},
	"institution":         {"Instituição", "Institution"},
	"payer":               {"Pagador", "Payer"},
	"status":              {"Situação", "Status"},
	"code":                {"código", "code"},
	"pixCopyPaste":        {"PIX copia e cola", "PIX copy and paste"},
	"qrAlt":               {"QR code PIX", "PIX QR code"},
	"payFrom":             {"Instituição de onde sai o pagamento", "Institution the payment comes from"},
	"yourCPF":             {"Seu CPF", "Your CPF"},
	"yourName":            {"Seu nome", "Your name"},
	"optional":            {"(opcional)", "(optional)"},
	"continue":            {"Continuar", "Continue"},
	"sandboxConsent":      {"Ambiente de testes Ponte: esta página simula a tela de consentimento da instituição.", "Ponte test environment: this page stands in for the institution's consent screen."},
	"secondSigner":        {"O pagamento aguarda a assinatura de um segundo responsável.", "The payment waits for a second signer."},
	"authorize":           {"Autorizar pagamento", "Authorize payment"},
	"reject":              {"Recusar", "Reject"},
	"payTitle":            {"Pagamento", "Payment"},
	"consentTitle":        {"Autorizar pagamento", "Authorize payment"},
	"payNotFound":         {"Pagamento não encontrado", "Payment not found"},
	"consentNotFound":     {"Consentimento não encontrado", "Consent not found"},
	"notAvailable":        {"Este pagamento não está disponível agora", "This payment is not available now"},
	"pickInstitution":     {"Escolha uma instituição.", "Choose an institution."},
	"pickDecision":        {"Escolha autorizar ou recusar.", "Choose to authorize or reject."},
	"decidedAuthorized":   {"Este pagamento já foi autorizado.", "This payment was already authorized."},
	"decidedRejected":     {"Este pagamento já foi recusado.", "This payment was already rejected."},
	"decidedExpired":      {"O prazo para autorizar este pagamento terminou.", "The time to authorize this payment is over."},
	"decidedEnded":        {"Este pagamento foi encerrado e não pode mais ser autorizado.", "This payment was closed and can no longer be authorized."},
	"authorizedDone":      {"Pagamento autorizado. Você já pode voltar ao aplicativo.", "Payment authorized. You can go back to the app now."},
	"notMade":             {"Pagamento não realizado", "Payment not made"},
	"from":                {"a partir de", "from"},
	"perCharge":           {"por cobrança", "per charge"},
	"upTo":                {"até", "up to"},
	"firstCharge":         {"primeira cobrança", "first charge"},
	"recipients":          {"Recebedores", "Recipients"},
	"perPayment":          {"Por pagamento", "Per payment"},
	"perDay":              {"Por dia", "Per day"},
	"perWeek":             {"Por semana", "Per week"},
	"perMonth":            {"Por mês", "Per month"},
	"perYear":             {"Por ano", "Per year"},
	"inTotal":             {"No total", "In total"},
	"account":             {"Conta", "Account"},
	"branch":              {"agência", "branch"},
	"accountNumber":       {"conta", "account"},
	"total":               {"Total", "Total"},
	"payments":            {"Pagamentos", "Payments"},
	"to":                  {"para", "to"},
	"authorizeShort":      {"Autorizar", "Authorize"},
	"revoke":              {"Revogar esta autorização", "Revoke this authorization"},
	"preauthTitle":        {"Autorizar transferências inteligentes", "Authorize smart transfers"},
	"bulkTitle":           {"Autorizar pagamentos em lote", "Authorize bulk payments"},
	"preauthNotFound":     {"Autorização não encontrada", "Authorization not found"},
	"bulkNotFound":        {"Pagamento em lote não encontrado", "Bulk payment not found"},
	"preauthDone":         {"Transferências autorizadas. Você pode revogar esta autorização quando quiser.", "Transfers authorized. You can revoke this authorization whenever you want."},
	"preauthRejected":     {"Esta autorização foi recusada.", "This authorization was rejected."},
	"preauthRevoked":      {"Esta autorização foi revogada.", "This authorization was revoked."},
	"preauthError":        {"A instituição não concluiu esta autorização.", "The institution did not complete this authorization."},
	"pickPreauthDecision": {"Escolha autorizar, recusar ou revogar.", "Choose to authorize, reject or revoke."},
	"bulkInProgress":      {"Pagamentos autorizados e em andamento.", "Payments authorized and under way."},
	"bulkDone":            {"Pagamentos concluídos.", "Payments completed."},
	"bulkError":           {"Este pagamento em lote não foi realizado.", "This bulk payment was not made."},
}

// statusWords are the payment requests' and intents' statuses (section 3) as a payer reads
// them.
var statusWords = map[string][2]string{
	// Requests.
	"CREATED":                     {"Aguardando pagamento", "Waiting for payment"},
	"IN_PROGRESS":                 {"Pagamento em andamento", "Payment in progress"},
	"WAITING_PAYER_AUTHORIZATION": {"Aguardando a sua autorização", "Waiting for your authorization"},
	"AUTHORIZED":                  {"Autorizado", "Authorized"},
	"SCHEDULED":                   {"Agendado", "Scheduled"},
	"COMPLETED":                   {"Pago", "Paid"},
	"ERROR":                       {"Não foi possível concluir", "Could not be completed"},
	"REFUND_IN_PROGRESS":          {"Devolução em andamento", "Refund in progress"},
	"REFUNDED":                    {"Devolvido", "Refunded"},
	"REFUND_ERROR":                {"Devolução não concluída", "Refund not completed"},
	"EXPIRED":                     {"Expirado", "Expired"},
	"CANCELED":                    {"Cancelado", "Canceled"},
	// Intents.
	"STARTED":                           {"Iniciado", "Started"},
	"ENQUEUED":                          {"Enviado à instituição", "Sent to the institution"},
	"CONSENT_AWAITING_AUTHORIZATION":    {"Aguardando a sua autorização", "Waiting for your authorization"},
	"CONSENT_AUTHORIZED":                {"Autorizado por você", "Authorized by you"},
	"CONSENT_REJECTED":                  {"Recusado por você", "Rejected by you"},
	"PAYMENT_PENDING":                   {"Pagamento em processamento", "Payment being processed"},
	"PAYMENT_PARTIALLY_ACCEPTED":        {"Aguardando outras assinaturas", "Waiting for other signatures"},
	"PAYMENT_SETTLEMENT_PROCESSING":     {"Pagamento em liquidação", "Payment settling"},
	"PAYMENT_SETTLEMENT_DEBTOR_ACCOUNT": {"Debitado da sua conta", "Debited from your account"},
	"PAYMENT_COMPLETED":                 {"Pago", "Paid"},
	"PAYMENT_REJECTED":                  {"Pagamento recusado pela instituição", "Payment refused by the institution"},
	"REVOKED":                           {"Autorização revogada", "Authorization revoked"},
	"CONSUMED":                          {"Autorização já usada", "Authorization already used"},
	"PAYMENT_TIMEOUT":                   {"Prazo esgotado", "Timed out"},
	"REJECTED":                          {"Recusado pela instituição", "Refused by the institution"},
	// Smart transfer pre-authorizations and bulk payments, where they differ.
	"preauth:CREATED":     {"Aguardando a sua autorização", "Waiting for your authorization"},
	"preauth:COMPLETED":   {"Autorizado", "Authorized"},
	"preauth:REJECTED":    {"Recusado", "Rejected"},
	"preauth:REVOKED":     {"Revogado", "Revoked"},
	"bulk:CREATED":        {"Aguardando a sua autorização", "Waiting for your authorization"},
	"PAYMENT_IN_PROGRESS": {"Pagamentos em andamento", "Payments under way"},
	"bulk:COMPLETED":      {"Concluído", "Completed"},
}
