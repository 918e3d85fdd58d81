package sandbox

import "math/rand/v2"

func digitsOf(s string) ([]int, bool) {
	d := make([]int, 0, len(s))
	for _, r := range s {
		if r < '0' || r > '9' {
			return nil, false
		}
		d = append(d, int(r-'0'))
	}
	return d, true
}

func cpfCheck(d []int, n int) int {
	sum := 0
	for i := 0; i < n; i++ {
		sum += d[i] * (n + 1 - i)
	}
	r := sum * 10 % 11
	if r == 10 {
		r = 0
	}
	return r
}

// ValidCPF checks a CPF's 11 digits and its two check digits. Repeated digits
// (000.000.000-00 and the like) pass the arithmetic but are not valid CPFs.
func ValidCPF(s string) bool {
	d, ok := digitsOf(s)
	if !ok || len(d) != 11 || allSame(d) {
		return false
	}
	return cpfCheck(d, 9) == d[9] && cpfCheck(d, 10) == d[10]
}

var cnpjWeights1 = []int{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
var cnpjWeights2 = []int{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}

func cnpjCheck(d []int, w []int) int {
	sum := 0
	for i, wi := range w {
		sum += d[i] * wi
	}
	r := sum % 11
	if r < 2 {
		return 0
	}
	return 11 - r
}

// ValidCNPJ checks a CNPJ: 12 characters, digits or (since July 2026) upper-case letters,
// then two check-digit digits. The Receita Federal computes the check digits of the
// alphanumeric CNPJ on each character's ASCII code minus 48 ('0'..'9' count 0..9, 'A'
// counts 17, 'Z' 42), with the weights and modulo 11 of the numeric CNPJ, which it therefore
// still accepts unchanged.
func ValidCNPJ(s string) bool {
	if len(s) != 14 {
		return false
	}
	d := make([]int, 14)
	for i := 0; i < 14; i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			d[i] = int(c - '0')
		case c >= 'A' && c <= 'Z' && i < 12:
			d[i] = int(c) - '0'
		default:
			return false
		}
	}
	if allSame(d) {
		return false
	}
	return cnpjCheck(d, cnpjWeights1) == d[12] && cnpjCheck(d, cnpjWeights2) == d[13]
}

func allSame(d []int) bool {
	for _, x := range d[1:] {
		if x != d[0] {
			return false
		}
	}
	return true
}

func toString(d []int) string {
	b := make([]byte, len(d))
	for i, x := range d {
		b[i] = byte('0' + x)
	}
	return string(b)
}

// NewCPF makes a valid CPF from rng.
func NewCPF(rng *rand.Rand) string {
	for {
		d := make([]int, 11)
		for i := 0; i < 9; i++ {
			d[i] = rng.IntN(10)
		}
		if allSame(d[:9]) {
			continue
		}
		d[9] = cpfCheck(d, 9)
		d[10] = cpfCheck(d, 10)
		return toString(d)
	}
}

// NewCNPJ makes a valid CNPJ (headquarters, branch 0001) from rng.
func NewCNPJ(rng *rand.Rand) string {
	d := make([]int, 14)
	for i := 0; i < 8; i++ {
		d[i] = rng.IntN(10)
	}
	d[8], d[9], d[10], d[11] = 0, 0, 0, 1
	d[12] = cnpjCheck(d, cnpjWeights1)
	d[13] = cnpjCheck(d, cnpjWeights2)
	return toString(d)
}
