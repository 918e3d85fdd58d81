package model

// Page-number envelopes default to page 1 of 500 records, the spec's maximum page size.
// MaxPage keeps every offset ((page-1) × pageSize, at most about 5·10⁹) far inside a 64-bit
// integer and PostgreSQL's bigint OFFSET: a page number near the int64 limit once wrapped
// the offset to a negative number. Lists that deep are read with cursors.
const (
	DefaultPageSize = 500
	MaxPageSize     = 500
	MaxPage         = 10_000_000
)

// PageArgs validates page and pageSize and returns the page, limit and offset. It is the
// rule of every page-number list, in graph and in the domain packages alike.
func PageArgs(page, pageSize *int) (p, limit, offset int, err error) {
	p, limit = 1, DefaultPageSize
	if page != nil {
		if *page < 1 || *page > MaxPage {
			return 0, 0, 0, Fail(CodeInvalidParameter, "page must be between 1 and %d (got %d).", MaxPage, *page)
		}
		p = *page
	}
	if pageSize != nil {
		if *pageSize < 1 || *pageSize > MaxPageSize {
			return 0, 0, 0, Fail(CodeInvalidParameter, "pageSize must be between 1 and %d (got %d).", MaxPageSize, *pageSize)
		}
		limit = *pageSize
	}
	return p, limit, (p - 1) * limit, nil
}

// TotalPages is the totalPages of every page-number envelope, REST and GraphQL: the pages
// needed to read total records, limit to a page (spec 2.1). No records need no page, so an
// empty list says 0, whatever its page size; page stays the page asked for.
func TotalPages(total, limit int) int {
	if total <= 0 || limit <= 0 {
		return 0
	}
	return (total-1)/limit + 1
}

// ListPages is the totalPages of a list answered whole, in one page (an item's accounts,
// its resources, a request's schedules): one page when it has records, none when empty.
func ListPages(total int) int { return TotalPages(total, max(total, 1)) }
