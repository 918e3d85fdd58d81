package model

import "github.com/google/uuid"

// ClientApplication is an application holding a clientId/clientSecret pair. All data the
// service keeps belongs to exactly one application.
type ClientApplication struct {
	ID         uuid.UUID `json:"id" bun:"id,pk,type:uuid"`
	Name       string    `json:"name"`
	Enabled    bool      `json:"enabled"`
	SecretHash string    `json:"-" bun:"secret_hash"`
	// CredentialGeneration grows with every new secret and every disable; API keys issued
	// under an older one are refused (migration 0025).
	CredentialGeneration int64 `json:"-" bun:"credential_generation"`
	CreatedAt            Time  `json:"createdAt"`
	UpdatedAt            Time  `json:"updatedAt"`
}

// ConnectTokenOptions apply to every item created with a Connect Token (section 4.1).
type ConnectTokenOptions struct {
	ClientUserID     *string `json:"clientUserId,omitempty"`
	WebhookURL       *string `json:"webhookUrl,omitempty"`
	OAuthRedirectURI *string `json:"oauthRedirectUri,omitempty"`
	AvoidDuplicates  *bool   `json:"avoidDuplicates,omitempty"`
	// The Connect page's options: which institutions it lists (countries, connectorTypes,
	// includeSandbox, products), where it sends the user when done (redirectUri, with
	// ?itemId=) and the origin allowed to receive its window messages (targetOrigin).
	Countries      []string        `json:"countries,omitempty"`
	ConnectorTypes []ConnectorType `json:"connectorTypes,omitempty"`
	IncludeSandbox *bool           `json:"includeSandbox,omitempty"`
	Products       []Product       `json:"products,omitempty"`
	RedirectURI    *string         `json:"redirectUri,omitempty"`
	TargetOrigin   *string         `json:"targetOrigin,omitempty"`
}

// ConnectSession is what the Connect page learns from its token (GET /connect_token): the
// item it updates (or created), and the options the application set.
type ConnectSession struct {
	ItemID  *uuid.UUID          `json:"itemId"`
	Options ConnectTokenOptions `json:"options"`
}

// ConnectToken is the answer of POST /connect_token.
type ConnectToken struct {
	AccessToken string `json:"accessToken"`
}

// APIKey is the answer of POST /auth.
type APIKey struct {
	APIKey string `json:"apiKey"`
}
