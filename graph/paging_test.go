package graph

import (
	"math"
	"testing"
)

func TestPageArgs(t *testing.T) {
	ptr := func(n int) *int { return &n }
	cases := []struct {
		page, size          *int
		wantPage, wantLimit int
		wantOffset          int
		wantErr             bool
	}{
		{nil, nil, 1, 500, 0, false},
		{ptr(3), ptr(20), 3, 20, 40, false},
		{ptr(maxPage), ptr(maxPageSize), maxPage, maxPageSize, (maxPage - 1) * maxPageSize, false},
		{ptr(maxPage + 1), nil, 0, 0, 0, true},
		{ptr(math.MaxInt64), nil, 0, 0, 0, true},
		{ptr(math.MaxInt64/500 + 2), ptr(500), 0, 0, 0, true},
		{ptr(0), nil, 0, 0, 0, true},
		{ptr(math.MinInt64), nil, 0, 0, 0, true},
		{nil, ptr(0), 0, 0, 0, true},
		{nil, ptr(501), 0, 0, 0, true},
		{nil, ptr(math.MaxInt64), 0, 0, 0, true},
	}
	for _, c := range cases {
		p, limit, offset, err := pageArgs(c.page, c.size)
		if (err != nil) != c.wantErr {
			t.Errorf("pageArgs(%v, %v): err %v, want error %v", intOrNil(c.page), intOrNil(c.size), err, c.wantErr)
			continue
		}
		if err == nil && (p != c.wantPage || limit != c.wantLimit || offset != c.wantOffset) {
			t.Errorf("pageArgs(%v, %v) = %d, %d, %d", intOrNil(c.page), intOrNil(c.size), p, limit, offset)
		}
		if err == nil && offset < 0 {
			t.Errorf("negative offset %d", offset)
		}
	}
}

func intOrNil(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}
