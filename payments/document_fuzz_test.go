package payments

import (
	"strings"
	"testing"

	"ponte/brdocs"
)

// FuzzTaxNumber checks the API's CPF and CNPJ checks (customers, recipients, payers),
// which accept the usual punctuation (dots, hyphen, slash, spaces) and lower-case letters
// and answer the bare characters, for any input: they accept exactly what brdocs accepts
// once that punctuation is stripped (brdocs' own fuzz target holds its validators to the
// textbook algorithm), and nothing else.
func FuzzTaxNumber(f *testing.F) {
	for _, s := range []string{"11144477735", "111.444.777-35", "11222333000181", "11.222.333/0001-81", "00000000000",
		"11111111111111", "12ABC34501DE35", "12.abc.345/01de-35", "12ABC34501DE36", "1114447773", "111444777350", "11144477736", "١١١٤٤٤٧٧٧٣٥", "11144477735\x00", "１１１４４４７７７３５"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		bare, punctuated := refDigits(s)
		wantCPF := punctuated && brdocs.ValidCPF(bare)
		if d, err := checkCPF("cpf", s); (err == nil) != wantCPF || err == nil && d != bare {
			t.Fatalf("checkCPF(%q) = %q, %v; reference valid=%v digits %q", s, d, err, wantCPF, bare)
		}
		wantCNPJ := punctuated && brdocs.ValidCNPJ(bare)
		if d, err := checkCNPJ("cnpj", s); (err == nil) != wantCNPJ || err == nil && d != bare {
			t.Fatalf("checkCNPJ(%q) = %q, %v; reference valid=%v digits %q", s, d, err, wantCNPJ, bare)
		}
		if d, err := checkTaxNumber(s); (err == nil) != (wantCPF || wantCNPJ) || err == nil && d != bare {
			t.Fatalf("checkTaxNumber(%q) = %q, %v; reference CPF %v CNPJ %v", s, d, err, wantCPF, wantCNPJ)
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
