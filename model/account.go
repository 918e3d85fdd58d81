package model

// The collected products (this file's accounts, bills and statements, and transaction.go,
// investment.go, identity.go, loan.go, consent.go) follow the official client's field
// names (its types are the reference where the spec does not show a shape). Nullable
// fields are pointers and are always written, as null when unknown.

import (
	"time"

	"github.com/google/uuid"
)

// Account is a bank account or credit card (section 2.6).
type Account struct {
	ID      uuid.UUID `json:"id"`
	ItemID  uuid.UUID `json:"itemId"`
	Type    string    `json:"type"`    // BANK or CREDIT
	Subtype string    `json:"subtype"` // CHECKING_ACCOUNT, SAVINGS_ACCOUNT, CREDIT_CARD
	Number  string    `json:"number"`
	Balance *float64  `json:"balance"`
	// BalanceAt is when the institution says the balance held, when it says so (a
	// statement file's): an earlier balance never replaces a later one.
	BalanceAt     *time.Time  `json:"-"`
	Name          string      `json:"name"`
	MarketingName *string     `json:"marketingName"`
	Owner         *string     `json:"owner"`
	TaxNumber     *string     `json:"taxNumber"`
	CurrencyCode  string      `json:"currencyCode"`
	BankData      *BankData   `json:"bankData"`
	CreditData    *CreditData `json:"creditData"`
	CreatedAt     Time        `json:"createdAt"`
	UpdatedAt     Time        `json:"updatedAt"`
}

// BankData details a bank account.
type BankData struct {
	TransferNumber               *string          `json:"transferNumber"`
	ClosingBalance               *float64         `json:"closingBalance"`
	AutomaticallyInvestedBalance *float64         `json:"automaticallyInvestedBalance"`
	OverdraftContractedLimit     *float64         `json:"overdraftContractedLimit"`
	OverdraftUsedLimit           *float64         `json:"overdraftUsedLimit"`
	UnarrangedOverdraftAmount    *float64         `json:"unarrangedOverdraftAmount"`
	HasReservedBalance           *bool            `json:"hasReservedBalance"`
	ReservedBalances             []map[string]any `json:"reservedBalances"`
}

// DisaggregatedCreditLimit is one credit line of a card (official client's names).
type DisaggregatedCreditLimit struct {
	CreditLineLimitType               string   `json:"creditLineLimitType"`
	ConsolidationType                 string   `json:"consolidationType"`
	IdentificationNumber              string   `json:"identificationNumber"`
	IsLimitFlexible                   bool     `json:"isLimitFlexible"`
	UsedAmount                        float64  `json:"usedAmount"`
	UsedAmountCurrencyCode            string   `json:"usedAmountCurrencyCode"`
	LineName                          *string  `json:"lineName,omitempty"`
	LineNameAdditionalInfo            *string  `json:"lineNameAdditionalInfo,omitempty"`
	LimitAmount                       *float64 `json:"limitAmount,omitempty"`
	LimitAmountCurrencyCode           *string  `json:"limitAmountCurrencyCode,omitempty"`
	LimitAmountReason                 *string  `json:"limitAmountReason,omitempty"`
	CustomizedLimitAmount             *float64 `json:"customizedLimitAmount,omitempty"`
	CustomizedLimitAmountCurrencyCode *string  `json:"customizedLimitAmountCurrencyCode,omitempty"`
	AvailableAmount                   *float64 `json:"availableAmount,omitempty"`
	AvailableAmountCurrencyCode       *string  `json:"availableAmountCurrencyCode,omitempty"`
}

// AdditionalCard is a card issued on the same account.
type AdditionalCard struct {
	Number string `json:"number"`
	Holder string `json:"holder"`
}

// CreditData details a credit card account (official client's names plus additionalCards
// from section 2.6).
type CreditData struct {
	Level                     *string                    `json:"level"`
	Brand                     *string                    `json:"brand"`
	BrandAdditionalInfo       *string                    `json:"brandAdditionalInfo,omitempty"`
	BalanceCloseDate          *Time                      `json:"balanceCloseDate"`
	BalanceDueDate            *Time                      `json:"balanceDueDate"`
	AvailableCreditLimit      *float64                   `json:"availableCreditLimit"`
	BalanceForeignCurrency    *float64                   `json:"balanceForeignCurrency"`
	MinimumPayment            *float64                   `json:"minimumPayment"`
	CreditLimit               *float64                   `json:"creditLimit"`
	IsLimitFlexible           *bool                      `json:"isLimitFlexible"`
	Status                    *string                    `json:"status"`     // ACTIVE, BLOCKED, CANCELLED
	HolderType                *string                    `json:"holderType"` // MAIN or ADDITIONAL
	DisaggregatedCreditLimits []DisaggregatedCreditLimit `json:"disaggregatedCreditLimits,omitempty"`
	AdditionalCards           []AdditionalCard           `json:"additionalCards,omitempty"`
}

// CreditCardBillFinanceCharge is a charge on a bill (official client's
// CreditCardBillFinanceChargeResponseItem).
type CreditCardBillFinanceCharge struct {
	ID             uuid.UUID `json:"id"`
	Type           string    `json:"type"` // LATE_PAYMENT_REMUNERATIVE_INTEREST, LATE_PAYMENT_FEE, LATE_PAYMENT_INTEREST, IOF, OTHER
	Amount         float64   `json:"amount"`
	CurrencyCode   string    `json:"currencyCode"`
	AdditionalInfo *string   `json:"additionalInfo"`
}

// CreditCardBillPayment is a payment of a bill (official client's names).
type CreditCardBillPayment struct {
	ID           uuid.UUID `json:"id"`
	ValueType    string    `json:"valueType"` // INSTALLMENT_PAYMENT, FULL_PAYMENT, OTHER_PAYMENT
	PaymentDate  Time      `json:"paymentDate"`
	PaymentMode  *string   `json:"paymentMode"` // DEBIT_ACCOUNT, BANK_SLIP, PAYROLL_DEDUCTION, PIX
	Amount       float64   `json:"amount"`
	CurrencyCode string    `json:"currencyCode"`
}

// CreditCardBill is a monthly card bill, in the official client's field names (its
// CreditCardBills type) plus the card's accountId. TotalAmount is the sum of the amounts of
// the card transactions whose creditCardMetadata.billId is the bill's id.
type CreditCardBill struct {
	Stored
	ID                      uuid.UUID                     `json:"id"`
	AccountID               uuid.UUID                     `json:"accountId"`
	DueDate                 Time                          `json:"dueDate"`
	BillClosingDate         *Time                         `json:"billClosingDate"`
	TotalAmount             float64                       `json:"totalAmount"`
	TotalAmountCurrencyCode string                        `json:"totalAmountCurrencyCode"`
	MinimumPaymentAmount    *float64                      `json:"minimumPaymentAmount"`
	AllowsInstallments      *bool                         `json:"allowsInstallments"`
	FinanceCharges          []CreditCardBillFinanceCharge `json:"financeCharges"`
	Payments                []CreditCardBillPayment       `json:"payments"`
	CreatedAt               Time                          `json:"createdAt"`
	UpdatedAt               Time                          `json:"updatedAt"`
}

// AccountStatement is a monthly statement file of an account, in the official client's
// field names plus accountId. Date (the month's first day) orders statements; it is not
// part of the JSON.
type AccountStatement struct {
	ID        uuid.UUID `json:"id"`
	AccountID uuid.UUID `json:"accountId"`
	MonthYear string    `json:"monthYear"`
	URL       string    `json:"url"`
	Date      Time      `json:"-"`
}

// AccountPage is the page envelope of GET /accounts: the item's accounts as stored (a
// Connect Token's reduced view written as documents). Results are decoded from the
// documents when a GraphQL selection needs them.
type AccountPage struct {
	DocumentPage
	Results []*Account `json:"results"`
}
