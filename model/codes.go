package model

import (
	"fmt"
	"net/http"
)

// Code is a codeDescription together with the HTTP status it is always answered with. Its
// fields are unexported, so the only codes are the ones this file declares: a call site
// names a code; it can neither spell a new one nor give one another status. docs/errors.md
// lists the same table (TestREADMEListsEveryCode keeps them equal).
type Code struct {
	name   string
	status int
	when   string
}

// String is the codeDescription as clients see it.
func (c Code) String() string { return c.name }

// Status is the HTTP status the code is answered with; the zero Code, which no error
// should carry, counts as a failure of the service.
func (c Code) Status() int {
	if c.status == 0 {
		return http.StatusInternalServerError
	}
	return c.status
}

// When says in one line when the service answers with the code.
func (c Code) When() string { return c.when }

var codes []Code

// code declares one row of the table, in the order docs/errors.md lists them.
func code(status int, name, when string) Code {
	for _, c := range codes {
		if c.name == name {
			panic(fmt.Sprintf("model: code %s declared twice", name))
		}
	}
	c := Code{name: name, status: status, when: when}
	codes = append(codes, c)
	return c
}

// Codes lists every code the service answers with, in declaration order.
func Codes() []Code { return append([]Code(nil), codes...) }

// The table. Codes of the specification (section 7.3) are spelled and given the status it
// gives them; the rest follow its naming.
var (
	// Requests: any endpoint.
	CodeInternal             = code(500, "INTERNAL_ERROR", "The service failed; the message and data.requestId give the id under which the cause is logged.")
	CodeDatabaseUnavailable  = code(503, "DATABASE_UNAVAILABLE", "The database did not answer; retry after Retry-After seconds.")
	CodeNotReady             = code(503, "NOT_READY", "GET /readyz only: the database answers but migrations are pending.")
	CodeInvalidRequest       = code(400, "INVALID_REQUEST", "A body that cannot be read or nests JSON deeper than 32 levels, or POST /auth without clientId and clientSecret; in GraphQL, a query that does not parse or validate (HTTP 422) or an argument that does not coerce.")
	CodeInvalidParameter     = code(400, "INVALID_PARAMETER", "A path, query or body parameter is missing, unknown or malformed; the message names it.")
	CodeMalformedJSON        = code(400, "MALFORMED_JSON", "The body is not valid JSON, or an object in it repeats a key, exactly or in another case (a value of the wrong type is INVALID_PARAMETER).")
	CodeNotFound             = code(404, "NOT_FOUND", "No endpoint (or GraphiQL asset) at this path.")
	CodeMethodNotAllowed     = code(405, "METHOD_NOT_ALLOWED", "The path does not serve this method (GraphQL: GET runs queries only).")
	CodeNotAcceptable        = code(406, "NOT_ACCEPTABLE", "The Accept header rules out application/json.")
	CodeBodyTooLarge         = code(413, "BODY_TOO_LARGE", "The body exceeds 1 MiB, or a GraphQL GET query string 64 KiB.")
	CodeUnsupportedMediaType = code(415, "UNSUPPORTED_MEDIA_TYPE", "The body's Content-Type is not one the endpoint reads.")
	CodeIdempotencyKeyInUse  = code(409, "IDEMPOTENCY_KEY_IN_USE", "The first request with this Idempotency-Key is still running; retry after Retry-After.")
	CodeIdempotencyKeyReused = code(422, "IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was sent before with another request.")
	CodeEndpointSunset       = code(410, "ENDPOINT_SUNSET", "GET /transactions after its sunset date; use GET /v2/transactions.")

	// Credentials.
	CodeAPIKeyMissing    = code(401, "API_KEY_MISSING", "No X-API-KEY header.")
	CodeAPIKeyInvalid    = code(401, "API_KEY_INVALID", "X-API-KEY is not a credential this service issued, or its application no longer exists.")
	CodeAPIKeyExpired    = code(401, "API_KEY_EXPIRED", "X-API-KEY expired, or was revoked by a new secret or a disable of its application; request a new one.")
	CodeClientKeysBad    = code(401, "CLIENT_KEYS_UNAUTHORIZED", "POST /auth: clientId or clientSecret is wrong.")
	CodeClientDisabled   = code(401, "CLIENT_DISABLED", "The client application is disabled (POST /auth, and every key it holds).")
	CodeForbidden        = code(403, "FORBIDDEN", "A Connect Token used outside its scope: another item, an action for API keys only, or a second item; or an API key on GET /connect_token, which describes a Connect Token.")
	CodeMetricsForbidden = code(403, "METRICS_FORBIDDEN", "/metrics from another machine without the bearer token PONTE_METRICS_TOKEN.")

	// Connectors and items.
	CodeConnectorNotFound          = code(404, "CONNECTOR_NOT_FOUND", "No connector with this id.")
	CodeItemNotFound               = code(404, "ITEM_NOT_FOUND", "No item with this id for this client application.")
	CodeConnectorValidation        = code(400, "CONNECTOR_VALIDATION_ERROR", "The parameters break the connector's rules; details lists each parameter.")
	CodeConnectorRequiredParameter = code(400, "CONNECTOR_REQUIRED_PARAMETER_VALIDATION_ERROR", "Updates: the named parameter must be sent again.")
	CodeConnectorOffline           = code(409, "CONNECTOR_OFFLINE", "The connector is offline at the moment.")
	CodeConnectTokenOptionConflict = code(400, "CONNECT_TOKEN_OPTION_CONFLICT", "The body contradicts an option of the Connect Token; data.field names it.")
	CodeParametersNotProvided      = code(400, "PARAMETERS_NOT_PROVIDED", "No parameters sent to create an item.")
	CodeItemUserAlreadyExists      = code(400, "ITEM_USER_ALREADY_EXISTS", "An item with the same credentials exists and duplicates are avoided; data.items lists them.")
	CodeItemAlreadyUpdating        = code(400, "ITEM_ALREADY_UPDATING", "The item is updating; wait for the execution to finish.")
	CodeItemIsAlreadyUpdating      = code(400, "ITEM_IS_ALREADY_UPDATING", "Another item with the same credentials is still executing.")
	CodeItemInErrorCooldown        = code(409, "ITEM_IN_ERROR_COOLDOWN", "These credentials failed at the institution recently and are in cooldown.")
	CodeItemCreationLimit          = code(409, "ITEM_CREATION_LIMIT_EXCEEDED", "The client application reached its item limit.")
	CodeAPICreationDisabled        = code(400, "CREATE_ITEMS_API_FREE_DISABLED", "This client application creates items only through the Connect widget.")
	CodeUpdateTooFrequent          = code(409, "CLIENT_IS_UPDATING_BEFORE_ALLOWED_FREQUENCY", "Client updates of this item are allowed at most every N hours.")
	CodeItemUpdatesDisabled        = code(409, "CLIENT_HAS_ITEM_UPDATES_DISABLED", "Item updates are disabled for this client application.")
	CodeSandboxUpdatesOnly         = code(400, "SANDBOX_CLIENT_ITEM_UPDATE_NOT_ALLOWED", "This client application may update sandbox items only.")
	CodeLastLoginError             = code(400, "LAST_EXECUTION_HAD_LOGIN_ERROR", "The last execution failed at login; send new parameters.")
	CodeTooManyLoginFailures       = code(400, "TOO_MANY_CONSECUTIVE_LOGIN_FAILURES", "Cooldown after repeated login errors; the message gives the wait.")
	CodeTooManyErrors              = code(400, "TOO_MANY_CONSECUTIVE_ERRORS", "More than 5 synchronizations in a row failed; send new parameters.")
	CodeDifferentAccount           = code(409, "ITEM_ORIGINAL_CONNECTED_WITH_DIFFERENT_ACCOUNT", "The new credentials log in to another account than the item's.")
	CodeMFANotFound                = code(404, "ITEM_MFA_NOT_FOUND", "Nothing waits for MFA or an authorization on this item.")
	CodeMFAAlreadyProvided         = code(400, "ITEM_MFA_ALREADY_PROVIDED", "The MFA was already submitted.")
	CodeMFAExpired                 = code(400, "ITEM_MFA_EXPIRED", "The MFA window closed; start a new update.")
	CodeMFAMismatch                = code(400, "ITEM_MFA_PARAMETER_EXPECTED_MISMATCH", "The item expects another MFA parameter (named in the message).")
	// Spelled as the interface spells it (PARAMERTER); clients match it as written.
	CodeMFAAlreadyUsed     = code(400, "MFA_PARAMERTER_WAS_ALREADY_USED_ERROR", "The value equals the one used in the last execution.")
	CodeItemsV2Disabled    = code(403, "ITEMS_V2_DISABLED", "GET /v2/items is not enabled for this client application.")
	CodeItemNotOpenFinance = code(400, "ITEM_NOT_OPEN_FINANCE", "GET /items/{id}/resources of an item whose connector is not Open Finance.")
	// Statement files.
	CodeItemTakesNoFiles         = code(400, "ITEM_TAKES_NO_STATEMENT_FILES", "POST /items/{id}/statements of an item whose connector does not read statement files (statementFormat is absent).")
	CodeStatementFileInvalid     = code(400, "STATEMENT_FILE_INVALID", "The statement file cannot be read; the message says why and data.line is the line it stopped at (0: the file as a whole). Nothing was stored.")
	CodeStatementFileTooLarge    = code(413, "STATEMENT_FILE_TOO_LARGE", "The statement file exceeds 64 MiB.")
	CodeConnectorSettingsInvalid = code(400, "CONNECTOR_SETTINGS_INVALID", "The settings (a CSV mapping) break the connector's rules, or a CSV connector without a ready mapping has none set; the message says what is wrong.")
	CodeConnectorTakesNoSettings = code(400, "CONNECTOR_TAKES_NO_SETTINGS", "PUT /connectors/{id}/settings on a connector that has nothing to configure.")
	CodeSandboxOnly              = code(403, "SANDBOX_RESOURCE_REQUIRED", "A sandbox control action on a resource that is not a sandbox one.")
	CodeSandboxMoveNotAllowed    = code(400, "SANDBOX_MOVE_NOT_ALLOWED", "A sandbox control move the payment's state table does not allow next; the message names the states it allows.")
	CodeInvalidCursor            = code(400, "INVALID_CURSOR", "The after cursor is not one this service issued for this list and query.")
	CodeCategoryNotFound         = code(404, "CATEGORY_NOT_FOUND", "No category with this id.")
	CodeCategoryRuleNotFound     = code(404, "CATEGORY_RULE_NOT_FOUND", "No category rule with this id for this client application.")
	CodeCategoryRuleExists       = code(409, "CATEGORY_RULE_ALREADY_EXISTS", "The application has a rule with the same description (without case and accents), matchType, transactionType and accountType.")
	CodeCategoryRuleLimit        = code(400, "CATEGORY_RULE_LIMIT_EXCEEDED", "The application already has 1,000 category rules; delete one first.")
	CodeAccountNotFound          = code(404, "ACCOUNT_NOT_FOUND", "No account with this id for this client application.")
	CodeTransactionNotFound      = code(404, "TRANSACTION_NOT_FOUND", "No transaction with this id for this client application.")

	// Products of an item.
	CodeInvestmentNotFound            = code(404, "INVESTMENT_NOT_FOUND", "No investment with this id for this client application.")
	CodeInvestmentTransactionNotFound = code(404, "INVESTMENT_TRANSACTION_NOT_FOUND", "No investment transaction with this id.")
	CodeIdentityNotFound              = code(404, "IDENTITY_NOT_FOUND", "No identity with this id, or the item has none collected.")
	CodeLoanNotFound                  = code(404, "LOAN_NOT_FOUND", "No loan with this id.")
	CodeBillNotFound                  = code(404, "BILL_NOT_FOUND", "No credit card bill with this id.")
	CodeStatementNotFound             = code(404, "STATEMENT_NOT_FOUND", "No account statement with this id.")
	CodeConsentNotFound               = code(404, "CONSENT_NOT_FOUND", "No consent with this id.")
	CodeCreditInfoNotFound            = code(404, "CREDIT_INFORMATION_NOT_FOUND", "No credit information (SCR report) with this id, or the item has none collected.")

	// Payments.
	CodePaymentRequestNotFound           = code(404, "PAYMENT_REQUEST_NOT_FOUND", "No payment request with this id, or it was deleted.")
	CodePaymentIntentNotFound            = code(404, "PAYMENT_INTENT_NOT_FOUND", "No payment intent (or dynamic PIX charge) with this id.")
	CodePaymentCustomerNotFound          = code(404, "PAYMENT_CUSTOMER_NOT_FOUND", "No payment customer with this id.")
	CodePaymentRecipientNotFound         = code(404, "PAYMENT_RECIPIENT_NOT_FOUND", "No payment recipient with this id.")
	CodePaymentInstitutionNotFound       = code(404, "PAYMENT_INSTITUTION_NOT_FOUND", "No payment institution with this id.")
	CodeScheduledPaymentNotFound         = code(404, "SCHEDULED_PAYMENT_NOT_FOUND", "No scheduled payment with this id on this payment request.")
	CodeAutomaticPixPaymentNotFound      = code(404, "AUTOMATIC_PIX_PAYMENT_NOT_FOUND", "No automatic PIX payment with this id on this payment request.")
	CodePaymentRequestNotAvailable       = code(409, "PAYMENT_REQUEST_NOT_AVAILABLE", "A payment intent starts only on a CREATED request with no intent under way.")
	CodePaymentRequestNotEditable        = code(409, "PAYMENT_REQUEST_NOT_EDITABLE", "The payment request's status does not allow this change, deletion or charge.")
	CodeSmartAccountNotFound             = code(404, "SMART_ACCOUNT_NOT_FOUND", "No smart account with this id for this client application.")
	CodePaymentRequestNotRefundable      = code(409, "PAYMENT_REQUEST_NOT_REFUNDABLE", "Only a COMPLETED payment request (or one whose refund failed) can be refunded, up to what remains.")
	CodeInvalidIntentTransition          = code(409, "INVALID_PAYMENT_INTENT_TRANSITION", "The payment intent's status does not allow this step (for example a second payer decision).")
	CodeInvalidRequestTransition         = code(409, "INVALID_PAYMENT_REQUEST_TRANSITION", "The payment request's status does not allow this step.")
	CodeScheduledPaymentNotCancelable    = code(409, "SCHEDULED_PAYMENT_NOT_CANCELABLE", "Only a SCHEDULED payment can be canceled.")
	CodeAutomaticPixRetryNotAccepted     = code(409, "AUTOMATIC_PIX_RETRY_NOT_ACCEPTED", "The authorization accepts no retries, or the payment is its first.")
	CodeAutomaticPixPaymentNotRetriable  = code(409, "AUTOMATIC_PIX_PAYMENT_NOT_RETRIABLE", "Only an automatic PIX payment in ERROR is retried.")
	CodeAutomaticPixPaymentNotCancelable = code(409, "AUTOMATIC_PIX_PAYMENT_NOT_CANCELABLE", "Only a SCHEDULED automatic PIX payment can be canceled.")
	CodeAutomaticPixPeriodCharged        = code(409, "AUTOMATIC_PIX_PERIOD_ALREADY_CHARGED", "The authorization's period (the calendar week, month, quarter, semester or year of its interval) has a charge that is not canceled; data.automaticPixPaymentId names it.")
	CodeAutomaticPixAmountOutOfTerms     = code(400, "AUTOMATIC_PIX_AMOUNT_OUT_OF_TERMS", "A charge's amount is not the authorization's fixedAmount, or lies outside minimumVariableAmount to maximumVariableAmount.")
	CodeAutomaticPixDateOutOfTerms       = code(400, "AUTOMATIC_PIX_DATE_OUT_OF_TERMS", "A charge's date is before the authorization's startDate or after its expiresAt, or a retry's date is outside the 7 days after the charge's original date.")
	CodeConnectorNoPayments              = code(400, "CONNECTOR_DOES_NOT_SUPPORT_PAYMENTS", "The connector does not initiate payments.")
	CodePaymentFeatureNotSupported       = code(400, "PAYMENT_FEATURE_NOT_SUPPORTED", "A recipient made from a smart account, or a payment that no PIX code can express.")
	// Smart transfers and bulk payments.
	CodeSmartTransferPreauthorizationNotFound = code(404, "SMART_TRANSFER_PREAUTHORIZATION_NOT_FOUND", "No smart transfer pre-authorization with this id for this client application.")
	CodeSmartTransferPaymentNotFound          = code(404, "SMART_TRANSFER_PAYMENT_NOT_FOUND", "No smart transfer payment with this id for this client application.")
	CodeConnectorNoSmartTransfers             = code(400, "CONNECTOR_DOES_NOT_SUPPORT_SMART_TRANSFERS", "The connector does not offer smart transfers (supportsSmartTransfers is false).")
	CodeSmartTransferRecipientNotAllowed      = code(400, "SMART_TRANSFER_RECIPIENT_NOT_ALLOWED", "The recipient is not the payer's own account, nor the application's, nor one the pre-authorization names.")
	CodeSmartTransferLimitExceeded            = code(400, "SMART_TRANSFER_LIMIT_EXCEEDED", "The payment would exceed a limit of its pre-authorization; the message names the limit and what is left of it.")
	CodeSmartTransferPreauthorizationInactive = code(409, "SMART_TRANSFER_PREAUTHORIZATION_NOT_ACTIVE", "Payments need a COMPLETED pre-authorization; this one waits for its payer, was rejected, failed or was revoked.")
	CodeSmartTransferPreauthorizationDecided  = code(409, "SMART_TRANSFER_PREAUTHORIZATION_DECIDED", "The payer has decided on this pre-authorization already, or it was revoked.")
	CodeSmartTransferNotRevocable             = code(409, "SMART_TRANSFER_PREAUTHORIZATION_NOT_REVOCABLE", "Only a CREATED or COMPLETED pre-authorization can be revoked.")
	CodeBulkPaymentNotFound                   = code(404, "BULK_PAYMENT_NOT_FOUND", "No bulk payment with this id for this client application.")
	CodeBulkPaymentNotDeletable               = code(409, "BULK_PAYMENT_NOT_DELETABLE", "A bulk payment can be deleted only before its authorization (status CREATED).")
	CodeBulkPaymentNotAuthorizable            = code(409, "BULK_PAYMENT_NOT_AUTHORIZABLE", "Only a CREATED bulk payment can be authorized or rejected.")
	CodeInsufficientSmartAccountBalance       = code(409, "INSUFFICIENT_SMART_ACCOUNT_BALANCE", "The smart account's balance does not cover the bulk payment's total, or a refund of what was paid into it (the account spent it).")
	CodeInvalidCPF                            = code(400, "INVALID_CPF", "A CPF (or a taxNumber) whose check digits do not match.")
	CodeInvalidCNPJ                           = code(400, "INVALID_CNPJ", "A CNPJ whose check digits do not match.")
	CodeInvalidPixKey                         = code(400, "INVALID_PIX_KEY", "pixKey is not a CPF, CNPJ, e-mail, +55 phone or random key.")
	CodeInvalidPixQrCode                      = code(400, "INVALID_PIX_QR_CODE", "pixQrCode is not a valid BR Code (its amount included), or has no amount.")
	CodeInvalidSchedule                       = code(400, "INVALID_SCHEDULE", "The schedule of a payment request is malformed or out of range.")

	// Boletos.
	CodeBoletoConnectionNotFound = code(404, "BOLETO_CONNECTION_NOT_FOUND", "No boleto connection with this id for this client application.")
	CodeBoletoNotFound           = code(404, "BOLETO_NOT_FOUND", "No boleto with this id for this client application.")
	CodeConnectorNoBoletos       = code(400, "CONNECTOR_DOES_NOT_SUPPORT_BOLETOS", "The item's connector does not manage boletos (supportsBoletoManagement is false).")
	CodeItemNotUpdated           = code(400, "ITEM_NOT_UPDATED", "The item has not finished a successful sync (status UPDATED), so it cannot issue boletos yet.")
	CodeBoletoDueDateInPast      = code(400, "BOLETO_DUE_DATE_IN_THE_PAST", "dueDate is before today in São Paulo.")
	CodeInvalidBoletoPayer       = code(400, "INVALID_BOLETO_PAYER", "A payer field is missing or malformed (taxNumber, name, addressState, addressZipCode...); the message names it.")
	CodeInvalidBoletoCharges     = code(400, "INVALID_BOLETO_FINE_OR_INTEREST", "fine or interest has an unknown type or a value out of range.")
	CodeBoletoSeuNumeroExists    = code(409, "BOLETO_SEU_NUMERO_ALREADY_EXISTS", "seuNumero is already used by a boleto of this connection.")
	CodeBoletoNotCancelable      = code(409, "BOLETO_NOT_CANCELABLE", "Only an OPEN or OVERDUE boleto can be cancelled.")
	CodeBoletoNotPayable         = code(409, "BOLETO_NOT_PAYABLE", "Only an OPEN or OVERDUE boleto can be paid; this one is paid, cancelled, protested or overdue past the protest delay.")
	CodeBoletoBeingPaid          = code(409, "BOLETO_ALREADY_BEING_PAID", "Another payment request that is not over (ERROR, EXPIRED, CANCELED or deleted) pays this boleto; data.paymentRequestId names it when it is the application's own.")
	CodeInvalidDigitableLine     = code(400, "INVALID_DIGITABLE_LINE", "A boleto's digitable line or barcode whose digits or check digits are wrong.")

	// Webhooks and events.
	CodeWebhookNotFound     = code(404, "WEBHOOK_NOT_FOUND", "No webhook with this id for this client application.")
	CodeWebhookExists       = code(400, "WEBHOOK_ALREADY_EXISTS", "A webhook for the same event and url exists.")
	CodeInvalidWebhookEvent = code(400, "INVALID_WEBHOOK_EVENT", "event is not one of the event names (docs/webhooks.md) or all (item/all is refused).")
	CodeWebhookLimitReached = code(409, "WEBHOOK_LIMIT_REACHED", "The client application has as many webhooks as it may.")
	CodeEventNotFound       = code(404, "EVENT_NOT_FOUND", "No event with this id for this client application.")

	// Sandbox control: fault injection.
	CodeSandboxFaultInvalid = code(400, "SANDBOX_FAULT_INVALID", "PUT /sandbox/faults with a rule that breaks the rules of docs/sandbox-control.md (a route the service does not serve, an unknown kind or status, a probability outside 0 to 1, a latency outside 1 to 60,000 ms, two rules of one kind for one route, more than 50 rules); the message names the rule and what is wrong.")

	// Sandbox control: custom sandbox users.
	CodeSandboxUserInvalid  = code(400, "SANDBOX_USER_INVALID", "A custom sandbox user description that breaks the rules of docs/sandbox.md (an unknown field, a seeded or malformed username, an amount with more than two decimals, a limit passed); the message names the field.")
	CodeSandboxUserExists   = code(409, "SANDBOX_USER_ALREADY_EXISTS", "The client application already has a custom sandbox user with this username.")
	CodeSandboxUserNotFound = code(404, "SANDBOX_USER_NOT_FOUND", "No custom sandbox user with this username for this client application.")
	CodeSandboxUserLimit    = code(409, "SANDBOX_USER_LIMIT_REACHED", "The client application has as many custom sandbox users as it may (100).")
	// Test clocks (docs/test-clocks.md).
	CodeTestClockNotFound  = code(404, "TEST_CLOCK_NOT_FOUND", "No test clock with this id for this client application.")
	CodeTestClockInvalid   = code(400, "TEST_CLOCK_INVALID", "A test clock's name or time breaks the rules of docs/test-clocks.md (a name of 1 to 100 characters, at most 10 clocks per application, testClockId on a non-sandbox payment); the message says which.")
	CodeTestClockBackwards = code(400, "TEST_CLOCK_BACKWARDS", "An advance to a time before the clock's frozenTime: a test clock only moves forward.")
	CodeTestClockTooFar    = code(400, "TEST_CLOCK_ADVANCE_TOO_LONG", "An advance of more than two years at once: advance in steps of at most two years.")
	CodeTestClockAdvancing = code(409, "TEST_CLOCK_ADVANCING", "An advance (or a deletion) of a test clock whose previous advance is still running (status advancing).")

	// GraphQL.
	CodeQueryTooComplex = code(400, "QUERY_TOO_COMPLEX", "The query exceeds a token, selection, overlap or complexity limit.")
	CodeQueryTooDeep    = code(400, "QUERY_TOO_DEEP", "The query nests deeper than allowed.")
)
