package model

import "github.com/google/uuid"

// SmartAccount is an escrow-style account of the application that payment requests can
// pay into (the official client's SmartAccount).
type SmartAccount struct {
	ID             uuid.UUID `json:"id"`
	Agency         string    `json:"agency"`
	Number         string    `json:"number"`
	VerifyingDigit string    `json:"verifyingDigit"`
	Type           string    `json:"type"`
	IsSandbox      bool      `json:"isSandbox"`
	Name           string    `json:"name"`
	TaxNumber      string    `json:"taxNumber"`
	Email          string    `json:"email"`
	PhoneNumber    string    `json:"phoneNumber"`
	CreatedAt      Time      `json:"createdAt"`
}

// SmartAccountInput creates a smart account.
type SmartAccountInput struct {
	Name        *string `json:"name"`
	TaxNumber   *string `json:"taxNumber"`
	Email       *string `json:"email"`
	PhoneNumber *string `json:"phoneNumber"`
	IsSandbox   *bool   `json:"isSandbox"`
}

// SmartAccountPage is the page envelope of GET /payments/smart-accounts.
type SmartAccountPage struct {
	Total      int             `json:"total"`
	TotalPages int             `json:"totalPages"`
	Page       int             `json:"page"`
	Results    []*SmartAccount `json:"results"`
}

// SmartAccountBalance is a smart account's balance, the sum of its ledger entries. Nothing
// blocks or schedules money in a smart account here, so those two are 0.
type SmartAccountBalance struct {
	LastUpdatedAt    Time    `json:"lastUpdatedAt"`
	Balance          float64 `json:"balance"`
	BlockedBalance   float64 `json:"blockedBalance"`
	ScheduledBalance float64 `json:"scheduledBalance"`
}
