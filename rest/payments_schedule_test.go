package rest_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// spToday is today's date in São Paulo, at UTC midnight, as payment dates are kept.
func spToday() time.Time {
	n := time.Now().In(payments.SaoPaulo)
	return time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, time.UTC)
}

func day(n int) string { return spToday().AddDate(0, 0, n).Format("2006-01-02") }

// scheduledEnv runs payments dated within two days at once and the rest an hour later, so
// a test sees some paid and can still cancel others.
func scheduledEnv(t *testing.T, rc *testsupport.Receiver) *testsupport.Env {
	return testsupport.New(t, func(s *testsupport.Setup) {
		rc.Route(s)
		s.Payments.ScheduleAt = func(d time.Time) time.Time {
			if d.Sub(spToday()) <= 48*time.Hour {
				return time.Now()
			}
			return time.Now().Add(time.Hour)
		}
	})
}

func TestPaymentScheduleForms(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := scheduledEnv(t, rc)
	key := env.NewClient(t, "schedule-forms").APIKey
	env.Recipient(t, key)
	bad := []map[string]any{
		{"type": "SINGLE"},
		{"type": "SINGLE", "date": day(0)},
		{"type": "SINGLE", "date": day(800)},
		{"type": "SINGLE", "date": "tomorrow"},
		{"type": "DAILY", "startDate": day(1)},
		{"type": "DAILY", "startDate": day(1), "occurrences": 0},
		{"type": "DAILY", "startDate": day(1), "occurrences": 61},
		{"type": "DAILY", "startDate": day(-1), "occurrences": 3},
		{"type": "WEEKLY", "startDate": day(1), "occurrences": 3, "dayOfWeek": "FUNDAY"},
		{"type": "WEEKLY", "startDate": day(1), "occurrences": 3},
		{"type": "MONTHLY", "startDate": day(1), "occurrences": 3, "dayOfMonth": 32},
		{"type": "MONTHLY", "startDate": day(1), "occurrences": 25, "dayOfMonth": 5},
		{"type": "CUSTOM", "dates": []string{}},
		{"type": "CUSTOM", "dates": []string{day(2), day(2)}},
		{"type": "CUSTOM", "dates": []string{day(2), "2026-02-30"}},
		{"type": "YEARLY", "startDate": day(1), "occurrences": 2},
	}
	for _, s := range bad {
		env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "isSandbox": true, "schedule": s}).WantError(400, model.CodeInvalidSchedule.String())
	}

	start := spToday().AddDate(0, 0, 1)
	weekly := []string{}
	first := start
	for first.Weekday() != time.Thursday {
		first = first.AddDate(0, 0, 1)
	}
	for i := range 3 {
		weekly = append(weekly, first.AddDate(0, 0, 7*i).Format("2006-01-02"))
	}
	monthly := []string{}
	for i := range 3 {
		m := time.Date(start.Year(), start.Month()+time.Month(i), 1, 0, 0, 0, 0, time.UTC)
		if i == 0 && start.Day() > m.AddDate(0, 1, -1).Day() {
			continue
		}
		monthly = append(monthly, m.AddDate(0, 1, -1).Format("2006-01-02"))
	}
	if len(monthly) < 3 {
		m := time.Date(start.Year(), start.Month()+3, 1, 0, 0, 0, 0, time.UTC)
		monthly = append(monthly, m.AddDate(0, 1, -1).Format("2006-01-02"))
	}
	forms := []struct {
		name     string
		schedule map[string]any
		dates    []string
	}{
		{"single", map[string]any{"type": "SINGLE", "date": day(30)}, []string{day(30)}},
		{"daily", map[string]any{"type": "DAILY", "startDate": day(5), "occurrences": 3}, []string{day(5), day(6), day(7)}},
		// The hosted API's own client spells Thursday this way.
		{"weekly on THURDSAY", map[string]any{"type": "WEEKLY", "startDate": day(1), "occurrences": 3, "dayOfWeek": "THURDSAY"}, weekly},
		// Day 31 falls on the last day of shorter months.
		{"monthly on the 31st", map[string]any{"type": "MONTHLY", "startDate": day(1), "occurrences": 3, "dayOfMonth": 31}, monthly},
		{"custom", map[string]any{"type": "CUSTOM", "dates": []string{day(9), day(4)}, "additionalInformation": "parcelas"}, []string{day(4), day(9)}},
	}
	for _, f := range forms {
		t.Run(f.name, func(t *testing.T) {
			var p model.PaymentRequest
			env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 10, "isSandbox": true, "schedule": f.schedule}).Want(200).JSON(&p)
			if p.Schedule == nil || p.Schedule.Type != f.schedule["type"] || (p.Schedule.DayOfWeek != nil && *p.Schedule.DayOfWeek != "THURSDAY") {
				t.Fatalf("schedule %+v", p.Schedule)
			}
			var n model.PaymentIntent
			env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": p.ID, "connectorId": payConnector,
				"parameters": map[string]any{"cpf": happyCPF}}).Want(200).JSON(&n)
			consent(t, env, &n, "authorize").Want(http.StatusOK)
			var page model.ScheduledPaymentPage
			env.Do(t, "GET", "/payments/requests/"+p.ID.String()+"/schedules", key, nil).Want(200).JSON(&page)
			var dates []string
			for _, s := range page.Results {
				dates = append(dates, s.ScheduledDate)
			}
			if !slices.Equal(dates, f.dates) {
				t.Fatalf("dates %v, want %v", dates, f.dates)
			}
			if s := env.Do(t, "GET", "/payments/requests/"+p.ID.String(), key, nil).Want(200).String("status"); s != payments.Scheduled {
				t.Fatalf("request %s", s)
			}
			env.Do(t, "DELETE", "/payments/requests/"+p.ID.String(), key, nil).WantError(409, model.CodePaymentRequestNotEditable.String())
			// Cancel them all: the request ends CANCELED and the consent is revoked.
			env.Do(t, "POST", "/payments/requests/"+p.ID.String()+"/schedules/cancel", key, nil).Want(200)
			env.Do(t, "GET", "/payments/requests/"+p.ID.String()+"/schedules", key, nil).Want(200).JSON(&page)
			for _, s := range page.Results {
				if s.Status != payments.SchedCanceled {
					t.Fatalf("after cancel all: %+v", s)
				}
			}
			if s := env.Do(t, "GET", "/payments/requests/"+p.ID.String(), key, nil).Want(200).String("status"); s != payments.Canceled {
				t.Fatalf("request %s after cancel all", s)
			}
			if n2 := intentOf(t, env, key, n.ID.String()); n2.Status != payments.Revoked {
				t.Fatalf("intent %s after cancel all", n2.Status)
			}
			env.Do(t, "DELETE", "/payments/requests/"+p.ID.String(), key, nil).Want(200)
		})
	}
}

// awaitRequestEvents waits until a request's events, counted by name, are exactly want
// (names not in want are not counted).
func awaitRequestEvents(t *testing.T, rc *testsupport.Receiver, reqID string, want map[string]int) {
	t.Helper()
	rc.Await(t, fmt.Sprintf("events %v of request %s", want, reqID), 20*time.Second, func(d []testsupport.Delivery) bool {
		got := map[string]int{}
		for _, x := range d {
			if x.Payload["paymentRequestId"] == reqID {
				got[x.Payload["event"].(string)]++
			}
		}
		for k, v := range want {
			if got[k] != v {
				return false
			}
		}
		return true
	})
}

// A daily schedule runs its payments on their dates by durable jobs; one is canceled.
func TestPaymentScheduleRuns(t *testing.T) {
	t.Parallel()
	rc := testsupport.NewTLSReceiver(t)
	env := scheduledEnv(t, rc)
	key := env.NewClient(t, "schedule-runs").APIKey
	env.Recipient(t, key)
	env.Do(t, "POST", "/webhooks", key, map[string]any{"event": "all", "url": rc.URL + "/all"}).Want(200)
	var p model.PaymentRequest
	env.Do(t, "POST", "/payments/requests", key, map[string]any{"amount": 20, "description": "Mensalidade", "isSandbox": true,
		"schedule": map[string]any{"type": "DAILY", "startDate": day(1), "occurrences": 3}}).Want(200).JSON(&p)
	reqID := p.ID.String()
	var n model.PaymentIntent
	env.Do(t, "POST", "/payments/intents", key, map[string]any{"paymentRequestId": reqID, "connectorId": payConnector,
		"parameters": map[string]any{"cpf": happyCPF}}).Want(200).JSON(&n)
	// The third payment is an hour away: cancel it before it runs.
	var page model.ScheduledPaymentPage
	consent(t, env, &n, "authorize").Want(http.StatusOK)
	env.Do(t, "GET", "/payments/requests/"+reqID+"/schedules", key, nil).Want(200).JSON(&page)
	if page.Total != 3 {
		t.Fatalf("%d scheduled payments", page.Total)
	}
	third := page.Results[2]
	var canceled model.ScheduledPayment
	env.Do(t, "POST", fmt.Sprintf("/payments/requests/%s/schedules/%s/cancel", reqID, third.ID), key, nil).Want(200).JSON(&canceled)
	if canceled.Status != payments.SchedCanceled || canceled.Description == nil || *canceled.Description != "Mensalidade" {
		t.Fatalf("canceled %+v", canceled)
	}
	env.Do(t, "POST", fmt.Sprintf("/payments/requests/%s/schedules/%s/cancel", reqID, third.ID), key, nil).WantError(409, "SCHEDULED_PAYMENT_NOT_CANCELABLE")

	testsupport.Eventually(t, "the request to complete", 30*time.Second, func() bool {
		return env.Do(t, "GET", "/payments/requests/"+reqID, key, nil).Want(200).String("status") == payments.Completed
	})
	env.Do(t, "GET", "/payments/requests/"+reqID+"/schedules", key, nil).Want(200).JSON(&page)
	for i, s := range page.Results {
		want := payments.SchedCompleted
		if i == 2 {
			want = payments.SchedCanceled
		}
		if s.Status != want {
			t.Fatalf("payment %d on %s: %s, want %s", i, s.ScheduledDate, s.Status, want)
		}
	}
	var one model.ScheduledPayment
	env.Do(t, "GET", fmt.Sprintf("/payments/requests/%s/schedules/%s", reqID, page.Results[0].ID), key, nil).Want(200).JSON(&one)
	if one.Status != payments.SchedCompleted {
		t.Fatalf("one %+v", one)
	}
	if got := historyOf(intentOf(t, env, key, n.ID.String())); !slices.Equal(got, append(consentSteps, payments.ConsentAuthorized, payments.Consumed)) {
		t.Fatalf("intent steps %v", got)
	}
	env.Do(t, "POST", "/payments/requests/"+reqID+"/schedules/cancel", key, nil).Want(200)
	if s := env.Do(t, "GET", "/payments/requests/"+reqID, key, nil).Want(200).String("status"); s != payments.Completed {
		t.Fatalf("cancel all after the end moved the request to %s", s)
	}

	want := map[string]int{"scheduled_payment/created": 3, "scheduled_payment/all_created": 1, "scheduled_payment/canceled": 1,
		"scheduled_payment/completed": 2, "scheduled_payment/all_completed": 1}
	awaitRequestEvents(t, rc, reqID, want)
	for _, x := range rc.Of("scheduled_payment/completed", "") {
		if x.Payload["scheduledPaymentId"] == nil || x.Payload["scheduledDate"] == nil {
			t.Fatalf("completed event %v", x.Payload)
		}
	}
}
