package graph

import (
	"context"

	"github.com/google/uuid"

	"ponte/model"
)

// The page-number rule lives in model, shared with the domain packages' lists.
const (
	maxPage     = model.MaxPage
	maxPageSize = model.MaxPageSize
)

func pageArgs(page, pageSize *int) (p, limit, offset int, err error) {
	return model.PageArgs(page, pageSize)
}

func totalPages(total, limit int) int { return model.TotalPages(total, limit) }

// numbered is one page of a numbered list, with the envelope's numbers.
type numbered[T any] struct {
	results            []T
	total, page, pages int
}

// payerPage answers a numbered list of the payer's: the credential, the page arguments,
// then read with the page's limit and offset, in that order of refusals.
func payerPage[T any](ctx context.Context, r *Resolver, page, pageSize *int, read func(client uuid.UUID, limit, offset int) ([]T, int, error)) (numbered[T], error) {
	client, err := r.payer(ctx)
	if err != nil {
		return numbered[T]{}, err
	}
	pg, limit, offset, err := pageArgs(page, pageSize)
	if err != nil {
		return numbered[T]{}, err
	}
	list, total, err := read(client, limit, offset)
	if err != nil {
		return numbered[T]{}, err
	}
	return numbered[T]{results: nonNil(list), total: total, page: pg, pages: totalPages(total, limit)}, nil
}
