package graph

import (
	"context"
	"fmt"
	"sync"
	"time"

	"ponte/auth"
	"ponte/model"
)

// LegacySunset is when GET /transactions stops being served (section 8: available until
// 2026-12-31).
var LegacySunset = time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)

// legacyCounts remembers totals of GET /transactions per account and filter while the
// account's data is unchanged: a client paging through a million rows would otherwise pay a
// full count (over 100 ms) on every page.
type legacyCounts struct {
	mu sync.Mutex
	m  map[string]legacyCount
}

type legacyCount struct {
	version time.Time
	n       int
}

func (c *legacyCounts) get(key string, version time.Time) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v.n, ok && v.version.Equal(version)
}

func (c *legacyCounts) put(key string, version time.Time, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) > 10000 {
		c.m = map[string]legacyCount{} // bounded: a cold cache only costs one count per key
	}
	c.m[key] = legacyCount{version, n}
}

// LegacyTransactions serves the deprecated GET /transactions until its sunset, and
// afterwards a 410 that names the replacement.
func (r *Resolver) LegacyTransactions(ctx context.Context, f model.LegacyTransactionFilter, page, pageSize *int) (*RawPage, error) {
	now := time.Now()
	if r.Now != nil {
		now = r.Now()
	}
	if !now.Before(LegacySunset) {
		return nil, model.Fail(model.CodeEndpointSunset, "GET /transactions was retired on %s; use GET /v2/transactions (cursor pagination, same filters).", LegacySunset.AddDate(0, 0, -1).Format("2006-01-02"))
	}
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	client, _, found, err := r.DB.AccountOwner(ctx, f.AccountID)
	if err != nil {
		return nil, err
	}
	if !found || client != p.ClientID {
		return nil, model.Fail(model.CodeAccountNotFound, "Account %s not found.", f.AccountID)
	}
	if f.DateFrom != nil && f.DateTo != nil && f.DateFrom.After(*f.DateTo) {
		return nil, model.Fail(model.CodeInvalidParameter, "from (%s) is after to (%s).", f.DateFrom.Format(model.TimeLayout), f.DateTo.Format(model.TimeLayout))
	}
	pg, limit, offset, err := pageArgs(page, pageSize)
	if err != nil {
		return nil, err
	}
	version, err := r.DB.AccountVersion(ctx, f.AccountID)
	if err != nil {
		return nil, err
	}
	key := fmt.Sprint(f.AccountID, filterHash(f.TransactionFilter), f.BillID)
	total, ok := r.legacyCounts.get(key, version)
	if !ok {
		if total, err = r.DB.LegacyTransactionCount(ctx, f); err != nil {
			return nil, err
		}
		r.legacyCounts.put(key, version, total)
	}
	list, err := r.DB.LegacyTransactionPage(ctx, f, limit, offset)
	if err != nil {
		return nil, err
	}
	return &RawPage{Total: total, TotalPages: totalPages(total, limit), Page: pg, Results: list}, nil
}
