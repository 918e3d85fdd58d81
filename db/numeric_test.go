package db

import (
	"bytes"
	"math"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"
	"pgregory.net/rapid"
)

// TestAmountValueEncodesAsFloat checks that an amount goes to PostgreSQL's numeric as the
// same bytes pgx sends for the float64: value and scale alike.
func TestAmountValueEncodesAsFloat(t *testing.T) {
	m := pgtype.NewMap()
	rapid.Check(t, func(t *rapid.T) {
		f := rapid.OneOf(rapid.Float64(), rapid.Float64Range(-1e9, 1e9),
			rapid.Map(rapid.Int64Range(-1e12, 1e12), func(c int64) float64 { return float64(c) / 100 }),
			rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1e-7, 1e21, 1e300, -5e-324, 12.5, -1200, 100, math.MaxFloat64,
				math.NaN(), math.Inf(1), math.Inf(-1), 123456789012345678, 1234567890123456789})).Draw(t, "f")
		want, werr := m.Encode(pgtype.NumericOID, pgtype.BinaryFormatCode, f, nil)
		got, gerr := m.Encode(pgtype.NumericOID, pgtype.BinaryFormatCode, amountValue(f), nil)
		if werr != nil || gerr != nil {
			t.Fatalf("%v: float64 error %v, amountValue error %v", f, werr, gerr)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%v: amountValue encodes % x, the float64 % x", f, got, want)
		}
	})
}
