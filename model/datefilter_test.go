package model

import (
	"testing"
	"time"
)

func TestParseUpTo(t *testing.T) {
	cases := []struct {
		in   string
		want string // RFC 3339 with microseconds; "" for an error
	}{
		{"2026-01-31", "2026-01-31T23:59:59.999999Z"},
		{"2026-12-31", "2026-12-31T23:59:59.999999Z"},
		{"2028-02-28", "2028-02-28T23:59:59.999999Z"},
		{"2026-01-31T00:00:00.000Z", "2026-01-31T00:00:00.000999Z"},
		{"2026-01-31T12:30:00Z", "2026-01-31T12:30:00.000999Z"},
		{"2026-01-31T12:30:00.123456Z", "2026-01-31T12:30:00.123999Z"},
		{"2026-01-31T21:00:00-03:00", "2026-02-01T00:00:00.000999Z"},
		{"2026-01-31T", ""},
		{"31/01/2026", ""},
		{"", ""},
	}
	for _, c := range cases {
		got, err := ParseUpTo(c.in)
		if c.want == "" {
			if err == nil {
				t.Errorf("ParseUpTo(%q) = %v, want an error", c.in, got)
			}
			continue
		}
		if err != nil || got.UTC().Format("2006-01-02T15:04:05.000000Z") != c.want {
			t.Errorf("ParseUpTo(%q) = %v, %v; want %s", c.in, got.UTC().Format(time.RFC3339Nano), err, c.want)
		}
	}
}

// UpTo reads GraphQL's DateTime and its JSON re-reading with ParseUpTo's rule.
func TestUpToInput(t *testing.T) {
	var g, j UpTo
	if err := g.UnmarshalGQL("2026-01-31"); err != nil {
		t.Fatal(err)
	}
	if err := j.UnmarshalJSON([]byte(`"2026-01-31"`)); err != nil {
		t.Fatal(err)
	}
	want, _ := ParseUpTo("2026-01-31")
	if !g.Equal(want) || !j.Equal(want) {
		t.Fatalf("UnmarshalGQL %v, UnmarshalJSON %v, want %v", g.Time, j.Time, want)
	}
	for _, bad := range []any{42, "yesterday", nil} {
		if err := g.UnmarshalGQL(bad); err == nil {
			t.Errorf("UnmarshalGQL(%v) accepted", bad)
		}
	}
	if err := j.UnmarshalJSON([]byte(`42`)); err == nil {
		t.Error("UnmarshalJSON(42) accepted")
	}
}
