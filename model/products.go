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
	// Order is the position (from 1) among the account's transactions of the same day.
	Order     int  `json:"order"`
	CreatedAt Time `json:"createdAt"`
	UpdatedAt Time `json:"updatedAt"`
}

// InvestmentInstitution is the institution holding an investment (official client's names).
type InvestmentInstitution struct {
	Name   *string `json:"name"`
	Number *string `json:"number"`
}

// InvestmentMetadata is an investment's tax information (official client's names).
type InvestmentMetadata struct {
	TaxRegime      *string `json:"taxRegime"`
	ProposalNumber *string `json:"proposalNumber"`
	ProcessNumber  *string `json:"processNumber"`
}

// Investment is one position, in the official client's field names. Transactions is the
// deprecated embedded list, always null: they are read from /investments/{id}/transactions.
type Investment struct {
	ID                   uuid.UUID               `json:"id"`
	ItemID               uuid.UUID               `json:"itemId"`
	Code                 *string                 `json:"code"`
	IssuerCNPJ           *string                 `json:"issuerCNPJ"`
	Number               *string                 `json:"number"`
	ISIN                 *string                 `json:"isin"`
	Type                 string                  `json:"type"`
	Subtype              *string                 `json:"subtype"`
	Name                 string                  `json:"name"`
	CurrencyCode         string                  `json:"currencyCode"`
	Date                 *Time                   `json:"date"`
	Value                *float64                `json:"value"`
	Quantity             *float64                `json:"quantity"`
	Taxes                *float64                `json:"taxes"`
	Taxes2               *float64                `json:"taxes2"`
	Balance              float64                 `json:"balance"`
	Amount               *float64                `json:"amount"`
	AmountWithdrawal     *float64                `json:"amountWithdrawal"`
	AmountProfit         *float64                `json:"amountProfit"`
	AmountOriginal       *float64                `json:"amountOriginal"`
	DueDate              *Time                   `json:"dueDate"`
	Issuer               *string                 `json:"issuer"`
	IssueDate            *Time                   `json:"issueDate"`
	PurchaseDate         *Time                   `json:"purchaseDate"`
	Rate                 *float64                `json:"rate"`
	RateType             *string                 `json:"rateType"`
	FixedAnnualRate      *float64                `json:"fixedAnnualRate"`
	LastMonthRate        *float64                `json:"lastMonthRate"`
	AnnualRate           *float64                `json:"annualRate"`
	LastTwelveMonthsRate *float64                `json:"lastTwelveMonthsRate"`
	Status               *string                 `json:"status"`
	Transactions         []InvestmentTransaction `json:"transactions"`
	Metadata             *InvestmentMetadata     `json:"metadata"`
	Owner                *string                 `json:"owner"`
	Institution          *InvestmentInstitution  `json:"institution"`
	CreatedAt            Time                    `json:"createdAt"`
	UpdatedAt            Time                    `json:"updatedAt"`
}

// InvestmentExpenses are the taxes and fees of an investment transaction: the official
// client's names plus iof and iofProvision from section 2.8.
type InvestmentExpenses struct {
	ServiceTax             *float64 `json:"serviceTax"`
	BrokerageFee           *float64 `json:"brokerageFee"`
	IncomeTax              *float64 `json:"incomeTax"`
	Other                  *float64 `json:"other"`
	TradingAssetsNoticeFee *float64 `json:"tradingAssetsNoticeFee"`
	MaintenanceFee         *float64 `json:"maintenanceFee"`
	SettlementFee          *float64 `json:"settlementFee"`
	ClearingFee            *float64 `json:"clearingFee"`
	StockExchangeFee       *float64 `json:"stockExchangeFee"`
	CustodyFee             *float64 `json:"custodyFee"`
	OperatingFee           *float64 `json:"operatingFee"`
	IOF                    *float64 `json:"iof"`
	IOFProvision           *float64 `json:"iofProvision"`
}

// InvestmentTransaction is a movement of an investment (section 2.8), in the official
// client's field names plus indexerPercentage and priceFactor from the spec.
type InvestmentTransaction struct {
	ID                uuid.UUID           `json:"id"`
	InvestmentID      uuid.UUID           `json:"investmentId"`
	Type              string              `json:"type"`         // BUY, SELL, TAX, TRANSFER
	MovementType      string              `json:"movementType"` // CREDIT or DEBIT
	Description       *string             `json:"description"`
	Quantity          *float64            `json:"quantity"`
	Value             *float64            `json:"value"`
	Amount            *float64            `json:"amount"`
	NetAmount         *float64            `json:"netAmount"`
	Date              Time                `json:"date"`
	TradeDate         *Time               `json:"tradeDate"`
	BrokerageNumber   *string             `json:"brokerageNumber"`
	AgreedRate        *float64            `json:"agreedRate"`
	IndexerPercentage *float64            `json:"indexerPercentage"`
	PriceFactor       *float64            `json:"priceFactor"`
	Expenses          *InvestmentExpenses `json:"expenses"`
	CreatedAt         Time                `json:"createdAt"`
	UpdatedAt         Time                `json:"updatedAt"`
}

// Phone is one of an identity's phone numbers (official client's PhoneNumber).
type Phone struct {
	Type               *string `json:"type"` // Personal, Work, Residencial
	Value              string  `json:"value"`
	CountryCallingCode *string `json:"countryCallingCode,omitempty"`
	AreaCode           *string `json:"areaCode,omitempty"`
	Extension          *string `json:"extension,omitempty"`
	AdditionalInfo     *string `json:"additionalInfo,omitempty"`
}

// Email is one of an identity's e-mail addresses (official client's names).
type Email struct {
	Type  *string `json:"type"` // Personal or Work
	Value string  `json:"value"`
}

// GeographicCoordinates locate an address (official client's names).
type GeographicCoordinates struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

// Address is one of an identity's addresses (official client's names).
type Address struct {
	FullAddress           *string                `json:"fullAddress"`
	PrimaryAddress        *string                `json:"primaryAddress"`
	City                  *string                `json:"city"`
	PostalCode            *string                `json:"postalCode"`
	State                 *string                `json:"state"`
	Country               *string                `json:"country"`
	Type                  *string                `json:"type"`
	AdditionalInfo        *string                `json:"additionalInfo"`
	District              *string                `json:"district,omitempty"`
	IBGETownCode          *string                `json:"ibgeTownCode,omitempty"`
	CountryCode           *string                `json:"countryCode,omitempty"`
	GeographicCoordinates *GeographicCoordinates `json:"geographicCoordinates,omitempty"`
}

// Relation is a personal relationship of an identity (official client's IdentityRelation).
type Relation struct {
	Type     *string `json:"type"` // Mother, Father, Spouse
	Name     *string `json:"name"`
	Document *string `json:"document"`
}

// MaritalStatus of a natural person (official client's names).
type MaritalStatus struct {
	Code           string  `json:"code"`
	AdditionalInfo *string `json:"additionalInfo,omitempty"`
}

// NationalityDocument supports one of a person's other nationalities.
type NationalityDocument struct {
	Type           string  `json:"type"`
	Number         string  `json:"number"`
	Country        *string `json:"country,omitempty"`
	IssueDate      *Time   `json:"issueDate,omitempty"`
	ExpirationDate *Time   `json:"expirationDate,omitempty"`
	AdditionalInfo *string `json:"additionalInfo,omitempty"`
}

// OtherNationality is a nationality besides the Brazilian one.
type OtherNationality struct {
	CountryCode string                `json:"countryCode"`
	Documents   []NationalityDocument `json:"documents"`
}

// Nationality of a natural person (official client's names).
type Nationality struct {
	HasBrazilianNationality bool               `json:"hasBrazilianNationality"`
	OtherNationalities      []OtherNationality `json:"otherNationalities,omitempty"`
}

// IdentityDocument is another identification document of a person (official client's
// OtherDocument: CNH, RG, NIF, RNE or OTHER).
type IdentityDocument struct {
	Type               string  `json:"type"`
	TypeAdditionalInfo *string `json:"typeAdditionalInfo,omitempty"`
	Number             string  `json:"number"`
	CheckDigit         *string `json:"checkDigit,omitempty"`
	AdditionalInfo     *string `json:"additionalInfo,omitempty"`
	ExpirationDate     *Time   `json:"expirationDate,omitempty"`
}

// Passport of a non-resident person (official client's names).
type Passport struct {
	Number         string `json:"number"`
	Country        string `json:"country"`
	IssueDate      *Time  `json:"issueDate,omitempty"`
	ExpirationDate *Time  `json:"expirationDate,omitempty"`
}

// BusinessParty is a partner or administrator of a business (official client's names).
type BusinessParty struct {
	Type                   string   `json:"type"`       // PARTNER or ADMINISTRATOR
	PersonType             string   `json:"personType"` // NATURAL_PERSON or LEGAL_ENTITY
	DocumentType           string   `json:"documentType"`
	DocumentNumber         string   `json:"documentNumber"`
	DocumentCountry        *string  `json:"documentCountry,omitempty"`
	DocumentExpirationDate *Time    `json:"documentExpirationDate,omitempty"`
	DocumentIssueDate      *Time    `json:"documentIssueDate,omitempty"`
	DocumentAdditionalInfo *string  `json:"documentAdditionalInfo,omitempty"`
	CivilName              *string  `json:"civilName,omitempty"`
	SocialName             *string  `json:"socialName,omitempty"`
	CompanyName            *string  `json:"companyName,omitempty"`
	TradeName              *string  `json:"tradeName,omitempty"`
	StartDate              *Time    `json:"startDate,omitempty"`
	Shareholding           *float64 `json:"shareholding,omitempty"`
}

// BusinessOtherDocument identifies a business headquartered abroad.
type BusinessOtherDocument struct {
	Type           string `json:"type"`
	Number         string `json:"number"`
	Country        string `json:"country"`
	ExpirationDate *Time  `json:"expirationDate,omitempty"`
}

// FinancialRelationshipAccount is an account the person holds at the institution.
type FinancialRelationshipAccount struct {
	CompeCode  string `json:"compeCode"`
	BranchCode string `json:"branchCode"`
	Number     string `json:"number"`
	CheckDigit string `json:"checkDigit"`
	Type       string `json:"type"`    // CONTA_DEPOSITO_A_VISTA, CONTA_POUPANCA, CONTA_PAGAMENTO_PRE_PAGA
	Subtype    string `json:"subtype"` // INDIVIDUAL, CONJUNTA_SIMPLES, CONJUNTA_SOLIDARIA
}

// Procurator represents the customer at the institution.
type Procurator struct {
	Type           string  `json:"type"` // REPRESENTANTE_LEGAL or PROCURADOR
	CPFNumber      string  `json:"cpfNumber"`
	DocumentNumber *string `json:"documentNumber,omitempty"`
	DocumentType   *string `json:"documentType,omitempty"`
	CivilName      string  `json:"civilName"`
	SocialName     *string `json:"socialName,omitempty"`
}

// PortabilityReceived is a salary portability received by the institution.
type PortabilityReceived struct {
	EmployerName             string `json:"employerName"`
	EmployerDocument         string `json:"employerDocument"`
	PaycheckBankDetainerCNPJ string `json:"paycheckBankDetainerCnpj"`
	PaycheckBankDetainerISPB string `json:"paycheckBankDetainerIspb"`
	PortabilityApprovalDate  Time   `json:"portabilityApprovalDate"`
}

// PaycheckBankLink links the person's paycheck account to an employer.
type PaycheckBankLink struct {
	EmployerName       string `json:"employerName"`
	EmployerDocument   string `json:"employerDocument"`
	PaycheckBankCNPJ   string `json:"paycheckBankCnpj"`
	PaycheckBankISPB   string `json:"paycheckBankIspb"`
	AccountOpeningDate Time   `json:"accountOpeningDate"`
}

// FinancialRelationships is the customer's relationship with the institution (official
// client's names).
type FinancialRelationships struct {
	StartDate                          Time                           `json:"startDate"`
	ProductsServicesType               []string                       `json:"productsServicesType"`
	ProductsServicesTypeAdditionalInfo *string                        `json:"productsServicesTypeAdditionalInfo,omitempty"`
	Procurators                        []Procurator                   `json:"procurators"`
	Accounts                           []FinancialRelationshipAccount `json:"accounts,omitempty"`
	PortabilitiesReceived              []PortabilityReceived          `json:"portabilitiesReceived,omitempty"`
	PaychecksBankLink                  []PaycheckBankLink             `json:"paychecksBankLink,omitempty"`
}

// InformedIncome is the income a person declared.
type InformedIncome struct {
	Frequency string  `json:"frequency"` // DIARIA, SEMANAL, ..., MENSAL, ..., OUTROS
	Amount    float64 `json:"amount"`
	Date      Time    `json:"date"`
}

// InformedPatrimony is the patrimony a customer declared.
type InformedPatrimony struct {
	Amount float64 `json:"amount"`
	Year   int     `json:"year"`
	Date   *Time   `json:"date,omitempty"`
}

// InformedRevenue is the revenue a business declared.
type InformedRevenue struct {
	Amount                  float64 `json:"amount"`
	Frequency               *string `json:"frequency,omitempty"`
	FrequencyAdditionalInfo *string `json:"frequencyAdditionalInfo,omitempty"`
	Year                    *int    `json:"year,omitempty"`
}

// EconomicActivity is a CNAE code of a business.
type EconomicActivity struct {
	Code   string `json:"code"`
	IsMain bool   `json:"isMain"`
}

// Qualifications are the customer's declared occupation and finances (official client's
// names).
type Qualifications struct {
	CompanyCNPJ           string             `json:"companyCnpj"`
	OccupationCode        *string            `json:"occupationCode,omitempty"` // RECEITA_FEDERAL, CBO, OUTRO
	OccupationDescription *string            `json:"occupationDescription,omitempty"`
	InformedIncome        *InformedIncome    `json:"informedIncome,omitempty"`
	InformedPatrimony     *InformedPatrimony `json:"informedPatrimony,omitempty"`
	EconomicActivities    []EconomicActivity `json:"economicActivities,omitempty"`
	InformedRevenue       *InformedRevenue   `json:"informedRevenue,omitempty"`
}

// Identity is the account holder's identity, in the official client's field names
// (IdentityResponse). PF-only and PJ-only fields are null when they do not apply.
type Identity struct {
	ID                     uuid.UUID               `json:"id"`
	ItemID                 uuid.UUID               `json:"itemId"`
	BirthDate              *Time                   `json:"birthDate"`
	TaxNumber              *string                 `json:"taxNumber"`
	Document               *string                 `json:"document"`
	DocumentType           *string                 `json:"documentType"`
	JobTitle               *string                 `json:"jobTitle"`
	CompanyName            *string                 `json:"companyName"`
	FullName               *string                 `json:"fullName"`
	PhoneNumbers           []Phone                 `json:"phoneNumbers"`
	Emails                 []Email                 `json:"emails"`
	Addresses              []Address               `json:"addresses"`
	Relations              []Relation              `json:"relations"`
	InvestorProfile        *string                 `json:"investorProfile"` // Conservative, Moderate, Aggressive
	EstablishmentName      *string                 `json:"establishmentName"`
	EstablishmentCode      *string                 `json:"establishmentCode"`
	FinancialRelationships *FinancialRelationships `json:"financialRelationships"`
	Qualifications         *Qualifications         `json:"qualifications"`
	SocialName             *string                 `json:"socialName"`
	Sex                    *string                 `json:"sex"` // FEMALE, MALE, OTHER
	MaritalStatus          *MaritalStatus          `json:"maritalStatus"`
	Nationality            *Nationality            `json:"nationality"`
	OtherDocuments         []IdentityDocument      `json:"otherDocuments"`
	Passport               *Passport               `json:"passport"`
	IncorporationDate      *Time                   `json:"incorporationDate"`
	Parties                []BusinessParty         `json:"parties"`
	BusinessOtherDocuments []BusinessOtherDocument `json:"businessOtherDocuments"`
	CompaniesCNPJ          []string                `json:"companiesCnpj"`
	CreatedAt              Time                    `json:"createdAt"`
	UpdatedAt              Time                    `json:"updatedAt"`
}

// LoanInterestRate is one interest rate of a loan contract (official client's names).
type LoanInterestRate struct {
	TaxType                              *string  `json:"taxType"`          // NOMINAL or EFFECTIVE
	InterestRateType                     *string  `json:"interestRateType"` // SIMPLE or COMPOUND
	TaxPeriodicity                       *string  `json:"taxPeriodicity"`   // MONTHLY or YEARLY
	Calculation                          *string  `json:"calculation"`
	ReferentialRateIndexerType           *string  `json:"referentialRateIndexerType"`
	ReferentialRateIndexerSubType        *string  `json:"referentialRateIndexerSubType"`
	ReferentialRateIndexerAdditionalInfo *string  `json:"referentialRateIndexerAdditionalInfo"`
	PreFixedRate                         *float64 `json:"preFixedRate"`
	PostFixedRate                        *float64 `json:"postFixedRate"`
	AdditionalInfo                       *string  `json:"additionalInfo"`
}

// LoanContractedFee is a tariff agreed in a loan contract (official client's names).
type LoanContractedFee struct {
	Name       *string  `json:"name"`
	Code       *string  `json:"code"`
	ChargeType *string  `json:"chargeType"` // UNIQUE or BY_INSTALLMENT
	Charge     *string  `json:"charge"`     // MINIMUM, MAXIMUM, FIXED, PERCENTAGE
	Amount     *float64 `json:"amount"`
	Rate       *float64 `json:"rate"`
}

// LoanContractedFinanceCharge is a charge agreed in a loan contract.
type LoanContractedFinanceCharge struct {
	Type           *string  `json:"type"`
	AdditionalInfo *string  `json:"additionalInfo"`
	Rate           *float64 `json:"rate"`
}

// LoanWarranty is a guarantee of a loan contract.
type LoanWarranty struct {
	CurrencyCode *string  `json:"currencyCode"`
	Type         *string  `json:"type"`
	Subtype      *string  `json:"subtype"`
	Amount       *float64 `json:"amount"`
}

// LoanBalloonPaymentAmount is the value of a non-regular installment.
type LoanBalloonPaymentAmount struct {
	Value        *float64 `json:"value"`
	CurrencyCode *string  `json:"currencyCode"`
}

// LoanBalloonPayment is a non-regular installment.
type LoanBalloonPayment struct {
	DueDate *Time                     `json:"dueDate"`
	Amount  *LoanBalloonPaymentAmount `json:"amount"`
}

// LoanInstallments is the remaining term and installments of a loan (official client's
// names).
type LoanInstallments struct {
	TypeNumberOfInstallments  *string              `json:"typeNumberOfInstallments"`
	TotalNumberOfInstallments *int                 `json:"totalNumberOfInstallments"`
	TypeContractRemaining     *string              `json:"typeContractRemaining"`
	ContractRemainingNumber   *int                 `json:"contractRemainingNumber"`
	PaidInstallments          *int                 `json:"paidInstallments"`
	DueInstallments           *int                 `json:"dueInstallments"`
	PastDueInstallments       *int                 `json:"pastDueInstallments"`
	BalloonPayments           []LoanBalloonPayment `json:"balloonPayments"`
}

// LoanOverParcelFee is a fee paid outside an installment.
type LoanOverParcelFee struct {
	Name   *string  `json:"name"`
	Code   *string  `json:"code"`
	Amount *float64 `json:"amount"`
}

// LoanOverParcelCharge is a charge paid outside an installment.
type LoanOverParcelCharge struct {
	Type           *string  `json:"type"`
	AdditionalInfo *string  `json:"additionalInfo"`
	Amount         *float64 `json:"amount"`
}

// LoanOverParcel lists what a payment settled outside the installment.
type LoanOverParcel struct {
	Fees    []LoanOverParcelFee    `json:"fees"`
	Charges []LoanOverParcelCharge `json:"charges"`
}

// LoanPaymentRelease is one payment of a loan.
type LoanPaymentRelease struct {
	IsOverParcelPayment *bool           `json:"isOverParcelPayment"`
	InstallmentID       *string         `json:"installmentId"`
	PaidDate            *Time           `json:"paidDate"`
	CurrencyCode        *string         `json:"currencyCode"`
	PaidAmount          *float64        `json:"paidAmount"`
	OverParcel          *LoanOverParcel `json:"overParcel"`
}

// LoanPayments is the payment data of a loan contract.
type LoanPayments struct {
	ContractOutstandingBalance *float64             `json:"contractOutstandingBalance"`
	Releases                   []LoanPaymentRelease `json:"releases"`
}

// Loan is a credit contract, in the official client's field names.
type Loan struct {
	ID                                   uuid.UUID                     `json:"id"`
	ItemID                               uuid.UUID                     `json:"itemId"`
	ContractNumber                       *string                       `json:"contractNumber"`
	IPOCCode                             *string                       `json:"ipocCode"`
	ProductName                          string                        `json:"productName"`
	Type                                 *string                       `json:"type"`
	Kind                                 string                        `json:"kind"` // LOAN, FINANCING, INVOICE_FINANCING, UNARRANGED_ACCOUNT_OVERDRAFT
	Date                                 *Time                         `json:"date"`
	ContractDate                         *Time                         `json:"contractDate"`
	DisbursementDates                    []Time                        `json:"disbursementDates"`
	SettlementDate                       *Time                         `json:"settlementDate"`
	ContractAmount                       *float64                      `json:"contractAmount"`
	CurrencyCode                         string                        `json:"currencyCode"`
	DueDate                              *Time                         `json:"dueDate"`
	InstallmentPeriodicity               *string                       `json:"installmentPeriodicity"`
	InstallmentPeriodicityAdditionalInfo *string                       `json:"installmentPeriodicityAdditionalInfo"`
	FirstInstallmentDue                  *Time                         `json:"firstInstallmentDueDate"`
	CET                                  *float64                      `json:"CET"`
	AmortizationScheduled                *string                       `json:"amortizationScheduled"`
	AmortizationScheduledAdditionalInfo  *string                       `json:"amortizationScheduledAdditionalInfo"`
	CNPJConsignee                        *string                       `json:"cnpjConsignee"`
	InterestRates                        []LoanInterestRate            `json:"interestRates"`
	ContractedFees                       []LoanContractedFee           `json:"contractedFees"`
	ContractedFinanceCharges             []LoanContractedFinanceCharge `json:"contractedFinanceCharges"`
	Warranties                           []LoanWarranty                `json:"warranties"`
	Installments                         *LoanInstallments             `json:"installments"`
	Payments                             *LoanPayments                 `json:"payments"`
	CreatedAt                            Time                          `json:"createdAt"`
	UpdatedAt                            Time                          `json:"updatedAt"`
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

// Consent is an Open Finance item's consent (the official client's Consent).
type Consent struct {
	ID                            uuid.UUID `json:"id"`
	ItemID                        uuid.UUID `json:"itemId"`
	Products                      []string  `json:"products"`
	OpenFinancePermissionsGranted []string  `json:"openFinancePermissionsGranted"`
	CreatedAt                     Time      `json:"createdAt"`
	UpdatedAt                     Time      `json:"updatedAt"`
	ExpiresAt                     *Time     `json:"expiresAt"`
	RevokedAt                     *Time     `json:"revokedAt"`
}
