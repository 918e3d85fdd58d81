package brdocs

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// Real utility bills, as open-source boleto validators quote them in their tests: an
// energy bill of R$ 509.60 (segment 3, value identifier 8: checked by modulo 11), a telecom
// bill of R$ 29.99 (segment 4, identifier 6: modulo 10) and a government collection of
// R$ 57.25 (segment 5, identifier 8).
func TestUtilityRealLines(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		line, barcode string
		want          UtilityBoleto
	}{
		{"83860000005-0 09600019000-9 00080178230-9 00034306271-2", "83860000005096000190000008017823000034306271",
			UtilityBoleto{'3', '8', 50960, "0019", "0000008017823000034306271"}},
		{"84630000000-3 29990296202-4 00410136000-8 00200644114-7", "84630000000299902962020041013600000200644114",
			UtilityBoleto{'4', '6', 2999, "0296", "2020041013600000200644114"}},
		{"85820000000-7 57250328203-0 56070820210-7 53959190446-0", "85820000000572503282035607082021053959190446",
			UtilityBoleto{'5', '8', 5725, "0328", "2035607082021053959190446"}},
	} {
		for _, in := range []string{c.line, c.barcode, strings.NewReplacer("-", "", " ", "").Replace(c.line)} {
			got, err := ParseUtilityLine(in)
			if err != nil || *got != c.want {
				t.Errorf("ParseUtilityLine(%q) = %+v, %v; want %+v", in, got, err, c.want)
				continue
			}
			if got.Line() != c.line || got.Barcode() != c.barcode {
				t.Errorf("%q: line %s barcode %s; want %s and %s", in, got.Line(), got.Barcode(), c.line, c.barcode)
			}
		}
	}
}

func TestUtilityRejects(t *testing.T) {
	t.Parallel()
	const energy = "83860000005-0 09600019000-9 00080178230-9 00034306271-2"
	const government = "85820000000-7 57250328203-0 56070820210-7 53959190446-0"
	for _, c := range []struct{ line, says string }{
		{strings.Replace(energy, "-0 ", "-1 ", 1), "block 1"},
		{strings.Replace(energy, "19000-9", "19000-8", 1), "block 2"},
		{strings.Replace(energy, "78230-9", "78230-0", 1), "block 3"},
		{strings.Replace(energy, "06271-2", "06271-3", 1), "block 4"},
		{strings.Replace(government, "203-0", "203-1", 1), "block 2"},           // modulo 11 blocks
		{strings.Replace(government, "-0 5607", "-8 5607", 1), "block 2"},       // modulo 10 would give 8
		{"83870000005096000190000008017823000034306271", "general check digit"}, // the DV changed
		{"83860000005096000190000008017823000034306272", "general check digit"}, // a digit changed
		{"83060000005096000190000008017823000034306271", "value identifier"},    // 0 is no identifier
		{"88860000005096000190000008017823000034306271", "segment"},             // segment 8 is not defined
		{"00193373700000001000500940144816060680935031", "not 8"},               // a bank boleto
		{"8386000000509600019000000801782300003430627", "43 digits"},
		{"838600000050096000190009000801782309000343062712" + "0", "49 digits"},
		{strings.Replace(energy, "-", "/", 1), "neither a digit"},
	} {
		if _, err := ParseUtilityLine(c.line); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("ParseUtilityLine(%q) = %v, want an error about %s", c.line, err, c.says)
		}
	}
}

// Each value identifier's check rule, and segment 6's wider company field, survive the
// trip barcode -> line -> parsed.
func TestUtilityRoundTrip(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 5))
	for range 5000 {
		u := UtilityBoleto{Segment: "12345679"[rng.IntN(8)], ValueID: "6789"[rng.IntN(4)], Value: rng.Int64N(100_000_000_000)}
		u.Company, u.FreeField = randomDigits(rng, 4), randomDigits(rng, 25)
		if u.Segment == '6' {
			u.Company, u.FreeField = randomDigits(rng, 8), randomDigits(rng, 21)
		}
		back, err := ParseUtilityLine(u.Line())
		if err != nil || *back != u || back.Barcode() != u.Barcode() || len(u.Barcode()) != 44 {
			t.Fatalf("%+v: line %s parsed to %+v, %v", u, u.Line(), back, err)
		}
		if fromBarcode, err := ParseUtilityLine(u.Barcode()); err != nil || *fromBarcode != u {
			t.Fatalf("%+v: barcode %s parsed to %+v, %v", u, u.Barcode(), fromBarcode, err)
		}
	}
}

// FuzzParseUtilityLine: whatever the parser accepts is a bill whose own line and barcode
// parse back to it.
func FuzzParseUtilityLine(f *testing.F) {
	f.Add("83860000005-0 09600019000-9 00080178230-9 00034306271-2")
	f.Add("85820000000572503282035607082021053959190446")
	f.Add("846300000003299902962024004101360008002006441147")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		u, err := ParseUtilityLine(s)
		if err != nil {
			return
		}
		if len(u.Barcode()) != 44 {
			t.Fatalf("%q parsed to %+v, whose barcode %q is not 44 digits", s, u, u.Barcode())
		}
		again, err := ParseUtilityLine(u.Line())
		if err != nil || *again != *u {
			t.Fatalf("%q parsed to %+v, whose line %q gives %+v, %v", s, u, u.Line(), again, err)
		}
		if b, err := ParseUtilityLine(u.Barcode()); err != nil || *b != *u {
			t.Fatalf("%q parsed to %+v, whose barcode %q gives %+v, %v", s, u, u.Barcode(), b, err)
		}
	})
}
