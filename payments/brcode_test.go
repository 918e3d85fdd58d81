package payments

import (
	"strings"
	"testing"
)

// payments' BR Code carries reais as the model does; the payload carries them as two-decimal
// text: the trip between the two loses nothing for any amount checkAmount lets through.
func TestBRCodeAmountInReais(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		amount float64
		field  string // field 54 as written, "" for none
	}{
		{42.9, "540542.90"}, {0.01, "54040.01"}, {0.29, "54040.29"}, {1.15, "54041.15"}, {4.35, "54044.35"}, {10, "540510.00"},
		{999999999.99, "5412999999999.99"}, {MaxAmount, "54131000000000.00"}, {0, ""}, {-5, ""},
	} {
		s := BRCode{Key: "fulano@example.com", Amount: c.amount, MerchantName: "Fulano", MerchantCity: "BRASILIA"}.Encode()
		if c.field == "" {
			if strings.Contains(s, "986540") {
				t.Errorf("amount %v: %s has an amount field", c.amount, s)
			}
			continue
		}
		if !strings.Contains(s, "986"+c.field+"5802BR") {
			t.Errorf("amount %v: %s lacks %s", c.amount, s, c.field)
		}
		got, err := ParseBRCode(s)
		if err != nil || got.Amount != c.amount || checkAmount("amount", got.Amount) != nil {
			t.Errorf("amount %v: %s parsed to %+v, %v", c.amount, s, got, err)
		}
	}
	// Fits and the parse errors are brdocs' own.
	if err := (BRCode{Key: strings.Repeat("k", 78)}).Fits(); err == nil || !strings.Contains(err.Error(), "at most 77") {
		t.Fatalf("a 78-character key fits: %v", err)
	}
	if _, err := ParseBRCode("000201"); err == nil || !strings.Contains(err.Error(), "payload format indicator") {
		t.Fatalf("ParseBRCode(000201): %v", err)
	}
}
