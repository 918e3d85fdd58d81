package payments_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
	"ponte/payments"
	"ponte/testsupport"
)

// BenchmarkClockAdvanceYear measures an advance of a year over a monthly schedule (12
// scheduled payments and the settlement steps they queue) against the same jobs run
// directly in this process, one after the other, with no advance around them. It reports
// both, in milliseconds, and their ratio: what the advance's own machinery (its job, its
// saves of the clock, its search for the next due work) costs over the work itself, and
// how much of the advance its job waited for a worker of the queue. The request of each
// side is set up outside the timings.
func BenchmarkClockAdvanceYear(b *testing.B) {
	env := testsupport.New(b)
	app, _, err := env.Auth.NewClient(context.Background(), "clock benchmark")
	if err != nil {
		b.Fatal(err)
	}
	ctx := auth.WithResult(context.Background(), &auth.Principal{ClientID: app.ID, Kind: auth.KindAPIKey}, nil)
	pay := env.Payments
	inst := must(pay.Institutions(ctx, nil, ptr(10), ptr("Nubank")))(b).Results[0].ID.String()
	rcpt := must(pay.CreateRecipient(ctx, model.PaymentRecipientInput{Name: ptr("Loja Exemplo Ltda"), TaxNumber: ptr("11222333000181"),
		PaymentInstitutionID: ptr(inst), IsDefault: ptr(true),
		Account: &model.PaymentRecipientAccount{Branch: "0001", Number: "1234567-8", Type: "CHECKING_ACCOUNT"}}))(b)
	start := time.Date(2031, 3, 1, 12, 0, 0, 0, time.UTC)
	end := start.AddDate(1, 0, 0)
	// scheduled is a clock with a consented request of 12 monthly payments on it.
	scheduled := func(name string) (clock, request uuid.UUID) {
		c := must(pay.CreateTestClock(ctx, model.TestClockInput{Name: ptr(name), FrozenTime: ptr(model.NewTime(start))}))(b)
		p := must(pay.CreateRequest(ctx, model.PaymentRequestInput{Amount: ptr(10.0), IsSandbox: ptr(true), TestClockID: ptr(c.ID.String()),
			RecipientID: ptr(rcpt.ID.String()),
			Schedule:    &model.PaymentSchedule{Type: "MONTHLY", StartDate: ptr("2031-03-10"), DayOfMonth: ptr(10), Occurrences: ptr(12)}}))(b)
		n := must(pay.CreateIntent(ctx, model.PaymentIntentInput{PaymentRequestID: ptr(p.ID.String()), ConnectorID: ptr(payConnector),
			Parameters: &model.PaymentPayerInput{Cpf: ptr(happyCPF), Name: ptr("Maria Silva")}}))(b)
		must(pay.DecideForPayer(ctx, n.ID, true))(b)
		return c.ID, p.ID
	}
	allPaid := func(request uuid.UUID) {
		list := must(pay.Schedules(ctx, request))(b).Results
		if len(list) != 12 || count(list, payments.SchedCompleted) != 12 {
			b.Fatalf("after a year: %+v", list)
		}
	}
	var advance, queued, direct time.Duration
	jobs := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		clock, request := scheduled("advance")
		b.StartTimer()
		t0 := time.Now()
		must(pay.AdvanceTestClock(ctx, clock, model.TestClockAdvanceInput{FrozenTime: ptr(model.NewTime(end))}))(b)
		for must(pay.TestClock(ctx, clock))(b).Status != payments.ClockReady {
			if time.Since(t0) > time.Minute {
				b.Fatal("the advance did not end in a minute")
			}
			time.Sleep(2 * time.Millisecond)
		}
		advance += time.Since(t0)
		// How long the advance's job waited for a worker, of the time above.
		var began time.Time
		if err := env.DB.Pool.QueryRow(context.Background(), `SELECT attempted_at FROM river_job WHERE kind = $1
			AND args->>'clockId' = $2 ORDER BY id DESC LIMIT 1`, payments.ClockAdvanceArgs{}.Kind(), clock.String()).Scan(&began); err != nil {
			b.Fatal(err)
		}
		queued += began.Sub(t0)
		b.StopTimer()
		allPaid(request)

		clock, request = scheduled("direct")
		b.StartTimer()
		t0 = time.Now()
		n, err := pay.RunClockJobsDirectly(ctx, clock, end)
		if err != nil {
			b.Fatal(err)
		}
		direct += time.Since(t0)
		jobs += n
		b.StopTimer()
		allPaid(request)
		b.StartTimer()
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(ms(advance), "advance-ms/op")
	b.ReportMetric(ms(queued), "advance-queued-ms/op")
	b.ReportMetric(ms(direct), "direct-ms/op")
	b.ReportMetric(float64(jobs)/float64(b.N), "jobs/op")
	if direct > 0 {
		b.ReportMetric(float64(advance)/float64(direct), "ratio")
	}
}
