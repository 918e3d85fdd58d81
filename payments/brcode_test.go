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
