package brdocs

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The bank boleto's two spellings of one payment slip (FEBRABAN's layout, which every
// bank follows): the 44-digit barcode the scanner reads and the 47-digit line people type.
//
//	barcode: bank(3) currency(1) DV(1) factor(4) amount(10) free field(25)
//	line:    bank currency free[0:5] dv1 | free[5:15] dv2 | free[15:25] dv3 | DV | factor amount
//
// DV, the general check digit, is modulo 11 over the other 43 digits with weights 2 to 9
// from the right, where 0, 10 and 11 become 1; dv1 to dv3 are Mod10 over their field. The
// factor counts the days from 1997-10-07 to the due date; having reached 9999 on
// 2025-02-21 it started again at 1000 on 2025-02-22. The free field belongs to the issuing
// bank.

// BoletoCode is what a bank boleto's barcode or line carries.
type BoletoCode struct {
	Bank      string // the issuing bank's 3-digit code
	Factor    int    // due-date factor, 1000 to 9999 (0: no due date)
	Cents     int64  // the amount, 0 to 9,999,999,999
	FreeField string // 25 digits, the bank's own
}

var factorBase = time.Date(1997, 10, 7, 0, 0, 0, 0, time.UTC)

// DueFactor is the factor of a due date (a calendar date; its time of day is ignored).
func DueFactor(due time.Time) int {
	d := time.Date(due.Year(), due.Month(), due.Day(), 0, 0, 0, 0, time.UTC)
	days := int(d.Sub(factorBase).Hours() / 24)
	if days > 9999 {
		days = (days-1000)%9000 + 1000
	}
	return days
}

// FactorDate is the due date a factor stands for: of the dates the factor repeats on (every
// 9,000 days), the one nearest to reference.
func FactorDate(factor int, reference time.Time) time.Time {
	best := factorBase.AddDate(0, 0, factor)
	for d := best; d.Before(reference.AddDate(30, 0, 0)); d = d.AddDate(0, 0, 9000) {
		if absDuration(d.Sub(reference)) < absDuration(best.Sub(reference)) {
			best = d
		}
	}
	return best
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// Barcode writes the 44 digits with their general check digit.
func (c BoletoCode) Barcode() string {
	body := c.Bank + "9" + fmt.Sprintf("%04d%010d", c.Factor, c.Cents) + c.FreeField
	return body[:4] + string(digit(bankDV(body))) + body[4:]
}

// Line writes the 47-digit line as banks print it: 00190.50095 40144.816069 06809.350314 3 37370000000100.
func (c BoletoCode) Line() string {
	b := c.Barcode()
	f1 := b[0:4] + b[19:24]
	f2 := b[24:34]
	f3 := b[34:44]
	f1 += string(digit(Mod10(f1)))
	f2 += string(digit(Mod10(f2)))
	f3 += string(digit(Mod10(f3)))
	return f1[:5] + "." + f1[5:] + " " + f2[:5] + "." + f2[5:] + " " + f3[:5] + "." + f3[5:] + " " + b[4:5] + " " + b[5:19]
}

// bankDV is a bank barcode's general check digit over its other 43 digits.
func bankDV(digits string) int {
	if dv := 11 - mod11Remainder(digits); dv < 10 {
		return dv
	}
	return 1
}

// boletoDigits keeps the digits of a typed code, which people write with dots, spaces
// and hyphens.
func boletoDigits(s string) (string, error) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '.' || r == '-':
		default:
			return "", fmt.Errorf("it has %q, which is neither a digit nor a separator", r)
		}
	}
	return b.String(), nil
}

// ParseBoletoLine reads a bank boleto's typed line (any punctuation or spacing) or its
// barcode and checks every check digit.
func ParseBoletoLine(s string) (*BoletoCode, error) {
	d, err := boletoDigits(s)
	if err != nil {
		return nil, err
	}
	var barcode string
	switch len(d) {
	case 44:
		barcode = d
	case 47:
		for i, f := range [][2]int{{0, 9}, {10, 20}, {21, 31}} {
			if got, want := int(d[f[1]]-'0'), Mod10(d[f[0]:f[1]]); got != want {
				return nil, fmt.Errorf("field %d's check digit is %d but its digits give %d: the line was mistyped", i+1, got, want)
			}
		}
		barcode = d[0:4] + d[32:33] + d[33:47] + d[4:9] + d[10:20] + d[21:31]
	case 48:
		return nil, fmt.Errorf("it has 48 digits, the line of a utility or tax bill (arrecadação), not of a boleto")
	default:
		return nil, fmt.Errorf("it has %d digits; a boleto's line has 47 and its barcode 44", len(d))
	}
	if barcode[3] != '9' {
		return nil, fmt.Errorf("its currency is %c, not 9 (reais)", barcode[3])
	}
	if got, want := int(barcode[4]-'0'), bankDV(barcode[:4]+barcode[5:]); got != want {
		return nil, fmt.Errorf("its general check digit is %d but the digits give %d: the code was altered or mistyped", got, want)
	}
	c := &BoletoCode{Bank: barcode[0:3], FreeField: barcode[19:44]}
	c.Factor, _ = strconv.Atoi(barcode[5:9])
	c.Cents, _ = strconv.ParseInt(barcode[9:19], 10, 64)
	return c, nil
}
