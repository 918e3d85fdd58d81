package brdocs

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzDocuments checks CPF and CNPJ validation against the textbook algorithm written out
// below, for any input, and that the generators make only documents it accepts.
func FuzzDocuments(f *testing.F) {
	for _, s := range []string{"11144477735", "111.444.777-35", "11222333000181", "11.222.333/0001-81", "00000000000",
		"11111111111111", "12ABC34501DE35", "12.abc.345/01de-35", "12ABC34501DE36", "1114447773", "111444777350", "11144477736",
		"١١١٤٤٤٧٧٧٣٥", "11144477735\x00", "１１１４４４７７７３５"} {
		f.Add(s, uint64(1))
	}
	f.Fuzz(func(t *testing.T, s string, seed uint64) {
		if got, want := ValidCPF(s), refCPF(s); got != want {
			t.Fatalf("ValidCPF(%q) = %v, reference %v", s, got, want)
		}
		if got, want := ValidCNPJ(s), refCNPJ(s); got != want {
			t.Fatalf("ValidCNPJ(%q) = %v, reference %v", s, got, want)
		}
		if len(s) == 12 {
			dv, err := CNPJCheckDigits(s)
			if (err == nil) != (strings.Trim(s, cnpjAlphabet) == "") || err == nil && !refCNPJ(s+dv) && !allSame(s+dv) {
				t.Fatalf("CNPJCheckDigits(%q) = %q, %v", s, dv, err)
			}
		}
		rng := rand.New(rand.NewPCG(seed, seed>>1))
		if c := NewCPF(rng); !refCPF(c) {
			t.Fatalf("NewCPF made %q, not a valid CPF", c)
		}
		if c := NewCNPJ(rng); !refCNPJ(c) {
			t.Fatalf("NewCNPJ made %q, not a valid CNPJ", c)
		}
		if c := NewAlphanumericCNPJ(rng); !refCNPJ(c) {
			t.Fatalf("NewAlphanumericCNPJ made %q, not a valid CNPJ", c)
		}
	})
}

// refCheckDigit is the modulo-11 check digit of the Receita Federal: the weighted sum's
// remainder r gives 0 when r < 2 and 11 - r otherwise.
func refCheckDigit(s string, weights []int) byte {
	sum := 0
	for i, w := range weights {
		sum += int(s[i]-'0') * w
	}
	if r := sum % 11; r >= 2 {
		return byte('0' + 11 - r)
	}
	return '0'
}

func refCPF(s string) bool {
	if len(s) != 11 || strings.Count(s, s[:1]) == 11 || strings.Trim(s, "0123456789") != "" {
		return false // a repeated digit passes the arithmetic but is no document
	}
	return refCheckDigit(s, []int{10, 9, 8, 7, 6, 5, 4, 3, 2}) == s[9] &&
		refCheckDigit(s, []int{11, 10, 9, 8, 7, 6, 5, 4, 3, 2}) == s[10]
}

// refCNPJ is the Receita Federal's rule for the alphanumeric CNPJ (Nota Técnica conjunta
// COCAD/SUARA/RFB nº 49/2024): 12 characters of 0-9 or A-Z valued by their ASCII code
// minus 48, then two numeric check digits by the modulo-11 rule of the numeric CNPJ.
func refCNPJ(s string) bool {
	if len(s) != 14 || strings.Count(s, s[:1]) == 14 || strings.Trim(s[:12], "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" ||
		strings.Trim(s[12:], "0123456789") != "" {
		return false
	}
	return refCheckDigit(s, []int{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}) == s[12] &&
		refCheckDigit(s, []int{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}) == s[13]
}
