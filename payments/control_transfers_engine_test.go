package payments_test

import (
	"sync"
	"testing"

	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// A move racing the payment's own settlement steps (no delay between them here): the row
// lock puts one after the other, so the move is taken from the status the steps left
// (PAYMENT_REJECTED then ends the payment, and no step follows) or refused once the steps
// completed it; either way one end, one end event, and the ledger posts only what completed.
func TestSandboxMoveRacesSmartTransferSteps(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	pre := w.approved(happyCPF, nil, w.recipient)
	const n = 8
	ids := make([]*model.SmartTransferPayment, n)
	for i := range ids {
		ids[i] = must(w.transfer(pre.ID, w.recipient, 1.25))(t)
	}
	taken := make([]bool, n)
	var wg sync.WaitGroup
	for i, p := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := w.move(model.SandboxSmartPays, p.ID, payments.PaymentRejected)
			if err == nil {
				taken[i] = true
				return
			}
			if e, internal := model.AsError(err); internal || e.Code != model.CodeSandboxMoveNotAllowed {
				t.Errorf("move racing the steps: %v", err)
			}
		}()
	}
	wg.Wait()
	completed := 0
	for i, p := range ids {
		var got *model.SmartTransferPayment
		testsupport.Eventually(t, "smart transfer payment ends", wait, func() bool {
			got = must(w.pay.SmartTransferPayment(w.ctx, p.ID))(t)
			return got.Status == payments.PaymentCompleted || got.Status == payments.PaymentRejected
		})
		if taken[i] != (got.Status == payments.PaymentRejected) {
			t.Fatalf("payment %d: move taken %v, ended %s", i, taken[i], got.Status)
		}
		if got.Status == payments.PaymentCompleted {
			completed++
		}
	}
	ends := len(w.events(w.client, "smart_transfer_payment/completed")) + len(w.events(w.client, "smart_transfer_payment/error"))
	if ends != n || len(w.events(w.client, "smart_transfer_payment/completed")) != completed {
		t.Fatalf("%d end events for %d payments (%d completed)", ends, n, completed)
	}
	w.env.AuditLedger(t)
}
