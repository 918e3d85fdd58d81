package payments

import (
	"math"
	"regexp"
	"strconv"
	"testing"
)

func TestCheckAmount(t *testing.T) {
	ok := []float64{0.01, 0.1, 1, 10.5, 10.55, 99.99, 1234567.89, 999999999.99, MaxAmount}
	bad := []float64{0, -0.01, -10, 0.000000001, 0.001, 0.009, 10.005, 10.555, 1.0000001, MaxAmount + 0.01, 1e300,
		math.NaN(), math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64}
	for _, v := range ok {
		if err := checkAmount("amount", v); err != nil {
			t.Errorf("checkAmount(%v): %v", v, err)
		}
	}
	for _, v := range bad {
		if err := checkAmount("amount", v); err == nil {
			t.Errorf("checkAmount(%v) accepted", v)
		}
	}
}

var centsText = regexp.MustCompile(`^[0-9]{1,10}(\.[0-9]{1,2})?$`)

// FuzzCheckAmount holds checkAmount to its rule both ways: what it accepts is a whole
// number of cents in range, and every amount written with at most two decimals in range
// is accepted.
func FuzzCheckAmount(f *testing.F) {
	for _, s := range []string{"10.5", "10.50", "0.01", "0", "-1", "0.000000001", "10.005", "1e300", "1e309", "NaN", "Inf", "999999999.99",
		"1000000000", "1000000000.01", "0.1", "0.29", "1.15", "4.35", "0x1p-2", "5e-324"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return
		}
		accepted := checkAmount("amount", v) == nil
		if accepted {
			cents := math.Round(v * 100)
			if !(v > 0 && v <= MaxAmount) || cents/100 != v {
				t.Fatalf("accepted %q (%v): not a positive whole number of cents up to %d", text, v, MaxAmount)
			}
			if back, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', 2, 64), 64); back != v {
				t.Fatalf("accepted %q (%v), which two decimals do not write exactly", text, v)
			}
		}
		if centsText.MatchString(text) && v > 0 && v <= MaxAmount && !accepted {
			t.Fatalf("refused %q, a valid amount", text)
		}
	})
}

// Fees are exact and round half a cent up: the cases float64 arithmetic got wrong (14.50
// at 1% is 0.145, which float64 computed as 0.14499… and rounded down) and their kin.
func TestFee(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		amount, fixed, percent, want float64
	}{
		{14.50, 0, 1, 0.15},
		{24.50, 0, 1, 0.25},
		{100, 0.50, 1.2, 1.70},
		{33.33, 0, 1.5, 0.50}, // 0.49995
		{0.01, 0, 1, 0},       // 0.0001
		{0.50, 0, 1, 0.01},    // 0.005, half up
		{0.49, 0, 1, 0},       // 0.0049
		{1_000_000_000, 0.10, 0.99, 9_900_000.10},
		{10, 0.5, 0, 0.5},
		{123.45, 0.07, 2.35, 2.97}, // 2.901075 + 0.07
	} {
		if got := fee(c.amount, c.fixed, c.percent); got != c.want {
			t.Errorf("fee(%v, %v + %v%%) = %v, want %v", c.amount, c.fixed, c.percent, got, c.want)
		}
	}
}
