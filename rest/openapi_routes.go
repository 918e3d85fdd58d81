package rest

import "ponte/model"

// An apiRoute describes one route of the table in server.go for the OpenAPI document: what
// it answers (a value of the Go type it encodes), what body it reads, which query
// parameters it takes. TestOpenAPIMatchesRouter keeps the two tables equal, and
// TestOpenAPIResponses holds real answers to these types' schemas.
type apiRoute struct {
	method, path, tag, summary string
	query                      []string
	body                       any  // a value of the request body's type; nil: no body
	resp                       any  // a value of the 200 answer's type; nil: no JSON answer
	html                       bool // a page for a person, not an API answer
	plain                      bool // plain text (the metrics)
	stream                     bool // Server-Sent Events (text/event-stream)
	public                     bool // answers without a credential
	file                       bool // the body is a file: raw, or the part "file" of a multipart form
}

// settingsBody is the answer of the connector settings routes.
type settingsBody struct {
	Settings map[string]any `json:"settings"`
}

// pageOf is the page-number envelope of a list of stored documents, for the document only:
// the service writes those documents as stored.
type pageOf[T any] struct {
	Total      int `json:"total"`
	TotalPages int `json:"totalPages"`
	Page       int `json:"page"`
	Results    []T `json:"results"`
}

// cursorPage is the envelope of GET /v2/transactions.
type cursorPage struct {
	Results []model.Transaction `json:"results"`
	Next    *string             `json:"next"`
}

type feedbackList struct {
	Results []*model.CategoryFeedback `json:"results"`
}

type status struct {
	Status string `json:"status"`
}

type authBody struct {
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
}

type connectTokenBody struct {
	ItemID  *string                    `json:"itemId,omitempty"`
	Options *model.ConnectTokenOptions `json:"options,omitempty"`
}

type refundBody struct {
	Amount *float64 `json:"amount,omitempty"`
}

type itemRef struct {
	ItemID string `json:"itemId"`
}

type categoryBody struct {
	CategoryID string `json:"categoryId"`
}

var pages = []string{"page", "pageSize"}

func plus(a []string, b ...string) []string { return append(append([]string{}, a...), b...) }

var apiRoutes = []apiRoute{
	{method: "GET", path: "/healthz", tag: "Service", summary: "The process answers", resp: status{}, public: true},
	{method: "GET", path: "/readyz", tag: "Service", summary: "The database answers: 200 ready, 503 otherwise", resp: status{}, public: true},

	{method: "POST", path: "/auth", tag: "Authentication", summary: "Exchange clientId and clientSecret for an API key (2 hours)", body: authBody{}, resp: model.APIKey{}, public: true},
	{method: "POST", path: "/connect_token", tag: "Authentication", summary: "A Connect Token for a front end (30 minutes)", body: connectTokenBody{}, resp: model.ConnectToken{}},
	{method: "GET", path: "/connect_token", tag: "Authentication", summary: "Connect Token only: its item and options (the Connect page reads them)", resp: model.ConnectSession{}},
	{method: "GET", path: "/connect", tag: "Pages", summary: "The Connect page: an end user links an institution (?connect_token=, #connect_token=, lang=en)", html: true, public: true},
	{method: "GET", path: "/connect/assets/{file}", tag: "Pages", summary: "The Connect page's script, style and institution logos", html: true, public: true},

	{method: "GET", path: "/connectors", tag: "Connectors", summary: "The institutions", query: []string{"countries", "types", "name", "sandbox", "isOpenFinance", "supportsPaymentInitiation", "supportsSmartTransfers", "supportsAutomaticPix", "healthDetails", "includeHealth"}, resp: model.ConnectorPage{}},
	{method: "GET", path: "/connectors/{id}", tag: "Connectors", summary: "One institution", query: []string{"healthDetails", "includeHealth"}, resp: model.Connector{}},
	{method: "POST", path: "/connectors/{id}/validate", tag: "Connectors", summary: "Check credentials against the connector's rules", body: map[string]any{}, resp: model.ValidationResult{}},
	{method: "GET", path: "/connectors/{id}/settings", tag: "Statement files", summary: "The application's CSV mapping of a statement connector", resp: settingsBody{}},
	{method: "PUT", path: "/connectors/{id}/settings", tag: "Statement files", summary: "Set the application's CSV mapping of a statement connector", body: map[string]any{}, resp: settingsBody{}},
	{method: "DELETE", path: "/connectors/{id}/settings", tag: "Statement files", summary: "Remove the application's CSV mapping (a ready mapping applies again)", resp: settingsBody{}},

	{method: "POST", path: "/items", tag: "Items", summary: "Connect an account: starts its first execution", body: model.CreateItemInput{}, resp: model.Item{}},
	{method: "GET", path: "/v2/items", tag: "Items", summary: "The application's items, by cursor", query: []string{"after", "clientUserId", "connectorId", "status"}, resp: model.ItemPage{}},
	{method: "GET", path: "/items/{id}", tag: "Items", summary: "One item and its execution's progress", resp: model.Item{}},
	{method: "PATCH", path: "/items/{id}", tag: "Items", summary: "Update an item: new credentials or a new execution", body: model.UpdateItemInput{}, resp: model.Item{}},
	{method: "DELETE", path: "/items/{id}", tag: "Items", summary: "Delete an item and what it collected", resp: model.Item{}},
	{method: "POST", path: "/items/{id}/mfa", tag: "Items", summary: "Answer the parameter the item waits for", body: map[string]any{}, resp: model.Item{}},
	{method: "POST", path: "/items/{id}/statements", tag: "Statement files", summary: "Upload a statement file (OFX or CSV, at most 64 MiB): an execution adds what it holds", query: []string{"name"}, file: true, resp: model.Item{}},
	{method: "GET", path: "/items/{id}/resources", tag: "Items", summary: "Open Finance resources of an item", query: pages, resp: model.ItemResourcePage{}},
	{method: "GET", path: "/sandbox/authorize/{id}", tag: "Pages", summary: "The sandbox institution's authorization page", html: true, public: true},
	{method: "POST", path: "/sandbox/authorize/{id}", tag: "Pages", summary: "The decision on that page", html: true, public: true},

	{method: "GET", path: "/accounts", tag: "Accounts", summary: "An item's accounts", query: plus(pages, "itemId", "type"), resp: model.AccountPage{}},
	{method: "GET", path: "/accounts/{id}", tag: "Accounts", summary: "One account", resp: model.Account{}},
	{method: "GET", path: "/accounts/{id}/statements", tag: "Accounts", summary: "An account's statements", query: pages, resp: pageOf[model.AccountStatement]{}},
	{method: "GET", path: "/v2/transactions", tag: "Transactions", summary: "An account's transactions, 500 a page; follow next", query: []string{"accountId", "from", "to", "createdAtFrom", "ids", "after"}, resp: cursorPage{}},
	{method: "GET", path: "/transactions", tag: "Transactions", summary: "Deprecated page-number list (see the Sunset header)", query: plus(pages, "accountId", "from", "to", "createdAtFrom", "ids", "billId"), resp: pageOf[model.Transaction]{}},
	{method: "GET", path: "/transactions/{id}", tag: "Transactions", summary: "One transaction", resp: model.Transaction{}},
	{method: "PATCH", path: "/transactions/{id}", tag: "Transactions", summary: "Set a transaction's category", body: categoryBody{}, resp: model.Transaction{}},
	{method: "GET", path: "/category_feedback", tag: "Categories", summary: "The application's category corrections", resp: feedbackList{}},
	{method: "GET", path: "/categories", tag: "Categories", summary: "The category tree", query: pages, resp: model.CategoryPage{}},
	{method: "GET", path: "/categories/{id}", tag: "Categories", summary: "One category", resp: model.Category{}},
	// Merchants by CNPJ.
	{method: "GET", path: "/merchants", tag: "Merchants", summary: "Merchants by CNPJ (1 to 100, formatted or bare, numeric or alphanumeric): found, not found and invalid", query: []string{"cnpjs"}, resp: model.MerchantLookup{}},
	{method: "GET", path: "/categories/rules", tag: "Categories", summary: "The application's category rules", query: pages, resp: model.CategoryRulePage{}},
	{method: "POST", path: "/categories/rules", tag: "Categories", summary: "Create a category rule; stored transactions are recategorized in the background", body: model.CategoryRuleInput{}, resp: model.CategoryRule{}},
	{method: "DELETE", path: "/categories/rules/{id}", tag: "Categories", summary: "Delete a category rule; stored transactions are recategorized in the background", resp: model.CategoryRule{}},

	// Sandbox control: fault injection.
	{method: "GET", path: "/sandbox/faults", tag: "Sandbox control", summary: "The application's fault injection rules", resp: faultsBody{}},
	{method: "PUT", path: "/sandbox/faults", tag: "Sandbox control", summary: "Replace the application's fault injection rules (5xx, 429, latency per route)", body: faultsBody{}, resp: faultsBody{}},
	{method: "DELETE", path: "/sandbox/faults", tag: "Sandbox control", summary: "Remove the application's fault injection rules", resp: faultsBody{}},
	// Sandbox control: test clocks (docs/test-clocks.md).
	{method: "POST", path: "/sandbox/test-clocks", tag: "Sandbox control", summary: "Create a test clock (payment requests on it follow its time)", body: model.TestClockInput{}, resp: model.TestClock{}},
	{method: "GET", path: "/sandbox/test-clocks", tag: "Sandbox control", summary: "The application's test clocks", query: pages, resp: model.TestClockPage{}},
	{method: "GET", path: "/sandbox/test-clocks/{id}", tag: "Sandbox control", summary: "One test clock", resp: model.TestClock{}},
	{method: "POST", path: "/sandbox/test-clocks/{id}/advance", tag: "Sandbox control", summary: "Advance a test clock: runs everything due up to the new time, in time order", body: model.TestClockAdvanceInput{}, resp: model.TestClock{}},
	{method: "DELETE", path: "/sandbox/test-clocks/{id}", tag: "Sandbox control", summary: "Delete a test clock", resp: model.TestClock{}},

	{method: "GET", path: "/investments", tag: "Products", summary: "An item's investments", query: plus(pages, "itemId", "type"), resp: pageOf[model.Investment]{}},
	{method: "GET", path: "/investments/{id}", tag: "Products", summary: "One investment", resp: model.Investment{}},
	{method: "GET", path: "/investments/{id}/transactions", tag: "Products", summary: "An investment's movements", query: pages, resp: pageOf[model.InvestmentTransaction]{}},
	{method: "GET", path: "/identity", tag: "Products", summary: "An item's identity", query: []string{"itemId"}, resp: model.Identity{}},
	{method: "GET", path: "/identity/{id}", tag: "Products", summary: "One identity", resp: model.Identity{}},
	{method: "GET", path: "/credit-information", tag: "Products", summary: "An item's SCR report (credit information)", query: []string{"itemId"}, resp: model.CreditInformation{}},
	{method: "GET", path: "/credit-information/{id}", tag: "Products", summary: "One SCR report (credit information)", resp: model.CreditInformation{}},
	{method: "GET", path: "/loans", tag: "Products", summary: "An item's loans", query: plus(pages, "itemId"), resp: pageOf[model.Loan]{}},
	{method: "GET", path: "/loans/{id}", tag: "Products", summary: "One loan", resp: model.Loan{}},
	{method: "GET", path: "/bills", tag: "Products", summary: "A credit card's bills", query: plus(pages, "accountId"), resp: pageOf[model.CreditCardBill]{}},
	{method: "GET", path: "/bills/{id}", tag: "Products", summary: "One bill", resp: model.CreditCardBill{}},
	{method: "GET", path: "/consents", tag: "Products", summary: "An item's Open Finance consents", query: plus(pages, "itemId"), resp: pageOf[model.Consent]{}},
	{method: "GET", path: "/consents/{id}", tag: "Products", summary: "One consent", resp: model.Consent{}},

	{method: "GET", path: "/webhooks", tag: "Webhooks", summary: "The application's webhooks", resp: model.WebhookPage{}},
	{method: "POST", path: "/webhooks", tag: "Webhooks", summary: "Subscribe a URL to an event", body: model.WebhookInput{}, resp: model.Webhook{}},
	{method: "GET", path: "/webhooks/signing-secret", tag: "Webhooks", summary: "The secret deliveries are signed with", resp: model.SigningSecret{}},
	{method: "POST", path: "/webhooks/signing-secret/rotate", tag: "Webhooks", summary: "A new signing secret; the old one signs too for 24 hours", resp: model.SigningSecret{}},
	{method: "GET", path: "/webhooks/{id}", tag: "Webhooks", summary: "One webhook", resp: model.Webhook{}},
	{method: "PATCH", path: "/webhooks/{id}", tag: "Webhooks", summary: "Change a webhook", body: model.WebhookInput{}, resp: model.Webhook{}},
	{method: "DELETE", path: "/webhooks/{id}", tag: "Webhooks", summary: "Delete a webhook", resp: model.Webhook{}},
	{method: "GET", path: "/webhooks/{id}/deliveries", tag: "Webhooks", summary: "A webhook's delivery log", query: pages, resp: model.WebhookDeliveryPage{}},
	{method: "GET", path: "/events/{id}", tag: "Webhooks", summary: "One event and its deliveries", resp: model.Event{}},
	{method: "POST", path: "/events/{id}/redeliver", tag: "Webhooks", summary: "Send an event again", resp: model.Event{}},
	{method: "POST", path: "/sandbox/events", tag: "Sandbox control", summary: "Fire a webhook event on demand for a sandbox resource (docs/sandbox-control.md)",
		body: model.SandboxEventInput{}, resp: model.Event{}},
	{method: "GET", path: "/sandbox/events/stream", tag: "Sandbox control", summary: "The application's events as they are written, as Server-Sent Events (Last-Event-ID resumes)",
		query: []string{"cursor", "timeout"}, stream: true},

	{method: "GET", path: "/payments/requests", tag: "Payments", summary: "Payment requests", query: plus(pages, "from", "to", "status", "clientPaymentId"), resp: model.PaymentRequestPage{}},
	{method: "POST", path: "/payments/requests", tag: "Payments", summary: "Ask a payer to pay", body: model.PaymentRequestInput{}, resp: model.PaymentRequest{}},
	{method: "POST", path: "/payments/requests/pix-qr", tag: "Payments", summary: "A request that pays a pasted PIX code", body: model.PixQrPaymentRequestInput{}, resp: model.PaymentRequest{}},
	{method: "GET", path: "/payments/requests/{id}", tag: "Payments", summary: "One payment request", resp: model.PaymentRequest{}},
	{method: "PATCH", path: "/payments/requests/{id}", tag: "Payments", summary: "Change a request no money moved for", body: model.PaymentRequestInput{}, resp: model.PaymentRequest{}},
	{method: "DELETE", path: "/payments/requests/{id}", tag: "Payments", summary: "Delete a request", resp: model.PaymentRequest{}},
	{method: "POST", path: "/payments/requests/{id}/refund", tag: "Payments", summary: "Refund a COMPLETED request, all of it or a part", body: refundBody{}, resp: model.PaymentRequest{}},
	{method: "GET", path: "/payments/requests/{id}/schedules", tag: "Payments", summary: "A request's scheduled payments", query: pages, resp: model.ScheduledPaymentPage{}},
	{method: "POST", path: "/payments/requests/{id}/schedules/cancel", tag: "Payments", summary: "Cancel every scheduled payment of a request", resp: model.ScheduledPaymentPage{}},
	{method: "GET", path: "/payments/requests/{id}/schedules/{scheduleId}", tag: "Payments", summary: "One scheduled payment", resp: model.ScheduledPayment{}},
	{method: "POST", path: "/payments/requests/{id}/schedules/{scheduleId}/cancel", tag: "Payments", summary: "Cancel one scheduled payment", resp: model.ScheduledPayment{}},
	{method: "POST", path: "/payments/requests/automatic-pix", tag: "Payments", summary: "Ask a payer for a recurring automatic PIX authorization", body: model.AutomaticPixRequestInput{}, resp: model.PaymentRequest{}},
	{method: "POST", path: "/payments/requests/{id}/automatic-pix/schedule", tag: "Payments", summary: "Schedule a charge within the authorization", body: model.AutomaticPixPaymentInput{}, resp: model.AutomaticPixPayment{}},
	{method: "GET", path: "/payments/requests/{id}/automatic-pix/schedules", tag: "Payments", summary: "An authorization's charges", query: pages, resp: model.AutomaticPixPaymentPage{}},
	{method: "GET", path: "/payments/requests/{id}/automatic-pix/schedules/{scheduleId}", tag: "Payments", summary: "One charge", resp: model.AutomaticPixPayment{}},
	{method: "POST", path: "/payments/requests/{id}/automatic-pix/schedules/{scheduleId}/cancel", tag: "Payments", summary: "Cancel a charge", resp: model.AutomaticPixPayment{}},
	{method: "POST", path: "/payments/requests/{id}/automatic-pix/schedules/{scheduleId}/retry", tag: "Payments", summary: "Retry a failed charge", body: model.AutomaticPixPaymentInput{}, resp: model.AutomaticPixPayment{}},
	{method: "POST", path: "/payments/requests/{id}/automatic-pix/cancel", tag: "Payments", summary: "End the authorization", resp: model.PaymentRequest{}},
	{method: "GET", path: "/payments/intents", tag: "Payments", summary: "Payment intents", query: plus(pages, "paymentRequestId"), resp: model.PaymentIntentPage{}},
	{method: "POST", path: "/payments/intents", tag: "Payments", summary: "Start a payer's attempt", body: model.PaymentIntentInput{}, resp: model.PaymentIntent{}},
	{method: "GET", path: "/payments/intents/{id}", tag: "Payments", summary: "One attempt and its status history", resp: model.PaymentIntent{}},
	{method: "GET", path: "/payments/customers", tag: "Payments", summary: "Payment customers", query: plus(pages, "name", "email", "cpf", "cnpj"), resp: model.PaymentCustomerPage{}},
	{method: "POST", path: "/payments/customers", tag: "Payments", summary: "Add a customer", body: model.PaymentCustomerInput{}, resp: model.PaymentCustomer{}},
	{method: "GET", path: "/payments/customers/{id}", tag: "Payments", summary: "One customer", resp: model.PaymentCustomer{}},
	{method: "PATCH", path: "/payments/customers/{id}", tag: "Payments", summary: "Change a customer", body: model.PaymentCustomerInput{}, resp: model.PaymentCustomer{}},
	{method: "DELETE", path: "/payments/customers/{id}", tag: "Payments", summary: "Delete a customer", resp: model.PaymentCustomer{}},
	{method: "GET", path: "/payments/recipients/institutions", tag: "Payments", summary: "Participants of the Brazilian payment system", query: plus(pages, "name"), resp: model.PaymentInstitutionPage{}},
	{method: "GET", path: "/payments/recipients/institutions/{id}", tag: "Payments", summary: "One participant", resp: model.PaymentInstitution{}},
	{method: "GET", path: "/payments/recipients", tag: "Payments", summary: "Payment recipients", query: plus(pages, "name", "isDefault", "pixKey"), resp: model.PaymentRecipientPage{}},
	{method: "POST", path: "/payments/recipients", tag: "Payments", summary: "Add a recipient: a bank account or a PIX key", body: model.PaymentRecipientInput{}, resp: model.PaymentRecipient{}},
	{method: "GET", path: "/payments/recipients/{id}", tag: "Payments", summary: "One recipient", resp: model.PaymentRecipient{}},
	{method: "PATCH", path: "/payments/recipients/{id}", tag: "Payments", summary: "Change a recipient", body: model.PaymentRecipientInput{}, resp: model.PaymentRecipient{}},
	{method: "DELETE", path: "/payments/recipients/{id}", tag: "Payments", summary: "Delete a recipient", resp: model.PaymentRecipient{}},
	{method: "POST", path: "/payments/smart-accounts", tag: "Payments", summary: "Open a smart account", body: model.SmartAccountInput{}, resp: model.SmartAccount{}},
	{method: "GET", path: "/payments/smart-accounts", tag: "Payments", summary: "The application's smart accounts", query: pages, resp: model.SmartAccountPage{}},
	{method: "GET", path: "/payments/smart-accounts/{id}", tag: "Payments", summary: "One smart account", resp: model.SmartAccount{}},
	{method: "GET", path: "/payments/smart-accounts/{id}/balance", tag: "Payments", summary: "A smart account's balance, the sum of its ledger", resp: model.SmartAccountBalance{}},
	{method: "POST", path: "/payments/bulk", tag: "Payments", summary: "Gather CREATED requests to pay from a smart account", body: model.BulkPaymentInput{}, resp: model.BulkPayment{}},
	{method: "GET", path: "/payments/bulk", tag: "Payments", summary: "The application's bulk payments", query: pages, resp: model.BulkPaymentPage{}},
	{method: "GET", path: "/payments/bulk/{id}", tag: "Payments", summary: "One bulk payment", resp: model.BulkPayment{}},
	{method: "DELETE", path: "/payments/bulk/{id}", tag: "Payments", summary: "Delete a bulk payment not yet authorized", resp: model.BulkPayment{}},
	{method: "POST", path: "/smart-transfers/preauthorizations", tag: "Payments", summary: "Ask a payer for a smart transfer pre-authorization", body: model.SmartTransferPreauthorizationInput{}, resp: model.SmartTransferPreauthorization{}},
	{method: "GET", path: "/smart-transfers/preauthorizations", tag: "Payments", summary: "The application's pre-authorizations", query: pages, resp: model.SmartTransferPreauthorizationPage{}},
	{method: "GET", path: "/smart-transfers/preauthorizations/{id}", tag: "Payments", summary: "One pre-authorization", resp: model.SmartTransferPreauthorization{}},
	{method: "POST", path: "/smart-transfers/preauthorizations/{id}/revoke", tag: "Payments", summary: "Revoke a CREATED or COMPLETED pre-authorization", resp: model.SmartTransferPreauthorization{}},
	{method: "POST", path: "/smart-transfers/payments", tag: "Payments", summary: "Pay under a COMPLETED pre-authorization, within its limits", body: model.SmartTransferPaymentInput{}, resp: model.SmartTransferPayment{}},
	{method: "GET", path: "/smart-transfers/payments/{id}", tag: "Payments", summary: "One smart transfer payment", resp: model.SmartTransferPayment{}},
	{method: "GET", path: "/smart-transfers/consent/{id}", tag: "Pages", summary: "The consent page a pre-authorization's consentUrl opens", html: true, public: true},
	{method: "POST", path: "/smart-transfers/consent/{id}", tag: "Pages", summary: "The payer's decision (authorize, reject, revoke) on that page", html: true, public: true},
	{method: "GET", path: "/payments/bulk-consent/{id}", tag: "Pages", summary: "The authorization page a bulk payment's paymentUrl opens", html: true, public: true},
	{method: "POST", path: "/payments/bulk-consent/{id}", tag: "Pages", summary: "The smart account owner's decision on that page", html: true, public: true},
	{method: "GET", path: "/payments/pay/{id}", tag: "Pages", summary: "The payment page a request's paymentUrl opens", html: true, public: true},
	{method: "POST", path: "/payments/pay/{id}", tag: "Pages", summary: "The payer's choice on that page", html: true, public: true},
	{method: "GET", path: "/payments/consent/{id}", tag: "Pages", summary: "The consent page an intent's consentUrl opens", html: true, public: true},
	{method: "POST", path: "/payments/consent/{id}", tag: "Pages", summary: "The payer's decision on that page", html: true, public: true},
	{method: "GET", path: "/payments/pix/{id}", tag: "Payments", summary: "The charge a dynamic PIX code points at", resp: model.PixCharge{}, public: true},

	{method: "POST", path: "/boleto-connections/from-item", tag: "Boletos", summary: "Issue boletos through an UPDATED item whose connector manages them", body: itemRef{}, resp: model.BoletoConnection{}},
	{method: "GET", path: "/boleto-connections", tag: "Boletos", summary: "The application's boleto connections", query: pages, resp: model.BoletoConnectionPage{}},
	{method: "GET", path: "/boleto-connections/{id}", tag: "Boletos", summary: "One boleto connection", resp: model.BoletoConnection{}},
	{method: "POST", path: "/boletos", tag: "Boletos", summary: "Issue a boleto: barcode, line and PIX code", body: model.CreateBoletoInput{}, resp: model.Boleto{}},
	{method: "GET", path: "/boletos", tag: "Boletos", summary: "The application's boletos", query: plus(pages, "boletoConnectionId", "status", "dueDateFrom", "dueDateTo"), resp: model.BoletoPage{}},
	{method: "GET", path: "/boletos/{id}", tag: "Boletos", summary: "One boleto", resp: model.Boleto{}},
	{method: "POST", path: "/boletos/{id}/cancel", tag: "Boletos", summary: "Cancel an OPEN or OVERDUE boleto", resp: model.Boleto{}},
	{method: "GET", path: "/boletos/pix/{id}", tag: "Boletos", summary: "The charge a boleto's PIX code points at", resp: model.PixCharge{}, public: true},
	{method: "POST", path: "/boletos/pix/{id}", tag: "Boletos", summary: "Sandbox: a payer's PIX to that code, which pays the boleto", resp: model.PixCharge{}, public: true},

	{method: "POST", path: "/sandbox/items/{id}/reset-login", tag: "Sandbox control", summary: "Sandbox: the item's credentials stop working (LOGIN_ERROR until an update sends them again)", resp: model.Item{}},
	{method: "POST", path: "/sandbox/items/{id}/status", tag: "Sandbox control", summary: "Sandbox: put the item in UPDATED, LOGIN_ERROR or OUTDATED with an error code and statusDetail", body: model.SandboxItemStatusInput{}, resp: model.Item{}},
	{method: "POST", path: "/sandbox/items/{id}/next-execution", tag: "Sandbox control", summary: "Sandbox: the outcome the item's next execution ends in (an error or PARTIAL_SUCCESS)", body: model.SandboxNextExecutionInput{}, resp: model.SandboxNextExecution{}},
	{method: "POST", path: "/sandbox/items/{id}/sync", tag: "Sandbox control", summary: "Sandbox: run the item's automatic sync now (triggeredBy SYNC)", resp: model.Item{}},
	{method: "POST", path: "/sandbox/items/{id}/transactions", tag: "Sandbox control", summary: "Sandbox: add transactions to the item's accounts; its next execution collects them (transactions/created)", body: model.SandboxTransactionsInput{}, resp: []model.SandboxTransactionChange{}},
	{method: "PATCH", path: "/sandbox/items/{id}/transactions/{transactionId}", tag: "Sandbox control", summary: "Sandbox: change a transaction's description, amount or status; the next execution collects it (transactions/updated)", body: model.SandboxTransactionPatch{}, resp: model.SandboxTransactionChange{}},
	{method: "DELETE", path: "/sandbox/items/{id}/transactions/{transactionId}", tag: "Sandbox control", summary: "Sandbox: remove a transaction; the next execution drops it (transactions/deleted)", resp: model.SandboxTransactionChange{}},
	{method: "POST", path: "/sandbox/users", tag: "Sandbox control", summary: "Sandbox: register a custom user (accounts, transactions, card details and bills, identity, investments and their transactions, loans, MFA, error and its step); connect it by its username on the isSandbox connectors only", body: map[string]any{}, resp: model.SandboxUser{}},
	{method: "GET", path: "/sandbox/users", tag: "Sandbox control", summary: "Sandbox: the application's custom users", resp: sandboxUsersPage{}},
	{method: "GET", path: "/sandbox/users/{username}", tag: "Sandbox control", summary: "Sandbox: one custom user", resp: model.SandboxUser{}},
	{method: "PUT", path: "/sandbox/users/{username}", tag: "Sandbox control", summary: "Sandbox: replace a custom user's description", body: map[string]any{}, resp: model.SandboxUser{}},
	{method: "DELETE", path: "/sandbox/users/{username}", tag: "Sandbox control", summary: "Sandbox: remove a custom user (answers it)", resp: model.SandboxUser{}},
	{method: "GET", path: "/sandbox/items/{id}/bills", tag: "Sandbox control", summary: "Sandbox: the item's bill changes, each with when an execution collected it (appliedAt; null while pending)", resp: []model.SandboxBillChange{}},
	{method: "POST", path: "/sandbox/items/{id}/bills", tag: "Sandbox control", summary: "Sandbox: add bills to the item's credit cards; its next execution collects them (no event)", body: model.SandboxBillsInput{}, resp: []model.SandboxBillChange{}},
	{method: "PATCH", path: "/sandbox/items/{id}/bills/{billId}", tag: "Sandbox control", summary: "Sandbox: change a bill's due date or amounts; the next execution collects it", body: model.SandboxBillPatch{}, resp: model.SandboxBillChange{}},
	{method: "DELETE", path: "/sandbox/items/{id}/bills/{billId}", tag: "Sandbox control", summary: "Sandbox: remove a bill; the next execution drops it", resp: model.SandboxBillChange{}},
	{method: "GET", path: "/sandbox/items/{id}/transactions", tag: "Sandbox control", summary: "Sandbox: the item's transaction changes, each with when an execution collected it (appliedAt; null while pending)", resp: []model.SandboxTransactionChange{}},
	{method: "GET", path: "/sandbox/items/{id}/investments", tag: "Sandbox control", summary: "Sandbox: the item's investment and investment transaction changes, each with when an execution collected it", resp: []model.SandboxInvestmentChange{}},
	{method: "POST", path: "/sandbox/items/{id}/investments", tag: "Sandbox control", summary: "Sandbox: add investments to the item; its next execution collects them (no event)", body: model.SandboxInvestmentsInput{}, resp: []model.SandboxInvestmentChange{}},
	{method: "PATCH", path: "/sandbox/items/{id}/investments/{investmentId}", tag: "Sandbox control", summary: "Sandbox: change an investment's name, balance, quantity or value", body: model.SandboxInvestmentPatch{}, resp: model.SandboxInvestmentChange{}},
	{method: "DELETE", path: "/sandbox/items/{id}/investments/{investmentId}", tag: "Sandbox control", summary: "Sandbox: remove an investment with its transactions", resp: model.SandboxInvestmentChange{}},
	{method: "POST", path: "/sandbox/items/{id}/investments/{investmentId}/transactions", tag: "Sandbox control", summary: "Sandbox: add transactions to an investment of the item (no event)", body: model.SandboxInvestmentTransactionsInput{}, resp: []model.SandboxInvestmentChange{}},
	{method: "PATCH", path: "/sandbox/items/{id}/investments/{investmentId}/transactions/{transactionId}", tag: "Sandbox control", summary: "Sandbox: change an investment transaction's description, amount or date", body: model.SandboxInvestmentTransactionPatch{}, resp: model.SandboxInvestmentChange{}},
	{method: "DELETE", path: "/sandbox/items/{id}/investments/{investmentId}/transactions/{transactionId}", tag: "Sandbox control", summary: "Sandbox: remove an investment transaction", resp: model.SandboxInvestmentChange{}},
	{method: "DELETE", path: "/sandbox/client", tag: "Sandbox control", summary: "Sandbox: delete everything the application owns (confirm: its clientId)", query: []string{"confirm"}, resp: model.SandboxCleanSlate{}},
	{method: "POST", path: "/sandbox/payments/payment-requests/{id}/status", tag: "Sandbox control", summary: "Sandbox: move a payment request to a status its state table allows next by itself (CANCELED, EXPIRED, its refund's), with its events and ledger entries", body: model.SandboxPaymentMoveInput{}, resp: model.SandboxPaymentMove{}},
	{method: "POST", path: "/sandbox/payments/payment-intents/{id}/status", tag: "Sandbox control", summary: "Sandbox: move a payment intent (and its request after it) to a status its state table allows next, with its events and ledger entries", body: model.SandboxPaymentMoveInput{}, resp: model.SandboxPaymentMove{}},
	{method: "POST", path: "/sandbox/payments/scheduled-payments/{id}/status", tag: "Sandbox control", summary: "Sandbox: run a scheduled payment now (COMPLETED), fail it (ERROR) or cancel it (CANCELED), with its events, ledger entries and its request's end after the last", body: model.SandboxPaymentMoveInput{}, resp: model.SandboxPaymentMove{}},
	{method: "POST", path: "/sandbox/payments/automatic-pix-payments/{id}/status", tag: "Sandbox control", summary: "Sandbox: run an automatic PIX charge now (COMPLETED), fail it (ERROR) or cancel it (CANCELED), with its events and ledger entries", body: model.SandboxPaymentMoveInput{}, resp: model.SandboxPaymentMove{}},
	{method: "POST", path: "/sandbox/payments/boletos/{id}/status", tag: "Sandbox control", summary: "Sandbox: move a boleto to a status its table allows next (PAID, OVERDUE, CANCELLED, PROTESTED), with boleto/updated and, paid, its ledger entry", body: model.SandboxPaymentMoveInput{}, resp: model.SandboxPaymentMove{}},
	{method: "POST", path: "/sandbox/payments/smart-transfer-payments/{id}/status", tag: "Sandbox control", summary: "Sandbox: take a smart transfer payment a settlement step on (to PAYMENT_COMPLETED) or reject it (PAYMENT_REJECTED), with its events and ledger entries", body: model.SandboxPaymentMoveInput{}, resp: model.SandboxPaymentMove{}},
	{method: "POST", path: "/sandbox/payments/bulk-payments/{id}/status", tag: "Sandbox control", summary: "Sandbox: approve a bulk payment (PAYMENT_IN_PROGRESS), reject it (ERROR) or settle it (COMPLETED) as its owner and the institution do, with its requests' events and ledger entries", body: model.SandboxPaymentMoveInput{}, resp: model.SandboxPaymentMove{}},

	{method: "GET", path: "/metrics", tag: "Service", summary: "Prometheus metrics (this machine, or the bearer token PONTE_METRICS_TOKEN)", plain: true, public: true},
	{method: "GET", path: "/openapi.json", tag: "Service", summary: "This document", resp: map[string]any{}, public: true},
	{method: "GET", path: "/reference", tag: "Service", summary: "This document, rendered for people", html: true, public: true},
}
