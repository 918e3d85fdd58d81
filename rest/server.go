// Package rest is the documented REST interface: it turns each endpoint, query string,
// body and envelope into a call of a resolver, the call GraphQL makes, and renders the
// result or the error body; reads of collected data answer pages of stored documents, which
// REST sends as they are. It holds no business rule and no SQL: those live behind the
// resolvers, shared with GraphQL.
package rest

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/google/uuid"

	"ponte/auth"
	"ponte/graph"
	"ponte/graph/generated"
	"ponte/graph/graphiql"
	"ponte/idempotency"
	"ponte/model"
)

// Server routes REST calls to the resolvers.
type Server struct {
	res   *graph.Resolver
	query generated.QueryResolver
	mut   generated.MutationResolver
	auth  *auth.Service
	log   *slog.Logger
	limit *auth.Limiter

	db           Database
	keys         *idempotency.Keys
	metricsToken string
	// browserOrigins are the operator's origins for cross-origin calls (cors.go).
	browserOrigins map[string]bool
	// browserOriginList: Config.BrowserOrigins, in order, for the Connect page's frame-ancestors.
	browserOriginList []string

	streamHeartbeat, streamPoll time.Duration
	// pins records a caller's write for the read replica (readroute.go); nil: no replica.
	pins func(context.Context, uuid.UUID) error
}

// New builds the whole HTTP surface: REST, /graphql, /graphiql and the health probes.
func New(res *graph.Resolver, c Config) http.Handler {
	s := &Server{res: res, query: res.Query(), mut: res.Mutation(), auth: res.Auth, log: res.Log, limit: res.Limiter,
		db: c.Database, keys: c.Idempotency, metricsToken: c.MetricsToken, streamHeartbeat: c.StreamHeartbeat, streamPoll: c.StreamPoll,
		browserOrigins:    originSet(c.BrowserOrigins),
		browserOriginList: c.BrowserOrigins, pins: c.ReadPins}
	if s.streamHeartbeat <= 0 {
		s.streamHeartbeat = streamHeartbeat
	}
	if s.streamPoll <= 0 {
		s.streamPoll = streamPoll
	}
	if s.limit == nil {
		s.limit = auth.NewLimiter(nil)
	}
	r := chi.NewRouter()
	r.Use(compressJSON())
	r.Use(securityHeaders)
	// A preflight is answered before the database gate and the Accept check: it asks
	// nothing of either. allowOrigin comes before them, so their refusals and a failed
	// credential check reach an allowed page; confirmOrigin needs the checked credential.
	r.Use(s.recoverer, s.logRequests, s.preflight, s.allowOrigin, s.databaseGate, s.negotiate, s.authenticate, s.confirmOrigin, s.routeReads)
	r.Use(s.edge)
	// After authentication, which says whose rules apply (control_faults.go).
	r.Use(s.injectFaults(c.Faults))
	// After authentication (keys are scoped per caller) and the edge checks (refused input is
	// never recorded).
	r.Use(s.idempotency)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, model.Fail(model.CodeNotFound, "No endpoint at %s %s.", r.Method, r.URL.Path))
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, model.Fail(model.CodeMethodNotAllowed, "%s is not supported on %s.", r.Method, r.URL.Path))
	})

	// The route table: every endpoint and the handler that serves it. Handlers are built by
	// the one shape of handle.go; the HTML pages (the sandbox institutions' and the payer's)
	// are the only ones written by hand.
	r.Get("/healthz", s.healthz())
	r.Get("/readyz", s.readyz())

	r.With(s.rateLimit("auth")).Post("/auth", s.postAuth())
	r.Post("/connect_token", s.postConnectToken())
	r.Get("/connect_token", s.connectSession())
	r.Get("/connect", s.connectPage)
	r.Get("/connect/assets/{file}", s.connectAssetFile)

	r.Get("/connectors", s.listConnectors())
	r.Get("/connectors/{id}", s.getConnector())
	r.Post("/connectors/{id}/validate", s.validateConnector())
	r.Get("/connectors/{id}/settings", s.connectorSettings())
	r.Put("/connectors/{id}/settings", s.putConnectorSettings())
	r.Delete("/connectors/{id}/settings", s.deleteConnectorSettings())

	r.Post("/items", s.createItem())
	r.Get("/v2/items", s.listItemsV2())
	r.Get("/items/{id}", s.getItem())
	r.With(s.rateLimit("item-update")).Patch("/items/{id}", s.updateItem())
	r.Delete("/items/{id}", s.deleteItem())
	r.Post("/items/{id}/mfa", s.itemMFA())
	r.Post("/items/{id}/statements", s.uploadStatement())
	r.Get("/items/{id}/resources", s.itemResources())
	r.Get("/sandbox/authorize/{id}", s.authorizePage)
	r.Post("/sandbox/authorize/{id}", s.authorizeDecision)

	r.Get("/accounts", s.listAccounts())
	r.Get("/accounts/{id}", s.getAccount())
	r.Get("/v2/transactions", s.listTransactionsV2())
	r.With(s.rateLimit("transactions")).Get("/transactions/{id}", s.getTransaction())
	r.Patch("/transactions/{id}", s.patchTransaction())
	r.With(s.rateLimit("transactions"), deprecated(model.TransactionsSunset.Add(-time.Second).Format(http.TimeFormat), "/v2/transactions")).
		Get("/transactions", s.listTransactionsLegacy())
	r.Get("/category_feedback", s.listCategoryFeedback())

	r.Get("/accounts/{id}/statements", s.productOwned("statement"))
	r.With(s.rateLimit("investments")).Get("/investments", s.productList("investment", "itemId", true))
	r.With(s.rateLimit("investments")).Get("/investments/{id}", s.productByID("investment"))
	r.With(s.rateLimit("investment-transactions")).Get("/investments/{id}/transactions", s.productOwned("investment_transaction"))
	r.Get("/identity", s.identityByItem())
	r.Get("/identity/{id}", s.productByID("identity"))
	r.Get("/loans", s.productList("loan", "itemId", false))
	r.Get("/loans/{id}", s.productByID("loan"))
	r.Get("/bills", s.productList("bill", "accountId", false))
	r.Get("/bills/{id}", s.productByID("bill"))
	r.Get("/consents", s.productList("consent", "itemId", false))
	r.Get("/consents/{id}", s.productByID("consent"))

	// The Central Bank's SCR report an item collected.
	r.Get("/credit-information", s.creditInfoByItem())
	r.Get("/credit-information/{id}", s.creditInfoByID())

	r.Get("/webhooks", s.listWebhooks())
	r.Post("/webhooks", s.createWebhook())
	r.Get("/webhooks/signing-secret", s.signingSecret())
	r.Post("/webhooks/signing-secret/rotate", s.rotateSigningSecret())
	r.Get("/webhooks/{id}", s.getWebhook())
	r.Patch("/webhooks/{id}", s.updateWebhook())
	r.Delete("/webhooks/{id}", s.deleteWebhook())
	r.Get("/webhooks/{id}/deliveries", s.webhookDeliveries())
	r.Get("/events/{id}", s.getEvent())
	r.Post("/events/{id}/redeliver", s.redeliverEvent())

	r.Get("/payments/requests", s.listPaymentRequests())
	r.Post("/payments/requests", s.createPaymentRequest())
	r.Post("/payments/requests/pix-qr", s.createPixQRPaymentRequest())
	r.Get("/payments/requests/{id}", s.getPaymentRequest())
	r.Patch("/payments/requests/{id}", s.updatePaymentRequest())
	r.Delete("/payments/requests/{id}", s.deletePaymentRequest())
	r.Post("/payments/requests/{id}/refund", s.refundPaymentRequest())
	r.Get("/payments/requests/{id}/schedules", s.listScheduledPayments())
	r.Post("/payments/requests/{id}/schedules/cancel", s.cancelScheduledPayments())
	r.Get("/payments/requests/{id}/schedules/{scheduleId}", s.getScheduledPayment())
	r.Post("/payments/requests/{id}/schedules/{scheduleId}/cancel", s.cancelScheduledPayment())

	r.Post("/payments/requests/automatic-pix", s.createAutomaticPixRequest())
	r.Post("/payments/requests/{id}/automatic-pix/schedule", s.scheduleAutomaticPixPayment())
	r.Get("/payments/requests/{id}/automatic-pix/schedules", s.listAutomaticPixPayments())
	r.Get("/payments/requests/{id}/automatic-pix/schedules/{scheduleId}", s.getAutomaticPixPayment())
	r.Post("/payments/requests/{id}/automatic-pix/schedules/{scheduleId}/cancel", s.cancelAutomaticPixPayment())
	r.Post("/payments/requests/{id}/automatic-pix/schedules/{scheduleId}/retry", s.retryAutomaticPixPayment())
	r.Post("/payments/requests/{id}/automatic-pix/cancel", s.cancelAutomaticPixAuthorization())

	r.Get("/payments/intents", s.listPaymentIntents())
	r.Post("/payments/intents", s.createPaymentIntent())
	r.Get("/payments/intents/{id}", s.getPaymentIntent())

	r.Get("/payments/customers", s.listPaymentCustomers())
	r.Post("/payments/customers", s.createPaymentCustomer())
	r.Get("/payments/customers/{id}", s.getPaymentCustomer())
	r.Patch("/payments/customers/{id}", s.updatePaymentCustomer())
	r.Delete("/payments/customers/{id}", s.deletePaymentCustomer())

	r.Get("/payments/recipients/institutions", s.listPaymentInstitutions())
	r.Get("/payments/recipients/institutions/{id}", s.getPaymentInstitution())
	r.Get("/payments/recipients", s.listPaymentRecipients())
	r.Post("/payments/recipients", s.createPaymentRecipient())
	r.Get("/payments/recipients/{id}", s.getPaymentRecipient())
	r.Patch("/payments/recipients/{id}", s.updatePaymentRecipient())
	r.Delete("/payments/recipients/{id}", s.deletePaymentRecipient())

	r.Post("/payments/smart-accounts", s.createSmartAccount())
	r.Get("/payments/smart-accounts", s.listSmartAccounts())
	r.Get("/payments/smart-accounts/{id}", s.getSmartAccount())
	r.Get("/payments/smart-accounts/{id}/balance", s.smartAccountBalance())

	r.Post("/payments/bulk", s.createBulkPayment())
	r.Get("/payments/bulk", s.listBulkPayments())
	r.Get("/payments/bulk/{id}", s.getBulkPayment())
	r.Delete("/payments/bulk/{id}", s.deleteBulkPayment())

	r.Post("/smart-transfers/preauthorizations", s.createPreauthorization())
	r.Get("/smart-transfers/preauthorizations", s.listPreauthorizations())
	r.Get("/smart-transfers/preauthorizations/{id}", s.getPreauthorization())
	r.Post("/smart-transfers/preauthorizations/{id}/revoke", s.revokePreauthorization())
	r.Post("/smart-transfers/payments", s.createSmartTransferPayment())
	r.Get("/smart-transfers/payments/{id}", s.getSmartTransferPayment())

	r.Get("/smart-transfers/consent/{id}", s.preauthPage)
	r.Post("/smart-transfers/consent/{id}", s.preauthDecision)
	r.Get("/payments/bulk-consent/{id}", s.bulkPage)
	r.Post("/payments/bulk-consent/{id}", s.bulkDecision)
	r.Get("/payments/pay/{id}", s.payPage)
	r.Post("/payments/pay/{id}", s.payStart)
	r.Get("/payments/consent/{id}", s.consentPage)
	r.Post("/payments/consent/{id}", s.consentDecision)
	r.Get("/payments/pix/{id}", s.getPixLocation())

	r.Post("/boleto-connections/from-item", s.createBoletoConnection())
	r.Get("/boleto-connections", s.listBoletoConnections())
	r.Get("/boleto-connections/{id}", s.getBoletoConnection())
	r.Post("/boletos", s.createBoleto())
	r.Get("/boletos", s.listBoletos())
	r.Get("/boletos/{id}", s.getBoleto())
	r.Post("/boletos/{id}/cancel", s.cancelBoleto())
	r.Get("/boletos/pix/{id}", s.getBoletoPix())
	r.Post("/boletos/pix/{id}", s.payBoletoPix())

	// Part R (issue 39): an application's category rules; a static segment, so chi
	// routes /categories/rules here and not to /categories/{id}.
	r.Get("/categories/rules", s.listCategoryRules())
	r.Post("/categories/rules", s.createCategoryRule())
	r.Delete("/categories/rules/{id}", s.deleteCategoryRule())

	r.Get("/categories", s.listCategories())
	r.Get("/categories/{id}", s.getCategory())
	// Issue 39 part M: merchants by CNPJ.
	r.Get("/merchants", s.lookupMerchants())

	// Sandbox control: fault injection.
	r.Get("/sandbox/faults", s.getFaults())
	r.Put("/sandbox/faults", s.putFaults())
	r.Delete("/sandbox/faults", s.deleteFaults())
	// Sandbox control: items and data.
	r.Post("/sandbox/items/{id}/reset-login", s.resetItemLogin())
	r.Post("/sandbox/items/{id}/status", s.setItemStatus())
	r.Post("/sandbox/items/{id}/next-execution", s.setNextExecution())
	r.Post("/sandbox/items/{id}/sync", s.syncItemNow())
	r.Delete("/sandbox/client", s.deleteClientData())
	// Sandbox control: data.
	r.Post("/sandbox/items/{id}/transactions", s.addSandboxTransactions())
	r.Patch("/sandbox/items/{id}/transactions/{transactionId}", s.changeSandboxTransaction())
	r.Delete("/sandbox/items/{id}/transactions/{transactionId}", s.removeSandboxTransaction())
	// Sandbox control: bills.
	r.Get("/sandbox/items/{id}/bills", s.sandboxBillChanges())
	r.Post("/sandbox/items/{id}/bills", s.addSandboxBills())
	r.Patch("/sandbox/items/{id}/bills/{billId}", s.changeSandboxBill())
	r.Delete("/sandbox/items/{id}/bills/{billId}", s.removeSandboxBill())
	// Sandbox control: investments and their transactions; the transaction changes' history.
	r.Get("/sandbox/items/{id}/transactions", s.sandboxTransactionChanges())
	r.Get("/sandbox/items/{id}/investments", s.sandboxInvestmentChanges())
	r.Post("/sandbox/items/{id}/investments", s.addSandboxInvestments())
	r.Patch("/sandbox/items/{id}/investments/{investmentId}", s.changeSandboxInvestment())
	r.Delete("/sandbox/items/{id}/investments/{investmentId}", s.removeSandboxInvestment())
	r.Post("/sandbox/items/{id}/investments/{investmentId}/transactions", s.addSandboxInvestmentTransactions())
	r.Patch("/sandbox/items/{id}/investments/{investmentId}/transactions/{transactionId}", s.changeSandboxInvestmentTransaction())
	r.Delete("/sandbox/items/{id}/investments/{investmentId}/transactions/{transactionId}", s.removeSandboxInvestmentTransaction())
	// Sandbox control: events on demand and the event stream.
	r.Post("/sandbox/events", s.fireSandboxEvent())
	r.Get("/sandbox/events/stream", s.sandboxEventStream)
	// Sandbox control: payment state moves.
	r.Post("/sandbox/payments/payment-requests/{id}/status", s.movePayment(model.SandboxPaymentRequests, "Payment request id"))
	r.Post("/sandbox/payments/payment-intents/{id}/status", s.movePayment(model.SandboxPaymentIntents, "Payment intent id"))
	// Sandbox control: moves of scheduled payments and automatic PIX charges.
	r.Post("/sandbox/payments/scheduled-payments/{id}/status", s.movePayment(model.SandboxScheduledPays, "Scheduled payment id"))
	r.Post("/sandbox/payments/automatic-pix-payments/{id}/status", s.movePayment(model.SandboxAutoPixPays, "Automatic PIX payment id"))
	r.Post("/sandbox/payments/boletos/{id}/status", s.movePayment(model.SandboxBoletos, "Boleto id"))
	// Sandbox control: moves of smart transfer payments and bulk payments.
	r.Post("/sandbox/payments/smart-transfer-payments/{id}/status", s.movePayment(model.SandboxSmartPays, "Smart transfer payment id"))
	r.Post("/sandbox/payments/bulk-payments/{id}/status", s.movePayment(model.SandboxBulkPays, "Bulk payment id"))
	// Sandbox control: custom sandbox users.
	r.Post("/sandbox/users", s.createSandboxUser())
	r.Get("/sandbox/users", s.listSandboxUsers())
	r.Get("/sandbox/users/{username}", s.getSandboxUser())
	r.Put("/sandbox/users/{username}", s.replaceSandboxUser())
	r.Delete("/sandbox/users/{username}", s.deleteSandboxUser())
	// Sandbox control: test clocks (payments side).
	r.Post("/sandbox/test-clocks", s.createTestClock())
	r.Get("/sandbox/test-clocks", s.listTestClocks())
	r.Get("/sandbox/test-clocks/{id}", s.getTestClock())
	r.Post("/sandbox/test-clocks/{id}/advance", s.advanceTestClock())
	r.Delete("/sandbox/test-clocks/{id}", s.deleteTestClock())

	// The description of all of the above (openapi_routes.go, checked against this table).
	spec, reference, err := openAPI()
	if err != nil {
		panic(err) // built from the route table and the model's types: every test would fail
	}
	r.Get("/metrics", s.metricsEndpoint())
	r.Get("/openapi.json", spec)
	r.Get("/reference", reference)

	gql := res.Handler()
	r.Handle("/graphql", gql)
	gi := graphiql.Handler("/graphiql", "/graphql")
	r.Handle("/graphiql", gi)
	r.Handle("/graphiql/*", gi)
	knowRoutes(c.Faults, r)
	return scopedRouter{r}
}
