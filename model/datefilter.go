package model

import (
	"encoding/json"
	"fmt"
	"io"
	"time"
)

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

// UpTo is a DateTime input that bounds a filter from above (the GraphQL transactions
// filter's dateTo): it holds the last instant covered by ParseUpTo's rule, so GraphQL reads
// the bound as REST does. gqlgen binds it to the DateTime scalar beside Time; the embedded
// time.Time is the bound itself.
type UpTo struct{ time.Time }

// UnmarshalGQL reads a date or date-time written as GraphQL's DateTime.
func (u *UpTo) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("DateTime must be a string")
	}
	t, err := ParseUpTo(s)
	if err != nil {
		return err
	}
	u.Time = t
	return nil
}

// UnmarshalJSON reads the same from JSON, as arguments are re-read when prefetched.
func (u *UpTo) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("date-time must be a string: %w", err)
	}
	return u.UnmarshalGQL(s)
}

// MarshalGQL writes the bound as a DateTime.
func (u UpTo) MarshalGQL(w io.Writer) { NewTime(u.Time).MarshalGQL(w) }

// MarshalJSON writes the bound as a DateTime.
func (u UpTo) MarshalJSON() ([]byte, error) { return NewTime(u.Time).MarshalJSON() }
