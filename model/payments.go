package model

import "github.com/google/uuid"

// PaymentInstitution is a participant of Brazil's payment system a recipient's account
// lives at (ISPB, COMPE code).
type PaymentInstitution struct {
	ID        uuid.UUID `json:"id"`
	Name      string    `json:"name"`
	TradeName string    `json:"tradeName"`
	Ispb      string    `json:"ispb"`
	Compe     *string   `json:"compe"`
	CreatedAt Time      `json:"createdAt"`
	UpdatedAt Time      `json:"updatedAt"`
}

// PaymentInstitutionPage is the page envelope of GET /payments/recipients/institutions.
type PaymentInstitutionPage struct {
	Total      int                   `json:"total"`
	TotalPages int                   `json:"totalPages"`
	Page       int                   `json:"page"`
	Results    []*PaymentInstitution `json:"results"`
}

// PaymentCustomer is the payer an application names on its requests. Type INDIVIDUAL
// carries a CPF, BUSINESS a CNPJ (and may carry its representative's CPF).
type PaymentCustomer struct {
	ID        uuid.UUID  `json:"id"`
	Type      string     `json:"type"`
	Name      string     `json:"name"`
	Email     *string    `json:"email"`
	Cpf       *string    `json:"cpf"`
	Cnpj      *string    `json:"cnpj"`
	Connector *Connector `json:"connector"`
	CreatedAt Time       `json:"createdAt"`
	UpdatedAt Time       `json:"updatedAt"`
}

// PaymentCustomerInput creates or changes a customer; on a change, absent fields stay.
type PaymentCustomerInput struct {
	Type  *string `json:"type"`
	Name  *string `json:"name"`
	Email *string `json:"email"`
	Cpf   *string `json:"cpf"`
	Cnpj  *string `json:"cnpj"`
}

// PaymentCustomerPage is the page envelope of GET /payments/customers.
type PaymentCustomerPage struct {
	Total      int                `json:"total"`
	TotalPages int                `json:"totalPages"`
	Page       int                `json:"page"`
	Results    []*PaymentCustomer `json:"results"`
}

// PaymentRecipientAccount is the bank account money goes to.
type PaymentRecipientAccount struct {
	Branch string `json:"branch"`
	Number string `json:"number"`
	Type   string `json:"type"`
}

// PaymentRecipient receives payments: a bank account, found directly or through a PIX key.
type PaymentRecipient struct {
	// Type is BANK_ACCOUNT for the application's recipients; on a request it may also be
	// PIX_QR_CODE (a pasted code: name, pixKey, no account) or BOLETO (digitableLine).
	Type               string                   `json:"type"`
	ID                 uuid.UUID                `json:"id"`
	Name               string                   `json:"name"`
	TaxNumber          string                   `json:"taxNumber"`
	IsDefault          bool                     `json:"isDefault"`
	PaymentInstitution *PaymentInstitution      `json:"paymentInstitution"`
	Account            *PaymentRecipientAccount `json:"account"`
	PixKey             *string                  `json:"pixKey"`
	// DigitableLine is the boleto a BOLETO recipient stands for; null otherwise.
	DigitableLine *string `json:"digitableLine"`
	CreatedAt     Time    `json:"createdAt"`
	UpdatedAt     Time    `json:"updatedAt"`
}

// PaymentRecipientInput creates a recipient from a bank account or from a PIX key, or
// changes one (name, taxNumber, isDefault, account).
type PaymentRecipientInput struct {
	Name                 *string                  `json:"name"`
	TaxNumber            *string                  `json:"taxNumber"`
	PaymentInstitutionID *string                  `json:"paymentInstitutionId"`
	IsDefault            *bool                    `json:"isDefault"`
	Account              *PaymentRecipientAccount `json:"account"`
	PixKey               *string                  `json:"pixKey"`
	SmartAccountID       *string                  `json:"smartAccountId"`
}

// PaymentRecipientPage is the page envelope of GET /payments/recipients.
type PaymentRecipientPage struct {
	Total      int                 `json:"total"`
	TotalPages int                 `json:"totalPages"`
	Page       int                 `json:"page"`
	Results    []*PaymentRecipient `json:"results"`
}

// CallbackURLs are where the payer is sent back to after the flow.
type CallbackURLs struct {
	Success *string `json:"success,omitempty"`
	Pending *string `json:"pending,omitempty"`
	Error   *string `json:"error,omitempty"`
}

// PaymentSchedule is one of the five schedule forms; only the fields of its type are set.
type PaymentSchedule struct {
	Type                  string   `json:"type"`
	Date                  *string  `json:"date,omitempty"`
	StartDate             *string  `json:"startDate,omitempty"`
	Occurrences           *int     `json:"occurrences,omitempty"`
	DayOfWeek             *string  `json:"dayOfWeek,omitempty"`
	DayOfMonth            *int     `json:"dayOfMonth,omitempty"`
	Dates                 []string `json:"dates,omitempty"`
	AdditionalInformation *string  `json:"additionalInformation,omitempty"`
}

// PixQrCode is what a request made from a pasted PIX BR Code holds of it.
type PixQrCode struct {
	Payload       string   `json:"payload"`
	Dynamic       bool     `json:"dynamic"`
	PixKey        *string  `json:"pixKey"`
	URL           *string  `json:"url"`
	Amount        *float64 `json:"amount"`
	MerchantName  string   `json:"merchantName"`
	MerchantCity  string   `json:"merchantCity"`
	TransactionID *string  `json:"transactionId"`
	Description   *string  `json:"description"`
}

// PaymentErrorDetail is why a payment failed, as the institution said it.
type PaymentErrorDetail struct {
	Code        string  `json:"code"`
	Description string  `json:"description"`
	Detail      *string `json:"detail"`
}

// PaymentRequest is what an application asks a payer to pay (section 2.9).
type PaymentRequest struct {
	ID uuid.UUID `json:"id"`
	// Amount is absent on an automatic PIX request: each of its payments has its own.
	Amount          *float64            `json:"amount,omitempty"`
	Fees            float64             `json:"fees"`
	Description     *string             `json:"description"`
	Status          string              `json:"status"`
	ClientPaymentID *string             `json:"clientPaymentId"`
	CreatedAt       Time                `json:"createdAt"`
	UpdatedAt       Time                `json:"updatedAt"`
	CallbackUrls    *CallbackURLs       `json:"callbackUrls"`
	PaymentURL      string              `json:"paymentUrl"`
	Recipient       *PaymentRecipient   `json:"recipient"`
	Customer        *PaymentCustomer    `json:"customer"`
	SmartAccount    *JSONDocument       `json:"smartAccount"`
	PixQrCode       *PixQrCode          `json:"pixQrCode"`
	Boleto          *JSONDocument       `json:"boleto"`
	AutomaticPix    *AutomaticPix       `json:"automaticPix"`
	BulkPaymentID   *string             `json:"bulkPaymentId"`
	Schedule        *PaymentSchedule    `json:"schedule"`
	ErrorDetail     *PaymentErrorDetail `json:"errorDetail"`
	IsSandbox       bool                `json:"isSandbox"`
	WebhookURL      *string             `json:"webhookUrl"`
	// RefundedAmount is what was refunded so far (0 before any refund), an addition to the
	// spec's fields so a partial refund is visible.
	RefundedAmount float64 `json:"refundedAmount"`
	// TestClockID names the sandbox test clock the request lives on; absent for real time.
	TestClockID *uuid.UUID `json:"testClockId,omitempty"`
}

// PaymentRequestInput creates a request, or changes one that no payer has started.
type PaymentRequestInput struct {
	Amount       *float64      `json:"amount"`
	Description  *string       `json:"description"`
	CallbackUrls *CallbackURLs `json:"callbackUrls"`
	RecipientID  *string       `json:"recipientId"`
	// Boleto makes the request pay a boleto (a recipient of type BOLETO) instead of a
	// recipient's account; its amount comes from the line.
	Boleto          *BoletoPaymentInput `json:"boleto"`
	CustomerID      *string             `json:"customerId"`
	ClientPaymentID *string             `json:"clientPaymentId"`
	IsSandbox       *bool               `json:"isSandbox"`
	Schedule        *PaymentSchedule    `json:"schedule"`
	SmartAccountID  *string             `json:"smartAccountId"`
	WebhookURL      *string             `json:"webhookUrl"`
	// TestClockID puts a sandbox request on a test clock (docs/test-clocks.md).
	TestClockID *string `json:"testClockId"`
}

// PixQrPaymentRequestInput creates a request from a PIX BR Code the caller pasted.
type PixQrPaymentRequestInput struct {
	PixQrCode       *string       `json:"pixQrCode"`
	Description     *string       `json:"description"`
	CallbackUrls    *CallbackURLs `json:"callbackUrls"`
	CustomerID      *string       `json:"customerId"`
	ClientPaymentID *string       `json:"clientPaymentId"`
	IsSandbox       *bool         `json:"isSandbox"`
	WebhookURL      *string       `json:"webhookUrl"`
}

// PaymentRequestPage is the page envelope of GET /payments/requests.
type PaymentRequestPage struct {
	Total      int               `json:"total"`
	TotalPages int               `json:"totalPages"`
	Page       int               `json:"page"`
	Results    []*PaymentRequest `json:"results"`
}

// PixData is the BR Code a PIX-method intent is paid with, as text and as an image.
type PixData struct {
	Qr    string `json:"qr"`
	Value string `json:"value"`
}

// PaymentDebtor is the payer's account, known once a payment completes.
type PaymentDebtor struct {
	Name        string  `json:"name"`
	TaxNumber   string  `json:"taxNumber"`
	Ispb        string  `json:"ispb"`
	Compe       *string `json:"compe"`
	Branch      string  `json:"branch"`
	Number      string  `json:"number"`
	AccountType string  `json:"accountType"`
}

// PaymentIntentStep is one status an intent passed through, in order.
type PaymentIntentStep struct {
	Status string `json:"status"`
	At     Time   `json:"at"`
	// Cause is StepCauseSandboxControl for a step a sandbox control move made; absent
	// for the steps of the payer, the institution and the engine.
	Cause *string `json:"cause,omitempty"`
}

// StepCauseSandboxControl marks a status-history step made by a sandbox control move.
const StepCauseSandboxControl = "SANDBOX_CONTROL"

// PaymentIntent is one attempt of a payer to pay a request (section 2.10).
type PaymentIntent struct {
	ID             uuid.UUID            `json:"id"`
	Status         string               `json:"status"`
	CreatedAt      Time                 `json:"createdAt"`
	UpdatedAt      Time                 `json:"updatedAt"`
	PaymentRequest *PaymentRequest      `json:"paymentRequest"`
	Connector      *Connector           `json:"connector"`
	ConsentURL     *string              `json:"consentUrl"`
	ReferenceID    *string              `json:"referenceId"`
	PaymentMethod  string               `json:"paymentMethod"`
	IsDynamicPix   bool                 `json:"isDynamicPix"`
	PixData        *PixData             `json:"pixData"`
	Debtor         *PaymentDebtor       `json:"debtor"`
	ErrorDetail    *PaymentErrorDetail  `json:"errorDetail"`
	BulkPayment    *JSONDocument        `json:"bulkPayment"`
	StatusHistory  []*PaymentIntentStep `json:"statusHistory"`
	// RequestID is how resolvers find PaymentRequest; the request itself is loaded on demand.
	RequestID uuid.UUID `json:"-"`
}

// PaymentPayerInput is who pays: the CPF always, the CNPJ for a business, the name for
// automatic PIX.
type PaymentPayerInput struct {
	Cpf  *string `json:"cpf"`
	Cnpj *string `json:"cnpj"`
	Name *string `json:"name"`
}

// PaymentIntentInput starts an attempt on a request (section 4.5).
type PaymentIntentInput struct {
	PaymentRequestID *string            `json:"paymentRequestId"`
	ConnectorID      *int               `json:"connectorId"`
	Parameters       *PaymentPayerInput `json:"parameters"`
	PaymentMethod    *string            `json:"paymentMethod"`
	IsDynamicPix     *bool              `json:"isDynamicPix"`
}

// PaymentIntentPage is the page envelope of GET /payments/intents.
type PaymentIntentPage struct {
	Total      int              `json:"total"`
	TotalPages int              `json:"totalPages"`
	Page       int              `json:"page"`
	Results    []*PaymentIntent `json:"results"`
}

// ScheduledPayment is one dated payment of a scheduled request.
type ScheduledPayment struct {
	ID            uuid.UUID           `json:"id"`
	Status        string              `json:"status"`
	ScheduledDate string              `json:"scheduledDate"`
	Description   *string             `json:"description"`
	ErrorDetail   *PaymentErrorDetail `json:"errorDetail"`
	CreatedAt     Time                `json:"createdAt"`
	UpdatedAt     Time                `json:"updatedAt"`
}

// ScheduledPaymentPage is the page envelope of GET /payments/requests/{id}/schedules.
type ScheduledPaymentPage struct {
	Total      int                 `json:"total"`
	TotalPages int                 `json:"totalPages"`
	Page       int                 `json:"page"`
	Results    []*ScheduledPayment `json:"results"`
}

// AutomaticPixFirstPayment is the payment made when an automatic PIX authorization is given.
type AutomaticPixFirstPayment struct {
	Date        *string `json:"date,omitempty"`
	Amount      float64 `json:"amount"`
	Description *string `json:"description,omitempty"`
}

// AutomaticPix is a request's recurring authorization (Pix Automático): how often and how
// much the receiver may charge.
type AutomaticPix struct {
	Interval              string                    `json:"interval"`
	StartDate             string                    `json:"startDate"`
	FixedAmount           *float64                  `json:"fixedAmount,omitempty"`
	MinimumVariableAmount *float64                  `json:"minimumVariableAmount,omitempty"`
	MaximumVariableAmount *float64                  `json:"maximumVariableAmount,omitempty"`
	ExpiresAt             *string                   `json:"expiresAt,omitempty"`
	IsRetryAccepted       bool                      `json:"isRetryAccepted"`
	FirstPayment          *AutomaticPixFirstPayment `json:"firstPayment,omitempty"`
}

// AutomaticPixRequestInput creates an automatic PIX request (the official client's
// CreatePaymentRequestAutomaticPix).
type AutomaticPixRequestInput struct {
	Description           *string                   `json:"description"`
	RecipientID           *string                   `json:"recipientId"`
	CustomerID            *string                   `json:"customerId"`
	CallbackUrls          *CallbackURLs             `json:"callbackUrls"`
	ClientPaymentID       *string                   `json:"clientPaymentId"`
	Interval              *string                   `json:"interval"`
	StartDate             *string                   `json:"startDate"`
	FixedAmount           *float64                  `json:"fixedAmount"`
	MinimumVariableAmount *float64                  `json:"minimumVariableAmount"`
	MaximumVariableAmount *float64                  `json:"maximumVariableAmount"`
	ExpiresAt             *string                   `json:"expiresAt"`
	IsRetryAccepted       *bool                     `json:"isRetryAccepted"`
	FirstPayment          *AutomaticPixFirstPayment `json:"firstPayment"`
	IsSandbox             *bool                     `json:"isSandbox"`
	WebhookURL            *string                   `json:"webhookUrl"`
	// TestClockID puts a sandbox authorization on a test clock (docs/test-clocks.md).
	TestClockID *string `json:"testClockId"`
}

// AutomaticPixPayment is one charge under an automatic PIX authorization.
type AutomaticPixPayment struct {
	ID          uuid.UUID           `json:"id"`
	Status      string              `json:"status"`
	Amount      float64             `json:"amount"`
	Description *string             `json:"description"`
	Date        string              `json:"date"`
	EndToEndID  *string             `json:"endToEndId"`
	ErrorDetail *PaymentErrorDetail `json:"errorDetail"`
	CreatedAt   Time                `json:"createdAt"`
	UpdatedAt   Time                `json:"updatedAt"`
}

// AutomaticPixPaymentInput schedules a charge (amount and date) or moves a failed one to a
// new date (date only).
type AutomaticPixPaymentInput struct {
	Amount      *float64 `json:"amount"`
	Description *string  `json:"description"`
	Date        *string  `json:"date"`
}

// AutomaticPixPaymentPage is the page envelope of an authorization's charges.
type AutomaticPixPaymentPage struct {
	Total      int                    `json:"total"`
	TotalPages int                    `json:"totalPages"`
	Page       int                    `json:"page"`
	Results    []*AutomaticPixPayment `json:"results"`
}
