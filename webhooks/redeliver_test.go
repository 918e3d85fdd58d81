package webhooks_test

import (
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
	"ponte/webhooks"
)

// A redelivery asked for the moment a delivery ends is sent. The finished job still reads as
// running until River records its completion, and its uniqueness swallowed the new job:
// the delivery stayed PENDING with no job to send it. Each round redelivers as soon as the
// delivery reads DELIVERED, which falls in that moment most of the time.
func TestRedeliveryRightAfterADelivery(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := variantA(t, rc)
	a := newClient(t, env, "redeliver-at-once")
	event := "item/updated"
	if _, err := env.Webhooks.Create(a.ctx, model.WebhookInput{Event: &event, URL: ptr(rc.URL + "/again")}); err != nil {
		t.Fatal(err)
	}
	ev := record(t, env, a, event, "")
	for round := 1; round <= 8; round++ {
		// Poll tightly, without the helpers' pause: the moment is a few milliseconds long.
		deadline := time.Now().Add(30 * time.Second)
		for {
			ds := deliveries(t, env, a, ev)
			if len(ds) == 1 && ds[0].Status == webhooks.StatusDelivered && len(ds[0].AttemptLog) == round {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("round %d: the delivery never ended: %+v", round, *ds[0])
			}
			time.Sleep(time.Millisecond)
		}
		if _, err := env.Webhooks.Redeliver(a.ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	rc.Await(t, "the last redelivery", 30*time.Second, func(got []testsupport.Delivery) bool { return len(got) == 9 })
	drained(t, env)
	if ds := deliveries(t, env, a, ev); ds[0].Status != webhooks.StatusDelivered || len(ds[0].AttemptLog) != 9 {
		t.Fatalf("after eight redeliveries: %+v", ds[0])
	}
}
