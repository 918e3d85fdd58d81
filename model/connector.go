package model

// ConnectorType is the kind of institution a connector reaches.
type ConnectorType string

const (
	ConnectorTypePersonalBank      ConnectorType = "PERSONAL_BANK"
	ConnectorTypeBusinessBank      ConnectorType = "BUSINESS_BANK"
	ConnectorTypeInvestment        ConnectorType = "INVESTMENT"
	ConnectorTypeInvoice           ConnectorType = "INVOICE"
	ConnectorTypeTelecommunication ConnectorType = "TELECOMMUNICATION"
	ConnectorTypeOther             ConnectorType = "OTHER"
)

// ConnectorTypes lists the values section 2.2 allows, in its order.
var ConnectorTypes = []ConnectorType{
	ConnectorTypePersonalBank, ConnectorTypeBusinessBank, ConnectorTypeInvestment,
	ConnectorTypeInvoice, ConnectorTypeTelecommunication, ConnectorTypeOther,
}

// Product is one kind of data an item collects.
type Product string

const (
	ProductAccounts                Product = "ACCOUNTS"
	ProductCreditCards             Product = "CREDIT_CARDS"
	ProductTransactions            Product = "TRANSACTIONS"
	ProductPaymentData             Product = "PAYMENT_DATA"
	ProductInvestments             Product = "INVESTMENTS"
	ProductInvestmentsTransactions Product = "INVESTMENTS_TRANSACTIONS"
	ProductIdentity                Product = "IDENTITY"
	ProductBrokerageNote           Product = "BROKERAGE_NOTE"
	ProductMoveSecurity            Product = "MOVE_SECURITY"
	ProductLoans                   Product = "LOANS"
	// ProductCreditInfo is the SCR report of the Central Bank. It is an addition: the
	// official client types products as a string union but never checks them on read.
	ProductCreditInfo Product = "CREDIT_INFORMATION"
)

// Products lists every product value of section 2.3.
var Products = []Product{
	ProductAccounts, ProductCreditCards, ProductTransactions, ProductPaymentData, ProductInvestments,
	ProductInvestmentsTransactions, ProductIdentity, ProductBrokerageNote, ProductMoveSecurity, ProductLoans,
	ProductCreditInfo,
}

// HealthStatus is a connector's availability.
type HealthStatus string

const (
	HealthOnline   HealthStatus = "ONLINE"
	HealthUnstable HealthStatus = "UNSTABLE"
	HealthOffline  HealthStatus = "OFFLINE"
)

// Connector describes one institution (section 2.2).
type Connector struct {
	ID                        int                   `json:"id" bun:"id,pk"`
	Name                      string                `json:"name"`
	InstitutionURL            string                `json:"institutionUrl" bun:"institution_url"`
	ImageURL                  string                `json:"imageUrl" bun:"image_url"`
	PrimaryColor              string                `json:"primaryColor"`
	Type                      ConnectorType         `json:"type"`
	Country                   string                `json:"country"`
	Credentials               []CredentialParameter `json:"credentials" bun:"credentials,type:jsonb"`
	HasMFA                    bool                  `json:"hasMFA" bun:"has_mfa"`
	Products                  []Product             `json:"products" bun:"products,array"`
	ProductCoverage           []string              `json:"productCoverage,omitempty" bun:"product_coverage,array"`
	OAuth                     bool                  `json:"oauth" bun:"oauth"`
	OAuthURL                  *string               `json:"oauthUrl,omitempty" bun:"oauth_url"`
	ResetPasswordURL          *string               `json:"resetPasswordUrl,omitempty" bun:"reset_password_url"`
	Health                    Health                `json:"health" bun:"health,type:jsonb"`
	IsOpenFinance             bool                  `json:"isOpenFinance"`
	IsSandbox                 bool                  `json:"isSandbox"`
	SupportsPaymentInitiation bool                  `json:"supportsPaymentInitiation"`
	SupportsScheduledPayments bool                  `json:"supportsScheduledPayments"`
	SupportsSmartTransfers    bool                  `json:"supportsSmartTransfers"`
	SupportsBoletoManagement  bool                  `json:"supportsBoletoManagement"`
	SupportsAutomaticPix      bool                  `json:"supportsAutomaticPix"`
	// StatementFormat is OFX or CSV on connectors whose data arrives as statement files
	// the user uploads (POST /items/{id}/statements), and absent on the others.
	StatementFormat *string `json:"statementFormat,omitempty" bun:"statement_format"`
	// Provider names the institution provider behind the connector (cmd/ponte wires
	// them in); it is the service's own business, not the client's.
	Provider  string `json:"-" bun:"provider"`
	CreatedAt Time   `json:"createdAt"`
	UpdatedAt Time   `json:"updatedAt"`
}

// Health is a connector's current state. Details is only filled when asked for
// (healthDetails=true), because computing it reads recent connection attempts.
type Health struct {
	Status  HealthStatus   `json:"status"`
	Stage   *string        `json:"stage"`
	Details *HealthDetails `json:"details,omitempty"`
}

// HealthDetails uses the official client's field names (spec 2.2 does not show them).
type HealthDetails struct {
	// ConnectionRateLast6Hours is the percentage of successful connections; null when
	// there were none to measure.
	ConnectionRateLast6Hours *float64 `json:"connectionRateLast6Hours"`
	ConnectionsLast6Hours    int      `json:"connectionsLast6Hours"`
	// ErrorRateLast6Hours is the connection error percentage of section 2.2.
	ErrorRateLast6Hours *float64 `json:"errorRateLast6Hours"`
	Error               *string  `json:"error,omitempty"`
}

// CredentialType is the kind of input a credential parameter needs.
type CredentialType string

const (
	CredentialText     CredentialType = "text"
	CredentialPassword CredentialType = "password"
	CredentialNumber   CredentialType = "number"
	CredentialImage    CredentialType = "image"
	CredentialSelect   CredentialType = "select"
)

// CredentialParameter is one input of a connector's login form, or the parameter an item
// waits for (section 2.4).
type CredentialParameter struct {
	Name              string             `json:"name"`
	Label             string             `json:"label"`
	Type              CredentialType     `json:"type"`
	Optional          bool               `json:"optional"`
	AssistiveText     *string            `json:"assistiveText,omitempty"`
	Data              *string            `json:"data,omitempty"`
	Placeholder       *string            `json:"placeholder,omitempty"`
	Validation        *string            `json:"validation,omitempty"`
	ValidationMessage *string            `json:"validationMessage,omitempty"`
	MFA               bool               `json:"mfa"`
	Options           []CredentialOption `json:"options,omitempty"`
	Instructions      *string            `json:"instructions,omitempty"`
	ExpiresAt         *Time              `json:"expiresAt,omitempty"`
}

// CredentialOption is one choice of a select parameter.
type CredentialOption struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// ConnectorFilter holds the list filters of GET /connectors. Nil means "no filtering".
type ConnectorFilter struct {
	Countries                 []string        `json:"countries,omitempty"`
	Types                     []ConnectorType `json:"types,omitempty"`
	Name                      *string         `json:"name,omitempty"`
	Sandbox                   *bool           `json:"sandbox,omitempty"`
	IsOpenFinance             *bool           `json:"isOpenFinance,omitempty"`
	SupportsPaymentInitiation *bool           `json:"supportsPaymentInitiation,omitempty"`
	SupportsSmartTransfers    *bool           `json:"supportsSmartTransfers,omitempty"`
	SupportsAutomaticPix      *bool           `json:"supportsAutomaticPix,omitempty"`
}

// ConnectorPage is the page-number envelope of connectors.
type ConnectorPage struct {
	Total      int          `json:"total"`
	TotalPages int          `json:"totalPages"`
	Page       int          `json:"page"`
	Results    []*Connector `json:"results"`
}

// ValidationError is one failing parameter, in POST /connectors/{id}/validate and in the
// `details` of CONNECTOR_VALIDATION_ERROR.
type ValidationError struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	Parameter string `json:"parameter"`
}

// ValidationResult is the answer of POST /connectors/{id}/validate (official client's shape).
type ValidationResult struct {
	Parameters map[string]any    `json:"parameters"`
	Errors     []ValidationError `json:"errors"`
}
