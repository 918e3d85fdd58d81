package graph

import "ponte/model"

// Page-number envelopes default to page 1 of 500 records, the spec's maximum page size.
// maxPage keeps every offset ((page-1) × pageSize, at most about 5·10⁹) far inside a 64-bit
// integer and PostgreSQL's bigint OFFSET: a page number near the int64 limit once wrapped
// the offset to a negative number. Lists that deep are read with cursors.
const (
	defaultPageSize = 500
	maxPageSize     = 500
	maxPage         = 10_000_000
)

// pageArgs validates page and pageSize and returns the page, limit and offset.
func pageArgs(page, pageSize *int) (p, limit, offset int, err error) {
	p, limit = 1, defaultPageSize
	if page != nil {
		if *page < 1 || *page > maxPage {
			return 0, 0, 0, model.Fail(model.CodeInvalidParameter, "page must be between 1 and %d (got %d).", maxPage, *page)
		}
		p = *page
	}
	if pageSize != nil {
		if *pageSize < 1 || *pageSize > maxPageSize {
			return 0, 0, 0, model.Fail(model.CodeInvalidParameter, "pageSize must be between 1 and %d (got %d).", maxPageSize, *pageSize)
		}
		limit = *pageSize
	}
	return p, limit, (p - 1) * limit, nil
}

func totalPages(total, limit int) int { return (total + limit - 1) / limit }
