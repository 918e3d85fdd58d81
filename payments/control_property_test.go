package payments_test

import (
	"flag"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// Any sequence of control moves, allowed or not, on the intent or its request: a move is
// refused exactly when its table does not list it from where the resource is, nothing
// ever holds a status its table does not know, and the ledger stays balanced. rapid keeps a
// failing sequence under testdata/rapid and replays it first.
func TestSandboxMoveSequences(t *testing.T) {
	defer fewChecks()()
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

// fewChecks runs a few rapid checks unless -rapid.checks asks for more: each creates
// resources against PostgreSQL. It returns what puts the flag back.
func fewChecks() func() {
	f := flag.Lookup("rapid.checks")
	if f == nil {
		return func() {}
	}
	given := false
	flag.Visit(func(g *flag.Flag) { given = given || g.Name == "rapid.checks" })
	if given {
		return func() {}
	}
	old := f.Value.String()
	_ = f.Value.Set("12")
	return func() { _ = f.Value.Set(old) }
}

var smartTransferStatuses = []string{payments.PaymentPending, payments.SettlementProcessing, payments.SettlementDebtorAccount,
	payments.PaymentCompleted, payments.PaymentRejected, payments.IntentError, payments.IntentCanceled}

var bulkStatuses = []string{payments.BulkCreated, payments.BulkPaymentInProgress, payments.BulkCompleted, payments.BulkError, payments.Refunded}

// The same for smart transfer payments and bulk payments: any sequence of moves is
// refused exactly when the table does not list it, the stored status is the one the moves
// left, and the ledger stays balanced. The institution's own steps wait an hour here, so
// that the moves alone decide (the race with them has its own test).
func TestSandboxTransferMoveSequences(t *testing.T) {
	defer fewChecks()()
	w := newWorld(t, func(s *testsupport.Setup) { s.Payments.StepDelay = time.Hour })
	pre := w.approved(happyCPF, nil, w.recipient)
	account := w.smartAccount()
	rapid.Check(t, func(r *rapid.T) {
		if rapid.Bool().Draw(r, "smartTransfer") {
			p := must(w.transfer(pre.ID, w.recipient, float64(rapid.IntRange(1, 50_000).Draw(r, "cents"))/100))(t)
			at := p.Status
			for i, steps := 0, rapid.IntRange(1, 6).Draw(r, "steps"); i < steps; i++ {
				to := rapid.SampledFrom(smartTransferStatuses).Draw(r, "transferTo")
				mv, err := w.move(model.SandboxSmartPays, p.ID, to)
				if ok := slices.Contains(payments.SmartTransferMovesFrom(at), to); ok != (err == nil) {
					r.Fatalf("smart transfer payment %s -> %s: allowed %v, error %v", at, to, ok, err)
				}
				if err != nil {
					wantRefused(t, err, payments.SmartTransferMovesFrom(at))
					continue
				}
				if mv.From != at || mv.SmartTransferPayment.Status != to {
					r.Fatalf("smart transfer payment %s -> %s: move %+v", at, to, mv.SmartTransferPayment)
				}
				at = to
				if got := must(w.pay.SmartTransferPayment(w.ctx, p.ID))(t).Status; got != at {
					r.Fatalf("stored smart transfer payment %s, moves said %s", got, at)
				}
			}
		} else {
			n := rapid.IntRange(1, 3).Draw(r, "requests")
			var requests []*model.PaymentRequest
			for i := 0; i < n; i++ {
				requests = append(requests, w.request(float64(rapid.IntRange(1, 5_000).Draw(r, "cents"))/100))
			}
			fundByMoves(w, account, 200)
			b := must(w.bulk(account, requests...))(t)
			at := b.Status
			for i, steps := 0, rapid.IntRange(1, 4).Draw(r, "steps"); i < steps; i++ {
				to := rapid.SampledFrom(bulkStatuses).Draw(r, "bulkTo")
				mv, err := w.move(model.SandboxBulkPays, b.ID, to)
				if ok := slices.Contains(payments.BulkMovesFrom(at), to); ok != (err == nil) {
					r.Fatalf("bulk payment %s -> %s: allowed %v, error %v", at, to, ok, err)
				}
				if err != nil {
					wantRefused(t, err, payments.BulkMovesFrom(at))
					continue
				}
				if mv.From != at || mv.Status != to || mv.BulkPayment.Status != to {
					r.Fatalf("bulk payment %s -> %s: move %s, bulk payment %s", at, to, mv.Status, mv.BulkPayment.Status)
				}
				want := map[string]string{payments.BulkError: payments.Created, payments.BulkPaymentInProgress: payments.InProgress,
					payments.BulkCompleted: payments.Completed}[to]
				for _, p := range mv.BulkPayment.PaymentRequests {
					if p.Status != want {
						r.Fatalf("bulk payment %s: request %s is %s, want %s", to, p.ID, p.Status, want)
					}
				}
				at = to
			}
		}
		w.env.AuditLedger(t)
	})
}

// fundByMoves pays amount into a smart account by control moves alone (the institution's
// steps may be held back).
func fundByMoves(w *world, a *model.SmartAccount, amount float64) {
	w.t.Helper()
	p := must(w.pay.CreateRequest(w.ctx, model.PaymentRequestInput{Amount: ptr(amount), IsSandbox: ptr(true), SmartAccountID: ptr(a.ID.String())}))(w.t)
	n := w.intent(p.ID, happyCPF)
	for _, s := range []string{payments.ConsentAuthorized, payments.PaymentPending, payments.SettlementProcessing, payments.SettlementDebtorAccount, payments.PaymentCompleted} {
		must(w.move(model.SandboxPaymentIntents, n.ID, s))(w.t)
	}
}
