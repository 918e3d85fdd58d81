package model

import "github.com/google/uuid"

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
	Stored
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
