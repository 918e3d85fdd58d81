package rest_test

import (
	"context"
	"testing"
	"time"

	"ponte/testsupport"
	"ponte/webhooks"
)

// awaitDeliveriesDone waits until the item has settled (it records no more events) and the
// delivery queue holds nothing to run now or later: every delivery was sent for the last
// time. What a receiver got is then final, so a test can assert that nothing more came
// without guessing how long the schedule takes.
func awaitDeliveriesDone(t *testing.T, env *testsupport.Env, key, itemID string) {
	t.Helper()
	env.WaitItem(t, key, itemID, testsupport.Settled)
	testsupport.Eventually(t, "the webhook delivery queue to empty", 30*time.Second, func() bool {
		depths, err := env.DB.JobDepths(context.Background())
		if err != nil {
			t.Fatalf("job depths: %v", err)
		}
		for _, d := range depths {
			if d.Queue == webhooks.Queue && d.Jobs > 0 {
				return false
			}
		}
		return true
	})
}

// clockPast waits until the service's clock, at the API's millisecond precision, has moved
// past at: a change made then has a later timestamp than at.
func clockPast(t *testing.T, at any) {
	t.Helper()
	s, _ := at.(string)
	when, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("time %v: %v", at, err)
	}
	testsupport.Eventually(t, "the clock to pass "+s, time.Second, func() bool {
		return time.Now().Truncate(time.Millisecond).After(when)
	})
}
