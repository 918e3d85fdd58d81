package model

import "github.com/google/uuid"

// Sandbox control of bills: credit card bills a developer adds to, changes on or removes
// from a sandbox item's cards; the item's next execution collects them.

// SandboxBillInput is one bill POST /sandbox/items/{id}/bills adds.
type SandboxBillInput struct {
	// AccountID is one of the item's credit card accounts.
	AccountID       uuid.UUID `json:"accountId"`
	DueDate         Time      `json:"dueDate"`
	BillClosingDate *Time     `json:"billClosingDate"`
	// TotalAmount is in reais, whole centavos, zero or more.
	TotalAmount          float64  `json:"totalAmount"`
	MinimumPaymentAmount *float64 `json:"minimumPaymentAmount"`
}

// SandboxBillsInput is the body of POST /sandbox/items/{id}/bills.
type SandboxBillsInput struct {
	Bills []SandboxBillInput `json:"bills"`
}

// SandboxBillPatch is the body of PATCH /sandbox/items/{id}/bills/{billId}.
type SandboxBillPatch struct {
	DueDate              *Time    `json:"dueDate"`
	TotalAmount          *float64 `json:"totalAmount"`
	MinimumPaymentAmount *float64 `json:"minimumPaymentAmount"`
}

// SandboxBillChange is a change to a sandbox item's bills: pending until an execution
// collects it (AppliedAt), kept by every later one.
type SandboxBillChange struct {
	BillID    uuid.UUID `json:"billId"`
	ItemID    uuid.UUID `json:"itemId"`
	AccountID uuid.UUID `json:"accountId"`
	// Operation is ADD, CHANGE or REMOVE.
	Operation            string   `json:"operation"`
	DueDate              *Time    `json:"dueDate"`
	BillClosingDate      *Time    `json:"billClosingDate"`
	TotalAmount          *float64 `json:"totalAmount"`
	MinimumPaymentAmount *float64 `json:"minimumPaymentAmount"`
	// RequestedAt is when the control action was taken.
	RequestedAt Time `json:"requestedAt"`
	// AppliedAt is when the first execution that collected the change since ended (the
	// item's lastUpdatedAt then); nil while it waits.
	AppliedAt *Time `json:"appliedAt"`
	// Revision is the stored row's version, for the execution that collects it.
	Revision uuid.UUID `json:"-"`
}
