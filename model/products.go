package model

import (
	"time"

	"github.com/google/uuid"
)

// The collected products follow the official client's field names (its types are the
// reference where the spec does not show a shape). Nullable fields are pointers and are
// always written, as null when unknown.

// Account is a bank account or credit card (section 2.6).
type Account struct {
	ID            uuid.UUID   `json:"id"`
	ItemID        uuid.UUID   `json:"itemId"`
	Type          string      `json:"type"`    // BANK or CREDIT
	Subtype       string      `json:"subtype"` // CHECKING_ACCOUNT, SAVINGS_ACCOUNT, CREDIT_CARD
	Number        string      `json:"number"`
	Balance       *float64    `json:"balance"`
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

// DisaggregatedCreditLimit is one credit line of a card.
type DisaggregatedCreditLimit struct {
	CreditLineLimitType         string   `json:"creditLineLimitType"`
	ConsolidationType           string   `json:"consolidationType"`
	IdentificationNumber        string   `json:"identificationNumber"`
	IsLimitFlexible             bool     `json:"isLimitFlexible"`
	UsedAmount                  float64  `json:"usedAmount"`
	UsedAmountCurrencyCode      string   `json:"usedAmountCurrencyCode"`
	LineName                    *string  `json:"lineName,omitempty"`
	LimitAmount                 *float64 `json:"limitAmount,omitempty"`
	LimitAmountCurrencyCode     *string  `json:"limitAmountCurrencyCode,omitempty"`
	AvailableAmount             *float64 `json:"availableAmount,omitempty"`
	AvailableAmountCurrencyCode *string  `json:"availableAmountCurrencyCode,omitempty"`
}

// AdditionalCard is a card issued on the same account.
type AdditionalCard struct {
	Number string `json:"number"`
	Holder string `json:"holder"`
}

// CreditData details a credit card account.
type CreditData struct {
	Level                     *string                    `json:"level"`
	Brand                     *string                    `json:"brand"`
	BalanceCloseDate          *Time                      `json:"balanceCloseDate"`
	BalanceDueDate            *Time                      `json:"balanceDueDate"`
	AvailableCreditLimit      *float64                   `json:"availableCreditLimit"`
	BalanceForeignCurrency    *float64                   `json:"balanceForeignCurrency"`
	MinimumPayment            *float64                   `json:"minimumPayment"`
	CreditLimit               *float64                   `json:"creditLimit"`
	IsLimitFlexible           *bool                      `json:"isLimitFlexible"`
	Status                    *string                    `json:"status"`
	HolderType                *string                    `json:"holderType"`
	DisaggregatedCreditLimits []DisaggregatedCreditLimit `json:"disaggregatedCreditLimits,omitempty"`
	AdditionalCards           []AdditionalCard           `json:"additionalCards,omitempty"`
}

// Document is a CPF or CNPJ.
type Document struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// PaymentParticipant is the payer or receiver of a transfer.
type PaymentParticipant struct {
	DocumentNumber    *Document `json:"documentNumber,omitempty"`
	Name              *string   `json:"name,omitempty"`
	AccountNumber     *string   `json:"accountNumber,omitempty"`
	BranchNumber      *string   `json:"branchNumber,omitempty"`
	RoutingNumber     *string   `json:"routingNumber,omitempty"`
	RoutingNumberISPB *string   `json:"routingNumberISPB,omitempty"`
}

// BoletoMetadata describes a paid boleto.
type BoletoMetadata struct {
	DigitableLine  *string  `json:"digitableLine"`
	Barcode        *string  `json:"barcode"`
	BaseAmount     *float64 `json:"baseAmount"`
	PenaltyAmount  *float64 `json:"penaltyAmount"`
	InterestAmount *float64 `json:"interestAmount"`
	DiscountAmount *float64 `json:"discountAmount"`
}

// PaymentData describes a transfer's parties.
type PaymentData struct {
	Payer               *PaymentParticipant `json:"payer,omitempty"`
	Receiver            *PaymentParticipant `json:"receiver,omitempty"`
	ReceiverReferenceID *string             `json:"receiverReferenceId,omitempty"`
	PaymentMethod       *string             `json:"paymentMethod,omitempty"`
	ReferenceNumber     *string             `json:"referenceNumber,omitempty"`
	Reason              *string             `json:"reason,omitempty"`
	BoletoMetadata      *BoletoMetadata     `json:"boletoMetadata"`
}

// Merchant is where a card purchase happened.
type Merchant struct {
	Name         string  `json:"name"`
	BusinessName string  `json:"businessName"`
	CNPJ         string  `json:"cnpj"`
	CNAE         *string `json:"cnae,omitempty"`
	Category     *string `json:"category,omitempty"`
}

// CreditCardMetadata details a card transaction.
type CreditCardMetadata struct {
	InstallmentNumber *int     `json:"installmentNumber,omitempty"`
	TotalInstallments *int     `json:"totalInstallments,omitempty"`
	TotalAmount       *float64 `json:"totalAmount,omitempty"`
	PayeeMCC          *int     `json:"payeeMCC,omitempty"`
	PurchaseDate      *Time    `json:"purchaseDate,omitempty"`
	BillID            *string  `json:"billId,omitempty"`
	CardNumber        *string  `json:"cardNumber,omitempty"`
	FeeType           *string  `json:"feeType,omitempty"`
}

// Transaction is one movement of an account (section 2.5).
type Transaction struct {
	ID                      uuid.UUID           `json:"id"`
	AccountID               uuid.UUID           `json:"accountId"`
	Date                    Time                `json:"date"`
	Description             string              `json:"description"`
	DescriptionRaw          *string             `json:"descriptionRaw"`
	Type                    string              `json:"type"` // DEBIT or CREDIT
	Amount                  float64             `json:"amount"`
	AmountInAccountCurrency *float64            `json:"amountInAccountCurrency"`
	Balance                 *float64            `json:"balance"`
	CurrencyCode            string              `json:"currencyCode"`
	Category                *string             `json:"category"`
	CategoryID              *string             `json:"categoryId"`
	Status                  string              `json:"status"` // PENDING or POSTED
	ProviderCode            *string             `json:"providerCode"`
	ProviderID              *string             `json:"providerId"`
	PaymentData             *PaymentData        `json:"paymentData"`
	CreditCardMetadata      *CreditCardMetadata `json:"creditCardMetadata"`
	Merchant                *Merchant           `json:"merchant"`
	OperationType           *string             `json:"operationType"`
	OperationTypeAddInfo    *string             `json:"operationTypeAdditionalInfo"`
	CreatedAt               Time                `json:"createdAt"`
	UpdatedAt               Time                `json:"updatedAt"`
}

// Investment is one position (section 2.8 and the official client).
type Investment struct {
	ID                   uuid.UUID `json:"id"`
	ItemID               uuid.UUID `json:"itemId"`
	Code                 *string   `json:"code"`
	IssuerCNPJ           *string   `json:"issuerCNPJ"`
	Number               *string   `json:"number"`
	ISIN                 *string   `json:"isin"`
	Type                 string    `json:"type"`
	Subtype              *string   `json:"subtype"`
	Name                 string    `json:"name"`
	CurrencyCode         string    `json:"currencyCode"`
	Date                 *Time     `json:"date"`
	Value                *float64  `json:"value"`
	Quantity             *float64  `json:"quantity"`
	Taxes                *float64  `json:"taxes"`
	Taxes2               *float64  `json:"taxes2"`
	Balance              float64   `json:"balance"`
	Amount               *float64  `json:"amount"`
	AmountWithdrawal     *float64  `json:"amountWithdrawal"`
	AmountProfit         *float64  `json:"amountProfit"`
	AmountOriginal       *float64  `json:"amountOriginal"`
	DueDate              *Time     `json:"dueDate"`
	Issuer               *string   `json:"issuer"`
	IssueDate            *Time     `json:"issueDate"`
	PurchaseDate         *Time     `json:"purchaseDate"`
	Rate                 *float64  `json:"rate"`
	RateType             *string   `json:"rateType"`
	FixedAnnualRate      *float64  `json:"fixedAnnualRate"`
	LastMonthRate        *float64  `json:"lastMonthRate"`
	AnnualRate           *float64  `json:"annualRate"`
	LastTwelveMonthsRate *float64  `json:"lastTwelveMonthsRate"`
	Status               *string   `json:"status"`
	Owner                *string   `json:"owner"`
	Institution          *struct {
		Name   *string `json:"name"`
		Number *string `json:"number"`
	} `json:"institution"`
	Metadata  map[string]any `json:"metadata"`
	CreatedAt Time           `json:"createdAt"`
	UpdatedAt Time           `json:"updatedAt"`
}

// InvestmentTransaction is a movement of an investment (section 2.8).
type InvestmentTransaction struct {
	ID              uuid.UUID          `json:"id"`
	InvestmentID    uuid.UUID          `json:"investmentId"`
	Type            string             `json:"type"` // BUY, SELL, TAX, TRANSFER
	MovementType    string             `json:"movementType"`
	Description     *string            `json:"description"`
	Quantity        *float64           `json:"quantity"`
	Value           *float64           `json:"value"`
	Amount          *float64           `json:"amount"`
	NetAmount       *float64           `json:"netAmount"`
	Date            Time               `json:"date"`
	TradeDate       *Time              `json:"tradeDate"`
	BrokerageNumber *string            `json:"brokerageNumber"`
	AgreedRate      *float64           `json:"agreedRate"`
	Expenses        map[string]float64 `json:"expenses"`
	CreatedAt       Time               `json:"createdAt"`
	UpdatedAt       Time               `json:"updatedAt"`
}

// Phone, Email, Address and Relation are parts of an identity.
type Phone struct {
	Type  *string `json:"type"`
	Value string  `json:"value"`
}

type Email struct {
	Type  *string `json:"type"`
	Value string  `json:"value"`
}

type Address struct {
	FullAddress    *string `json:"fullAddress"`
	PrimaryAddress *string `json:"primaryAddress"`
	City           *string `json:"city"`
	PostalCode     *string `json:"postalCode"`
	State          *string `json:"state"`
	Country        *string `json:"country"`
	Type           *string `json:"type"`
	AdditionalInfo *string `json:"additionalInfo"`
}

type Relation struct {
	Type     *string `json:"type"`
	Name     *string `json:"name"`
	Document *string `json:"document"`
}

// Identity is the account holder's identity.
type Identity struct {
	ID              uuid.UUID  `json:"id"`
	ItemID          uuid.UUID  `json:"itemId"`
	BirthDate       *Time      `json:"birthDate"`
	TaxNumber       *string    `json:"taxNumber"`
	Document        *string    `json:"document"`
	DocumentType    *string    `json:"documentType"`
	JobTitle        *string    `json:"jobTitle"`
	CompanyName     *string    `json:"companyName"`
	FullName        *string    `json:"fullName"`
	PhoneNumbers    []Phone    `json:"phoneNumbers"`
	Emails          []Email    `json:"emails"`
	Addresses       []Address  `json:"addresses"`
	Relations       []Relation `json:"relations"`
	InvestorProfile *string    `json:"investorProfile"`
	CreatedAt       Time       `json:"createdAt"`
	UpdatedAt       Time       `json:"updatedAt"`
}

// Loan is a credit contract.
type Loan struct {
	ID                     uuid.UUID        `json:"id"`
	ItemID                 uuid.UUID        `json:"itemId"`
	ContractNumber         *string          `json:"contractNumber"`
	IPOCCode               *string          `json:"ipocCode"`
	ProductName            string           `json:"productName"`
	Type                   *string          `json:"type"`
	Kind                   string           `json:"kind"`
	Date                   *Time            `json:"date"`
	ContractDate           *Time            `json:"contractDate"`
	DisbursementDates      []Time           `json:"disbursementDates"`
	SettlementDate         *Time            `json:"settlementDate"`
	ContractAmount         *float64         `json:"contractAmount"`
	CurrencyCode           string           `json:"currencyCode"`
	DueDate                *Time            `json:"dueDate"`
	InstallmentPeriodicity *string          `json:"installmentPeriodicity"`
	FirstInstallmentDue    *Time            `json:"firstInstallmentDueDate"`
	CET                    *float64         `json:"CET"`
	AmortizationScheduled  *string          `json:"amortizationScheduled"`
	CNPJConsignee          *string          `json:"cnpjConsignee"`
	InterestRates          []map[string]any `json:"interestRates"`
	ContractedFees         []map[string]any `json:"contractedFees"`
	Warranties             []map[string]any `json:"warranties"`
	Installments           map[string]any   `json:"installments"`
	Payments               map[string]any   `json:"payments"`
}

// CreditCardBill is a monthly card bill.
type CreditCardBill struct {
	ID                      uuid.UUID        `json:"id"`
	AccountID               uuid.UUID        `json:"accountId"`
	DueDate                 Time             `json:"dueDate"`
	BillClosingDate         *Time            `json:"billClosingDate"`
	TotalAmount             float64          `json:"totalAmount"`
	TotalAmountCurrencyCode string           `json:"totalAmountCurrencyCode"`
	MinimumPaymentAmount    *float64         `json:"minimumPaymentAmount"`
	AllowsInstallments      *bool            `json:"allowsInstallments"`
	FinanceCharges          []map[string]any `json:"financeCharges"`
	Payments                []map[string]any `json:"payments"`
	CreatedAt               Time             `json:"createdAt"`
	UpdatedAt               Time             `json:"updatedAt"`
}

// AccountStatement is a monthly statement file of an account.
type AccountStatement struct {
	ID        uuid.UUID `json:"id"`
	AccountID uuid.UUID `json:"accountId"`
	MonthYear string    `json:"monthYear"`
	URL       string    `json:"url"`
	Date      Time      `json:"-"`
}

// AccountPage is the page envelope of GET /accounts.
type AccountPage struct {
	Total      int        `json:"total"`
	TotalPages int        `json:"totalPages"`
	Page       int        `json:"page"`
	Results    []*Account `json:"results"`
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
