package payments

import (
	"testing"
	"time"

	"ponte/model"
)

// Every pair of boleto statuses: the table's moves are allowed, every other move is a 409,
// nothing returns to OPEN and an ended boleto never moves.
func TestBoletoMoves(t *testing.T) {
	t.Parallel()
	all := []string{BoletoOpen, BoletoPaid, BoletoOverdue, BoletoCancelled, BoletoProtested}
	allowed := map[[2]string]bool{
		{BoletoOpen, BoletoPaid}: true, {BoletoOpen, BoletoOverdue}: true, {BoletoOpen, BoletoCancelled}: true,
		{BoletoOverdue, BoletoPaid}: true, {BoletoOverdue, BoletoCancelled}: true, {BoletoOverdue, BoletoProtested}: true,
	}
	for _, from := range all {
		for _, to := range all {
			err := checkBoletoMove(from, to)
			if allowed[[2]string{from, to}] != (err == nil) {
				t.Errorf("%s -> %s: %v", from, to, err)
			}
			if err != nil {
				if e, _ := model.AsError(err); e.Status() != 409 {
					t.Errorf("%s -> %s is a %d, want 409", from, to, e.Status())
				}
			}
		}
	}
}

// What paying costs: the amount until the due date; then the fine once (a percentage or a
// fixed sum) and the interest's monthly percentage pro rata per day, each to the cent half
// up, computed exactly.
func TestAmountDue(t *testing.T) {
	t.Parallel()
	due := time.Date(2026, 12, 10, 0, 0, 0, 0, time.UTC)
	noon := func(day int) time.Time { return time.Date(2026, 12, day, 15, 0, 0, 0, time.UTC) } // 12:00 in São Paulo
	for _, c := range []struct {
		amount         float64
		fine, interest *model.BoletoCharge
		paid           time.Time
		want           float64
	}{
		{100, &model.BoletoCharge{Value: 2, Type: "PERCENTAGE"}, &model.BoletoCharge{Value: 1, Type: "PERCENTAGE"}, noon(10), 100},
		{100, &model.BoletoCharge{Value: 2, Type: "PERCENTAGE"}, &model.BoletoCharge{Value: 1, Type: "PERCENTAGE"}, noon(11), 102.03}, // 2.00 + 1%/30 = 0.0333
		{100, &model.BoletoCharge{Value: 2, Type: "PERCENTAGE"}, &model.BoletoCharge{Value: 1, Type: "PERCENTAGE"}, noon(20), 102.33}, // 10 days: 0.333
		{100, &model.BoletoCharge{Value: 5.5, Type: "FIXED"}, nil, noon(25), 105.5},
		{1234.56, nil, &model.BoletoCharge{Value: 3, Type: "PERCENTAGE"}, noon(25), 1253.08}, // 15 days of 3%: 18.5184 -> 18.52
		{0.15, &model.BoletoCharge{Value: 10, Type: "PERCENTAGE"}, nil, noon(11), 0.17},      // 0.015 -> 0.02, half up
		{100, nil, nil, noon(30), 100},
	} {
		b := &model.Boleto{Amount: c.amount, DueDate: model.NewTime(due), Fine: c.fine, Interest: c.interest}
		if got := AmountDue(b, c.paid); got != c.want {
			t.Errorf("AmountDue(%v, fine %+v, interest %+v, paid %s) = %v, want %v", c.amount, c.fine, c.interest, c.paid.Format(time.DateOnly), got, c.want)
		}
	}
}
