package model

import "github.com/google/uuid"

// Sandbox control of investments: investments and investment transactions a developer
// adds to, changes on or removes from a sandbox item; the item's next execution collects
// them.

// SandboxInvestmentInput is one investment POST /sandbox/items/{id}/investments adds.
type SandboxInvestmentInput struct {
	Name string `json:"name"`
	// Type is one of the investment types the sandbox shows (FIXED_INCOME, MUTUAL_FUND,
	// SECURITY, EQUITY, COE, ETF, OTHER).
	Type    string  `json:"type"`
	Subtype *string `json:"subtype"`
	// Balance is in reais, whole centavos, zero or more.
	Balance  float64  `json:"balance"`
	Quantity *float64 `json:"quantity"`
	Value    *float64 `json:"value"`
	DueDate  *Time    `json:"dueDate"`
}

// SandboxInvestmentsInput is the body of POST /sandbox/items/{id}/investments.
type SandboxInvestmentsInput struct {
	Investments []SandboxInvestmentInput `json:"investments"`
}

// SandboxInvestmentPatch is the body of PATCH /sandbox/items/{id}/investments/{investmentId}.
type SandboxInvestmentPatch struct {
	Name     *string  `json:"name"`
	Balance  *float64 `json:"balance"`
	Quantity *float64 `json:"quantity"`
	Value    *float64 `json:"value"`
}

// SandboxInvestmentTransactionInput is one transaction POST
// /sandbox/items/{id}/investments/{investmentId}/transactions adds.
type SandboxInvestmentTransactionInput struct {
	// Type is BUY, SELL, TAX or TRANSFER.
	Type string `json:"type"`
	// MovementType is CREDIT or DEBIT; absent: CREDIT for BUY, DEBIT for SELL and TAX
	// (TRANSFER must say).
	MovementType *string `json:"movementType"`
	Date         Time    `json:"date"`
	// Amount is in reais, whole centavos, more than zero.
	Amount      float64  `json:"amount"`
	Quantity    *float64 `json:"quantity"`
	Value       *float64 `json:"value"`
	Description *string  `json:"description"`
}

// SandboxInvestmentTransactionsInput is the body of POST
// /sandbox/items/{id}/investments/{investmentId}/transactions.
type SandboxInvestmentTransactionsInput struct {
	Transactions []SandboxInvestmentTransactionInput `json:"transactions"`
}

// SandboxInvestmentTransactionPatch is the body of PATCH
// /sandbox/items/{id}/investments/{investmentId}/transactions/{transactionId}.
type SandboxInvestmentTransactionPatch struct {
	Description *string  `json:"description"`
	Amount      *float64 `json:"amount"`
	Date        *Time    `json:"date"`
}

// SandboxInvestmentChange is a change to a sandbox item's investments or to one
// investment's transactions (TransactionID set): pending until an execution collects it
// (AppliedAt), kept by every later one.
type SandboxInvestmentChange struct {
	InvestmentID uuid.UUID `json:"investmentId"`
	// TransactionID is the investment transaction changed; nil: the investment itself.
	TransactionID *uuid.UUID `json:"transactionId"`
	ItemID        uuid.UUID  `json:"itemId"`
	// Operation is ADD, CHANGE or REMOVE.
	Operation string `json:"operation"`
	// Type is the investment's type, or the transaction's (ADD).
	Type         *string  `json:"type"`
	Subtype      *string  `json:"subtype"`
	Name         *string  `json:"name"`
	Balance      *float64 `json:"balance"`
	Quantity     *float64 `json:"quantity"`
	Value        *float64 `json:"value"`
	DueDate      *Time    `json:"dueDate"`
	MovementType *string  `json:"movementType"`
	Date         *Time    `json:"date"`
	Amount       *float64 `json:"amount"`
	Description  *string  `json:"description"`
	// RequestedAt is when the control action was taken.
	RequestedAt Time `json:"requestedAt"`
	// AppliedAt is when the first execution that collected the change since ended; nil
	// while it waits.
	AppliedAt *Time `json:"appliedAt"`
	// Revision is the stored row's version, for the execution that collects it.
	Revision uuid.UUID `json:"-"`
}

// TargetID is the id of what the change is of: the transaction's, or the investment's.
func (c *SandboxInvestmentChange) TargetID() uuid.UUID {
	if c.TransactionID != nil {
		return *c.TransactionID
	}
	return c.InvestmentID
}
