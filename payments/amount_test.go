package payments

import (
	"fmt"
	"math"
	"strings"
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

func TestBRCodeAmountForm(t *testing.T) {
	for _, c := range []struct {
		amount string
		ok     bool
	}{{"10", true}, {"10.5", true}, {"10.50", true}, {"0.01", true}, {"NaN", false}, {"Inf", false}, {"1e-9", false},
		{"10.005", false}, {".5", false}, {"10.", false}, {"-1", false}, {"+1", false}, {"1,50", false}, {"0x10", false}} {
		// Encode formats a float; write the amount field by hand and sign the payload again.
		code := BRCode{Key: "fulano@example.com", Amount: 1, MerchantName: "Fulano", MerchantCity: "BRASILIA"}.Encode()
		raw := strings.Replace(code[:len(code)-4], tlv("54", "1.00"), tlv("54", c.amount), 1)
		raw += fmt.Sprintf("%04X", crc16(raw))
		_, err := ParseBRCode(raw)
		if (err == nil) != c.ok {
			t.Errorf("amount %q: err %v, want ok %v", c.amount, err, c.ok)
		}
	}
}
