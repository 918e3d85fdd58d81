package model

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
)

// The link of a transactions/created event names the page-based endpoint up to the last
// instant it is served and the v2 endpoint from the sunset on, with the same two filters.
func TestCreatedTransactionsLink(t *testing.T) {
	t.Parallel()
	acc := uuid.MustParse("7c6b1f4e-3f7a-4b43-9a39-0d8f2b0f6c11")
	from := NewTime(time.Date(2026, 12, 31, 23, 59, 59, 123456789, time.UTC))
	cases := []struct {
		now  time.Time
		path string
	}{
		{time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC), "/transactions"},
		{TransactionsSunset.Add(-time.Nanosecond), "/transactions"},
		{TransactionsSunset, "/v2/transactions"},
		{TransactionsSunset.Add(365 * 24 * time.Hour), "/v2/transactions"},
		// A clock in another zone reads the same instant.
		{TransactionsSunset.In(time.FixedZone("BRT", -3*3600)), "/v2/transactions"},
	}
	for _, c := range cases {
		link := CreatedTransactionsLink("https://ponte.example", acc, from, c.now)
		u, err := url.Parse(link)
		if err != nil || u.Scheme != "https" || u.Host != "ponte.example" || u.Path != c.path {
			t.Errorf("at %s: link %q, want path %s", c.now, link, c.path)
			continue
		}
		q := u.Query()
		if len(q) != 2 || q.Get("accountId") != acc.String() || q.Get("createdAtFrom") != "2026-12-31T23:59:59.123Z" {
			t.Errorf("at %s: query %v", c.now, q)
		}
		if strings.Contains(u.RawQuery, "+") {
			t.Errorf("at %s: %q has a + the official client would read as a space", c.now, u.RawQuery)
		}
	}
}
