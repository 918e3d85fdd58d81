package payments

import (
	"math/rand/v2"
	"testing"

	"ponte/brdocs"
)

// This service's free field: the nosso número with its modulo-11 check digit, the
// agency, the account and a 0, 25 digits in all, and a boleto carrying it survives the
// trip through its line.
func TestBoletoFreeField(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ nossoNumero, agency, account, want string }{
		{"00000000001", "0001", "00000007", "0000000000190001000000070"}, // 1×2 = 2: 11 - 2 = 9
		{"00000000006", "0001", "00000007", "0000000000600001000000070"}, // 6×2 = 12, remainder 1: 10 is written 0
		{"00000000000", "0001", "00000955", "0000000000000001000009550"}, // remainder 0: 11 is written 0
		{"12345678901", "0001", "00000042", "1234567890100001000000420"}, // weights 4,3,2,9,…,2 sum to 254, remainder 1
	} {
		if got := boletoFreeField(c.nossoNumero, c.agency, c.account); got != c.want {
			t.Errorf("boletoFreeField(%s, %s, %s) = %s, want %s", c.nossoNumero, c.agency, c.account, got, c.want)
		}
	}
	rng := rand.New(rand.NewPCG(7, 11))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		return string(b)
	}
	for range 1000 {
		nn := digits(11)
		c := BoletoCode{Bank: "955", Factor: 1000 + rng.IntN(9000), Cents: rng.Int64N(10_000_000_000), FreeField: boletoFreeField(nn, digits(4), digits(8))}
		back, err := ParseBoletoLine(c.Line())
		if err != nil || *back != c || len(back.FreeField) != 25 || back.FreeField[:11] != nn {
			t.Fatalf("%+v: line %s parsed to %+v, %v", c, c.Line(), back, err)
		}
		if int(back.FreeField[11]-'0') != brdocs.Mod11(nn) {
			t.Fatalf("free field %s: the nosso número's check digit does not hold", back.FreeField)
		}
	}
}
