package rest_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"ponte/model"
	"ponte/payments"
	"ponte/sandbox/payer"
	"ponte/testsupport"
)

// monthStart is the first day of the month n months after today's (São Paulo).
func monthStart(n int) time.Time {
	t := spToday()
	return time.Date(t.Year(), t.Month()+time.Month(n), 1, 0, 0, 0, 0, time.UTC)
}

func ymdOf(t time.Time) string { return t.Format(time.DateOnly) }

// Finding 6: under a MONTHLY authorization of R$ 25, twenty charges were accepted within
// three weeks, ten of them on one date. Each calendar month takes one charge (ten racing
// for a date: one wins, nine are refused naming it); the amount must be the fixed one and
// the date within the terms, each refusal with its code; a canceled charge frees its month.
func TestAutomaticPixOneChargePerPeriod(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t) // a charge runs at 08:00 on its date: none of these runs here
	key := env.NewClient(t, "automatic-pix periods").APIKey
	env.Recipient(t, key)
	m1, m2, m3 := monthStart(2), monthStart(3), monthStart(4)
	expires := monthStart(5).AddDate(0, 0, -1) // the last day of m3
	reqID := env.Do(t, "POST", "/payments/requests/automatic-pix", key, map[string]any{"interval": "MONTHLY", "startDate": day(3), "fixedAmount": 25,
		"expiresAt": ymdOf(expires), "isSandbox": true}).Want(200).String("id")
	authorizeAutoPix(t, env, key, reqID, happyCPF)
	schedule := func(amount float64, date string) *testsupport.Response {
		return env.Do(t, "POST", "/payments/requests/"+reqID+"/automatic-pix/schedule", key, map[string]any{"amount": amount, "date": date})
	}
	charged := model.CodeAutomaticPixPeriodCharged.String()
	names := func(m map[string]any, id string) {
		t.Helper()
		if data, _ := m["data"].(map[string]any); data == nil || data["automaticPixPaymentId"] != id {
			t.Fatalf("refusal does not name charge %s: %v", id, m)
		}
	}

	// Ten charges for one date at once: one is scheduled.
	date := ymdOf(m1.AddDate(0, 0, 9))
	results := make([]*testsupport.Response, 10)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			results[i] = schedule(25, date)
		}()
	}
	close(start)
	wg.Wait()
	var won string
	for _, r := range results {
		if r.Status == 200 {
			if won != "" {
				t.Fatalf("two charges scheduled on %s under a MONTHLY authorization", date)
			}
			won = r.String("id")
		}
	}
	if won == "" {
		t.Fatalf("no charge scheduled on %s", date)
	}
	for _, r := range results {
		if r.Status != 200 {
			names(r.WantError(409, charged), won)
		}
	}
	// Every other day of that month is refused too.
	for _, d := range []time.Time{m1, m1.AddDate(0, 0, 10), m2.AddDate(0, 0, -1)} {
		names(schedule(25, ymdOf(d)).WantError(409, charged), won)
	}

	// The tester's three weeks, a charge a day from the 21st of one month: one in that
	// month, one in the next (on its 1st), the rest refused.
	var accepted []string
	for i := range 20 {
		d := m2.AddDate(0, 0, 20+i)
		if r := schedule(25, ymdOf(d)); r.Status == 200 {
			accepted = append(accepted, ymdOf(d))
		} else {
			r.WantError(409, charged)
		}
	}
	if want := []string{ymdOf(m2.AddDate(0, 0, 20)), ymdOf(m3)}; fmt.Sprint(accepted) != fmt.Sprint(want) {
		t.Fatalf("charges accepted over three weeks %v, want %v", accepted, want)
	}

	// The terms: the fixed amount, and dates within startDate and expiresAt.
	for _, c := range []struct {
		amount float64
		date   string
		code   string
	}{
		{24.99, ymdOf(m3.AddDate(0, 0, 5)), model.CodeAutomaticPixAmountOutOfTerms.String()},
		{25.01, ymdOf(m3.AddDate(0, 0, 5)), model.CodeAutomaticPixAmountOutOfTerms.String()},
		{25, day(2), model.CodeAutomaticPixDateOutOfTerms.String()},
		{25, ymdOf(expires.AddDate(0, 0, 1)), model.CodeAutomaticPixDateOutOfTerms.String()},
	} {
		schedule(c.amount, c.date).WantError(400, c.code)
	}

	// A canceled charge frees its month.
	env.Do(t, "POST", fmt.Sprintf("/payments/requests/%s/automatic-pix/schedules/%s/cancel", reqID, won), key, nil).Want(200)
	schedule(25, ymdOf(m1.AddDate(0, 0, 19))).Want(200)

	live := map[string]int{}
	all := autoPixCharges(t, env, key, reqID)
	for _, a := range all {
		if a.Status != payments.AutoCanceled {
			live[a.Date[:7]]++
		}
	}
	if len(all) != 4 || len(live) != 3 || live[ymdOf(m1)[:7]] != 1 || live[ymdOf(m2)[:7]] != 1 || live[ymdOf(m3)[:7]] != 1 {
		t.Fatalf("%d charges, live by month %v; want 4 with one live a month in three months", len(all), live)
	}
}

// A failed charge's retry stays in its period and in the retry window counted from its
// original date, however often it is retried: a retry falling in the next week leaves that
// week free, and its own week stays charged.
func TestAutomaticPixRetryStaysInPeriod(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t, func(s *testsupport.Setup) {
		s.Payments.ScheduleAt = func(d time.Time) time.Time {
			if d.Sub(spToday()) <= 12*24*time.Hour {
				return time.Now() // the next twelve days run at once, so charges fail here
			}
			return time.Now().Add(time.Hour)
		}
	})
	key := env.NewClient(t, "automatic-pix retry period").APIKey
	env.Recipient(t, key)
	reqID := env.Do(t, "POST", "/payments/requests/automatic-pix", key, map[string]any{"interval": "WEEKLY", "startDate": day(1),
		"minimumVariableAmount": 10, "maximumVariableAmount": 100, "isRetryAccepted": true, "isSandbox": true}).Want(200).String("id")
	authorizeAutoPix(t, env, key, reqID, payer.CPFInsufficientFunds)
	monday := spToday().AddDate(0, 0, 2)
	for monday.Weekday() != time.Monday {
		monday = monday.AddDate(0, 0, 1)
	}
	on := func(days int) string { return ymdOf(monday.AddDate(0, 0, days)) }
	var charge model.AutomaticPixPayment
	env.Do(t, "POST", "/payments/requests/"+reqID+"/automatic-pix/schedule", key, map[string]any{"amount": 30, "date": on(0)}).Want(200).JSON(&charge)
	id := charge.ID.String()
	awaitCharge(t, env, key, reqID, id, payments.AutoError)
	retry := fmt.Sprintf("/payments/requests/%s/automatic-pix/schedules/%s/retry", reqID, id)
	env.Do(t, "POST", retry, key, map[string]any{"date": on(3)}).Want(200)
	awaitCharge(t, env, key, reqID, id, payments.AutoError)
	// Eight days after the original date, though five after the last retry: out of the window.
	env.Do(t, "POST", retry, key, map[string]any{"date": on(8)}).WantError(400, model.CodeAutomaticPixDateOutOfTerms.String())
	env.Do(t, "POST", retry, key, map[string]any{"date": on(7)}).Want(200).JSON(&charge)
	if charge.Date != on(7) || charge.Status != payments.AutoScheduled {
		t.Fatalf("retried %+v", charge)
	}
	// Its week is still charged; the next week, where the retry runs, is not.
	m := env.Do(t, "POST", "/payments/requests/"+reqID+"/automatic-pix/schedule", key, map[string]any{"amount": 30, "date": on(1)}).
		WantError(409, model.CodeAutomaticPixPeriodCharged.String())
	if data, _ := m["data"].(map[string]any); data == nil || data["automaticPixPaymentId"] != id {
		t.Fatalf("refusal does not name the retried charge: %v", m)
	}
	env.Do(t, "POST", "/payments/requests/"+reqID+"/automatic-pix/schedule", key, map[string]any{"amount": 30, "date": on(8)}).Want(200)
}
