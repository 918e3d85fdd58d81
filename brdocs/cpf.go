package brdocs

import "math/rand/v2"

// A CPF is 9 digits and two check digits, each modulo 11 over the digits before it with
// weights counting down to 2 from the left (10 to 2, then 11 to 2); a remainder r gives
// 11 - r, and 10 or 11 give 0. Eleven equal digits (000.000.000-00 and the like) pass
// that arithmetic but the Receita Federal issues none of them.

// cpfDigit is the check digit over the first n digits.
func cpfDigit(d []byte, n int) byte {
	sum := 0
	for i := 0; i < n; i++ {
		sum += int(d[i]-'0') * (n + 1 - i)
	}
	if r := 11 - sum%11; r < 10 {
		return digit(r)
	}
	return '0'
}

// ValidCPF checks a CPF written as its 11 bare digits: punctuation is the caller's to
// strip, because where it is allowed differs between callers.
func ValidCPF(s string) bool {
	if len(s) != 11 || !onlyDigits(s) || allSame(s) {
		return false
	}
	d := []byte(s)
	return cpfDigit(d, 9) == d[9] && cpfDigit(d, 10) == d[10]
}

// NewCPF makes a valid CPF from rng: nine random digits, not all the same, and their
// check digits. The same rng state gives the same CPF, which the sandbox's generated
// worlds depend on.
func NewCPF(rng *rand.Rand) string {
	for {
		d := make([]byte, 11)
		for i := 0; i < 9; i++ {
			d[i] = digit(rng.IntN(10))
		}
		if allSame(string(d[:9])) {
			continue
		}
		d[9] = cpfDigit(d, 9)
		d[10] = cpfDigit(d, 10)
		return string(d)
	}
}

func allSame(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i] != s[0] {
			return false
		}
	}
	return true
}
