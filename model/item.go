package model

import "github.com/google/uuid"

// ItemStatus is an item's state, in the official client's values.
type ItemStatus string

const (
	ItemUpdated           ItemStatus = "UPDATED"
	ItemUpdating          ItemStatus = "UPDATING"
	ItemWaitingUserInput  ItemStatus = "WAITING_USER_INPUT"
	ItemWaitingUserAction ItemStatus = "WAITING_USER_ACTION"
	ItemMerging           ItemStatus = "MERGING"
	ItemLoginError        ItemStatus = "LOGIN_ERROR"
	ItemOutdated          ItemStatus = "OUTDATED"
)

// ExecutionStatus is the step or outcome of an item's current or last execution.
type ExecutionStatus string

const (
	ExecCreating                ExecutionStatus = "CREATING"
	ExecCreated                 ExecutionStatus = "CREATED"
	ExecLoginInProgress         ExecutionStatus = "LOGIN_IN_PROGRESS"
	ExecWaitingUserInput        ExecutionStatus = "WAITING_USER_INPUT"
	ExecWaitingUserAction       ExecutionStatus = "WAITING_USER_ACTION"
	ExecLoginMFAInProgress      ExecutionStatus = "LOGIN_MFA_IN_PROGRESS"
	ExecAccountsInProgress      ExecutionStatus = "ACCOUNTS_IN_PROGRESS"
	ExecCreditCardsInProgress   ExecutionStatus = "CREDITCARDS_IN_PROGRESS"
	ExecTransactionsInProgress  ExecutionStatus = "TRANSACTIONS_IN_PROGRESS"
	ExecPaymentDataInProgress   ExecutionStatus = "PAYMENT_DATA_IN_PROGRESS"
	ExecInvestmentsInProgress   ExecutionStatus = "INVESTMENTS_IN_PROGRESS"
	ExecInvestmentTxInProgress  ExecutionStatus = "INVESTMENTS_TRANSACTIONS_IN_PROGRESS"
	ExecIdentityInProgress      ExecutionStatus = "IDENTITY_IN_PROGRESS"
	ExecLoansInProgress         ExecutionStatus = "LOANS_IN_PROGRESS"
	ExecStatementsInProgress    ExecutionStatus = "ACCOUNT_STATEMENTS_IN_PROGRESS"
	ExecSuccess                 ExecutionStatus = "SUCCESS"
	ExecPartialSuccess          ExecutionStatus = "PARTIAL_SUCCESS"
	ExecError                   ExecutionStatus = "ERROR"
	ExecMergeError              ExecutionStatus = "MERGE_ERROR"
	ExecInvalidCredentials      ExecutionStatus = "INVALID_CREDENTIALS"
	ExecAlreadyLoggedIn         ExecutionStatus = "ALREADY_LOGGED_IN"
	ExecUnexpectedError         ExecutionStatus = "UNEXPECTED_ERROR"
	ExecInvalidCredentialsMFA   ExecutionStatus = "INVALID_CREDENTIALS_MFA"
	ExecSiteNotAvailable        ExecutionStatus = "SITE_NOT_AVAILABLE"
	ExecAccountLocked           ExecutionStatus = "ACCOUNT_LOCKED"
	ExecAccountCredentialsReset ExecutionStatus = "ACCOUNT_CREDENTIALS_RESET"
	ExecConnectionError         ExecutionStatus = "CONNECTION_ERROR"
	ExecAccountNeedsAction      ExecutionStatus = "ACCOUNT_NEEDS_ACTION"
	ExecUserAuthPending         ExecutionStatus = "USER_AUTHORIZATION_PENDING"
	ExecUserAuthNotGranted      ExecutionStatus = "USER_AUTHORIZATION_NOT_GRANTED"
	ExecUserNotSupported        ExecutionStatus = "USER_NOT_SUPPORTED"
	ExecUserInputTimeout        ExecutionStatus = "USER_INPUT_TIMEOUT"
)

// IsLoginError reports the execution errors that happen at login: the item becomes
// LOGIN_ERROR and counts a failed login attempt.
func (s ExecutionStatus) IsLoginError() bool {
	switch s {
	case ExecInvalidCredentials, ExecAlreadyLoggedIn, ExecInvalidCredentialsMFA, ExecAccountLocked,
		ExecAccountCredentialsReset, ExecAccountNeedsAction, ExecUserNotSupported,
		ExecUserAuthNotGranted, ExecUserInputTimeout, ExecUserAuthPending:
		return true
	}
	return false
}

// IsFinal reports an execution that has ended.
func (s ExecutionStatus) IsFinal() bool {
	switch s {
	case ExecSuccess, ExecPartialSuccess, ExecError, ExecMergeError, ExecUnexpectedError, ExecSiteNotAvailable,
		ExecConnectionError:
		return true
	}
	return s.IsLoginError()
}

// ExecutionError is an item's `error` (section 2.3).
type ExecutionError struct {
	Code            ExecutionStatus `json:"code"`
	Message         string          `json:"message"`
	ProviderMessage *string         `json:"providerMessage,omitempty"`
	Attributes      map[string]any  `json:"attributes,omitempty"`
}

// UserAction asks the user to act outside the form: authorise in the bank's app, scan a QR.
type UserAction struct {
	Instructions string         `json:"instructions"`
	Type         string         `json:"type"`
	Attributes   map[string]any `json:"attributes,omitempty"`
	ExpiresAt    *Time          `json:"expiresAt,omitempty"`
}

// ProductWarning is a non-fatal problem met while collecting one product.
type ProductWarning struct {
	Code            string  `json:"code"`
	Message         string  `json:"message"`
	ProviderMessage *string `json:"providerMessage,omitempty"`
}

// ProductState tells whether one product was collected in the last execution.
type ProductState struct {
	IsUpdated     bool             `json:"isUpdated"`
	LastUpdatedAt *Time            `json:"lastUpdatedAt"`
	Warnings      []ProductWarning `json:"warnings,omitempty"`
}

// StatusDetail is the per-product outcome. The spec names the investment transactions key
// investmentsTransactions and the official client investmentTransactions; both are sent.
type StatusDetail struct {
	Accounts                *ProductState `json:"accounts"`
	CreditCards             *ProductState `json:"creditCards"`
	Transactions            *ProductState `json:"transactions"`
	Investments             *ProductState `json:"investments"`
	InvestmentsTransactions *ProductState `json:"investmentsTransactions"`
	InvestmentTransactions  *ProductState `json:"investmentTransactions"`
	Identity                *ProductState `json:"identity"`
	PaymentData             *ProductState `json:"paymentData"`
	Loans                   *ProductState `json:"loans"`
	AccountStatements       *ProductState `json:"accountStatements"`
}

// Item is one connection to an institution (section 2.3).
type Item struct {
	ID                               uuid.UUID            `json:"id" bun:"id,pk,type:uuid"`
	ClientID                         uuid.UUID            `json:"-" bun:"client_id,type:uuid"`
	ConnectorID                      int                  `json:"-" bun:"connector_id"`
	Connector                        *Connector           `json:"connector" bun:"-"`
	Status                           ItemStatus           `json:"status"`
	ExecutionStatus                  ExecutionStatus      `json:"executionStatus"`
	Error                            *ExecutionError      `json:"error" bun:"error,type:jsonb"`
	Parameter                        *CredentialParameter `json:"parameter" bun:"parameter,type:jsonb"`
	UserAction                       *UserAction          `json:"userAction" bun:"user_action,type:jsonb"`
	WebhookURL                       *string              `json:"webhookUrl"`
	ClientUserID                     *string              `json:"clientUserId"`
	OAuthRedirectURI                 *string              `json:"oauthRedirectUri" bun:"oauth_redirect_uri"`
	CreatedAt                        Time                 `json:"createdAt"`
	UpdatedAt                        Time                 `json:"updatedAt"`
	LastUpdatedAt                    *Time                `json:"lastUpdatedAt"`
	StatusDetail                     *StatusDetail        `json:"statusDetail" bun:"status_detail,type:jsonb"`
	NextAutoSyncAt                   *Time                `json:"nextAutoSyncAt"`
	ConsecutiveFailedLoginAttempts   int                  `json:"consecutiveFailedLoginAttempts"`
	ConsentExpiresAt                 *Time                `json:"consentExpiresAt"`
	ResourcesCollectedAt             *Time                `json:"resourcesCollectedAt"`
	HasResourcesPendingAuthorization *bool                `json:"hasResourcesPendingAuthorization"`
	Products                         []Product            `json:"products" bun:"products,array"`
	// TestClockID names the sandbox test clock the item lives on; absent for real time.
	TestClockID *uuid.UUID `json:"testClockId,omitempty" bun:"test_clock_id,type:uuid"`
}

// ItemPage is the cursor envelope of GET /v2/items.
type ItemPage struct {
	Results []*Item `json:"results"`
	Next    *string `json:"next"`
}

// ItemFilter holds the filters of an item list (GET /v2/items, itemConnection).
type ItemFilter struct {
	ClientUserID *string
	ConnectorID  *int
}

// SandboxAuthorization is what a sandbox institution's authorization page shows
// (/sandbox/authorize/{id}): the execution waiting for the user's approval in the bank's app.
type SandboxAuthorization struct {
	ID            uuid.UUID  `json:"id"`
	ConnectorName string     `json:"connectorName"`
	Action        UserAction `json:"action"`
	RedirectURI   *string    `json:"redirectUri"`
}

// ItemResource is one resource an Open Finance consent covers, as the institution's
// resource list reports it.
type ItemResource struct {
	ID        uuid.UUID `json:"id"`
	ItemID    uuid.UUID `json:"itemId"`
	Type      string    `json:"type"`
	Status    string    `json:"status"`
	Name      string    `json:"name"`
	CreatedAt Time      `json:"createdAt"`
	UpdatedAt Time      `json:"updatedAt"`
}

// ItemResourcePage is the page envelope of GET /items/{id}/resources.
type ItemResourcePage struct {
	Total      int             `json:"total"`
	TotalPages int             `json:"totalPages"`
	Page       int             `json:"page"`
	Results    []*ItemResource `json:"results"`
}

// ResourceStatuses are the Open Finance resource states.
var ResourceStatuses = []string{"AVAILABLE", "UNAVAILABLE", "TEMPORARILY_UNAVAILABLE", "PENDING_AUTHORISATION"}
