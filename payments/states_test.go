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

// The request follows its intent as the status table of docs/payments.md says, for each kind of request.
func TestRequestFollows(t *testing.T) {
	t.Parallel()
	cases := []struct {
		intent                   string
		single, dated, recurring string
	}{
		{Started, InProgress, InProgress, InProgress},
		{Enqueued, InProgress, InProgress, InProgress},
		{ConsentAwaitingAuthorization, WaitingPayerAuthorization, WaitingPayerAuthorization, WaitingPayerAuthorization},
		{PaymentPartiallyAccepted, WaitingPayerAuthorization, WaitingPayerAuthorization, WaitingPayerAuthorization},
		{ConsentAuthorized, InProgress, Scheduled, Authorized},
		{PaymentPending, InProgress, InProgress, InProgress},
		{SettlementProcessing, InProgress, InProgress, InProgress},
		{SettlementDebtorAccount, InProgress, InProgress, InProgress},
		{PaymentCompleted, Completed, Completed, Completed},
		{PaymentRejected, RequestError, RequestError, RequestError},
		{IntentError, RequestError, RequestError, RequestError},
		// No money moved: the payer may try again.
		{ConsentRejected, Created, Created, Created},
		{PaymentTimeout, Created, Created, Created},
		{IntentCanceled, Created, Created, Created},
	}
	for _, c := range cases {
		for kind, want := range map[requestKind]string{single: c.single, dated: c.dated, recurring: c.recurring} {
			if got := requestFollows(c.intent, kind); got != want {
				t.Errorf("intent %s, kind %d: request %s, want %s", c.intent, kind, got, want)
			}
		}
	}
}

// Moves the spec and docs/payments.md pin down, whatever the tables grow into: ended
// intents never move again, money that moved is never given back to the payer, and a
// completed request only goes on to a refund.
func TestPinnedMoves(t *testing.T) {
	t.Parallel()
	cases := []struct {
		intent   bool
		from, to string
		ok       bool
	}{
		{true, Started, Enqueued, true},
		{true, ConsentAwaitingAuthorization, PaymentTimeout, true},
		{true, ConsentAwaitingAuthorization, ConsentRejected, true},
		{true, PaymentPartiallyAccepted, SettlementProcessing, true},
		{true, SettlementDebtorAccount, PaymentCompleted, true},
		{true, Started, PaymentCompleted, false},
		{true, ConsentAwaitingAuthorization, PaymentCompleted, false},
		{true, PaymentPending, ConsentRejected, false},
		{true, SettlementProcessing, IntentCanceled, false},
		{true, PaymentCompleted, PaymentRejected, false},
		{true, PaymentCompleted, IntentError, false},
		{true, ConsentRejected, ConsentAuthorized, false},
		{true, PaymentTimeout, ConsentAuthorized, false},
		{true, Revoked, ConsentAuthorized, false},
		{false, Created, InProgress, true},
		{false, InProgress, Created, true},
		{false, Completed, RefundInProgress, true},
		{false, Completed, Created, false},
		{false, Completed, Canceled, false},
		{false, Canceled, Created, false},
		{false, Expired, InProgress, false},
		{false, RequestError, InProgress, false},
		{false, Created, Completed, false},
	}
	for _, c := range cases {
		check := checkRequestMove
		if c.intent {
			check = checkIntentMove
		}
		if err := check(c.from, c.to); (err == nil) != c.ok {
			t.Errorf("%s → %s: %v, want allowed %v", c.from, c.to, err, c.ok)
		}
	}
	for _, s := range intentStatuses {
		ended := s == PaymentCompleted || s == PaymentRejected || s == ConsentRejected || s == PaymentTimeout ||
			s == IntentCanceled || s == IntentError || s == Revoked || s == Consumed
		if intentEnded(s) != ended {
			t.Errorf("intentEnded(%s) = %v, want %v", s, !ended, ended)
		}
	}
}

// What the consent page says of a decision, who it waits for, and when a payer may start.
func TestPayerViews(t *testing.T) {
	t.Parallel()
	decisions := map[string]string{
		Started: "", Enqueued: "", ConsentAwaitingAuthorization: "",
		ConsentAuthorized: "AUTHORIZED", PaymentPending: "AUTHORIZED", PaymentPartiallyAccepted: "AUTHORIZED",
		SettlementProcessing: "AUTHORIZED", SettlementDebtorAccount: "AUTHORIZED", PaymentCompleted: "AUTHORIZED", Consumed: "AUTHORIZED",
		ConsentRejected: "REJECTED", PaymentRejected: "REJECTED", PaymentTimeout: "EXPIRED",
		IntentCanceled: "ENDED", Revoked: "ENDED", IntentError: "ENDED",
	}
	for _, s := range intentStatuses {
		want, ok := decisions[s]
		if !ok {
			t.Errorf("no expected decision for %s", s)
		}
		if got := DecisionOf(s); got != want {
			t.Errorf("DecisionOf(%s) = %q, want %q", s, got, want)
		}
		waiting, second := AwaitingPayer(s)
		if waiting != (s == ConsentAwaitingAuthorization || s == PaymentPartiallyAccepted) || second != (s == PaymentPartiallyAccepted) {
			t.Errorf("AwaitingPayer(%s) = %v, %v", s, waiting, second)
		}
	}
	for _, s := range requestStatuses {
		if Payable(s) != (s == Created) {
			t.Errorf("Payable(%s) = %v", s, Payable(s))
		}
	}
}
