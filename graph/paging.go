package graph

import "ponte/model"

// The page-number rule lives in model, shared with the domain packages' lists.
const (
	maxPage     = model.MaxPage
	maxPageSize = model.MaxPageSize
)

func pageArgs(page, pageSize *int) (p, limit, offset int, err error) {
	return model.PageArgs(page, pageSize)
}

func totalPages(total, limit int) int { return model.TotalPages(total, limit) }
