package payments

import (
	"math/rand/v2"
	"strings"
	"testing"

	"ponte/sandbox"
)

// FuzzTaxNumber checks CPF and CNPJ validation (customers, recipients, payers, PIX keys)
// against the textbook algorithm written out below, for any input: the digits-only
// validators agree with it, and so do the API's checks, which also accept the usual
// punctuation (dots, hyphen, slash, spaces) and answer the bare digits. The sandbox's
// generators only make documents the reference accepts.
func FuzzTaxNumber(f *testing.F) {
	for _, s := range []string{"11144477735", "111.444.777-35", "11222333000181", "11.222.333/0001-81", "00000000000",
		"11111111111111", "12ABC34501DE35", "12.abc.345/01de-35", "12ABC34501DE36", "1114447773", "111444777350", "11144477736", "١١١٤٤٤٧٧٧٣٥", "11144477735\x00", "１１１４４４７７７３５"} {
		f.Add(s, uint64(1))
	}
	f.Fuzz(func(t *testing.T, s string, seed uint64) {
		if got, want := sandbox.ValidCPF(s), refCPF(s); got != want {
			t.Fatalf("ValidCPF(%q) = %v, reference %v", s, got, want)
		}
		if got, want := sandbox.ValidCNPJ(s), refCNPJ(s); got != want {
			t.Fatalf("ValidCNPJ(%q) = %v, reference %v", s, got, want)
		}
		bare, punctuated := refDigits(s)
		wantCPF := punctuated && refCPF(bare)
		if d, err := checkCPF("cpf", s); (err == nil) != wantCPF || err == nil && d != bare {
			t.Fatalf("checkCPF(%q) = %q, %v; reference valid=%v digits %q", s, d, err, wantCPF, bare)
		}
		wantCNPJ := punctuated && refCNPJ(bare)
		if d, err := checkCNPJ("cnpj", s); (err == nil) != wantCNPJ || err == nil && d != bare {
			t.Fatalf("checkCNPJ(%q) = %q, %v; reference valid=%v digits %q", s, d, err, wantCNPJ, bare)
		}
		if d, err := checkTaxNumber(s); (err == nil) != (wantCPF || wantCNPJ) || err == nil && d != bare {
			t.Fatalf("checkTaxNumber(%q) = %q, %v; reference CPF %v CNPJ %v", s, d, err, wantCPF, wantCNPJ)
		}
		rng := rand.New(rand.NewPCG(seed, seed>>1))
		if c := sandbox.NewCPF(rng); !refCPF(c) {
			t.Fatalf("NewCPF made %q, not a valid CPF", c)
		}
		if c := sandbox.NewCNPJ(rng); !refCNPJ(c) {
			t.Fatalf("NewCNPJ made %q, not a valid CNPJ", c)
		}
	})
}

// refDigits strips the punctuation people type in documents and puts letters in upper
// case; ok is false when anything else but ASCII digits and letters remains.
func refDigits(s string) (digits string, ok bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9' || c >= 'A' && c <= 'Z':
			b.WriteByte(c)
		case c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
		case c == '.' || c == '-' || c == '/' || c == ' ':
		default:
			return "", false
		}
	}
	return b.String(), true
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

func onlyDigits(s string, n int) bool {
	if len(s) != n || strings.Count(s, s[:1]) == n {
		return false // a repeated digit passes the arithmetic but is no document
	}
	for i := 0; i < n; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func refCPF(s string) bool {
	return onlyDigits(s, 11) &&
		refCheckDigit(s, []int{10, 9, 8, 7, 6, 5, 4, 3, 2}) == s[9] &&
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
		refCheckDigit(s, []int{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}) == s[12] &&
		refCheckDigit(s, []int{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}) == s[13]
}
