// Placeholder until the sandbox data generator lands; replaced, not kept.
package model

import "github.com/google/uuid"

type Account struct {
	ID   uuid.UUID `json:"id"`
	Type string    `json:"type"`
	Name string    `json:"name"`
}
type CreditCardMetadata struct {
	BillID *string `json:"billId"`
}
type Transaction struct {
	ID                 uuid.UUID           `json:"id"`
	AccountID          uuid.UUID           `json:"accountId"`
	Date               Time                `json:"date"`
	Status             string              `json:"status"`
	Amount             float64             `json:"amount"`
	Description        string              `json:"description"`
	CreditCardMetadata *CreditCardMetadata `json:"creditCardMetadata"`
}
type Investment struct {
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name"`
}
type InvestmentTransaction struct {
	ID           uuid.UUID `json:"id"`
	InvestmentID uuid.UUID `json:"investmentId"`
	Date         Time      `json:"date"`
}
type Identity struct {
	ID uuid.UUID `json:"id"`
}
type Loan struct {
	ID uuid.UUID `json:"id"`
}
type CreditCardBill struct {
	ID        uuid.UUID `json:"id"`
	AccountID uuid.UUID `json:"accountId"`
	DueDate   Time      `json:"dueDate"`
}
type AccountStatement struct {
	ID        uuid.UUID `json:"id"`
	AccountID uuid.UUID `json:"accountId"`
	Date      Time      `json:"date"`
}
