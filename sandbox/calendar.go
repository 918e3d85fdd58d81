package sandbox

// Calendar rules the generated history follows: business days (weekends only, holidays
// ignored) and calendar months.

import (
	"time"
)

func isWeekend(d time.Time) bool { return d.Weekday() == time.Saturday || d.Weekday() == time.Sunday }

// nthBusinessDay is the n-th weekday of a month (holidays ignored).
func nthBusinessDay(y int, m time.Month, n int) time.Time {
	d := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	for {
		if !isWeekend(d) {
			if n--; n == 0 {
				return d
			}
		}
		d = d.AddDate(0, 0, 1)
	}
}

// onOrAfterBusinessDay moves a weekend date to the next Monday.
func onOrAfterBusinessDay(d time.Time) time.Time {
	for isWeekend(d) {
		d = d.AddDate(0, 0, 1)
	}
	return d
}

// onOrBeforeBusinessDay moves a weekend date to the previous Friday.
func onOrBeforeBusinessDay(d time.Time) time.Time {
	for isWeekend(d) {
		d = d.AddDate(0, 0, -1)
	}
	return d
}

func monthStart(d time.Time) time.Time {
	return time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// monthIndex counts months since January 2000.
func monthIndex(d time.Time) int { return (d.Year()-2000)*12 + int(d.Month()) - 1 }

func monthOf(index int) time.Time {
	return time.Date(2000+index/12, time.Month(index%12+1), 1, 0, 0, 0, 0, time.UTC)
}

func dayKey(d time.Time) string { return d.Format("2006-01-02") }

func at(day time.Time, h, m int) time.Time {
	return day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)
}
