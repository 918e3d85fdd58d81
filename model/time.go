package model

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"
)

// TimeLayout is the only date-time form the official Node client turns back into a Date:
// UTC with exactly three fractional digits. Every timestamp leaves the service in it.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Time is a timestamp that always renders in TimeLayout, in JSON, GraphQL and logs alike.
type Time struct{ time.Time }

// NewTime truncates to milliseconds so a value read back from the API compares equal
// to the one stored.
func NewTime(t time.Time) Time { return Time{t.UTC().Truncate(time.Millisecond)} }

func (t Time) String() string { return t.UTC().Format(TimeLayout) }

func (t Time) MarshalJSON() ([]byte, error) {
	return appendTime(make([]byte, 0, len(TimeLayout)+2), t), nil
}

func (t *Time) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("date-time must be a string: %w", err)
	}
	v, err := ParseTime(s)
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// ParseTime accepts any RFC 3339 date-time, or a plain YYYY-MM-DD date read as midnight UTC,
// because clients send both forms in filters.
func ParseTime(s string) (Time, error) {
	if v, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return NewTime(v), nil
	}
	if v, err := time.Parse("2006-01-02", s); err == nil {
		return NewTime(v), nil
	}
	return Time{}, fmt.Errorf("%q is not an ISO 8601 date-time (e.g. 2026-01-31T12:00:00.000Z) or date (2026-01-31)", s)
}

// Scan and Value let bun and database/sql store the type as timestamptz.
func (t *Time) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		*t = NewTime(v)
		return nil
	case nil:
		*t = Time{}
		return nil
	default:
		return fmt.Errorf("model.Time: cannot scan %T", src)
	}
}

func (t Time) Value() (driver.Value, error) {
	if t.IsZero() {
		return nil, nil
	}
	return t.UTC(), nil
}

// MarshalGQL and UnmarshalGQL bind the type to the DateTime scalar.
func (t Time) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(t.String())) }

func (t *Time) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("DateTime must be a string")
	}
	p, err := ParseTime(s)
	if err != nil {
		return err
	}
	*t = p
	return nil
}
