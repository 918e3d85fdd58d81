package rest_test

import (
	"net/url"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"ponte/model"
	"ponte/testsupport"
)

// testClock is a service clock that runs at real speed from a chosen instant, and can be
// moved forward, so a test reaches date rules (a cooldown's end, a sunset) without waiting.
type testClock struct{ offset atomic.Int64 }

func clockAt(at time.Time) *testClock {
	c := &testClock{}
	c.offset.Store(int64(time.Until(at)))
	return c
}

func (c *testClock) now() time.Time          { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *testClock) advance(d time.Duration) { c.offset.Add(int64(d)) }

// createdLinkPath is the endpoint a createdTransactionsLink made now targets (spec 4.4
// rule 4): the page-based list until its sunset, the cursor list after.
func createdLinkPath(now time.Time) string {
	if now.Before(model.TransactionsSunset) {
		return "/transactions"
	}
	return "/v2/transactions"
}

// readCreatedLink reads every row a createdTransactionsLink returns, the way its endpoint
// pages: page numbers on GET /transactions, next on GET /v2/transactions.
func readCreatedLink(t *testing.T, env *testsupport.Env, key, link string) []model.Transaction {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil || u.Scheme+"://"+u.Host != env.URL {
		t.Fatalf("createdTransactionsLink %q is not on this service (%s): %v", link, env.URL, err)
	}
	switch u.Path {
	case "/v2/transactions":
		return readAll(t, env, key, u.RequestURI(), nil)
	case "/transactions":
		var all []model.Transaction
		for page := 1; ; page++ {
			var p struct {
				Total      int                 `json:"total"`
				TotalPages int                 `json:"totalPages"`
				Page       int                 `json:"page"`
				Results    []model.Transaction `json:"results"`
			}
			env.Do(t, "GET", u.RequestURI()+"&page="+strconv.Itoa(page), key, nil).Want(200).JSON(&p)
			all = append(all, p.Results...)
			if page >= p.TotalPages {
				if len(all) != p.Total {
					t.Fatalf("%s: read %d rows, total %d", link, len(all), p.Total)
				}
				return all
			}
		}
	}
	t.Fatalf("createdTransactionsLink %q targets neither transactions endpoint", link)
	return nil
}
