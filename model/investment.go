package model

import "github.com/google/uuid"

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
	Stored
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
