package brdocs

import (
	"fmt"
	"math/rand/v2"
)

// A CNPJ is 12 characters (8 of the company's root, 4 of the establishment) and two check
// digits. Since July 2026 the 12 may be upper-case letters as well as digits (Receita
// Federal, Nota Técnica conjunta COCAD/SUARA/RFB nº 49/2024): each character counts as
// its ASCII code minus 48, so '0'..'9' count 0..9 and 'A'..'Z' 17..42, and the check digits
// are computed as for the numeric CNPJ, which therefore stays valid unchanged. The check
// digits are always digits.

var (
	cnpjWeights1 = []int{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
	cnpjWeights2 = []int{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
)

// cnpjDigit is the check digit over the first len(w) characters: the weighted sum's
// remainder r by 11 gives 0 when r < 2, else 11 - r.
func cnpjDigit(s []byte, w []int) byte {
	sum := 0
	for i, wi := range w {
		sum += int(s[i]-'0') * wi
	}
	if r := sum % 11; r >= 2 {
		return digit(11 - r)
	}
	return '0'
}

func cnpjChar(c byte) bool { return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' }

// CNPJCheckDigits are the two check digits of a CNPJ's first 12 characters (digits or
// upper-case letters).
func CNPJCheckDigits(base string) (string, error) {
	if len(base) != 12 {
		return "", fmt.Errorf("it has %d characters; a CNPJ has 12 before its check digits", len(base))
	}
	for i := 0; i < 12; i++ {
		if !cnpjChar(base[i]) {
			return "", fmt.Errorf("character %d is %q; a CNPJ's are digits and upper-case letters", i+1, base[i])
		}
	}
	d := append([]byte(base), 0)
	d[12] = cnpjDigit(d, cnpjWeights1)
	return string([]byte{d[12], cnpjDigit(d, cnpjWeights2)}), nil
}

// ValidCNPJ checks a CNPJ written as its 14 bare characters, numeric or alphanumeric
// (letters in upper case): punctuation and case are the caller's to normalize. Fourteen
// equal digits pass the arithmetic but are no CNPJ.
func ValidCNPJ(s string) bool {
	if len(s) != 14 || !onlyDigits(s[12:]) || allSame(s) {
		return false
	}
	dv, err := CNPJCheckDigits(s[:12])
	return err == nil && dv == s[12:]
}

// NewCNPJ makes a valid numeric CNPJ of a headquarters (establishment 0001) from rng.
func NewCNPJ(rng *rand.Rand) string {
	d := make([]byte, 14)
	for i := 0; i < 8; i++ {
		d[i] = digit(rng.IntN(10))
	}
	copy(d[8:], "0001")
	d[12] = cnpjDigit(d, cnpjWeights1)
	d[13] = cnpjDigit(d, cnpjWeights2)
	return string(d)
}

const cnpjAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// NewAlphanumericCNPJ makes a valid CNPJ of the kind issued since July 2026: a root of 8
// digits and letters, establishment 0001, from rng.
func NewAlphanumericCNPJ(rng *rand.Rand) string {
	d := make([]byte, 14)
	for i := 0; i < 8; i++ {
		d[i] = cnpjAlphabet[rng.IntN(len(cnpjAlphabet))]
	}
	copy(d[8:], "0001")
	d[12] = cnpjDigit(d, cnpjWeights1)
	d[13] = cnpjDigit(d, cnpjWeights2)
	return string(d)
}
