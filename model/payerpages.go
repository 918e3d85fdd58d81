package model

// What the pages a payer (or a smart account's owner) opens from a link show, and the PIX
// charges a payer's bank fetches. They carry no credential: the unguessable id in the link
// is the capability. So they show what the page needs and nothing of the application's own
// bookkeeping (its customer record, clientPaymentId, webhookUrl), and the payer's CPF only
// masked.

// Pre-authorization statuses (the official client's SMART_TRANSFER_PREAUTHORIZATION_STATUS).
const (
	PreauthCreated   = "CREATED"
	PreauthCompleted = "COMPLETED"
	PreauthRevoked   = "REVOKED"
	PreauthRejected  = "REJECTED"
	PreauthError     = "ERROR"
)

// Bulk payment statuses (a subset of the official client's BULK_PAYMENT_STATUS).
const (
	BulkCreated           = "CREATED"
	BulkPaymentInProgress = "PAYMENT_IN_PROGRESS"
	BulkCompleted         = "COMPLETED"
	BulkError             = "ERROR"
)

// What became of a payer's consent once an intent stopped waiting for it.
const (
	DecisionAuthorized = "AUTHORIZED"
	DecisionRejected   = "REJECTED"
	DecisionExpired    = "EXPIRED"
	DecisionEnded      = "ENDED"
)

// PaymentView is what a request's payment page (paymentUrl) shows: the request, and the
// institutions to pay through when it can be paid now.
type PaymentView struct {
	Request    *PaymentRequest `json:"request"`
	CanPay     bool            `json:"canPay"`
	Connectors []*Connector    `json:"connectors"`
}

// ConsentView is what an intent's consent page (consentUrl) shows.
type ConsentView struct {
	Intent    *PaymentIntent `json:"intent"`
	PayerName string         `json:"payerName"`
	// PayerCpf is masked: 123.***.***-45.
	PayerCpf string `json:"payerCpf"`
	// CanDecide is true while the intent waits for the payer's answer; SecondSigner when
	// it waits for a second signer's (multi-signature accounts).
	CanDecide    bool `json:"canDecide"`
	SecondSigner bool `json:"secondSigner"`
	// Decision is what became of the consent: AUTHORIZED, REJECTED, EXPIRED or ENDED; nil
	// while nothing was decided.
	Decision *string `json:"decision"`
}

// PreauthConsentView is what a smart transfer pre-authorization's consent page shows.
type PreauthConsentView struct {
	Preauthorization *SmartTransferPreauthorization `json:"preauthorization"`
	PayerName        string                         `json:"payerName"`
	PayerCpf         string                         `json:"payerCpf"`
	CanDecide        bool                           `json:"canDecide"`
	CanRevoke        bool                           `json:"canRevoke"`
}

// BulkConsentView is what a bulk payment's authorization page shows its smart account's
// owner.
type BulkConsentView struct {
	BulkPayment *BulkPayment `json:"bulkPayment"`
	CanDecide   bool         `json:"canDecide"`
}

// PixCharge is what a dynamic BR Code's location serves: the charge in the Central Bank's
// PIX API vocabulary (cobrança imediata). The hosted PSPs sign it as a JWS; the sandbox
// serves it as plain JSON.
type PixCharge struct {
	Calendario PixChargeCalendar `json:"calendario"`
	Txid       string            `json:"txid"`
	Revisao    int               `json:"revisao"`
	// Status is ATIVA while it can be paid, CONCLUIDA once paid, REMOVIDA_PELO_PSP after.
	Status             string         `json:"status"`
	Valor              PixChargeValue `json:"valor"`
	Chave              string         `json:"chave"`
	SolicitacaoPagador string         `json:"solicitacaoPagador,omitempty"`
}

// PixChargeCalendar is when a charge was created and how many seconds it stays payable.
type PixChargeCalendar struct {
	Criacao   string `json:"criacao"`
	Expiracao int    `json:"expiracao"`
}

// PixChargeValue is a charge's amount, a decimal string in reais.
type PixChargeValue struct {
	Original string `json:"original"`
}
