package model

import "github.com/google/uuid"

// SandboxUser is a custom sandbox user a client application registered: its username
// and its description (docs/sandbox.md, "Custom sandbox users"), as given.
type SandboxUser struct {
	ID          uuid.UUID    `json:"id"`
	Username    string       `json:"username"`
	Description JSONDocument `json:"description"`
	CreatedAt   Time         `json:"createdAt"`
	UpdatedAt   Time         `json:"updatedAt"`
}
