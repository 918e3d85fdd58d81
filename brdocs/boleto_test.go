package brdocs

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// Real bank boletos, not this code's output:
//   - the Banco do Brasil slip of R$ 1.00 (factor 3737) quoted by the boletos issue;
//   - a Caixa slip of R$ 214.03 (factor 8981) and a Bradesco one of R$ 1,160.37 (factor
//     7464), and a Bradesco credit-card bill with neither due date nor amount, as
//     open-source boleto validators quote them in their tests;
//   - the factor table of FEBRABAN's specification as banks reproduce it: 1000 is
//     2000-07-03, 1002 2000-07-05, 1667 2002-05-01, 4789 2010-11-17, 9999 2025-02-21, and
//     the restart on 2025-02-22 at 1000;
//   - the modulo-11 walk-through of the FEBRABAN 2-of-5 barcode: 5555555555 weighs to 245,
//     remainder 3.
const (
	publishedLine    = "00190.50095 40144.816069 06809.350314 3 37370000000100"
	publishedBarcode = "00193373700000001000500940144816060680935031"
)

func TestBoletoRealLines(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		line, barcode string
		want          BoletoCode
	}{
		{publishedLine, publishedBarcode, BoletoCode{"001", 3737, 100, "0500940144816060680935031"}},
		{"10492.00650 61000.100042 00997.263900 9 89810000021403", "10499898100000214032006561000100040099726390",
			BoletoCode{"104", 8981, 21403, "2006561000100040099726390"}},
		{"23793.38128 60005.963347 21000.063301 1 74640000116037", "23791746400001160373381260005963342100006330",
			BoletoCode{"237", 7464, 116037, "3381260005963342100006330"}},
		{"23794.15009 90019.801670 35000.211405 7 00000000000000", "23797000000000000004150090019801673500021140",
			BoletoCode{"237", 0, 0, "4150090019801673500021140"}},
	} {
		for _, in := range []string{c.line, c.barcode, strings.NewReplacer(".", "", " ", "").Replace(c.line)} {
			got, err := ParseBoletoLine(in)
			if err != nil || *got != c.want {
				t.Errorf("ParseBoletoLine(%q) = %+v, %v; want %+v", in, got, err, c.want)
				continue
			}
			if got.Line() != c.line || got.Barcode() != c.barcode {
				t.Errorf("%q: line %s barcode %s; want %s and %s", in, got.Line(), got.Barcode(), c.line, c.barcode)
			}
		}
	}
}

func TestDueFactor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		date   string
		factor int
	}{
		{"2000-07-03", 1000}, {"2000-07-05", 1002}, {"2002-05-01", 1667}, {"2010-11-17", 4789},
		{"2025-02-21", 9999}, {"2025-02-22", 1000}, {"2025-02-23", 1001}, {"2049-10-13", 9999}, {"2049-10-14", 1000}, // 9,000 days after the restart, the next
	} {
		d, _ := time.Parse(time.DateOnly, c.date)
		if got := DueFactor(d); got != c.factor {
			t.Errorf("DueFactor(%s) = %d, want %d", c.date, got, c.factor)
		}
		if got := DueFactor(d.Add(23 * time.Hour)); got != c.factor {
			t.Errorf("DueFactor(%s 23:00) = %d, want %d: the time of day counts for nothing", c.date, got, c.factor)
		}
		ref := d.AddDate(0, 0, 200) // a due date is read near today
		if got := FactorDate(c.factor, ref); !got.Equal(d) {
			t.Errorf("FactorDate(%d, %s) = %s, want %s", c.factor, ref.Format(time.DateOnly), got.Format(time.DateOnly), c.date)
		}
	}
}

// The three rules on worked cases: the published line's fields and barcode, and single
// digits that reach each remainder the rules treat apart (0, 1 and 10).
func TestCheckDigitRules(t *testing.T) {
	t.Parallel()
	if r := mod11Remainder("5555555555"); r != 3 {
		t.Fatalf("mod11Remainder = %d, want 3 (245 %% 11)", r)
	}
	for _, c := range []struct {
		digits      string
		bank, mod11 int
	}{
		{"5555555555", 8, 8},
		{"0019" + publishedBarcode[5:], 3, 3}, // the published barcode's general check digit is 3
		{"0", 1, 0},                           // remainder 0: the bank boleto writes 1, the common rule 0
		{"6", 1, 0},                           // remainder 1 (12): 10 is written 1 and 0
		{"5", 1, 1},                           // remainder 10: 11 - 10
		{"1", 9, 9},
	} {
		if got := bankDV(c.digits); got != c.bank {
			t.Errorf("bankDV(%s) = %d, want %d", c.digits, got, c.bank)
		}
		if got := Mod11(c.digits); got != c.mod11 {
			t.Errorf("Mod11(%s) = %d, want %d", c.digits, got, c.mod11)
		}
	}
	for digits, want := range map[string]int{
		"001905009": 5, "4014481606": 9, "0680935031": 4, // the published line's three fields
		"5555555555": 0, "6": 7, "5": 9, "0": 0, "1": 8, // 6×2 = 12 counts 1+2; 5×2 = 10 counts 1
	} {
		if got := Mod10(digits); got != want {
			t.Errorf("Mod10(%s) = %d, want %d", digits, got, want)
		}
	}
}

// Every way of mistyping the published line is caught, and named.
func TestBoletoLineRejects(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ line, says string }{
		{strings.Replace(publishedLine, "00190.50095", "00190.50096", 1), "field 1"},
		{strings.Replace(publishedLine, "40144.816069", "40144.816068", 1), "field 2"},
		{strings.Replace(publishedLine, "06809.350314", "06809.350315", 1), "field 3"},
		{strings.Replace(publishedLine, " 3 ", " 4 ", 1), "general check digit"},
		{strings.Replace(publishedLine, "37370000000100", "37370000000200", 1), "general check digit"},
		{"74891.11611 00172.302267 05522.671006 3 69050000017500", "field 1"},
		{publishedLine[:len(publishedLine)-1], "46 digits"},
		{publishedLine + "1", "48 digits"},
		{"838600000050096000190009000801782309000343062712", "utility or tax bill"},
		{"", "0 digits"},
		{strings.Replace(publishedLine, ".", "/", 1), "neither a digit"},
		{strings.Replace(publishedLine, "0", "٠", 1), "neither a digit"},
		{strings.Replace(publishedBarcode, "0019", "0018", 1), "currency"},
	} {
		if _, err := ParseBoletoLine(c.line); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("ParseBoletoLine(%q) = %v, want an error about %s", c.line, err, c.says)
		}
	}
}

// Line and barcode are one code: many random boletos go barcode -> line -> parsed -> the
// same code.
func TestBoletoRoundTrip(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 11))
	for range 5000 {
		c := BoletoCode{Bank: randomDigits(rng, 3), Factor: 1000 + rng.IntN(9000), Cents: rng.Int64N(10_000_000_000), FreeField: randomDigits(rng, 25)}
		back, err := ParseBoletoLine(c.Line())
		if err != nil || *back != c || back.Barcode() != c.Barcode() || len(c.Barcode()) != 44 || len(strings.NewReplacer(".", "", " ", "").Replace(c.Line())) != 47 {
			t.Fatalf("%+v: line %s parsed to %+v, %v", c, c.Line(), back, err)
		}
	}
}

func randomDigits(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = digit(rng.IntN(10))
	}
	return string(b)
}

// FuzzParseBoletoLine: whatever the parser accepts is a code whose own line and barcode
// parse back to it, with every check digit holding.
func FuzzParseBoletoLine(f *testing.F) {
	f.Add(publishedLine)
	f.Add(publishedBarcode)
	f.Add("0019050095401448160690680935031433737000000010")
	f.Add("23794.15009 90019.801670 35000.211405 7 00000000000000")
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
