package model

import "github.com/google/uuid"

// BoletoConnection is an item an application issues boletos through: its connector must
// support boleto management.
type BoletoConnection struct {
	ID          uuid.UUID `json:"id"`
	ConnectorID int       `json:"connectorId"`
	CreatedAt   Time      `json:"createdAt"`
	UpdatedAt   Time      `json:"updatedAt"`
}

// BoletoConnectionPage is the page envelope of GET /boleto-connections.
type BoletoConnectionPage struct {
	Total      int                 `json:"total"`
	TotalPages int                 `json:"totalPages"`
	Page       int                 `json:"page"`
	Results    []*BoletoConnection `json:"results"`
}

// BoletoPayer is who a boleto is issued to. PersonType is INDIVIDUAL (a CPF) or BUSINESS
// (a CNPJ), derived from taxNumber when not given.
type BoletoPayer struct {
	TaxNumber           string  `json:"taxNumber"`
	Name                string  `json:"name"`
	PersonType          *string `json:"personType"`
	AddressStreet       *string `json:"addressStreet"`
	AddressNumber       *string `json:"addressNumber"`
	AddressComplement   *string `json:"addressComplement"`
	AddressNeighborhood *string `json:"addressNeighborhood"`
	AddressCity         *string `json:"addressCity"`
	AddressState        string  `json:"addressState"`
	AddressZipCode      string  `json:"addressZipCode"`
	Email               *string `json:"email"`
	Ddd                 *string `json:"ddd"`
	PhoneNumber         *string `json:"phoneNumber"`
}

// BoletoCharge is a boleto's fine (PERCENTAGE of the amount or a FIXED sum in reais, once,
// when paid after the due date) or its interest (PERCENTAGE a month, pro rata per day late).
type BoletoCharge struct {
	Value float64 `json:"value"`
	Type  string  `json:"type"`
}

// Boleto is an issued boleto. Amounts are in reais.
type Boleto struct {
	ID                 uuid.UUID     `json:"id"`
	BoletoConnectionID uuid.UUID     `json:"boletoConnectionId"`
	SeuNumero          string        `json:"seuNumero"`
	Amount             float64       `json:"amount"`
	DueDate            Time          `json:"dueDate"`
	Status             string        `json:"status"`
	Payer              BoletoPayer   `json:"payer"`
	NossoNumero        string        `json:"nossoNumero"`
	Barcode            string        `json:"barcode"`
	DigitableLine      string        `json:"digitableLine"`
	PixQr              *string       `json:"pixQr"`
	Fine               *BoletoCharge `json:"fine"`
	Interest           *BoletoCharge `json:"interest"`
	AmountPaid         *float64      `json:"amountPaid"`
	PaymentOrigin      *string       `json:"paymentOrigin"`
	PaidAt             *Time         `json:"paidAt"`
	CreatedAt          Time          `json:"createdAt"`
	UpdatedAt          Time          `json:"updatedAt"`
	// TestClockID names the sandbox test clock the boleto lives on; absent for real time.
	TestClockID *uuid.UUID `json:"testClockId,omitempty"`
}

// BoletoPage is the page envelope of GET /boletos.
type BoletoPage struct {
	Total      int       `json:"total"`
	TotalPages int       `json:"totalPages"`
	Page       int       `json:"page"`
	Results    []*Boleto `json:"results"`
}

// BoletoInput is the boleto of POST /boletos.
type BoletoInput struct {
	SeuNumero *string       `json:"seuNumero"`
	Amount    *float64      `json:"amount"`
	DueDate   *string       `json:"dueDate"`
	Payer     *BoletoPayer  `json:"payer"`
	Fine      *BoletoCharge `json:"fine"`
	Interest  *BoletoCharge `json:"interest"`
}

// CreateBoletoInput is the body of POST /boletos.
type CreateBoletoInput struct {
	BoletoConnectionID *string      `json:"boletoConnectionId"`
	Boleto             *BoletoInput `json:"boleto"`
	// TestClockID puts a sandbox boleto on a test clock (docs/test-clocks.md).
	TestClockID *string `json:"testClockId"`
}

// BoletoFilter holds the filters of GET /boletos as sent; absent ones do not filter. Dates
// are plain dates or date-times (dueDateTo covers its whole day).
type BoletoFilter struct {
	BoletoConnectionID *string `json:"boletoConnectionId"`
	Status             *string `json:"status"`
	DueDateFrom        *string `json:"dueDateFrom"`
	DueDateTo          *string `json:"dueDateTo"`
}

// BoletoPayment is the boleto a payment request pays (its recipient of type BOLETO): the
// line as given, the barcode it spells, the amount and due date it carries.
type BoletoPayment struct {
	Type          string  `json:"type"`
	DigitableLine string  `json:"digitableLine"`
	Barcode       string  `json:"barcode"`
	Amount        float64 `json:"amount"`
	DueDate       *Time   `json:"dueDate"`
}

// BoletoPaymentInput names the boleto a payment request pays.
type BoletoPaymentInput struct {
	DigitableLine *string `json:"digitableLine"`
}
