package brdocs

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseBRCode feeds pasted codes (POST /payments/requests/pix-qr) to the parser.
// Properties of every code it accepts: the CRC over the payload checks; the amount is a
// positive number of centavos (or absent) written as EMV field 54 allows (digits and at
// most one decimal point); the fields the payment keeps are the ones in the payload; and
// encoding the parsed code again gives a payload that has a valid CRC and parses back to
// the same fields. With withCRC the fuzzer's string is the payload before its CRC field,
// which is appended, so mutations reach past the CRC check.
func FuzzParseBRCode(f *testing.F) {
	f.Add(manualExample, false)
	for _, c := range []BRCode{
		{Key: "11144477735", Cents: 15075, MerchantName: "Loja Exemplo", MerchantCity: "SAO PAULO", TxID: "PEDIDO42", Description: "Pedido 42"},
		{Dynamic: true, URL: "pix.example.com/qr/v2/9d36b84f", Cents: 1000, MerchantName: "Ponte", MerchantCity: "SAO PAULO", TxID: "***"},
	} {
		code := c.Encode()
		f.Add(code, false)
		f.Add(code[:len(code)-8], true)
	}
	f.Add("000201", false)
	f.Add("0002012699", true)
	f.Fuzz(func(t *testing.T, s string, withCRC bool) {
		if withCRC {
			s = signed(s)
		}
		c, err := ParseBRCode(s)
		if err != nil {
			return
		}
		p := strings.TrimSpace(s)
		if want := fmt.Sprintf("%04X", CRC16(p[:len(p)-4])); !strings.EqualFold(p[len(p)-4:], want) {
			t.Fatalf("accepted %q whose CRC is not %s", s, want)
		}
		if c.Cents < 0 {
			t.Fatalf("accepted %q with amount %d centavos", s, c.Cents)
		}
		fields, _ := readTLV(p)
		if fields != nil && !emvAmount.MatchString(fields["54"]) {
			t.Fatalf("accepted %q with amount %q: field 54 holds digits and at most one decimal point", s, fields["54"])
		}
		if a, ok := fields["54"]; ok && !sameAmount(a, c.Cents) {
			t.Fatalf("accepted %q with amount %q read as %d centavos", s, a, c.Cents)
		}
		if c.Key == "" && c.URL == "" || c.MerchantName == "" || c.MerchantCity == "" {
			t.Fatalf("accepted %q without a key or URL, merchant name or city: %+v", s, c)
		}
		if !strings.Contains(p, c.MerchantName) || !strings.Contains(p, c.MerchantCity) || !strings.Contains(p, c.Key) || !strings.Contains(p, c.URL) {
			t.Fatalf("parsed fields that are not in the payload %q: %+v", s, c)
		}
		if !encodable(*c) {
			return
		}
		again, err := ParseBRCode(c.Encode())
		if err != nil {
			t.Fatalf("%q parsed to %+v, whose encoding %q does not parse: %v", s, c, c.Encode(), err)
		}
		if *again != *c {
			t.Fatalf("%q parsed to %+v, encoded to %q, parsed back to %+v", s, c, c.Encode(), again)
		}
	})
}

// sameAmount reports whether field 54's text a is cents centavos, by decimal arithmetic
// on the text rather than the parser's.
func sameAmount(a string, cents int64) bool {
	whole, frac, _ := strings.Cut(a, ".")
	frac = (frac + "00")[:2]
	digits := strings.TrimLeft(whole+frac, "0")
	return digits == strings.TrimLeft(fmt.Sprintf("%d", cents), "0")
}

// FuzzEncodeBRCode builds the codes this service hands payers (payments/intentpix.go: the
// recipient's PIX key, or for a dynamic code its location on this service's host; the
// request's description cut to 40 ASCII characters; a transaction id of up to 25
// characters; an amount in cents) and checks every one parses back to what was encoded.
func FuzzEncodeBRCode(f *testing.F) {
	f.Add("11144477735", "Pedido 42", "Loja Exemplo Ltda", "SAO PAULO", "3f1c6a558b7e4f0e9d575d1f4", int64(15075), false)
	f.Add("fulano@example.com", "", "Fulano de Tal", "BRASILIA", "***", int64(0), false)
	f.Add("127.0.0.1:8080", "", "Ponte", "SAO PAULO", "a1b2c3", int64(1), true)
	f.Add("+5561912345678", "", "N", "C", "X", int64(9223372036854775807), false)
	f.Fuzz(func(t *testing.T, keyOrHost, description, name, city, txid string, cents int64, dynamic bool) {
		if cents < 0 || len(txid) > 25 || !printableASCII(txid) ||
			len(keyOrHost) > 253 || !printableASCII(keyOrHost) || strings.TrimSpace(keyOrHost) == "" {
			return
		}
		c := BRCode{MerchantName: name, MerchantCity: city, TxID: txid, Cents: cents}
		if dynamic {
			c.Dynamic, c.URL = true, keyOrHost+"/payments/pix/3f1c6a55-8b7e-4f0e-9d57-5d1f4a3b2c10"
		} else {
			c.Key, c.Description = keyOrHost, EMVText(description, 40)
		}
		if c.Fits() != nil {
			if len(c.Key) <= 77 && len(c.URL) <= 77 {
				t.Fatalf("%+v: Fits refused a key or URL of at most 77 characters", c)
			}
			return
		}
		s := c.Encode()
		got, err := ParseBRCode(s)
		if err != nil {
			t.Fatalf("%+v encoded to %q, which does not parse: %v", c, s, err)
		}
		fields, _ := readTLV(s[:len(s)-8])
		if len(fields["26"]) > 99 {
			t.Fatalf("%+v encoded field 26 with %d characters; EMV allows 99", c, len(fields["26"]))
		}
		if len(got.Description) < len(c.Description) && len(fields["26"]) < 99-4 {
			t.Fatalf("%+v encoded to %q: the description was cut though field 26 had room", c, s)
		}
		// The description may be cut to fit field 26, never changed otherwise; a name or
		// city with nothing printable is written as "NAO INFORMADO".
		if !strings.HasPrefix(c.Description, got.Description) {
			t.Fatalf("%+v encoded to %q: description %q is not a prefix of the one given", c, s, got.Description)
		}
		want := c
		want.Description = got.Description
		want.MerchantName, want.MerchantCity = orNamed(EMVText(name, 25)), orNamed(EMVText(city, 15))
		if want.TxID == "" {
			want.TxID = "***"
		}
		if *got != want {
			t.Fatalf("%+v encoded to %q, parsed back to %+v", c, s, got)
		}
	})
}

func orNamed(s string) string {
	if strings.TrimSpace(s) == "" {
		return "NAO INFORMADO"
	}
	return s
}

// encodable reports whether Encode can write c unchanged: Encode keeps printable ASCII
// only (in the name, city and description), cuts the merchant name and city to 25 and 15
// characters, and writes a dynamic code's location without a key or description.
func encodable(c BRCode) bool {
	if c.Dynamic != (c.URL != "") || c.Dynamic && (c.Key != "" || c.Description != "") {
		return false
	}
	return printableASCII(c.MerchantName) && len(c.MerchantName) <= 25 && printableASCII(c.MerchantCity) && len(c.MerchantCity) <= 15 &&
		printableASCII(c.Description) && c.TxID != ""
}

var emvAmount = regexp.MustCompile(`^$|^[0-9]+(\.[0-9]*)?$|^\.[0-9]+$`)

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
