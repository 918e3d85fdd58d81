package db

import (
	"bytes"
	"math"
	"math/big"
	"strconv"

	"github.com/jackc/pgx/v5/pgtype"
)

// amountValue is f for a numeric column, encoding to exactly the bytes pgx gives f itself
// (the shortest decimal that reads back as f, its digits after the point as the scale)
// without pgx's detour through a string and big.Int's parsing of it, which was a third of
// a first history's COPY encoding. NaN, the infinities and numbers of more than 18 digits
// stay float64, for pgx.
func amountValue(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	var s [32]byte
	d := strconv.AppendFloat(s[:0], f, 'f', -1, 64)
	neg := d[0] == '-'
	if neg {
		d = d[1:]
	}
	var exp int32
	if i := bytes.IndexByte(d, '.'); i >= 0 {
		exp = -int32(len(d) - i - 1)
		d = append(d[:i], d[i+1:]...)
	} else {
		for len(d) > 1 && d[len(d)-1] == '0' {
			d = d[:len(d)-1]
			exp++
		}
	}
	if len(d) > 18 {
		return f
	}
	var m int64
	for _, c := range d {
		m = m*10 + int64(c-'0')
	}
	if neg {
		m = -m
	}
	return pgtype.Numeric{Int: big.NewInt(m), Exp: exp, Valid: true}
}
