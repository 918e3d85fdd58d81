package sandbox

import "testing"

// CPF and CNPJ: the digits only, the right length, both check digits, and never one digit
// repeated (which passes the arithmetic); the generators make only valid numbers.
func TestDocuments(t *testing.T) {
	t.Parallel()
	cases := []struct {
		doc   string
		valid bool
		cpf   bool
	}{
		{"52998224725", true, true}, {"52998224724", false, true}, {"11111111111", false, true}, {"5299822472", false, true},
		{"529.982.247-25", false, true}, {"111444777350", false, true}, {"00000000000", false, true},
		{"11144477735", true, true}, {"1114447773５", false, true}, {"", false, true}, {"5299822472a", false, true},
		{"11444777000161", true, false}, {"11444777000162", false, false}, {"00000000000000", false, false},
		{"60701190000104", true, false}, {"00394460000141", true, false}, {"11.222.333/0001-81", false, false},
		{"11222333000181", true, false}, {"1122233300018", false, false}, {"112223330001810", false, false},
		{"52998224725", false, false}, {"11222333000181", false, true},
	}
	for _, c := range cases {
		got := ValidCNPJ(c.doc)
		if c.cpf {
			got = ValidCPF(c.doc)
		}
		if got != c.valid {
			t.Errorf("%q (CPF %v): valid %v, want %v", c.doc, c.cpf, got, c.valid)
		}
	}
	rng := rngFor(1, 2)
	for i := 0; i < 1000; i++ {
		if cpf, cnpj := NewCPF(rng), NewCNPJ(rng); !ValidCPF(cpf) || !ValidCNPJ(cnpj) {
			t.Fatalf("generated %s / %s invalid", cpf, cnpj)
		}
	}
}
