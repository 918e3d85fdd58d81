package payments

import (
	"errors"
	"strings"
	"testing"
	"time"

	"ponte/model"
)

// The schedule rules of section 2.9's five forms: dates are São Paulo days after today and
// at most two years ahead, up to 60 occurrences (24 monthly), a month's missing day falls
// on its last day, and the hosted API's THURDSAY is read as THURSDAY.
func TestScheduleDates(t *testing.T) {
	t.Parallel()
	today := time.Date(2026, 1, 30, 0, 0, 0, 0, time.UTC) // a Friday
	s := func(v string) *string { return &v }
	n := func(v int) *int { return &v }
	cases := []struct {
		name string
		in   model.PaymentSchedule
		want string // dates joined by spaces, or the error's words
		err  bool
	}{
		{"single tomorrow", model.PaymentSchedule{Type: "SINGLE", Date: s("2026-01-31")}, "2026-01-31", false},
		{"single today", model.PaymentSchedule{Type: "SINGLE", Date: s("2026-01-30")}, "must be after today", true},
		{"single two years ahead", model.PaymentSchedule{Type: "single", Date: s("2028-01-30")}, "2028-01-30", false},
		{"single a day further", model.PaymentSchedule{Type: "SINGLE", Date: s("2028-01-31")}, "more than two years ahead", true},
		{"single without a date", model.PaymentSchedule{Type: "SINGLE"}, "needs date", true},
		{"single not a date", model.PaymentSchedule{Type: "SINGLE", Date: s("31/01/2026")}, "not a date", true},
		{"daily", model.PaymentSchedule{Type: "DAILY", StartDate: s("2026-02-27"), Occurrences: n(3)}, "2026-02-27 2026-02-28 2026-03-01", false},
		{"daily from today", model.PaymentSchedule{Type: "DAILY", StartDate: s("2026-01-30"), Occurrences: n(2)}, "must be after today", true},
		{"daily 61 times", model.PaymentSchedule{Type: "DAILY", StartDate: s("2026-02-01"), Occurrences: n(61)}, "between 1 and 60", true},
		{"daily 0 times", model.PaymentSchedule{Type: "DAILY", StartDate: s("2026-02-01"), Occurrences: n(0)}, "between 1 and 60", true},
		{"daily without occurrences", model.PaymentSchedule{Type: "DAILY", StartDate: s("2026-02-01")}, "needs occurrences", true},
		{"weekly from the next Monday", model.PaymentSchedule{Type: "WEEKLY", StartDate: s("2026-01-31"), Occurrences: n(2), DayOfWeek: s("MONDAY")}, "2026-02-02 2026-02-09", false},
		{"weekly THURDSAY", model.PaymentSchedule{Type: "WEEKLY", StartDate: s("2026-02-05"), Occurrences: n(1), DayOfWeek: s("thurdsay")}, "2026-02-05", false},
		{"weekly on no day", model.PaymentSchedule{Type: "WEEKLY", StartDate: s("2026-02-05"), Occurrences: n(1), DayOfWeek: s("FUNDAY")}, "dayOfWeek must be one of", true},
		{"monthly on the 31st", model.PaymentSchedule{Type: "MONTHLY", StartDate: s("2026-01-31"), Occurrences: n(3), DayOfMonth: n(31)}, "2026-01-31 2026-02-28 2026-03-31", false},
		{"monthly, the day passed", model.PaymentSchedule{Type: "MONTHLY", StartDate: s("2026-02-20"), Occurrences: n(2), DayOfMonth: n(10)}, "2026-03-10 2026-04-10", false},
		{"monthly across the year", model.PaymentSchedule{Type: "MONTHLY", StartDate: s("2026-11-15"), Occurrences: n(3), DayOfMonth: n(29)}, "2026-11-29 2026-12-29 2027-01-29", false},
		{"monthly 25 times", model.PaymentSchedule{Type: "MONTHLY", StartDate: s("2026-02-01"), Occurrences: n(25), DayOfMonth: n(1)}, "between 1 and 24", true},
		{"monthly on day 32", model.PaymentSchedule{Type: "MONTHLY", StartDate: s("2026-02-01"), Occurrences: n(1), DayOfMonth: n(32)}, "between 1 and 31", true},
		{"monthly past two years", model.PaymentSchedule{Type: "MONTHLY", StartDate: s("2027-06-01"), Occurrences: n(24), DayOfMonth: n(1)}, "more than two years ahead", true},
		{"custom, sorted", model.PaymentSchedule{Type: "CUSTOM", Dates: []string{"2026-03-01", "2026-02-01"}}, "2026-02-01 2026-03-01", false},
		{"custom twice the same day", model.PaymentSchedule{Type: "CUSTOM", Dates: []string{"2026-03-01", "2026-03-01"}}, "twice", true},
		{"custom empty", model.PaymentSchedule{Type: "CUSTOM"}, "needs dates", true},
		{"custom with a past day", model.PaymentSchedule{Type: "CUSTOM", Dates: []string{"2026-03-01", "2026-01-01"}}, "must be after today", true},
		{"custom 61 dates", model.PaymentSchedule{Type: "CUSTOM", Dates: make([]string, 61)}, "at most 60 dates", true},
		{"no such form", model.PaymentSchedule{Type: "YEARLY"}, "type must be", true},
	}
	for _, c := range cases {
		norm, err := normalizeSchedule(&c.in)
		var dates []time.Time
		if err == nil {
			dates, err = scheduleDates(norm, today)
		}
		if c.err {
			var e *model.Error
			if !errors.As(err, &e) || e.Code != model.CodeInvalidSchedule || !strings.Contains(e.Message, c.want) {
				t.Errorf("%s: got %v, want INVALID_SCHEDULE saying %q", c.name, err, c.want)
			}
			continue
		}
		var got []string
		for _, d := range dates {
			got = append(got, d.Format("2006-01-02"))
		}
		if err != nil || strings.Join(got, " ") != c.want {
			t.Errorf("%s: got %v, %v; want %s", c.name, got, err, c.want)
		}
	}
}

// A normalized schedule keeps only its form's fields and the standard day names.
func TestNormalizeSchedule(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	n := func(v int) *int { return &v }
	got, err := normalizeSchedule(&model.PaymentSchedule{Type: "weekly", Date: s("2026-02-01"), StartDate: s("2026-02-02"),
		Occurrences: n(2), DayOfWeek: s("Thurdsay"), DayOfMonth: n(3), Dates: []string{"2026-02-03"}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Type != "WEEKLY" || got.Date != nil || got.DayOfMonth != nil || got.Dates != nil || *got.DayOfWeek != "THURSDAY" || *got.StartDate != "2026-02-02" {
		t.Fatalf("normalized to %+v", got)
	}
}

// A dated payment runs at 08:00 São Paulo time on its day, whatever zone the day came in.
func TestScheduleAt(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		day  time.Time
		want string
	}{
		{time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC), "2026-03-10T11:00:00Z"},
		{time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC), "2026-12-31T11:00:00Z"},
	} {
		if got := (Config{}).scheduleAt(c.day).UTC().Format(time.RFC3339); got != c.want {
			t.Errorf("scheduleAt(%s) = %s, want %s", c.day.Format("2006-01-02"), got, c.want)
		}
	}
}
