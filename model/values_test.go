package model

import (
	"database/sql/driver"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// anyTime draws an instant between 1970 and 2200 with nanoseconds, in some fixed zone.
func anyTime(r *rapid.T) time.Time {
	sec := rapid.Int64Range(0, 7_258_118_400).Draw(r, "sec")
	nsec := rapid.Int64Range(0, 999_999_999).Draw(r, "nsec")
	offset := rapid.IntRange(-14*60, 14*60).Draw(r, "offsetMinutes")
	return time.Unix(sec, nsec).In(time.FixedZone("z", offset*60))
}

// Every timestamp leaves in TimeLayout (UTC, three fractional digits) and reads back as the
// same millisecond, through JSON, GraphQL and String alike.
func TestTimeRoundTrip(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(r *rapid.T) {
		at := anyTime(r)
		v := NewTime(at)
		if !v.Equal(at.Truncate(time.Millisecond)) || v.Location() != time.UTC {
			r.Fatalf("NewTime(%v) = %v", at, v)
		}
		b, err := v.MarshalJSON()
		if err != nil {
			r.Fatal(err)
		}
		s, err := strconv.Unquote(string(b))
		if err != nil || s != v.String() || len(s) != len(TimeLayout) || !strings.HasSuffix(s, "Z") {
			r.Fatalf("MarshalJSON = %s, String = %s", b, v.String())
		}
		var w strings.Builder
		v.MarshalGQL(&w)
		if w.String() != string(b) {
			r.Fatalf("MarshalGQL = %s, MarshalJSON = %s", w.String(), b)
		}
		var j, g Time
		if err := j.UnmarshalJSON(b); err != nil || !j.Equal(v.Time) {
			r.Fatalf("UnmarshalJSON(%s) = %v, %v", b, j, err)
		}
		if err := g.UnmarshalGQL(s); err != nil || !g.Equal(v.Time) {
			r.Fatalf("UnmarshalGQL(%s) = %v, %v", s, g, err)
		}
		// Any RFC 3339 spelling of the instant, in any zone, is the same Time.
		if p, err := ParseTime(at.Format(time.RFC3339Nano)); err != nil || !p.Equal(v.Time) {
			r.Fatalf("ParseTime(%s) = %v, %v; want %v", at.Format(time.RFC3339Nano), p, err, v)
		}
	})
}

func TestParseTime(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"2026-01-31", "2026-01-31T00:00:00.000Z"},
		{"2026-01-31T12:00:00Z", "2026-01-31T12:00:00.000Z"},
		{"2026-01-31T12:00:00.123456789Z", "2026-01-31T12:00:00.123Z"},
		{"2026-01-31T21:30:00-03:00", "2026-02-01T00:30:00.000Z"},
		{"2026-01-31T00:00:00+14:00", "2026-01-30T10:00:00.000Z"},
		{"2026-02-29", ""},
		{"2026-1-31", ""},
		{"2026-01-31 12:00:00", ""},
		{"2026-01-31T12:00:00", ""},
		{"1706702400", ""},
		{"", ""},
	}
	for _, tc := range cases {
		got, err := ParseTime(tc.in)
		if tc.want == "" {
			if err == nil {
				t.Errorf("ParseTime(%q) = %v, want an error", tc.in, got)
			} else if !strings.Contains(err.Error(), "2026-01-31T12:00:00.000Z") {
				t.Errorf("ParseTime(%q): the error %q shows no example", tc.in, err)
			}
			continue
		}
		if err != nil || got.String() != tc.want {
			t.Errorf("ParseTime(%q) = %v, %v; want %s", tc.in, got, err, tc.want)
		}
	}
	var v Time
	for _, bad := range [][]byte{[]byte(`1706702400`), []byte(`null`), []byte(`"yesterday"`), []byte(`{`)} {
		if err := v.UnmarshalJSON(bad); err == nil {
			t.Errorf("UnmarshalJSON(%s) accepted", bad)
		}
	}
	for _, bad := range []any{1706702400, nil, "yesterday"} {
		if err := v.UnmarshalGQL(bad); err == nil {
			t.Errorf("UnmarshalGQL(%#v) accepted", bad)
		}
	}
}

// The database reads and writes Time as timestamptz: a zero Time is NULL both ways.
func TestTimeScanValue(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 31, 21, 30, 0, 123_456_789, time.FixedZone("BRT", -3*3600))
	var v Time
	if err := v.Scan(at); err != nil || !v.Equal(at.Truncate(time.Millisecond)) || v.Location() != time.UTC {
		t.Errorf("Scan(%v) = %v, %v", at, v, err)
	}
	if got, err := v.Value(); err != nil || got != driver.Value(v.UTC()) {
		t.Errorf("Value() = %v, %v", got, err)
	}
	if err := v.Scan(nil); err != nil || !v.IsZero() {
		t.Errorf("Scan(nil) = %v, %v", v, err)
	}
	if got, err := v.Value(); err != nil || got != nil {
		t.Errorf("the zero Time's Value() = %v, %v; want NULL", got, err)
	}
	v = NewTime(at)
	for _, bad := range []any{"2026-01-31", int64(1706702400), []byte("2026-01-31")} {
		if err := v.Scan(bad); err == nil {
			t.Errorf("Scan(%T) accepted", bad)
		}
		if !v.Equal(at.Truncate(time.Millisecond)) {
			t.Errorf("a refused Scan(%T) changed the value to %v", bad, v)
		}
	}
}

// ParseUpTo covers exactly what it names: a plain date its whole UTC day (its midnight in,
// the next day's midnight out), a date-time its whole millisecond; and a bound written back
// out and read again is the same bound.
func TestParseUpToCoversExactly(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(r *rapid.T) {
		at := anyTime(r)
		var first, next time.Time
		var in string
		if rapid.Bool().Draw(r, "date") {
			in = at.Format(time.DateOnly)
			first = time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC)
			next = first.AddDate(0, 0, 1)
		} else {
			in = at.Format(time.RFC3339Nano)
			first = at.UTC().Truncate(time.Millisecond)
			next = first.Add(time.Millisecond)
		}
		bound, err := ParseUpTo(in)
		if err != nil {
			r.Fatalf("ParseUpTo(%q): %v", in, err)
		}
		lower, err := ParseTime(in)
		if err != nil || !lower.Equal(first) {
			r.Fatalf("ParseTime(%q) = %v, %v; want %v", in, lower, err, first)
		}
		// At PostgreSQL's microsecond resolution: first and every instant up to the last
		// microsecond before next are <= bound; next is not.
		if bound.Before(first) || !bound.Add(time.Microsecond).Equal(next) {
			r.Fatalf("ParseUpTo(%q) = %v; covers [%v, %v)?", in, bound.UTC().Format(time.RFC3339Nano), first, next)
		}
		var u UpTo
		b, _ := UpTo{bound}.MarshalJSON()
		if err := u.UnmarshalJSON(b); err != nil || !u.Equal(bound) {
			r.Fatalf("%q written as %s reads back as %v, %v; want %v", in, b, u.Time, err, bound)
		}
		var w strings.Builder
		UpTo{bound}.MarshalGQL(&w)
		if w.String() != string(b) {
			r.Fatalf("MarshalGQL = %s, MarshalJSON = %s", w.String(), b)
		}
	})
}

// A Connect Token's page options: known countries, connector types and products, an
// absolute redirectUri and a bare origin.
func TestCheckConnectOptions(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	cases := []struct {
		name string
		o    ConnectTokenOptions
		says string // "" accepts
	}{
		{"none", ConnectTokenOptions{}, ""},
		{"everything known", ConnectTokenOptions{Countries: []string{"BR"}, ConnectorTypes: ConnectorTypes, Products: Products,
			RedirectURI: s("http://localhost:3000/done?x=1"), TargetOrigin: s("https://app.example.com")}, ""},
		{"empty redirectUri", ConnectTokenOptions{RedirectURI: s("")}, ""},
		{"another country", ConnectTokenOptions{Countries: []string{"BR", "AR"}}, `options.countries: "AR"`},
		{"country in lower case", ConnectTokenOptions{Countries: []string{"br"}}, "options.countries"},
		{"unknown connector type", ConnectTokenOptions{ConnectorTypes: []ConnectorType{"CRYPTO"}}, `options.connectorTypes: "CRYPTO"`},
		{"unknown product", ConnectTokenOptions{Products: []Product{ProductAccounts, "HOROSCOPE"}}, `options.products: "HOROSCOPE"`},
		{"relative redirectUri", ConnectTokenOptions{RedirectURI: s("/done")}, "options.redirectUri"},
		{"redirectUri with a password", ConnectTokenOptions{RedirectURI: s("https://bank.example@evil.example/")}, "options.redirectUri"},
		{"empty targetOrigin", ConnectTokenOptions{TargetOrigin: s("")}, "options.targetOrigin"},
		{"targetOrigin with a path", ConnectTokenOptions{TargetOrigin: s("https://app.example.com/connect")}, "options.targetOrigin"},
		{"targetOrigin wildcard", ConnectTokenOptions{TargetOrigin: s("*")}, "options.targetOrigin"},
	}
	for _, tc := range cases {
		err := CheckConnectOptions(tc.o)
		if tc.says == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", tc.name, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeInvalidParameter || !strings.Contains(e.Message, tc.says) {
			t.Errorf("%s: error %v, want INVALID_PARAMETER saying %s", tc.name, err, tc.says)
		}
	}
}

// Origin accepts scheme://host[:port] with at most a trailing slash, and spells it in
// lower case without the slash.
func TestOrigin(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{ // want "" refuses
		{"https://app.example.com", "https://app.example.com"},
		{"https://App.Example.COM/", "https://app.example.com"},
		{"HTTP://localhost:3000", "http://localhost:3000"},
		{"https://[::1]:8443", "https://[::1]:8443"},
		{"https://app.example.com:65535", "https://app.example.com:65535"},
		{"https://app.example.com:0", ""},
		{"https://app.example.com:65536", ""},
		{"https://app.example.com:", ""},
		{"https://app.example.com/x", ""},
		{"https://app.example.com//", ""},
		{"https://app.example.com?", ""},
		{"https://app.example.com/?a=1", ""},
		{"https://app.example.com#", ""},
		{"https://app.example.com/#top", ""},
		{"https://user@app.example.com", ""},
		{"ftp://app.example.com", ""},
		{"app.example.com", ""},
		{"null", ""},
		{"", ""},
	}
	for _, tc := range cases {
		got, ok := Origin(tc.in)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("Origin(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
}
