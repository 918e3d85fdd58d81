package payments

import (
	"fmt"
	"strings"
	"testing"
)

func TestCRC16(t *testing.T) {
	// The check value of CRC-16/CCITT-FALSE.
	if got := crc16("123456789"); got != 0x29B1 {
		t.Fatalf("crc16(123456789) = %04X, want 29B1", got)
	}
}

func TestBRCodeRoundTrip(t *testing.T) {
	cases := []BRCode{
		{Key: "11144477735", Amount: 150.75, MerchantName: "Loja Exemplo", MerchantCity: "SAO PAULO", TxID: "PEDIDO42", Description: "Pedido 42"},
		{Key: "fulano@example.com", MerchantName: "Fulano de Tal", MerchantCity: "BRASILIA"},
		{Dynamic: true, URL: "pix.example.com/qr/v2/9d36b84f", Amount: 10, MerchantName: "Ponte", MerchantCity: "SAO PAULO", TxID: "***"},
	}
	for _, c := range cases {
		s := c.Encode()
		got, err := ParseBRCode(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if got.Key != c.Key || got.URL != c.URL || got.Amount != c.Amount || got.MerchantName != c.MerchantName || got.Dynamic != c.Dynamic {
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

// The example of the Central Bank's BR Code manual, built by another implementation.
func TestBRCodeManualExample(t *testing.T) {
	const s = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"
	c, err := ParseBRCode(s)
	if err != nil {
		t.Fatal(err)
	}
	if c.Key != "123e4567-e12b-12d1-a456-426655440000" || c.MerchantName != "Fulano de Tal" || c.MerchantCity != "BRASILIA" || c.Amount != 0 {
		t.Fatalf("%+v", c)
	}
	if got := (BRCode{Key: c.Key, MerchantName: c.MerchantName, MerchantCity: c.MerchantCity}).Encode(); got != s {
		t.Fatalf("encoded %s\nwant    %s", got, s)
	}
}

func TestBRCodeRejects(t *testing.T) {
	cases := map[string]string{
		"":                 "payload format indicator",
		"000201":           "payload format indicator",
		"0002012699630400": "CRC",
		"0002012699":       "CRC field",
		"00020126180014br.gov.bcb.pix5204000053039865802BR5901X6001Y62070503***6304": "CRC",
	}
	// A correct CRC over a broken structure.
	broken := "00020126996304"
	cases[broken+fmt.Sprintf("%04X", crc16(broken))] = "runs past the end"
	for in, want := range cases {
		if _, err := ParseBRCode(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseBRCode(%q) = %v, want an error about %s", in, err, want)
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
		{"amount", BRCode{Key: "a@b.co", Amount: 10.5, MerchantName: "N", MerchantCity: "C"}, []string{"540510.50"}, true},
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
