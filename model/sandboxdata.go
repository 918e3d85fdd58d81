package model

import "github.com/google/uuid"

// Sandbox control of data: transactions a developer adds to, changes on
// or removes from a sandbox item's accounts; the item's next execution collects them.

// SandboxTransactionInput is one transaction POST /sandbox/items/{id}/transactions adds.
type SandboxTransactionInput struct {
	AccountID   uuid.UUID `json:"accountId"`
	Date        Time      `json:"date"`
	Description string    `json:"description"`
	// Amount is in reais, as the transaction shows it; at most two decimals.
	Amount float64 `json:"amount"`
	// Type is DEBIT or CREDIT.
	Type string `json:"type"`
	// Status is POSTED (default) or PENDING.
	Status *string `json:"status"`
	// Category is a category id (GET /categories); absent: the ordinary categorisation.
	Category *string `json:"category"`
}

// SandboxTransactionsInput is the body of POST /sandbox/items/{id}/transactions.
type SandboxTransactionsInput struct {
	Transactions []SandboxTransactionInput `json:"transactions"`
}

// SandboxTransactionPatch is the body of PATCH /sandbox/items/{id}/transactions/{transactionId}.
type SandboxTransactionPatch struct {
	Description *string  `json:"description"`
	Amount      *float64 `json:"amount"`
	Status      *string  `json:"status"`
}

// SandboxTransactionChange is a change to a sandbox item's transactions waiting for, or
// applied by, its executions: every execution from the next one on collects it.
type SandboxTransactionChange struct {
	// TransactionID is the id the transaction has (ADD: the id it will have).
	TransactionID uuid.UUID `json:"transactionId"`
	ItemID        uuid.UUID `json:"itemId"`
	AccountID     uuid.UUID `json:"accountId"`
	// Operation is ADD, CHANGE or REMOVE.
	Operation   string   `json:"operation"`
	Date        *Time    `json:"date"`
	Description *string  `json:"description"`
	Amount      *float64 `json:"amount"`
	Type        *string  `json:"type"`
	Status      *string  `json:"status"`
	Category    *string  `json:"category"`
	// RequestedAt is when the control action was taken.
	RequestedAt Time `json:"requestedAt"`
	// AppliedAt is when the first execution that collected the change since ended (the
	// item's lastUpdatedAt then); nil while it waits.
	AppliedAt *Time `json:"appliedAt"`
	// Revision is the stored row's version, for the execution that collects it.
	Revision uuid.UUID `json:"-"`
}
