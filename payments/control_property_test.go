package payments_test

import (
	"flag"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"ponte/model"
	"ponte/payments"
)

// Any sequence of control moves, allowed or not, on the intent or its request: a move is
// refused exactly when its table does not list it from where the resource is, nothing
// ever holds a status its table does not know, and the ledger stays balanced. rapid keeps a
// failing sequence under testdata/rapid and replays it first.
func TestSandboxMoveSequences(t *testing.T) {
	// Each run creates a request and an intent against PostgreSQL: CI runs a few;
	// -rapid.checks asks for more.
	if f := flag.Lookup("rapid.checks"); f != nil {
		given := false
		flag.Visit(func(g *flag.Flag) { given = given || g.Name == "rapid.checks" })
		if !given {
			old := f.Value.String()
			_ = f.Value.Set("12")
			defer func() { _ = f.Value.Set(old) }()
		}
	}
	w := newWorld(t)
	known := func(table []string, s string) bool { return slices.Contains(table, s) }
	rapid.Check(t, func(r *rapid.T) {
		p, n := w.freshIntent(float64(rapid.IntRange(1, 50_000).Draw(r, "cents"))/100, nil)
		intentAt, requestAt := n.Status, must(w.pay.Request(w.ctx, p.ID))(t).Status
		for i, steps := 0, rapid.IntRange(1, 12).Draw(r, "steps"); i < steps; i++ {
			if rapid.Bool().Draw(r, "onIntent") {
				to := rapid.SampledFrom(intentStatuses).Draw(r, "intentTo")
				mv, err := w.move(model.SandboxPaymentIntents, n.ID, to)
				if ok := slices.Contains(payments.IntentMovesFrom(intentAt), to); ok != (err == nil) {
					r.Fatalf("intent %s -> %s: allowed %v, error %v", intentAt, to, ok, err)
				}
				if err == nil {
					intentAt, requestAt = mv.PaymentIntent.Status, mv.PaymentRequest.Status
				}
			} else {
				to := rapid.SampledFrom(requestStatuses).Draw(r, "requestTo")
				mv, err := w.move(model.SandboxPaymentRequests, p.ID, to)
				if err != nil {
					if e, internal := model.AsError(err); internal || e.Code != model.CodeSandboxMoveNotAllowed {
						r.Fatalf("request %s -> %s: %v", requestAt, to, err)
					}
				} else {
					if !slices.Contains(payments.RequestMovesFrom(requestAt), to) {
						r.Fatalf("request %s -> %s taken, its table does not list it", requestAt, to)
					}
					requestAt = mv.PaymentRequest.Status
				}
			}
			if !known(intentStatuses, intentAt) || !known(requestStatuses, requestAt) {
				r.Fatalf("unknown status: intent %s, request %s", intentAt, requestAt)
			}
			got := must(w.pay.Intent(w.ctx, n.ID))(t)
			req := must(w.pay.Request(w.ctx, p.ID))(t)
			if got.Status != intentAt || req.Status != requestAt {
				r.Fatalf("stored intent %s request %s, moves said %s and %s", got.Status, req.Status, intentAt, requestAt)
			}
		}
		w.env.AuditLedger(t)
	})
}
