package sandbox

import (
	"fmt"
	"time"
)

// Boleto barcodes and digitable lines, with the check digits FEBRABAN defines, so paid
// boletos in the generated history pass any validation a client runs on them.

// mod10 is the FEBRABAN module-10 check digit: weights 2,1,2,... from the right, digits of
// each product summed.
func mod10(digits string) int {
	sum, w := 0, 2
	for i := len(digits) - 1; i >= 0; i-- {
		p := int(digits[i]-'0') * w
		sum += p/10 + p%10
		w = 3 - w
	}
	return (10 - sum%10) % 10
}

// mod11Bank is the general check digit of a bank boleto's barcode: weights 2..9 from the
// right; results 0, 10 and 11 become 1.
func mod11Bank(digits string) int {
	sum, w := 0, 2
	for i := len(digits) - 1; i >= 0; i-- {
		sum += int(digits[i]-'0') * w
		if w++; w > 9 {
			w = 2
		}
	}
	dv := 11 - sum%11
	if dv == 0 || dv == 10 || dv == 11 {
		return 1
	}
	return dv
}

// dueFactor counts days since 1997-10-07; it restarted at 1000 on 2025-02-22 after
// reaching 9999.
func dueFactor(due time.Time) int {
	days := int(due.Sub(time.Date(1997, 10, 7, 0, 0, 0, 0, time.UTC)).Hours() / 24)
	if days > 9999 {
		days = (days-10000)%9000 + 1000
	}
	return days
}

// bankBoleto builds the 44-digit barcode and the 47-digit digitable line (formatted) of a
// bank boleto. free is the 25-digit field the issuing bank defines.
func bankBoleto(compe string, due time.Time, amount float64, free string) (barcode, line string) {
	body := fmt.Sprintf("%s9%04d%010d%s", compe, dueFactor(due), int64(amount*100+0.5), free)
	dv := mod11Bank(body)
	barcode = body[:4] + string(rune('0'+dv)) + body[4:]
	f1 := barcode[0:4] + barcode[19:24]
	f2 := barcode[24:34]
	f3 := barcode[34:44]
	f1 += string(rune('0' + mod10(f1)))
	f2 += string(rune('0' + mod10(f2)))
	f3 += string(rune('0' + mod10(f3)))
	line = fmt.Sprintf("%s.%s %s.%s %s.%s %c %s", f1[:5], f1[5:], f2[:5], f2[5:], f3[:5], f3[5:], barcode[4], barcode[5:19])
	return barcode, line
}

// utilityBoleto builds the 44-digit barcode and 48-digit line (formatted) of a utility bill
// (arrecadação): segment 2 sanitation, 3 energy and gas, 4 telecom; value in reais
// checked by module 10.
func utilityBoleto(segment byte, amount float64, company string, free string) (barcode, line string) {
	body := fmt.Sprintf("8%c6%011d%s%s", segment, int64(amount*100+0.5), company, free)
	dv := mod10(body)
	barcode = body[:3] + string(rune('0'+dv)) + body[3:]
	for i := 0; i < 4; i++ {
		block := barcode[i*11 : i*11+11]
		if i > 0 {
			line += " "
		}
		line += fmt.Sprintf("%s-%d", block, mod10(block))
	}
	return barcode, line
}

// validBoletoBarcode checks the general check digit of a 44-digit barcode of either kind.
func validBoletoBarcode(b string) bool {
	if len(b) != 44 {
		return false
	}
	for _, r := range b {
		if r < '0' || r > '9' {
			return false
		}
	}
	if b[0] == '8' {
		return int(b[3]-'0') == mod10(b[:3]+b[4:])
	}
	return int(b[4]-'0') == mod11Bank(b[:4]+b[5:])
}
