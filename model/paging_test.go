package model

import (
	"math"
	"testing"
)

func TestTotalPages(t *testing.T) {
	cases := []struct{ total, limit, want int }{
		{0, 500, 0},
		{0, 1, 0},
		{1, 500, 1},
		{500, 500, 1},
		{501, 500, 2},
		{11, 3, 4},
		{12, 3, 4},
		{math.MaxInt, 1, math.MaxInt}, // (total+limit-1)/limit would overflow here
		{math.MaxInt, 500, math.MaxInt/500 + 1},
	}
	for _, c := range cases {
		if got := TotalPages(c.total, c.limit); got != c.want {
			t.Errorf("TotalPages(%d, %d) = %d, want %d", c.total, c.limit, got, c.want)
		}
	}
	for _, c := range []struct{ total, want int }{{0, 0}, {1, 1}, {3, 1}, {10_000, 1}} {
		if got := ListPages(c.total); got != c.want {
			t.Errorf("ListPages(%d) = %d, want %d", c.total, got, c.want)
		}
	}
}
