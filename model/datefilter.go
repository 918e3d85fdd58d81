package model

import "time"

// ParseUpTo reads the upper bound of a date filter (to, dateTo) as the last instant it
// covers, for a `<=` comparison. An upper bound covers everything it names: a plain date
// (YYYY-MM-DD) its whole day in UTC, so that day's later records are in; a date-time its
// whole millisecond, the precision the API writes times in, so a time read from the API
// and sent back as to includes its own record. The result is the last microsecond
// covered, PostgreSQL's timestamptz resolution, which makes `<= bound` exactly "before the
// next day (or millisecond)". Lower bounds (from, dateFrom) are ParseTime: a plain date is
// its midnight.
func ParseUpTo(s string) (time.Time, error) {
	t, err := ParseTime(s)
	if err != nil {
		return time.Time{}, err
	}
	if _, err := time.Parse(time.DateOnly, s); err == nil {
		return t.AddDate(0, 0, 1).Add(-time.Microsecond), nil
	}
	return t.Add(time.Millisecond - time.Microsecond), nil
}
