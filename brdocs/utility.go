package brdocs

import (
	"fmt"
	"strconv"
	"strings"
)

// A utility or tax bill (arrecadação: FEBRABAN's layout for concessionárias and
// government bodies) has a 44-digit barcode starting with 8 and a 48-digit line: the
// barcode in four blocks of 11, each followed by its check digit.
//
//	barcode: 8 segment(1) value-id(1) DV(1) value(11) company(4) free(25)
//	         (segment 6: the CNPJ's first 8 characters instead of the company, free(21))
//
// The value identifier says what the value is and which check digit guards the code: 6 and
// 8 a value in reais, 7 and 9 a quantity of a reference currency or index; 6 and 7 check
// by Mod10, 8 and 9 by Mod11, both the general DV (over the other 43 digits) and the
// blocks'.

// UtilityBoleto is what a utility bill's barcode or line carries.
type UtilityBoleto struct {
	Segment   byte   // '1' city halls, '2' sanitation, '3' energy and gas, '4' telecom, '5' government, '6' companies by CNPJ, '7' traffic fines, '9' the bank's own
	ValueID   byte   // '6' to '9'
	Value     int64  // centavos when ValueID is 6 or 8; else the reference quantity; 11 digits
	Company   string // 4 digits, or in segment 6 the CNPJ's first 8
	FreeField string // the company's own: 25 digits, or 21 in segment 6
}

// utilityCheck is the check digit rule a value identifier names.
func utilityCheck(valueID byte) (func(string) int, bool) {
	switch valueID {
	case '6', '7':
		return Mod10, true
	case '8', '9':
		return Mod11, true
	}
	return nil, false
}

// Barcode writes the 44 digits with their general check digit. A value identifier other
// than 6 to 9 is written as 6.
func (u UtilityBoleto) Barcode() string {
	check, ok := utilityCheck(u.ValueID)
	if !ok {
		u.ValueID, check = '6', Mod10
	}
	body := "8" + string(u.Segment) + string(u.ValueID) + fmt.Sprintf("%011d", u.Value) + u.Company + u.FreeField
	return body[:3] + string(digit(check(body))) + body[3:]
}

// Line writes the 48-digit line as bills print it: 83860000005-0 09600019000-9 ...
func (u UtilityBoleto) Line() string {
	b := u.Barcode()
	check, _ := utilityCheck(b[2])
	blocks := make([]string, 4)
	for i := range blocks {
		block := b[i*11 : i*11+11]
		blocks[i] = block + "-" + string(digit(check(block)))
	}
	return strings.Join(blocks, " ")
}

// ParseUtilityLine reads a utility bill's 48-digit line (any punctuation or spacing) or
// its 44-digit barcode and checks every check digit.
func ParseUtilityLine(s string) (*UtilityBoleto, error) {
	d, err := boletoDigits(s)
	if err != nil {
		return nil, err
	}
	if len(d) != 44 && len(d) != 48 {
		return nil, fmt.Errorf("it has %d digits; a utility bill's line has 48 and its barcode 44", len(d))
	}
	if d[0] != '8' {
		return nil, fmt.Errorf("it starts with %c, not 8: it is not a utility or tax bill (arrecadação)", d[0])
	}
	if d[1] == '0' || d[1] == '8' {
		return nil, fmt.Errorf("its segment (second digit) is %c, which FEBRABAN does not define", d[1])
	}
	check, ok := utilityCheck(d[2])
	if !ok {
		return nil, fmt.Errorf("its value identifier (third digit) is %c, not 6, 7, 8 or 9", d[2])
	}
	barcode := d
	if len(d) == 48 {
		barcode = ""
		for i := 0; i < 4; i++ {
			block := d[i*12 : i*12+11]
			if got, want := int(d[i*12+11]-'0'), check(block); got != want {
				return nil, fmt.Errorf("block %d's check digit is %d but its digits give %d: the line was mistyped", i+1, got, want)
			}
			barcode += block
		}
	}
	if got, want := int(barcode[3]-'0'), check(barcode[:3]+barcode[4:]); got != want {
		return nil, fmt.Errorf("its general check digit is %d but the digits give %d: the code was altered or mistyped", got, want)
	}
	u := &UtilityBoleto{Segment: barcode[1], ValueID: barcode[2], Company: barcode[15:19], FreeField: barcode[19:]}
	if u.Segment == '6' {
		u.Company, u.FreeField = barcode[15:23], barcode[23:]
	}
	u.Value, _ = strconv.ParseInt(barcode[4:15], 10, 64)
	return u, nil
}
