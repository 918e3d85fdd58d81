package payments

import (
	"time"

	"ponte/brdocs"
)

// The boleto's arithmetic (barcode, line, check digits, due-date factor) is brdocs'; these
// are the names payments' callers use for it.

// BoletoCode is what a bank boleto's barcode or line carries.
type BoletoCode = brdocs.BoletoCode

// ParseBoletoLine reads a digitable line (any punctuation or spacing) or a barcode and
// checks every check digit. Its errors are sentences for the caller.
func ParseBoletoLine(s string) (*BoletoCode, error) { return brdocs.ParseBoletoLine(s) }

// DueFactor is the factor of a due date (a calendar date; its time of day is ignored).
func DueFactor(due time.Time) int { return brdocs.DueFactor(due) }

// FactorDate is the due date a factor stands for, the one nearest to reference.
func FactorDate(factor int, reference time.Time) time.Time {
	return brdocs.FactorDate(factor, reference)
}

// boletoFreeField is this service's free field: the 11-digit nosso número and its check
// digit (modulo 11, 10 and 11 written as 0: the common bank rule), then the beneficiary's
// agency (4 digits) and account (8 digits), then 0.
func boletoFreeField(nossoNumero, agency, account string) string {
	return nossoNumero + string(rune('0'+brdocs.Mod11(nossoNumero))) + agency + account + "0"
}
