package model

import (
	"time"

	"github.com/google/uuid"
)

// Document is a CPF or CNPJ (TransactionPaymentParticipantDocument).
type Document struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// PaymentParticipant is the payer or receiver of a transfer (TransactionPaymentParticipant).
type PaymentParticipant struct {
	DocumentNumber    *Document `json:"documentNumber,omitempty"`
	Name              *string   `json:"name,omitempty"`
	AccountNumber     *string   `json:"accountNumber,omitempty"`
	BranchNumber      *string   `json:"branchNumber,omitempty"`
	RoutingNumber     *string   `json:"routingNumber,omitempty"`
	RoutingNumberISPB *string   `json:"routingNumberISPB,omitempty"`
}

// BoletoMetadata describes a paid boleto (TransactionBoletoMetadataResponse).
type BoletoMetadata struct {
	DigitableLine  *string  `json:"digitableLine"`
	Barcode        *string  `json:"barcode"`
	BaseAmount     *float64 `json:"baseAmount"`
	PenaltyAmount  *float64 `json:"penaltyAmount"`
	InterestAmount *float64 `json:"interestAmount"`
	DiscountAmount *float64 `json:"discountAmount"`
}

// PaymentData describes a transfer's parties (TransactionPaymentData). PaymentMethod is
// PIX, TED, DOC or BOLETO; ReferenceNumber is the institution's identifier of the
// transfer (the end-to-end id for PIX).
type PaymentData struct {
	Payer               *PaymentParticipant `json:"payer,omitempty"`
	Receiver            *PaymentParticipant `json:"receiver,omitempty"`
	ReceiverReferenceID *string             `json:"receiverReferenceId,omitempty"`
	PaymentMethod       *string             `json:"paymentMethod,omitempty"`
	ReferenceNumber     *string             `json:"referenceNumber,omitempty"`
	Reason              *string             `json:"reason,omitempty"`
	BoletoMetadata      *BoletoMetadata     `json:"boletoMetadata"`
}

// Merchant is where a purchase happened (TransactionMerchantData).
type Merchant struct {
	Name         string  `json:"name"`
	BusinessName string  `json:"businessName"`
	CNPJ         string  `json:"cnpj"`
	CNAE         *string `json:"cnae,omitempty"`
	Category     *string `json:"category,omitempty"`
}

// CreditCardMetadata details a card transaction, in the official client's field names.
// FeeType takes the values of section 2.5 (ANNUAL_FEE, ..., OTHER), OtherCreditsType
// REVOLVING_CREDIT, BILL_INSTALLMENT, LOAN or OTHER; BillForecastDate is YYYY-MM.
type CreditCardMetadata struct {
	InstallmentNumber          *int     `json:"installmentNumber,omitempty"`
	TotalInstallments          *int     `json:"totalInstallments,omitempty"`
	TotalAmount                *float64 `json:"totalAmount,omitempty"`
	PayeeMCC                   *int     `json:"payeeMCC,omitempty"`
	PurchaseDate               *Time    `json:"purchaseDate,omitempty"`
	BillID                     *string  `json:"billId,omitempty"`
	CardNumber                 *string  `json:"cardNumber,omitempty"`
	FeeType                    *string  `json:"feeType,omitempty"`
	FeeTypeAdditionalInfo      *string  `json:"feeTypeAdditionalInfo,omitempty"`
	OtherCreditsType           *string  `json:"otherCreditsType,omitempty"`
	OtherCreditsAdditionalInfo *string  `json:"otherCreditsAdditionalInfo,omitempty"`
	BillForecastDate           *string  `json:"billForecastDate,omitempty"`
}

// Transaction is one movement of an account (section 2.5), in the official client's field
// names plus `order` from the spec. On bank accounts a DEBIT has a negative amount; on
// credit cards purchases are positive DEBITs and payments or refunds negative CREDITs.
type Transaction struct {
	Stored
	ID                      uuid.UUID `json:"id"`
	AccountID               uuid.UUID `json:"accountId"`
	Date                    Time      `json:"date"`
	Description             string    `json:"description"`
	DescriptionRaw          *string   `json:"descriptionRaw"`
	Type                    string    `json:"type"` // DEBIT or CREDIT
	Amount                  float64   `json:"amount"`
	AmountInAccountCurrency *float64  `json:"amountInAccountCurrency"`
	Balance                 *float64  `json:"balance"`
	CurrencyCode            string    `json:"currencyCode"`
	Category                *string   `json:"category"`
	CategoryID              *string   `json:"categoryId"`
	// CategoryOrigin says where the category came from (a rule, the client, the categorizer).
	CategoryOrigin *CategoryOrigin `json:"categoryOrigin,omitempty"`
	// AutoCategoryID is the institution's or the categorizer's category, kept under a rule's
	// so deleting the rule gives it back; not part of the document.
	AutoCategoryID       *string             `json:"-"`
	Status               string              `json:"status"` // PENDING or POSTED
	ProviderCode         *string             `json:"providerCode"`
	ProviderID           *string             `json:"providerId"`
	PaymentData          *PaymentData        `json:"paymentData"`
	CreditCardMetadata   *CreditCardMetadata `json:"creditCardMetadata"`
	Merchant             *Merchant           `json:"merchant"`
	OperationType        *string             `json:"operationType"`
	OperationTypeAddInfo *string             `json:"operationTypeAdditionalInfo"`
	// Order is the position (from 1) among the account's transactions of the same day.
	Order     int  `json:"order"`
	CreatedAt Time `json:"createdAt"`
	UpdatedAt Time `json:"updatedAt"`
}

// TransactionFilter holds the filters of the transaction lists.
type TransactionFilter struct {
	AccountID     uuid.UUID
	IDs           []uuid.UUID
	DateFrom      *time.Time
	DateTo        *time.Time
	CreatedAtFrom *time.Time
}

// LegacyTransactionFilter adds the filters of the deprecated GET /transactions.
type LegacyTransactionFilter struct {
	TransactionFilter
	BillID *uuid.UUID
}
