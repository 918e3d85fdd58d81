package webhooks

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// Every fireable event is a subscribable one, and each family's ids are checked before any
// read: an id that does not apply, a missing one, an error code of the wrong kind.
func TestCheckFireInput(t *testing.T) {
	t.Parallel()
	for _, name := range FireableEvents() {
		if !slices.Contains(Events, name) {
			t.Errorf("%s is fireable but no webhook can subscribe to it", name)
		}
	}
	for _, name := range Events {
		if _, ok := fireable[name]; !ok && name != "all" {
			t.Errorf("%s can be subscribed to but not fired on demand", name)
		}
	}
	id := uuid.New()
	str := func(s string) *string { return &s }
	ok := []model.SandboxEventInput{
		{Event: "item/updated", ItemID: &id},
		{Event: "item/error", ItemID: &id, ErrorCode: str("SITE_NOT_AVAILABLE"), ErrorMessage: str("fora do ar")},
		{Event: "transactions/deleted", ItemID: &id, AccountID: &id, TransactionIDs: []uuid.UUID{id}},
		{Event: "payment_intent/error", PaymentRequestID: &id, PaymentIntentID: &id, ErrorCode: str(model.PaymentErrorLimitExceeded)},
		{Event: "scheduled_payment/canceled", PaymentRequestID: &id, ScheduledPaymentID: &id},
		{Event: "scheduled_payment/all_created", PaymentRequestID: &id, PaymentIntentID: &id},
		{Event: "automatic_pix_payment/error", PaymentRequestID: &id, AutomaticPixPaymentID: &id, ErrorCode: str(model.PaymentErrorInsufficientFunds)},
		{Event: "smart_transfer_preauthorization/completed", PreauthorizationID: &id},
		{Event: "smart_transfer_preauthorization/error", PreauthorizationID: &id, ErrorCode: str("CONSENT_REJECTED"), ErrorMessage: str("recusou")},
		{Event: "smart_transfer_payment/error", SmartTransferPaymentID: &id, ErrorCode: str(model.PaymentErrorInsufficientFunds)},
		{Event: "boleto/updated", BoletoID: &id},
	}
	for _, in := range ok {
		if _, err := checkFireInput(in); err != nil {
			t.Errorf("%+v: %v", in, err)
		}
	}
	bad := []struct {
		in   model.SandboxEventInput
		code model.Code
		says string
	}{
		{model.SandboxEventInput{ItemID: &id}, model.CodeInvalidParameter, "event is required"},
		{model.SandboxEventInput{Event: "all", ItemID: &id}, model.CodeInvalidWebhookEvent, "cannot be fired"},
		{model.SandboxEventInput{Event: "smart_transfer_payment/completed"}, model.CodeInvalidParameter, "smartTransferPaymentId is required"},
		{model.SandboxEventInput{Event: "smart_transfer_preauthorization/completed"}, model.CodeInvalidParameter, "preauthorizationId is required"},
		{model.SandboxEventInput{Event: "boleto/updated"}, model.CodeInvalidParameter, "boletoId is required"},
		{model.SandboxEventInput{Event: "boleto/updated", BoletoID: &id, PaymentRequestID: &id}, model.CodeInvalidParameter, "paymentRequestId does not apply"},
		{model.SandboxEventInput{Event: "boleto/updated", BoletoID: &id, ErrorCode: str(model.PaymentErrorCanceled)}, model.CodeInvalidParameter, "errorCode does not apply"},
		{model.SandboxEventInput{Event: "smart_transfer_preauthorization/completed", PreauthorizationID: &id, ErrorMessage: str("x")}, model.CodeInvalidParameter, "errorMessage does not apply"},
		{model.SandboxEventInput{Event: "smart_transfer_payment/completed", SmartTransferPaymentID: &id, PreauthorizationID: &id}, model.CodeInvalidParameter, "preauthorizationId does not apply"},
		{model.SandboxEventInput{Event: "smart_transfer_payment/error", SmartTransferPaymentID: &id, ErrorCode: str("CONSENT_REJECTED")}, model.CodeInvalidParameter, "INSUFFICIENT_FUNDS"},
		{model.SandboxEventInput{Event: "item/updated", ItemID: &id, BoletoID: &id}, model.CodeInvalidParameter, "boletoId does not apply"},
		{model.SandboxEventInput{Event: "Item/Updated", ItemID: &id}, model.CodeInvalidWebhookEvent, "not an event name"},
		{model.SandboxEventInput{Event: "item/updated"}, model.CodeInvalidParameter, "itemId is required"},
		{model.SandboxEventInput{Event: "payment_request/updated", ItemID: &id}, model.CodeInvalidParameter, "itemId does not apply"},
		{model.SandboxEventInput{Event: "payment_request/updated"}, model.CodeInvalidParameter, "paymentRequestId is required"},
		{model.SandboxEventInput{Event: "transactions/created", ItemID: &id, TransactionIDs: []uuid.UUID{id}}, model.CodeInvalidParameter, "transactionIds does not apply"},
		{model.SandboxEventInput{Event: "transactions/updated", ItemID: &id, TransactionIDs: []uuid.UUID{}}, model.CodeInvalidParameter, "1 to 500"},
		{model.SandboxEventInput{Event: "transactions/updated", ItemID: &id, TransactionIDs: make([]uuid.UUID, 501)}, model.CodeInvalidParameter, "1 to 500"},
		{model.SandboxEventInput{Event: "item/updated", ItemID: &id, ErrorCode: str("SITE_NOT_AVAILABLE")}, model.CodeInvalidParameter, "errorCode does not apply"},
		{model.SandboxEventInput{Event: "item/error", ItemID: &id, ErrorCode: str("PARTIAL_SUCCESS")}, model.CodeInvalidParameter, "execution error code"},
		{model.SandboxEventInput{Event: "item/error", ItemID: &id, ErrorCode: str(model.PaymentErrorLimitExceeded)}, model.CodeInvalidParameter, "execution error code"},
		{model.SandboxEventInput{Event: "item/error", ItemID: &id, ErrorMessage: str("")}, model.CodeInvalidParameter, "1 to 500"},
		{model.SandboxEventInput{Event: "payment_intent/error", PaymentRequestID: &id, ErrorCode: str("SITE_NOT_AVAILABLE")}, model.CodeInvalidParameter, "INSUFFICIENT_FUNDS"},
		{model.SandboxEventInput{Event: "payment_intent/completed", PaymentRequestID: &id, ScheduledPaymentID: &id}, model.CodeInvalidParameter, "scheduledPaymentId does not apply"},
		{model.SandboxEventInput{Event: "scheduled_payment/all_completed", PaymentRequestID: &id, ScheduledPaymentID: &id}, model.CodeInvalidParameter, "scheduledPaymentId does not apply"},
	}
	for _, c := range bad {
		_, err := checkFireInput(c.in)
		wantError(t, c.in.Event, err, c.code, c.says)
	}
}

// A stream position reads back as written; anything else is not a cursor.
func TestStreamPosition(t *testing.T) {
	t.Parallel()
	for _, p := range []db.StreamPosition{{}, {XID: 1, Seq: 2}, {XID: 1<<63 - 1, Seq: 1<<63 - 1}} {
		got, ok := db.ParseStreamPosition(p.String())
		if !ok || got != p {
			t.Errorf("%v read back as %v %v", p, got, ok)
		}
	}
	for _, s := range []string{"5.0.5:9:", "5.0.5:9:5,7", "9.3.5:9:5,7", "12.1.1:12:3,4,11"} {
		p, ok := db.ParseStreamPosition(s)
		if !ok || p.String() != s || p.Snapshot == "" {
			t.Errorf("%q read as %v %v", s, p, ok)
		}
	}
	for _, s := range []string{"", "1", "1.", ".1", "1.-1", "-1.1", "1.2.3", "a.b", "18446744073709551615.1", " 1.1", strings.Repeat("9", 40) + ".1",
		"5.0.9:5:", "5.0.5:9:5,", "5.0.5:9:5,7.1", "5.0.5:9", "5.0.:9:", "5.0.5:9:5;7", "5.0." + strings.Repeat("1,", 40000)} {
		if _, ok := db.ParseStreamPosition(s); ok {
			t.Errorf("%q read as a position", s)
		}
	}
}
