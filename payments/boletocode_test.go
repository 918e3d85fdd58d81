package payments

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// Published worked examples, not the code's own output:
//   - the line and barcode pair quoted by the boletos issue (a Banco do Brasil slip of
//     R$ 1.00, factor 3737);
//   - the factor table of FEBRABAN's specification as banks reproduce it: 1000 is
//     2000-07-03, 1002 2000-07-05, 1667 2002-05-01, 4789 2010-11-17, 9999 2025-02-21, and
//     the restart on 2025-02-22 at 1000;
//   - the modulo-11 walk-through of the FEBRABAN 2-of-5 barcode: 5555555555 weighs to 245,
//     remainder 3.
const (
	publishedLine    = "00190.50095 40144.816069 06809.350314 3 37370000000100"
	publishedBarcode = "00193373700000001000500940144816060680935031"
)

func TestBoletoPublishedExample(t *testing.T) {
	t.Parallel()
	c, err := ParseBoletoLine(publishedLine)
	if err != nil {
		t.Fatal(err)
	}
	if c.Bank != "001" || c.Factor != 3737 || c.Cents != 100 || c.Barcode() != publishedBarcode {
		t.Fatalf("parsed %+v, barcode %s", c, c.Barcode())
	}
	if got := c.Line(); got != publishedLine {
		t.Fatalf("line %s, want %s", got, publishedLine)
	}
	fromBarcode, err := ParseBoletoLine(publishedBarcode)
	if err != nil || fromBarcode.Line() != publishedLine {
		t.Fatalf("from the barcode: %+v %v", fromBarcode, err)
	}
}

func TestDueFactor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		date   string
		factor int
	}{
		{"2000-07-03", 1000}, {"2000-07-05", 1002}, {"2002-05-01", 1667}, {"2010-11-17", 4789},
		{"2025-02-21", 9999}, {"2025-02-22", 1000}, {"2025-02-23", 1001},
	} {
		d, _ := time.Parse(time.DateOnly, c.date)
		if got := DueFactor(d); got != c.factor {
			t.Errorf("DueFactor(%s) = %d, want %d", c.date, got, c.factor)
		}
		ref := d.AddDate(0, 0, 200) // a due date is read near today
		if got := FactorDate(c.factor, ref); !got.Equal(d) {
			t.Errorf("FactorDate(%d, %s) = %s, want %s", c.factor, ref.Format(time.DateOnly), got.Format(time.DateOnly), c.date)
		}
	}
}

func TestBoletoCheckDigits(t *testing.T) {
	t.Parallel()
	if r := mod11Remainder("5555555555"); r != 3 {
		t.Fatalf("mod11Remainder = %d, want 3 (245 %% 11)", r)
	}
	// General check digit: 0, 10 and 11 become 1.
	for digits, want := range map[string]int{"5555555555": 8} {
		if got := generalDV(digits); got != want {
			t.Errorf("generalDV(%s) = %d, want %d", digits, got, want)
		}
	}
	// Every way of mistyping the published line is caught, and named.
	for _, c := range []struct{ line, says string }{
		{strings.Replace(publishedLine, "00190.50095", "00190.50096", 1), "field 1"},
		{strings.Replace(publishedLine, "40144.816069", "40144.816068", 1), "field 2"},
		{strings.Replace(publishedLine, "06809.350314", "06809.350315", 1), "field 3"},
		{strings.Replace(publishedLine, " 3 ", " 4 ", 1), "general check digit"},
		{strings.Replace(publishedLine, "37370000000100", "37370000000200", 1), "general check digit"},
		{publishedLine[:len(publishedLine)-1], "46 digits"},
		{publishedLine + "1", "48 digits"},
		{strings.Replace(publishedLine, ".", "/", 1), "neither a digit"},
		{strings.Replace(publishedBarcode, "0019", "0018", 1), "currency"},
	} {
		if _, err := ParseBoletoLine(c.line); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("ParseBoletoLine(%q) = %v, want an error about %s", c.line, err, c.says)
		}
	}
}

// Line and barcode are one code: many random boletos go barcode -> line -> parsed -> the
// same barcode, and the nosso número's check digit is recomputed from the free field.
func TestBoletoRoundTrip(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 11))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		return string(b)
	}
	for range 5000 {
		nn := digits(11)
		c := BoletoCode{Bank: digits(3), Factor: 1000 + rng.IntN(9000), Cents: rng.Int64N(10_000_000_000),
			FreeField: boletoFreeField(nn, digits(4), digits(8))}
		back, err := ParseBoletoLine(c.Line())
		if err != nil || *back != c || back.Barcode() != c.Barcode() || len(c.Barcode()) != 44 || len(strings.ReplaceAll(strings.ReplaceAll(c.Line(), ".", ""), " ", "")) != 47 {
			t.Fatalf("%+v: line %s parsed to %+v, %v", c, c.Line(), back, err)
		}
		if int(back.FreeField[11]-'0') != nossoNumeroDV(back.FreeField[:11]) {
			t.Fatalf("free field %s: the nosso número's check digit does not hold", back.FreeField)
		}
	}
}

// FuzzParseBoletoLine: whatever the parser accepts is a code whose own line and barcode
// parse back to it, with every check digit holding.
func FuzzParseBoletoLine(f *testing.F) {
	f.Add(publishedLine)
	f.Add(publishedBarcode)
	f.Add("0019050095401448160690680935031433737000000010")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseBoletoLine(s)
		if err != nil {
			return
		}
		again, err := ParseBoletoLine(c.Line())
		if err != nil || *again != *c {
			t.Fatalf("%q parsed to %+v, whose line %q gives %+v, %v", s, c, c.Line(), again, err)
		}
		if b, err := ParseBoletoLine(c.Barcode()); err != nil || *b != *c {
			t.Fatalf("%q parsed to %+v, whose barcode %q gives %+v, %v", s, c, c.Barcode(), b, err)
		}
	})
}
