package webhooks

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// The sandbox control surface's events on demand (POST /sandbox/events): any event of
// section 6.1, about a sandbox resource of the calling application, recorded in the
// outbox as the change that would cause it records it, so it is fanned out, signed,
// delivered, retried and listed like any other. Its payload is built from the resource as
// it is now, in the shape the service's own emitters give it (itemsync, payments); the
// event record says it was fired on demand (Event.sandboxControl), and triggeredBy is
// CLIENT, the API key that asked.

// controlTriggeredBy is the cause a fired event names: the application, with its API key.
const controlTriggeredBy = "CLIENT"

// fireFamily groups the events by the resource they are about: which input ids apply.
type fireFamily int

const (
	familyItem fireFamily = iota + 1
	familyTransactions
	familyPayment
	familyPreauth
	familySmartPayment
	familyBoleto
)

// fireable are the events POST /sandbox/events fires, each with its family.
var fireable = map[string]fireFamily{
	"item/created": familyItem, "item/updated": familyItem, "item/error": familyItem, "item/deleted": familyItem,
	"item/waiting_user_input": familyItem, "item/waiting_user_action": familyItem, "item/login_succeeded": familyItem,
	"connector/status_updated": familyItem,
	"transactions/created":     familyTransactions, "transactions/updated": familyTransactions, "transactions/deleted": familyTransactions,
	"payment_intent/created": familyPayment, "payment_intent/waiting_payer_authorization": familyPayment,
	"payment_intent/completed": familyPayment, "payment_intent/error": familyPayment,
	"payment_request/updated":   familyPayment,
	"scheduled_payment/created": familyPayment, "scheduled_payment/completed": familyPayment, "scheduled_payment/error": familyPayment,
	"scheduled_payment/canceled": familyPayment, "scheduled_payment/all_created": familyPayment, "scheduled_payment/all_completed": familyPayment,
	"automatic_pix_payment/created": familyPayment, "automatic_pix_payment/completed": familyPayment,
	"automatic_pix_payment/error": familyPayment, "automatic_pix_payment/canceled": familyPayment,
	"smart_transfer_preauthorization/completed": familyPreauth, "smart_transfer_preauthorization/error": familyPreauth,
	"smart_transfer_payment/completed": familySmartPayment, "smart_transfer_payment/error": familySmartPayment,
	"boleto/updated": familyBoleto,
}

// FireableEvents lists the event names POST /sandbox/events fires, sorted.
func FireableEvents() []string {
	out := make([]string, 0, len(fireable))
	for name := range fireable {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// paymentErrorCodes are the codes a fired payment error event may carry (model/paymenterrors.go).
var paymentErrorCodes = []string{model.PaymentErrorInsufficientFunds, model.PaymentErrorLimitExceeded, model.PaymentErrorRejectedByUser,
	model.PaymentErrorSettlementFailed, model.PaymentErrorAccountBlocked, model.PaymentErrorCanceled}

// preauthErrorCodes add the code payments/ gives a pre-authorization the payer rejected
// (payments.ConsentRejected; webhooks does not import payments).
// consentRejected is the error a payer's refusal of a pre-authorization carries: payments'
// ConsentRejected status, spelled here because webhooks stands beside payments, not above.
const consentRejected = "CONSENT_REJECTED"

var preauthErrorCodes = append([]string{consentRejected}, paymentErrorCodes...)

// FireSandboxEvent records one event on demand and fans it out; it answers the event as
// GET /events/{id} would.
func (e *Engine) FireSandboxEvent(ctx context.Context, in model.SandboxEventInput) (*model.Event, error) {
	clientID, err := client(ctx, auth.ControlSandbox)
	if err != nil {
		return nil, err
	}
	family, err := checkFireInput(in)
	if err != nil {
		return nil, err
	}
	var ev *db.Event
	switch family {
	case familyItem, familyTransactions:
		ev, err = e.itemEvent(ctx, clientID, in)
	case familyPreauth:
		ev, err = e.preauthEvent(ctx, clientID, in)
	case familySmartPayment:
		ev, err = e.smartPaymentEvent(ctx, clientID, in)
	case familyBoleto:
		ev, err = e.boletoEvent(ctx, clientID, in)
	default:
		ev, err = e.paymentEvent(ctx, clientID, in)
	}
	if err != nil {
		return nil, err
	}
	ev.ClientID, ev.Control = clientID, true
	ev.Payload["triggeredBy"] = controlTriggeredBy
	if err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error { return tx.InsertEvent(ctx, ev) }); err != nil {
		return nil, err
	}
	e.log.InfoContext(ctx, "sandbox event fired", "clientId", clientID, "eventId", ev.ID, "event", ev.Event)
	return eventOf(ev), nil
}

// checkFireInput refuses an unknown event and ids that do not apply to it, before any read.
func checkFireInput(in model.SandboxEventInput) (fireFamily, error) {
	if in.Event == "" {
		return 0, model.Fail(model.CodeInvalidParameter, "event is required: an event name docs/sandbox-control.md lists.")
	}
	family, ok := fireable[in.Event]
	if !ok {
		if in.Event == "all" || slices.Contains(Events, in.Event) {
			return 0, model.Fail(model.CodeInvalidWebhookEvent, "event %q cannot be fired on demand; docs/sandbox-control.md lists those that can.", in.Event)
		}
		return 0, model.Fail(model.CodeInvalidWebhookEvent, "event %q is not an event name; docs/sandbox-control.md lists those that can be fired.", in.Event)
	}
	apply := map[string]bool{}
	switch family {
	case familyItem:
		apply["itemId"] = true
		apply["error"] = in.Event == "item/error"
	case familyTransactions:
		apply["itemId"], apply["accountId"] = true, true
		apply["transactionIds"] = in.Event != "transactions/created"
	case familyPayment:
		apply["paymentRequestId"] = true
		apply["paymentIntentId"] = strings.HasPrefix(in.Event, "payment_intent/") || in.Event == "scheduled_payment/all_created"
		apply["scheduledPaymentId"] = strings.HasPrefix(in.Event, "scheduled_payment/") && !strings.HasPrefix(in.Event, "scheduled_payment/all_")
		apply["automaticPixPaymentId"] = strings.HasPrefix(in.Event, "automatic_pix_payment/")
		apply["error"] = strings.HasSuffix(in.Event, "/error")
	case familyPreauth:
		apply["preauthorizationId"], apply["error"] = true, in.Event == "smart_transfer_preauthorization/error"
	case familySmartPayment:
		apply["smartTransferPaymentId"], apply["error"] = true, in.Event == "smart_transfer_payment/error"
	case familyBoleto:
		apply["boletoId"] = true
	}
	given := []struct {
		name string
		set  bool
	}{{"itemId", in.ItemID != nil}, {"accountId", in.AccountID != nil}, {"transactionIds", in.TransactionIDs != nil},
		{"paymentRequestId", in.PaymentRequestID != nil}, {"paymentIntentId", in.PaymentIntentID != nil},
		{"scheduledPaymentId", in.ScheduledPaymentID != nil}, {"automaticPixPaymentId", in.AutomaticPixPaymentID != nil},
		{"preauthorizationId", in.PreauthorizationID != nil}, {"smartTransferPaymentId", in.SmartTransferPaymentID != nil},
		{"boletoId", in.BoletoID != nil}, {"errorCode", in.ErrorCode != nil}, {"errorMessage", in.ErrorMessage != nil}}
	for _, g := range given {
		key := g.name
		if strings.HasPrefix(key, "error") {
			key = "error"
		}
		if g.set && !apply[key] {
			return 0, model.Fail(model.CodeInvalidParameter, "%s does not apply to %s.", g.name, in.Event)
		}
	}
	required := map[fireFamily]struct {
		name string
		set  bool
	}{familyItem: {"itemId", in.ItemID != nil}, familyTransactions: {"itemId", in.ItemID != nil},
		familyPayment: {"paymentRequestId", in.PaymentRequestID != nil}, familyPreauth: {"preauthorizationId", in.PreauthorizationID != nil},
		familySmartPayment: {"smartTransferPaymentId", in.SmartTransferPaymentID != nil}, familyBoleto: {"boletoId", in.BoletoID != nil}}
	if r := required[family]; !r.set {
		return 0, model.Fail(model.CodeInvalidParameter, "%s is required for %s.", r.name, in.Event)
	}
	if n := len(in.TransactionIDs); in.TransactionIDs != nil && (n == 0 || n > 500) {
		return 0, model.Fail(model.CodeInvalidParameter, "transactionIds must hold 1 to 500 ids.")
	}
	if in.ErrorMessage != nil && (len(*in.ErrorMessage) == 0 || len(*in.ErrorMessage) > 500) {
		return 0, model.Fail(model.CodeInvalidParameter, "errorMessage must be 1 to 500 characters.")
	}
	if in.ErrorCode != nil {
		payment := family != familyItem && family != familyTransactions
		codes := paymentErrorCodes
		if family == familyPreauth {
			codes = preauthErrorCodes
		}
		if payment && !slices.Contains(codes, *in.ErrorCode) {
			return 0, model.Fail(model.CodeInvalidParameter, "errorCode must be one of %s.", strings.Join(codes, ", "))
		}
		if s := model.ExecutionStatus(*in.ErrorCode); !payment && (!s.IsFinal() || s == model.ExecSuccess || s == model.ExecPartialSuccess) {
			return 0, model.Fail(model.CodeInvalidParameter, "errorCode must be an execution error code (docs/items.md), such as %s.", model.ExecSiteNotAvailable)
		}
	}
	return family, nil
}

// sandboxConnector refuses a connector that is not a sandbox one.
func (e *Engine) sandboxConnector(ctx context.Context, id int, what string) (*model.Connector, error) {
	c, found, err := e.db.Connector(ctx, id)
	if err != nil {
		return nil, err
	}
	if !found || !c.IsSandbox {
		return nil, model.Fail(model.CodeSandboxOnly, "%s is not on a sandbox connector: events are fired on demand for sandbox resources only.", what)
	}
	return c, nil
}

// itemEvent builds an item/*, connector/status_updated or transactions/* event.
func (e *Engine) itemEvent(ctx context.Context, clientID uuid.UUID, in model.SandboxEventInput) (*db.Event, error) {
	it, found, err := e.db.Item(ctx, clientID, *in.ItemID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeItemNotFound, "Item %s not found.", *in.ItemID)
	}
	conn, err := e.sandboxConnector(ctx, it.ConnectorID, "Item "+it.ID.String())
	if err != nil {
		return nil, err
	}
	ev := &db.Event{ID: uuid.New(), Event: in.Event, ItemID: &it.ID, TargetURL: it.WebhookURL}
	switch {
	case in.Event == "connector/status_updated":
		// A connector's event goes to the application's webhooks only, as the service's own.
		id := it.ConnectorID
		ev.ItemID, ev.TargetURL = nil, nil
		ev.Payload = map[string]any{"id": strconv.Itoa(id), "connectorId": strconv.Itoa(id), "data": map[string]any{"status": conn.Health.Status}}
		return ev, nil
	case strings.HasPrefix(in.Event, "item/"):
		ev.Payload = map[string]any{"itemId": it.ID.String(), "clientUserId": it.ClientUserID}
		if in.Event == "item/error" {
			code, message := string(model.ExecUnexpectedError), "An error fired on demand by the sandbox control surface."
			if it.Error != nil {
				code, message = string(it.Error.Code), it.Error.Message
			}
			if in.ErrorCode != nil {
				code = *in.ErrorCode
			}
			if in.ErrorMessage != nil {
				message = *in.ErrorMessage
			}
			ev.Payload["error"] = map[string]any{"code": code, "message": message, "parameter": nil}
		}
		return ev, nil
	}
	return e.transactionsEvent(ctx, it, ev, in)
}

// transactionsEvent fills a transactions/* event about one of the item's accounts.
func (e *Engine) transactionsEvent(ctx context.Context, it *db.ItemRow, ev *db.Event, in model.SandboxEventInput) (*db.Event, error) {
	accounts, err := e.db.ItemAccountIDs(ctx, it.ID)
	if err != nil {
		return nil, err
	}
	var acc uuid.UUID
	switch {
	case in.AccountID != nil && !slices.Contains(accounts, *in.AccountID):
		return nil, model.Fail(model.CodeAccountNotFound, "Account %s not found on item %s.", *in.AccountID, it.ID)
	case in.AccountID != nil:
		acc = *in.AccountID
	case len(accounts) == 0:
		return nil, model.Fail(model.CodeInvalidParameter, "Item %s has no accounts yet: wait for its execution to collect them.", it.ID)
	default:
		acc = accounts[0]
	}
	ev.Payload = map[string]any{"itemId": it.ID.String(), "accountId": acc.String()}
	if in.Event == "transactions/created" {
		s, err := e.db.AccountTransactionSummary(ctx, acc)
		if err != nil {
			return nil, err
		}
		if s.Count == 0 {
			return nil, model.Fail(model.CodeInvalidParameter, "Account %s has no transactions for transactions/created to announce.", acc)
		}
		now := e.now()
		from := model.NewTime(*s.MinCreatedAt)
		ev.Payload["id"] = ev.ID.String()
		ev.Payload["transactionsCount"] = s.Count
		ev.Payload["transactionsMinDate"] = model.NewTime(*s.MinDate)
		ev.Payload["transactionsCreatedAtFrom"] = from
		ev.Payload["createdTransactionsLink"] = model.CreatedTransactionsLink(e.cfg.BaseURL, acc, from, now)
		return ev, nil
	}
	ids := in.TransactionIDs
	if ids == nil {
		if ids, err = e.db.LatestTransactionIDs(ctx, acc, 1); err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return nil, model.Fail(model.CodeInvalidParameter, "Account %s has no transactions for %s to name.", acc, in.Event)
		}
	} else {
		ids = uniq(ids)
		n, err := e.db.CountAccountTransactions(ctx, acc, ids)
		if err != nil {
			return nil, err
		}
		if n != len(ids) {
			return nil, model.Fail(model.CodeTransactionNotFound, "transactionIds: %d of the ids are not transactions of account %s.", len(ids)-n, acc)
		}
	}
	list := make([]string, len(ids))
	for i, id := range ids {
		list[i] = id.String()
	}
	ev.Payload["transactionIds"] = list
	ev.Payload["clientId"] = it.ClientID.String()
	return ev, nil
}

func uniq(ids []uuid.UUID) []uuid.UUID {
	seen := make(map[uuid.UUID]bool, len(ids))
	out := make([]uuid.UUID, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// errorDetail is a payment error event's error: the row's own, the input's, or a
// rejection by the payer.
func errorDetail(own *model.PaymentErrorDetail, in model.SandboxEventInput) map[string]any {
	d := model.PaymentErrorDetail{Code: model.PaymentErrorRejectedByUser, Description: "The payment did not complete (fired on demand by the sandbox control surface)."}
	if own != nil {
		d = *own
	}
	if in.ErrorCode != nil {
		d.Code = *in.ErrorCode
	}
	if in.ErrorMessage != nil {
		d.Description = *in.ErrorMessage
	}
	return map[string]any{"code": d.Code, "description": d.Description, "detail": d.Detail}
}
