package model

import "github.com/google/uuid"

// Consent is an Open Finance item's consent (the official client's Consent).
type Consent struct {
	Stored
	ID                            uuid.UUID `json:"id"`
	ItemID                        uuid.UUID `json:"itemId"`
	Products                      []string  `json:"products"`
	OpenFinancePermissionsGranted []string  `json:"openFinancePermissionsGranted"`
	CreatedAt                     Time      `json:"createdAt"`
	UpdatedAt                     Time      `json:"updatedAt"`
	ExpiresAt                     *Time     `json:"expiresAt"`
	RevokedAt                     *Time     `json:"revokedAt"`
}
