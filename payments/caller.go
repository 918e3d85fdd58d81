package payments

import (
	"context"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
)

// Authorization is decided here, once per operation: each method that serves an API
// operation asks caller for the application it acts for, so no layer above can hand in
// another application's id. The payer's pages (consent, payment, pre-authorization and bulk
// consent) and the PIX charge locations carry no credential: the unguessable id in their
// URL is the capability, and their methods say so in their names (…ForPayer, …ForOwner,
// PixLocation, BoletoPixCharge). Workers call unexported methods with the row's own client.

// caller is the application whose credential ctx carries, when it may manage payments.
func caller(ctx context.Context) (uuid.UUID, error) {
	p, err := auth.Require(ctx, auth.ManagePayments)
	if err != nil {
		return uuid.Nil, err
	}
	return p.ClientID, nil
}

// numbered is one page of a numbered list, with the envelope's numbers.
type numbered[T any] struct {
	results            []T
	total, page, pages int
}

// readPage checks the page arguments, then reads with their limit and offset, in that order
// of refusals (the credential was checked before).
func readPage[T any](page, pageSize *int, read func(limit, offset int) ([]T, int, error)) (numbered[T], error) {
	pg, limit, offset, err := model.PageArgs(page, pageSize)
	if err != nil {
		return numbered[T]{}, err
	}
	list, total, err := read(limit, offset)
	if err != nil {
		return numbered[T]{}, err
	}
	if list == nil {
		list = []T{}
	}
	return numbered[T]{results: list, total: total, page: pg, pages: model.TotalPages(total, limit)}, nil
}

// wholeList is a list answered in one page (a request's schedules).
func wholeList[T any](list []T) numbered[T] {
	if list == nil {
		list = []T{}
	}
	return numbered[T]{results: list, total: len(list), page: 1, pages: model.ListPages(len(list))}
}

// dateRange reads the from and to filters of payment lists with the rule of every date
// filter (model.ParseUpTo): a plain date to covers its whole day in UTC, a date-time to its
// whole millisecond.
func dateRange(from, to *string) (*time.Time, *time.Time, error) {
	var f, t *time.Time
	if from != nil {
		v, err := model.ParseTime(*from)
		if err != nil {
			return nil, nil, model.Fail(model.CodeInvalidParameter, "from %q is not a date (YYYY-MM-DD) or date-time (RFC 3339).", *from)
		}
		f = &v.Time
	}
	if to != nil {
		last, err := model.ParseUpTo(*to)
		if err != nil {
			return nil, nil, model.Fail(model.CodeInvalidParameter, "to %q is not a date (YYYY-MM-DD) or date-time (RFC 3339).", *to)
		}
		// The store compares created_at < end: the instant after the last one covered.
		end := last.Add(time.Microsecond)
		t = &end
	}
	if f != nil && t != nil && !f.Before(*t) {
		return nil, nil, model.Fail(model.CodeInvalidParameter, "from %s is after to %s.", *from, *to)
	}
	return f, t, nil
}
