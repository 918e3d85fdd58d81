package brdocs

import (
	"fmt"
	"strings"
	"testing"
)

func TestCRC16(t *testing.T) {
	t.Parallel()
	// The check value of CRC-16/CCITT-FALSE, and the manual's example below.
	for s, want := range map[string]uint16{
		"123456789":                          0x29B1,
		"":                                   0xFFFF,
		manualExample[:len(manualExample)-4]: 0x1D3D,
	} {
		if got := CRC16(s); got != want {
			t.Errorf("CRC16(%q) = %04X, want %04X", s, got, want)
		}
	}
}

// The example of the Central Bank's BR Code manual (a static code for a random key, no
// amount), built by another implementation.
const manualExample = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"

func TestBRCodeManualExample(t *testing.T) {
	t.Parallel()
	c, err := ParseBRCode(manualExample)
	if err != nil {
		t.Fatal(err)
	}
	want := BRCode{Key: "123e4567-e12b-12d1-a456-426655440000", MerchantName: "Fulano de Tal", MerchantCity: "BRASILIA", TxID: "***"}
	if *c != want {
		t.Fatalf("%+v, want %+v", c, want)
	}
	if got := want.Encode(); got != manualExample {
		t.Fatalf("encoded %s\nwant    %s", got, manualExample)
	}
	// Lower-case hex and surrounding blanks are the same code.
	lower := " " + manualExample[:len(manualExample)-4] + "1d3d\n"
	if c, err := ParseBRCode(lower); err != nil || *c != want {
		t.Fatalf("%q: %+v %v", lower, c, err)
	}
}

func TestBRCodeRoundTrip(t *testing.T) {
	t.Parallel()
	cases := []BRCode{
		{Key: "11144477735", Cents: 15075, MerchantName: "Loja Exemplo", MerchantCity: "SAO PAULO", TxID: "PEDIDO42", Description: "Pedido 42"},
		{Key: "fulano@example.com", MerchantName: "Fulano de Tal", MerchantCity: "BRASILIA", TxID: "***"},
		{Dynamic: true, URL: "pix.example.com/qr/v2/9d36b84f", Cents: 1000, MerchantName: "Ponte", MerchantCity: "SAO PAULO", TxID: "***"},
		{Key: "+5561912345678", Cents: 1, MerchantName: "N", MerchantCity: "C", TxID: "X"},
		{Key: "+5561912345678", Cents: 99_999_999_999, MerchantName: "N", MerchantCity: "C", TxID: "X"},
	}
	for _, c := range cases {
		s := c.Encode()
		got, err := ParseBRCode(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if *got != c {
			t.Fatalf("round trip of %s: %+v, want %+v", s, got, c)
		}
		// Any changed character breaks the CRC.
		i := strings.Index(s, c.MerchantName)
		bad := s[:i] + "X" + s[i+1:]
		if _, err := ParseBRCode(bad); err == nil || !strings.Contains(err.Error(), "CRC") {
			t.Fatalf("altered code accepted or misreported: %v", err)
		}
	}
}

// signed is payload (without its CRC field) with the CRC field appended.
func signed(payload string) string {
	payload += "6304"
	return payload + fmt.Sprintf("%04X", CRC16(payload))
}

func TestBRCodeRejects(t *testing.T) {
	t.Parallel()
	body := func(fields ...string) string { return signed(strings.Join(fields, "")) }
	const (
		pfi  = "000201"
		acct = "26330014br.gov.bcb.pix011111144477735" // a static code for CPF 111.444.777-35
		cat  = "52040000"
		brl  = "5303986"
		tail = "5802BR5905Ponte6009SAO PAULO62070503***"
	)
	cases := map[string]string{
		"":                 "payload format indicator",
		"000201":           "payload format indicator",
		"0002012699630400": "CRC",
		"0002012699":       "CRC field",
		"00020126180014br.gov.bcb.pix5204000053039865802BR5901X6001Y62070503***6304": "CRC",
		manualExample[:len(manualExample)-1] + "E":                                   "CRC",
		body(pfi, acct, cat, brl, tail):                                              "", // the well-formed code the others break
		signed("0002012699"):                                                         "runs past the end",
		signed("0002010108ab"):                                                       "cut short",
		signed("00020126xx"):                                                         "no valid length",
		body(pfi, cat, brl, tail):                                                    "field 26",
		body(pfi, "26220014br.gov.bcb.pix0199", cat, brl, tail):                      "field 26: field 01",
		body(pfi, "26330014br.gov.bcb.pax011111144477735", cat, brl, tail):           "not a PIX account",
		body(pfi, "26180014br.gov.bcb.pix", cat, brl, tail):                          "neither a PIX key",
		body(pfi, acct, cat, "5303840", tail):                                        "currency",
		body(pfi, acct, cat, tail):                                                   "currency",
		body(pfi, acct, cat, brl, "540610.005", tail):                                "amount",
		body(pfi, acct, cat, brl, "5421123456789012345678901", tail):                 "larger than any amount",
		body(pfi, acct, cat, brl, "5802BR5901 6009SAO PAULO"):                        "merchant name",
		body(pfi, acct, cat, brl, "5802BR5905Ponte"):                                 "merchant name",
	}
	for in, want := range cases {
		if _, err := ParseBRCode(in); want == "" && err != nil {
			t.Errorf("ParseBRCode(%q) = %v", in, err)
		} else if want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("ParseBRCode(%q) = %v, want an error about %s", in, err, want)
		}
	}
}

// Field 54 as the specification writes it, and only so: Encode formats centavos, so the
// field is written by hand and the payload signed again.
func TestBRCodeAmountForm(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		amount string
		cents  int64 // -1: refused
	}{{"10", 1000}, {"10.5", 1050}, {"10.50", 1050}, {"0.01", 1}, {"007.10", 710}, {"92233720368547758.07", 9223372036854775807},
		{"0", -1}, {"0.00", -1}, {"NaN", -1}, {"Inf", -1}, {"1e-9", -1}, {"10.005", -1}, {".5", -1}, {"10.", -1}, {"-1", -1}, {"+1", -1},
		{"1,50", -1}, {"0x10", -1}, {"1 0", -1}, {"92233720368547758.08", -1}, {"99999999999999999999", -1}} {
		code := BRCode{Key: "fulano@example.com", Cents: 100, MerchantName: "Fulano", MerchantCity: "BRASILIA"}.Encode()
		raw := signed(strings.Replace(code[:len(code)-8], tlv("54", "1.00"), tlv("54", c.amount), 1))
		got, err := ParseBRCode(raw)
		switch {
		case c.cents < 0 && err == nil:
			t.Errorf("amount %q: accepted as %d centavos", c.amount, got.Cents)
		case c.cents >= 0 && (err != nil || got.Cents != c.cents):
			t.Errorf("amount %q: %+v, %v; want %d centavos", c.amount, got, err, c.cents)
		}
	}
}

// What Encode writes into the fields EMV bounds: ASCII descriptions cut to what field 26
// leaves, names and cities cut to 25 and 15 and never empty, "***" for a missing txid,
// amounts with two decimals; and Fits refuses a key or location that cannot fit whole.
func TestBRCodeFields(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("k", 78)
	cases := []struct {
		name string
		code BRCode
		has  []string // fields the payload carries
		fits bool
	}{
		{"accents dropped", BRCode{Key: "a@b.co", MerchantName: "João Açaí", MerchantCity: "São Paulo", Description: "Pedido nº 1 – maçã"},
			[]string{"5909Joao Acai", "6009Sao Paulo", "0216Pedido n 1  maca"}, true},
		{"name and city cut", BRCode{Key: "a@b.co", MerchantName: strings.Repeat("N", 30), MerchantCity: strings.Repeat("C", 20)},
			[]string{"5925" + strings.Repeat("N", 25) + "60", "6015" + strings.Repeat("C", 15) + "62"}, true},
		{"nothing printable", BRCode{Key: "a@b.co", MerchantName: "\x01", MerchantCity: "   "},
			[]string{"5913NAO INFORMADO", "6013NAO INFORMADO"}, true},
		{"no txid", BRCode{Key: "a@b.co", MerchantName: "N", MerchantCity: "C"}, []string{"62070503***"}, true},
		{"amount", BRCode{Key: "a@b.co", Cents: 1050, MerchantName: "N", MerchantCity: "C"}, []string{"540510.50"}, true},
		{"centavos", BRCode{Key: "a@b.co", Cents: 7, MerchantName: "N", MerchantCity: "C"}, []string{"54040.07"}, true},
		{"no amount", BRCode{Key: "a@b.co", Cents: -5, MerchantName: "N", MerchantCity: "C"}, []string{"530398658"}, true},
		{"description cut to field 26", BRCode{Key: strings.Repeat("k", 70), MerchantName: "N", MerchantCity: "C", Description: strings.Repeat("d", 40)},
			[]string{"2699", "0203ddd52"}, true},
		{"dynamic: no description", BRCode{Dynamic: true, URL: "pix.example.com/x", MerchantName: "N", MerchantCity: "C", Description: "gone"},
			[]string{"010212", "2517pix.example.com/x"}, true},
		{"key too long", BRCode{Key: long}, nil, false},
		{"location too long", BRCode{Dynamic: true, URL: long}, nil, false},
		{"longest key", BRCode{Key: long[:77]}, nil, true},
	}
	for _, c := range cases {
		if err := c.code.Fits(); (err == nil) != c.fits {
			t.Errorf("%s: Fits() = %v, want fits %v", c.name, err, c.fits)
		}
		if !c.fits || c.has == nil {
			continue
		}
		s := c.code.Encode()
		for _, h := range c.has {
			if !strings.Contains(s, h) {
				t.Errorf("%s: %s lacks %q", c.name, s, h)
			}
		}
		if _, err := ParseBRCode(s); err != nil {
			t.Errorf("%s: %s does not parse: %v", c.name, s, err)
		}
	}
}

func TestEMVText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Pedido nº 1 – maçã", 40, "Pedido n 1  maca"}, {"ÁÀÂÃÉÊÍÓÔÕÚÇ", 40, "AAAAEEIOOOUC"}, {"abc\x00\n\tdef", 40, "abcdef"},
		{"Padaria Pão Quente", 7, "Padaria"}, {"日本", 10, ""}, {"", 5, ""},
	} {
		if got := EMVText(c.in, c.n); got != c.want {
			t.Errorf("EMVText(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
