package payments

import (
	"testing"

	"ponte/model"
)

var intentStatuses = []string{Started, Enqueued, ConsentAwaitingAuthorization, ConsentAuthorized, ConsentRejected, PaymentPending,
	PaymentPartiallyAccepted, SettlementProcessing, SettlementDebtorAccount, PaymentCompleted, PaymentRejected, IntentError,
	IntentCanceled, Revoked, Consumed, PaymentTimeout}

var requestStatuses = []string{Created, InProgress, WaitingPayerAuthorization, Authorized, Scheduled, Completed, RequestError,
	RefundInProgress, Refunded, RefundError, Expired, Canceled}

// Every move outside the tables is a 409 with its codeDescription; every status an intent
// can rest in implies a request status the request can reach from where it was.
func TestTransitionTables(t *testing.T) {
	for _, c := range []struct {
		statuses []string
		table    map[string][]string
		check    func(from, to string) error
		code     string
	}{
		{intentStatuses, intentMoves, checkIntentMove, model.CodeInvalidIntentTransition.String()},
		{requestStatuses, requestMoves, checkRequestMove, model.CodeInvalidRequestTransition.String()},
	} {
		for _, from := range c.statuses {
			for _, to := range c.statuses {
				err := c.check(from, to)
				if from == to || allowed(c.table, from, to) {
					if err != nil {
						t.Errorf("%s → %s is in the table but refused: %v", from, to, err)
					}
					continue
				}
				e, _ := model.AsError(err)
				if err == nil || e.Status() != 409 || e.Code.String() != c.code {
					t.Errorf("%s → %s: %v, want a 409 %s", from, to, err, c.code)
				}
			}
		}
	}
	for _, s := range []string{PaymentCompleted, PaymentRejected, ConsentRejected, PaymentTimeout, IntentCanceled, IntentError, Revoked, Consumed} {
		if !intentEnded(s) {
			t.Errorf("%s should end the intent", s)
		}
	}
	// An intent's every move keeps its request on a path the request table allows.
	for from, moves := range intentMoves {
		for _, to := range moves {
			for _, kind := range []requestKind{single, dated, recurring} {
				rf, rt := requestFollows(from, kind), requestFollows(to, kind)
				if to == Revoked || to == Consumed || (kind != single && to == PaymentPending) {
					continue // dated and recurring payments run apart; their end sets both
				}
				if err := checkRequestMove(rf, rt); err != nil {
					t.Errorf("intent %s → %s (kind %d) moves the request %s → %s: %v", from, to, kind, rf, rt, err)
				}
			}
		}
	}
}
