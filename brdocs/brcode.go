package brdocs

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// BRCode is a PIX merchant-presented payload (EMV QRCPS-MPM as profiled by the Central
// Bank's "Manual de Padrões para Iniciação do Pix"). A static code names a PIX key; a
// dynamic one names the URL where the payment's details are fetched, and is single use.
type BRCode struct {
	Dynamic      bool
	Key          string // static codes
	URL          string // dynamic codes, without the scheme
	Description  string
	Cents        int64 // 0: the payer types the amount
	MerchantName string
	MerchantCity string
	TxID         string // "***" when the receiver does not reconcile by id
}

const pixGUI = "br.gov.bcb.pix"

func tlv(id, value string) string { return fmt.Sprintf("%s%02d%s", id, len(value), value) }

// EMV limits: a field's value has at most 99 characters, and the PIX account information
// (field 26) holds the GUI (18 characters with its header) and the key or URL, so either may
// take at most 77; the merchant name 25 and city 15.
const (
	maxFieldLen  = 99
	maxKeyOrURL  = maxFieldLen - 18 - 4
	maxMerchant  = 25
	maxCity      = 15
	unnamedParty = "NAO INFORMADO"
	defaultTxID  = "***"
)

// Fits reports whether the key or URL fits the payload; Encode needs it to.
func (c BRCode) Fits() error {
	if c.Dynamic && len(c.URL) > maxKeyOrURL {
		return fmt.Errorf("the PIX location %q has %d characters; a BR Code holds at most %d", c.URL, len(c.URL), maxKeyOrURL)
	}
	if !c.Dynamic && len(c.Key) > maxKeyOrURL {
		return fmt.Errorf("the PIX key has %d characters; a BR Code holds at most %d", len(c.Key), maxKeyOrURL)
	}
	return nil
}

// Encode writes the payload with its CRC. The description is cut to what field 26 leaves
// free, and a name or city with nothing printable becomes "NAO INFORMADO", because a payload
// without them does not parse. The key or URL must fit (Fits): cutting either would send the
// money elsewhere.
func (c BRCode) Encode() string {
	mai := tlv("00", pixGUI)
	if c.Dynamic {
		mai += tlv("25", c.URL)
	} else {
		mai += tlv("01", c.Key)
		if room := maxFieldLen - len(mai) - 4; c.Description != "" && room > 0 {
			mai += tlv("02", EMVText(c.Description, room))
		}
	}
	var b strings.Builder
	b.WriteString(tlv("00", "01"))
	if c.Dynamic {
		b.WriteString(tlv("01", "12"))
	}
	b.WriteString(tlv("26", mai))
	b.WriteString(tlv("52", "0000"))
	b.WriteString(tlv("53", "986"))
	if c.Cents > 0 {
		b.WriteString(tlv("54", fmt.Sprintf("%d.%02d", c.Cents/100, c.Cents%100)))
	}
	b.WriteString(tlv("58", "BR"))
	b.WriteString(tlv("59", orUnnamed(EMVText(c.MerchantName, maxMerchant))))
	b.WriteString(tlv("60", orUnnamed(EMVText(c.MerchantCity, maxCity))))
	txid := c.TxID
	if txid == "" {
		txid = defaultTxID
	}
	b.WriteString(tlv("62", tlv("05", txid)))
	b.WriteString("6304")
	return b.String() + fmt.Sprintf("%04X", CRC16(b.String()))
}

func orUnnamed(s string) string {
	if strings.TrimSpace(s) == "" {
		return unnamedParty
	}
	return s
}

// CRC16 is CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF), which the BR Code
// computes over the whole payload up to and including "6304".
func CRC16(s string) uint16 {
	crc := uint16(0xFFFF)
	for i := 0; i < len(s); i++ {
		crc ^= uint16(s[i]) << 8
		for j := 0; j < 8; j++ {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// ParseBRCode reads and checks a payload: structure, CRC, and the fields a PIX payment
// needs.
func ParseBRCode(s string) (*BRCode, error) {
	s = strings.TrimSpace(s)
	if len(s) < 8 || !strings.HasPrefix(s, "000201") {
		return nil, fmt.Errorf("it does not start with the payload format indicator 000201")
	}
	crcAt := len(s) - 8
	if s[crcAt:crcAt+4] != "6304" {
		return nil, fmt.Errorf("it does not end with a CRC field (6304 and four hex digits)")
	}
	want := fmt.Sprintf("%04X", CRC16(s[:crcAt+4]))
	if got := strings.ToUpper(s[crcAt+4:]); got != want {
		return nil, fmt.Errorf("its CRC is %s but the payload's CRC16 is %s: the code was altered or mistyped", got, want)
	}
	fields, err := readTLV(s)
	if err != nil {
		return nil, err
	}
	c := &BRCode{Dynamic: fields["01"] == "12"}
	mai, ok := fields["26"]
	if !ok {
		return nil, fmt.Errorf("it has no PIX merchant account information (field 26)")
	}
	sub, err := readTLV(mai)
	if err != nil {
		return nil, fmt.Errorf("field 26: %v", err)
	}
	if !strings.EqualFold(sub["00"], pixGUI) {
		return nil, fmt.Errorf("field 26 is not a PIX account (GUI %q)", sub["00"])
	}
	c.Key, c.URL, c.Description = sub["01"], sub["25"], sub["02"]
	if c.Key == "" && c.URL == "" {
		return nil, fmt.Errorf("it names neither a PIX key nor a payload URL")
	}
	if c.URL != "" {
		c.Dynamic = true
	}
	if cur := fields["53"]; cur != "986" {
		return nil, fmt.Errorf("its currency is %q, not 986 (BRL)", cur)
	}
	if a, ok := fields["54"]; ok {
		if c.Cents, err = brAmount(a); err != nil {
			return nil, err
		}
	}
	c.MerchantName, c.MerchantCity = fields["59"], fields["60"]
	// A blank name or city is as absent as an empty one: Encode writes either as
	// "NAO INFORMADO", so accepting it would make the code's own re-encoding differ.
	if strings.TrimSpace(c.MerchantName) == "" || strings.TrimSpace(c.MerchantCity) == "" {
		return nil, fmt.Errorf("it lacks the merchant name (59) or city (60)")
	}
	if add, ok := fields["62"]; ok {
		if sub, err := readTLV(add); err == nil {
			c.TxID = sub["05"]
		}
	}
	return c, nil
}

// brAmount reads field 54 as the BR Code specification writes it: digits, then optionally
// a point and one or two digits; positive. Anything else (a sign, "NaN", "1e-9", "0x1p4",
// a comma) is refused rather than guessed at.
func brAmount(a string) (int64, error) {
	whole, frac, dot := strings.Cut(a, ".")
	bad := whole == "" || dot && (frac == "" || len(frac) > 2) || !onlyDigits(whole) || frac != "" && !onlyDigits(frac)
	if bad {
		return 0, fmt.Errorf("its amount %q is not a positive number with at most two decimals", a)
	}
	f, _ := strconv.ParseInt((frac + "00")[:2], 10, 64)
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > (math.MaxInt64-f)/100 {
		return 0, fmt.Errorf("its amount %q is larger than any amount in reais", a)
	}
	cents := w*100 + f
	if cents <= 0 {
		return 0, fmt.Errorf("its amount %q is not a positive number with at most two decimals", a)
	}
	return cents, nil
}

// readTLV splits EMV's id-length-value fields: a 2-character id, a 2-digit length, the
// value.
func readTLV(s string) (map[string]string, error) {
	out := map[string]string{}
	for i := 0; i < len(s); {
		if i+4 > len(s) {
			return nil, fmt.Errorf("it is cut short at position %d", i)
		}
		id := s[i : i+2]
		n, err := strconv.Atoi(s[i+2 : i+4])
		if err != nil || n < 0 {
			return nil, fmt.Errorf("field %s at position %d has no valid length", id, i)
		}
		if i+4+n > len(s) {
			return nil, fmt.Errorf("field %s at position %d runs past the end", id, i)
		}
		out[id] = s[i+4 : i+4+n]
		i += 4 + n
	}
	return out, nil
}

// EMVText is s as an EMV text field holds it, at most n bytes: accents dropped, and
// anything else outside printable ASCII left out, since that is the subset most bank apps
// expect.
func EMVText(s string, n int) string {
	s = asciiOnly(s)
	if len(s) > n {
		return s[:n]
	}
	return s
}

var unaccent = strings.NewReplacer("á", "a", "à", "a", "â", "a", "ã", "a", "é", "e", "ê", "e", "í", "i", "ó", "o", "ô", "o", "õ", "o", "ú", "u", "ç", "c",
	"Á", "A", "À", "A", "Â", "A", "Ã", "A", "É", "E", "Ê", "E", "Í", "I", "Ó", "O", "Ô", "O", "Õ", "O", "Ú", "U", "Ç", "C")

func asciiOnly(s string) string {
	s = unaccent.Replace(s)
	var b strings.Builder
	for _, c := range s {
		if c < utf8.RuneSelf && c >= 0x20 {
			b.WriteRune(c)
		}
	}
	return b.String()
}
