package db

import (
	"strings"
	"testing"
	"time"
)

// accountDoc writes the row's dates over the stored placeholders, at the top level only,
// and falls back to decoding and encoding a document without them.
func TestAccountDoc(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 3, 4, 5, 6, 7, 891_234_000, time.UTC)
	updated := time.Date(2026, 11, 25, 23, 59, 59, 999_999_000, time.FixedZone("BRT", -3*3600))
	const zero = `"0001-01-01T00:00:00.000Z"`
	cases := []struct{ name, stored, want string }{
		{"jsonb's text, compacted", `{"id": "a", "createdAt": ` + zero + `, "updatedAt": ` + zero + `}`,
			`{"id":"a","createdAt":"2026-03-04T05:06:07.891Z","updatedAt":"2026-11-26T02:59:59.999Z"}`},
		{"a nested createdAt is left alone", `{"bankData": {"createdAt": ` + zero + `}, "updatedAt": ` + zero + `, "createdAt": ` + zero + `}`,
			`{"bankData":{"createdAt":` + zero + `},"updatedAt":"2026-11-26T02:59:59.999Z","createdAt":"2026-03-04T05:06:07.891Z"}`},
		{"a key's name inside a string", `{"name": "\"createdAt\": ` + zero[1:len(zero)-1] + `", "createdAt": ` + zero + `, "updatedAt": ` + zero + `}`,
			`{"name":"\"createdAt\": 0001-01-01T00:00:00.000Z","createdAt":"2026-03-04T05:06:07.891Z","updatedAt":"2026-11-26T02:59:59.999Z"}`},
	}
	for _, c := range cases {
		got, err := accountDoc([]byte(c.stored), created, updated)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: got %s (%v)\nwant %s", c.name, got, err, c.want)
		}
	}
	// Without the placeholders the document goes through model.Account: the dates are
	// there all the same.
	got, err := accountDoc([]byte(`{"id": "00000000-0000-0000-0000-000000000001", "name": "x"}`), created, updated)
	if err != nil || !strings.Contains(string(got), `"createdAt":"2026-03-04T05:06:07.891Z"`) ||
		!strings.Contains(string(got), `"updatedAt":"2026-11-26T02:59:59.999Z"`) || !strings.Contains(string(got), `"name":"x"`) {
		t.Errorf("without placeholders: got %s (%v)", got, err)
	}
}
