package collected

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
)

// LegacySunset is when GET /transactions stops being served (section 8: available until
// 2026-12-31); the events' createdTransactionsLink switches to /v2 at the same instant.
var LegacySunset = model.TransactionsSunset

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

// legacyCountLimit bounds the cache: a cold cache only costs one count per key.
const legacyCountLimit = 10000

func (c *legacyCounts) get(key string, version time.Time) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v.n, ok && v.version.Equal(version)
}

func (c *legacyCounts) put(key string, version time.Time, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) > legacyCountLimit {
		c.m = map[string]legacyCount{}
	}
	c.m[key] = legacyCount{version, n}
}

// LegacyTransactions serves the deprecated GET /transactions until its sunset, and
// afterwards a 410 that names the replacement.
func (e *Engine) LegacyTransactions(ctx context.Context, f model.LegacyTransactionFilter, page, pageSize *int) (*model.DocumentPage, error) {
	if !e.now().Before(LegacySunset) {
		return nil, model.Fail(model.CodeEndpointSunset, "GET /transactions was retired on %s; use GET /v2/transactions (cursor pagination, same filters).", LegacySunset.AddDate(0, 0, -1).Format("2006-01-02"))
	}
	p, err := auth.Require(ctx, auth.ReadProductData)
	if err != nil {
		return nil, err
	}
	if f.DateFrom != nil && f.DateTo != nil && f.DateFrom.After(*f.DateTo) {
		return nil, model.Fail(model.CodeInvalidParameter, "from (%s) is after to (%s).", f.DateFrom.Format(model.TimeLayout), f.DateTo.Format(model.TimeLayout))
	}
	pg, limit, offset, err := model.PageArgs(page, pageSize)
	if err != nil {
		return nil, err
	}
	var total int
	var list []model.JSONDocument
	ours, err := e.checked(ctx, 'a', f.AccountID, p.ClientID, e.accountOwner, func(item uuid.UUID) (int, error) {
		version, found, err := e.reads(ctx).AccountVersion(ctx, f.AccountID)
		if err != nil || !found { // gone since its owner was checked: as good as no rows
			return 0, err
		}
		key := fmt.Sprint(f.AccountID, filterHash(f.TransactionFilter), f.BillID)
		var ok bool
		if total, ok = e.legacyCounts.get(key, version); !ok {
			if total, err = e.reads(ctx).LegacyTransactionCount(ctx, item, f); err != nil {
				return 0, err
			}
			e.legacyCounts.put(key, version, total)
		}
		list, err = e.reads(ctx).LegacyTransactionPage(ctx, item, f, limit, offset)
		return total, err
	})
	if err != nil {
		return nil, err
	}
	if !ours {
		return nil, accountNotFound(f.AccountID)
	}
	out := model.NewDocumentPage(list, total, pg, limit)
	return &out, nil
}
