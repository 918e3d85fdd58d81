package payments

import (
	"slices"
	"strings"
	"time"

	"ponte/model"
)

var weekdays = map[string]time.Weekday{"SUNDAY": time.Sunday, "MONDAY": time.Monday, "TUESDAY": time.Tuesday, "WEDNESDAY": time.Wednesday,
	"THURSDAY": time.Thursday, "FRIDAY": time.Friday, "SATURDAY": time.Saturday}

// maxScheduleAhead bounds how far ahead a payment may be dated.
const maxScheduleAhead = 2 * 365

func badSchedule(format string, args ...any) error {
	return model.Fail(model.CodeInvalidSchedule, "schedule: "+format, args...)
}

// normalizeSchedule keeps only the fields of the schedule's form, and spells the day of
// week the standard way: the hosted API's own client writes THURDSAY, so both are taken.
func normalizeSchedule(in *model.PaymentSchedule) (*model.PaymentSchedule, error) {
	s := &model.PaymentSchedule{Type: strings.ToUpper(in.Type)}
	need := func(ok bool, field string) error {
		if !ok {
			return badSchedule("a %s schedule needs %s.", s.Type, field)
		}
		return nil
	}
	var err error
	switch s.Type {
	case "SINGLE":
		s.Date = in.Date
		err = need(in.Date != nil, "date (YYYY-MM-DD)")
	case "DAILY", "WEEKLY", "MONTHLY":
		s.StartDate, s.Occurrences = in.StartDate, in.Occurrences
		if err = need(in.StartDate != nil, "startDate (YYYY-MM-DD)"); err == nil {
			err = need(in.Occurrences != nil, "occurrences")
		}
		if err == nil && s.Type == "WEEKLY" {
			if err = need(in.DayOfWeek != nil, "dayOfWeek (MONDAY to SUNDAY)"); err == nil {
				d := strings.ToUpper(*in.DayOfWeek)
				if d == "THURDSAY" {
					d = "THURSDAY"
				}
				if _, ok := weekdays[d]; !ok {
					return nil, badSchedule("dayOfWeek must be one of MONDAY, TUESDAY, WEDNESDAY, THURSDAY, FRIDAY, SATURDAY, SUNDAY (got %q).", *in.DayOfWeek)
				}
				s.DayOfWeek = &d
			}
		}
		if err == nil && s.Type == "MONTHLY" {
			if err = need(in.DayOfMonth != nil, "dayOfMonth (1 to 31)"); err == nil {
				if *in.DayOfMonth < 1 || *in.DayOfMonth > 31 {
					return nil, badSchedule("dayOfMonth must be between 1 and 31 (got %d).", *in.DayOfMonth)
				}
				s.DayOfMonth = in.DayOfMonth
			}
		}
	case "CUSTOM":
		s.Dates, s.AdditionalInformation = in.Dates, in.AdditionalInformation
		err = need(len(in.Dates) > 0, "dates (a list of YYYY-MM-DD)")
	default:
		return nil, badSchedule("type must be SINGLE, DAILY, WEEKLY, MONTHLY or CUSTOM (got %q).", in.Type)
	}
	return s, err
}

func parseDate(field, v string) (time.Time, error) {
	d, err := time.Parse("2006-01-02", v)
	if err != nil {
		return time.Time{}, badSchedule("%s %q is not a date in the form YYYY-MM-DD.", field, v)
	}
	return d, nil
}

// scheduleDates expands a schedule into its payment dates, each after today (São Paulo).
func scheduleDates(s *model.PaymentSchedule, today time.Time) ([]time.Time, error) {
	limit := today.AddDate(0, 0, maxScheduleAhead)
	check := func(field string, d time.Time) error {
		if !d.After(today) {
			return badSchedule("%s %s must be after today (%s, São Paulo time).", field, d.Format("2006-01-02"), today.Format("2006-01-02"))
		}
		if d.After(limit) {
			return badSchedule("%s %s is more than two years ahead.", field, d.Format("2006-01-02"))
		}
		return nil
	}
	var out []time.Time
	switch s.Type {
	case "SINGLE":
		d, err := parseDate("date", *s.Date)
		if err != nil {
			return nil, err
		}
		out = []time.Time{d}
	case "CUSTOM":
		if len(s.Dates) > 60 {
			return nil, badSchedule("a CUSTOM schedule has at most 60 dates (got %d).", len(s.Dates))
		}
		for i, v := range s.Dates {
			d, err := parseDate("dates", v)
			if err != nil {
				return nil, err
			}
			if slices.ContainsFunc(out, d.Equal) {
				return nil, badSchedule("dates lists %s twice (entry %d).", v, i+1)
			}
			out = append(out, d)
		}
		slices.SortFunc(out, func(a, b time.Time) int { return a.Compare(b) })
	default:
		start, err := parseDate("startDate", *s.StartDate)
		if err != nil {
			return nil, err
		}
		n, most := *s.Occurrences, 60
		if s.Type == "MONTHLY" {
			most = 24
		}
		if n < 1 || n > most {
			return nil, badSchedule("occurrences of a %s schedule must be between 1 and %d (got %d).", s.Type, most, n)
		}
		if err := check("startDate", start); err != nil {
			return nil, err
		}
		switch s.Type {
		case "DAILY":
			for i := 0; i < n; i++ {
				out = append(out, start.AddDate(0, 0, i))
			}
		case "WEEKLY":
			first := start
			for first.Weekday() != weekdays[*s.DayOfWeek] {
				first = first.AddDate(0, 0, 1)
			}
			for i := 0; i < n; i++ {
				out = append(out, first.AddDate(0, 0, 7*i))
			}
		case "MONTHLY":
			// A day the month lacks (31 in April) falls on its last day.
			y, m := start.Year(), start.Month()
			if dayIn(y, m, *s.DayOfMonth).Before(start) {
				m++
			}
			for i := 0; i < n; i++ {
				out = append(out, dayIn(y, m+time.Month(i), *s.DayOfMonth))
			}
		}
	}
	for _, d := range out {
		if err := check("date", d); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// dayIn is day d of a month (month may overflow into later years), or its last day.
func dayIn(y int, m time.Month, d int) time.Time {
	first := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	if d > last {
		d = last
	}
	return time.Date(first.Year(), first.Month(), d, 0, 0, 0, 0, time.UTC)
}
