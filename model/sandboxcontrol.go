package model

import "github.com/google/uuid"

// Sandbox control of items and data (POST /sandbox/items/{id}/..., DELETE /sandbox/client):
// a developer provokes the states a real institution produces only now and then.

// SandboxItemStatusInput is the body of POST /sandbox/items/{id}/status: the state a
// sandbox item is put in at once, as if an execution had just ended so.
type SandboxItemStatusInput struct {
	// Status is UPDATED, LOGIN_ERROR or OUTDATED: the states an execution ends in.
	Status ItemStatus `json:"status"`
	// ExecutionStatus is the outcome: SUCCESS or PARTIAL_SUCCESS for UPDATED, a login
	// error for LOGIN_ERROR, another error for OUTDATED; it is the error's code.
	ExecutionStatus *ExecutionStatus `json:"executionStatus"`
	// Message is the error's message (a default one when absent).
	Message *string `json:"message"`
	// StatusDetail is the item's statusDetail; absent, PARTIAL_SUCCESS marks one product as
	// not collected and the other outcomes leave it null.
	StatusDetail *StatusDetail `json:"statusDetail"`
}

// SandboxNextExecutionInput is the body of POST /sandbox/items/{id}/next-execution.
type SandboxNextExecutionInput struct {
	// ExecutionStatus is the outcome the next execution ends in: an error, PARTIAL_SUCCESS,
	// or SUCCESS (the scenario's own outcome: clears an earlier choice).
	ExecutionStatus ExecutionStatus `json:"executionStatus"`
	// Message is the error's message (a default one when absent).
	Message *string `json:"message"`
	// UnavailableProducts are the products PARTIAL_SUCCESS leaves out (absent: one).
	UnavailableProducts []Product `json:"unavailableProducts"`
}

// SandboxNextExecution is the outcome a sandbox item's next execution will end in.
type SandboxNextExecution struct {
	ItemID              uuid.UUID       `json:"itemId"`
	ExecutionStatus     ExecutionStatus `json:"executionStatus"`
	Message             *string         `json:"message"`
	UnavailableProducts []Product       `json:"unavailableProducts"`
}

// SandboxCleanSlate counts what DELETE /sandbox/client removed.
type SandboxCleanSlate struct {
	ClientID                       uuid.UUID `json:"clientId"`
	Items                          int       `json:"items"`
	PaymentRequests                int       `json:"paymentRequests"`
	PaymentIntents                 int       `json:"paymentIntents"`
	PaymentCustomers               int       `json:"paymentCustomers"`
	PaymentRecipients              int       `json:"paymentRecipients"`
	SmartAccounts                  int       `json:"smartAccounts"`
	BulkPayments                   int       `json:"bulkPayments"`
	SmartTransferPreauthorizations int       `json:"smartTransferPreauthorizations"`
	BoletoConnections              int       `json:"boletoConnections"`
	Boletos                        int       `json:"boletos"`
	Webhooks                       int       `json:"webhooks"`
	Events                         int       `json:"events"`
	Deliveries                     int       `json:"deliveries"`
	// FaultRules counts the fault injection rules removed (PUT /sandbox/faults).
	FaultRules int `json:"faultRules"`
	// TestClocks counts the test clocks removed, with the work still due on them.
	TestClocks int `json:"testClocks"`
	// SandboxUsers counts the custom sandbox users removed.
	SandboxUsers int `json:"sandboxUsers"`
}
