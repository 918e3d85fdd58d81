package collected

import (
	"context"
	"sort"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// Spending answers the root spending query: the aggregate of one account or of every
// account of one item, either of which the caller must own.
func (e *Engine) Spending(ctx context.Context, accountID, itemID *uuid.UUID, from, to *model.Time) (*model.Spending, error) {
	if (accountID == nil) == (itemID == nil) {
		return nil, model.Fail(model.CodeInvalidParameter, "Give exactly one of accountId and itemId.")
	}
	if err := e.CheckParent(ctx, "spending", itemID, accountID); err != nil {
		return nil, err
	}
	ids := []uuid.UUID{}
	if accountID != nil {
		ids = append(ids, *accountID)
	} else {
		var err error
		if ids, err = e.reads(ctx).AccountIDsOfItem(ctx, *itemID); err != nil {
			return nil, err
		}
	}
	return e.spending(ctx, ids, from, to)
}

// ItemSpending is the aggregate of an item the caller reached through a read that checked
// it (GraphQL's item.spending).
func (e *Engine) ItemSpending(ctx context.Context, itemID uuid.UUID, from, to *model.Time) (*model.Spending, error) {
	if _, err := auth.Require(ctx, auth.ReadProductData); err != nil {
		return nil, err
	}
	ids, err := e.reads(ctx).AccountIDsOfItem(ctx, itemID)
	if err != nil {
		return nil, err
	}
	return e.spending(ctx, ids, from, to)
}

// AccountSpending is the aggregate of an account the caller reached through a read that
// checked it (GraphQL's account.spending).
func (e *Engine) AccountSpending(ctx context.Context, accountID uuid.UUID, from, to *model.Time) (*model.Spending, error) {
	if _, err := auth.Require(ctx, auth.ReadProductData); err != nil {
		return nil, err
	}
	return e.spending(ctx, []uuid.UUID{accountID}, from, to)
}

// spending sums accounts' transactions, DEBIT as spent and CREDIT as received, in SQL.
func (e *Engine) spending(ctx context.Context, accounts []uuid.UUID, from, to *model.Time) (*model.Spending, error) {
	if from != nil && to != nil && from.After(to.Time) {
		return nil, model.Fail(model.CodeInvalidParameter, "from (%s) is after to (%s).", from.Format(model.TimeLayout), to.Format(model.TimeLayout))
	}
	rows, err := e.reads(ctx).Spending(ctx, accounts, timeOf(from), timeOf(to))
	if err != nil {
		return nil, err
	}
	return spendingOf(rows), nil
}

// spendingOf orders the aggregate: categories by spending, largest first (ties by category
// id, uncategorized first), months oldest first.
func spendingOf(rows []db.SpendingRow) *model.Spending {
	out := &model.Spending{ByCategory: []*model.CategorySpending{}, ByMonth: []*model.MonthSpending{}}
	for _, row := range rows {
		if row.ByMonth {
			out.ByMonth = append(out.ByMonth, &model.MonthSpending{Month: *row.Key, Spent: row.Spent, Received: row.Received, Count: row.Count})
		} else {
			out.ByCategory = append(out.ByCategory, &model.CategorySpending{CategoryID: row.Key, Category: row.Category, Spent: row.Spent, Received: row.Received, Count: row.Count})
		}
	}
	sort.Slice(out.ByMonth, func(i, j int) bool { return out.ByMonth[i].Month < out.ByMonth[j].Month })
	sort.SliceStable(out.ByCategory, func(i, j int) bool {
		a, b := out.ByCategory[i], out.ByCategory[j]
		if a.Spent != b.Spent {
			return a.Spent > b.Spent
		}
		return deref(a.CategoryID) < deref(b.CategoryID)
	})
	return out
}

func timeOf(t *model.Time) *time.Time {
	if t == nil {
		return nil
	}
	return &t.Time
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
