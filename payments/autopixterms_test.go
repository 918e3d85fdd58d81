package payments

import (
	"testing"
	"time"

	"ponte/model"
)

func ymd(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

// Periods are calendar periods: ISO weeks from Monday, months, quarters from January,
// April, July and October, semesters from January and July, years; their ends are the
// day before the next period starts, leap days included.
func TestPeriodStart(t *testing.T) {
	t.Parallel()
	cases := []struct {
		interval, day, start, end string
	}{
		{"WEEKLY", "2026-03-02", "2026-03-02", "2026-03-08"}, // a Monday starts its week
		{"WEEKLY", "2026-03-08", "2026-03-02", "2026-03-08"}, // a Sunday ends it
		{"WEEKLY", "2026-01-01", "2025-12-29", "2026-01-04"}, // a week across two years
		{"WEEKLY", "2024-02-29", "2024-02-26", "2024-03-03"},
		{"MONTHLY", "2026-03-01", "2026-03-01", "2026-03-31"},
		{"MONTHLY", "2026-03-31", "2026-03-01", "2026-03-31"},
		{"MONTHLY", "2024-02-29", "2024-02-01", "2024-02-29"},
		{"MONTHLY", "2026-02-15", "2026-02-01", "2026-02-28"},
		{"QUARTERLY", "2026-01-01", "2026-01-01", "2026-03-31"},
		{"QUARTERLY", "2026-06-30", "2026-04-01", "2026-06-30"},
		{"QUARTERLY", "2026-08-15", "2026-07-01", "2026-09-30"},
		{"QUARTERLY", "2026-12-31", "2026-10-01", "2026-12-31"},
		{"SEMESTER", "2026-06-30", "2026-01-01", "2026-06-30"},
		{"SEMESTER", "2026-07-01", "2026-07-01", "2026-12-31"},
		{"YEARLY", "2026-12-31", "2026-01-01", "2026-12-31"},
		{"YEARLY", "2024-02-29", "2024-01-01", "2024-12-31"},
	}
	for _, c := range cases {
		start := periodStart(c.interval, ymd(c.day))
		if got := start.Format(time.DateOnly); got != c.start {
			t.Errorf("%s %s: period starts %s, want %s", c.interval, c.day, got, c.start)
		}
		if got := periodEnd(c.interval, start).Format(time.DateOnly); got != c.end {
			t.Errorf("%s %s: period ends %s, want %s", c.interval, c.day, got, c.end)
		}
		// Every day of the period has the same start; the days either side do not.
		for d := start; !d.After(periodEnd(c.interval, start)); d = d.AddDate(0, 0, 1) {
			if !periodStart(c.interval, d).Equal(start) {
				t.Fatalf("%s: %s is in the period of %s but starts another", c.interval, d.Format(time.DateOnly), c.start)
			}
		}
		if periodStart(c.interval, start.AddDate(0, 0, -1)).Equal(start) || periodStart(c.interval, periodEnd(c.interval, start).AddDate(0, 0, 1)).Equal(start) {
			t.Errorf("%s %s: the days around the period fall in it", c.interval, c.day)
		}
	}
	// Every interval the authorization accepts has its own periods (none falls to a default).
	for _, iv := range autoPixIntervals {
		if iv != "MONTHLY" && periodStart(iv, ymd("2026-05-20")).Equal(ymd("2026-05-01")) && periodEnd(iv, ymd("2026-05-01")).Equal(ymd("2026-05-31")) {
			t.Errorf("%s has monthly periods", iv)
		}
	}
}

// Amounts are held to the terms in cents; dates to startDate and expiresAt; a retry to the
// window after its original date, however often it was retried.
func TestChargeTerms(t *testing.T) {
	t.Parallel()
	f := func(v float64) *float64 { return &v }
	s := func(v string) *string { return &v }
	fixed := &model.AutomaticPix{Interval: "MONTHLY", StartDate: "2026-03-10", FixedAmount: f(25), ExpiresAt: s("2026-06-30")}
	ranged := &model.AutomaticPix{Interval: "MONTHLY", StartDate: "2026-03-10", MinimumVariableAmount: f(10.1), MaximumVariableAmount: f(100.2)}
	code := func(err error) string {
		if err == nil {
			return ""
		}
		e, _ := model.AsError(err)
		return e.Code.String()
	}
	amount, date := model.CodeAutomaticPixAmountOutOfTerms.String(), model.CodeAutomaticPixDateOutOfTerms.String()
	for _, c := range []struct {
		terms  *model.AutomaticPix
		amount float64
		want   string
	}{
		{fixed, 25, ""}, {fixed, 25.01, amount}, {fixed, 24.99, amount},
		{ranged, 10.1, ""}, {ranged, 100.2, ""}, {ranged, 10.09, amount}, {ranged, 100.21, amount}, {ranged, 55, ""},
	} {
		if got := code(checkChargeAmount(c.terms, c.amount)); got != c.want {
			t.Errorf("amount %v under %+v: %q, want %q", c.amount, c.terms, got, c.want)
		}
	}
	for _, c := range []struct {
		terms *model.AutomaticPix
		day   string
		want  string
	}{
		{fixed, "2026-03-10", ""}, {fixed, "2026-03-09", date}, {fixed, "2026-06-30", ""}, {fixed, "2026-07-01", date},
		{ranged, "2030-01-01", ""}, // no expiry
	} {
		if got := code(checkChargeDate(c.terms, ymd(c.day))); got != c.want {
			t.Errorf("date %s: %q, want %q", c.day, got, c.want)
		}
	}
	for _, c := range []struct {
		original, day, want string
	}{
		{"2026-04-10", "2026-04-11", ""},
		{"2026-04-10", "2026-04-17", ""},   // the seventh day
		{"2026-04-10", "2026-04-18", date}, // the eighth
		{"2026-04-10", "2026-04-10", date}, // not after the original
		{"2026-04-10", "2026-04-09", date},
		{"2026-06-28", "2026-07-01", date}, // inside the window, after expiresAt
		{"2026-03-31", "2026-04-03", ""},   // into the next period: the retry stays in March's
	} {
		if got := code(checkRetryDate(fixed, ymd(c.original), ymd(c.day))); got != c.want {
			t.Errorf("retry of %s on %s: %q, want %q", c.original, c.day, got, c.want)
		}
	}
}
