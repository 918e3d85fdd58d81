package brdocs

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// Published documents, not this code's output: 111.444.777-35 is the Receita Federal's own
// worked example, 529.982.247-25 the one most CPF tutorials walk through; 11.222.333/0001-81
// and 11.444.777/0001-61 are the textbook CNPJs; 00.000.000/0001-91 is Banco do Brasil,
// 60.701.190/0001-04 Itaú Unibanco, 00.360.305/0001-04 Caixa, 33.000.167/0001-01 Petrobras,
// 00.394.460/0001-41 the Ministry of Finance; 12.ABC.345/01DE-35 is the Receita's example of
// the alphanumeric CNPJ.
func TestValidCPF(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		doc   string
		valid bool
	}{
		{"11144477735", true}, {"52998224725", true},
		{"11144477736", false}, {"52998224724", false}, {"52998224715", false}, // either check digit off
		{"00000000000", false}, {"11111111111", false}, {"99999999999", false}, // repeated digits pass the arithmetic
		{"529.982.247-25", false}, {"5299822472", false}, {"529982247250", false}, {"", false},
		{"5299822472a", false}, {"1114447773５", false}, {"١١١٤٤٤٧٧٧٣٥", false}, {"11144477735\x00", false},
		{"11222333000181", false}, // a valid CNPJ is no CPF
	} {
		if got := ValidCPF(c.doc); got != c.valid {
			t.Errorf("ValidCPF(%q) = %v, want %v", c.doc, got, c.valid)
		}
	}
}

func TestValidCNPJ(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		doc   string
		valid bool
	}{
		{"11222333000181", true}, {"11444777000161", true}, {"00000000000191", true}, {"60701190000104", true},
		{"00360305000104", true}, {"33000167000101", true}, {"00394460000141", true},
		{"12ABC34501DE35", true},
		{"11222333000182", false}, {"11222333000191", false}, {"12ABC34501DE36", false}, {"12ABC34501DE45", false},
		{"12abc34501de35", false}, // letters are upper case; normalizing is the caller's
		{"12ABC34501DEA5", false}, // check digits are digits
		{"00000000000000", false}, {"11111111111111", false},
		{"11.222.333/0001-81", false}, {"1122233300018", false}, {"112223330001810", false}, {"", false},
		{"12ABC34501DÉ35", false}, {"52998224725", false},
	} {
		if got := ValidCNPJ(c.doc); got != c.valid {
			t.Errorf("ValidCNPJ(%q) = %v, want %v", c.doc, got, c.valid)
		}
	}
}

func TestCNPJCheckDigits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ base, dv, err string }{
		{"12ABC34501DE", "35", ""}, {"112223330001", "81", ""}, {"000000000001", "91", ""},
		{"ZZZZZZZZZZZZ", "", ""}, // computed below: any 12 upper-case characters have digits
		{"12ABC34501D", "", "11 characters"}, {"12ABC34501DEF", "", "13 characters"},
		{"12abc34501de", "", "character 3"}, {"12ABC345-1DE", "", "character 9"},
	} {
		dv, err := CNPJCheckDigits(c.base)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("CNPJCheckDigits(%q) = %q, %v; want an error about %s", c.base, dv, err, c.err)
			}
		case err != nil || len(dv) != 2 || !ValidCNPJ(c.base+dv) || c.dv != "" && dv != c.dv:
			t.Errorf("CNPJCheckDigits(%q) = %q, %v; want %q", c.base, dv, err, c.dv)
		}
	}
}

// The generators make only documents the textbook rules accept, and the same rng state
// makes the same document (the sandbox's worlds are generated from a seed).
func TestGenerators(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	letters := 0
	for range 2000 {
		cpf, cnpj, alpha := NewCPF(rng), NewCNPJ(rng), NewAlphanumericCNPJ(rng)
		if !refCPF(cpf) || !refCNPJ(cnpj) || !refCNPJ(alpha) || !ValidCPF(cpf) || !ValidCNPJ(cnpj) || !ValidCNPJ(alpha) {
			t.Fatalf("generated %s / %s / %s", cpf, cnpj, alpha)
		}
		if cnpj[8:12] != "0001" || alpha[8:12] != "0001" || strings.Trim(cnpj, "0123456789") != "" {
			t.Fatalf("generated %s / %s: a headquarters' numeric and alphanumeric CNPJ", cnpj, alpha)
		}
		if strings.Trim(alpha[:8], "0123456789") != "" {
			letters++
		}
	}
	if letters < 1000 {
		t.Fatalf("only %d of 2000 alphanumeric CNPJs have a letter", letters)
	}
	a, b := rand.New(rand.NewPCG(9, 9)), rand.New(rand.NewPCG(9, 9))
	if NewCPF(a) != NewCPF(b) || NewCNPJ(a) != NewCNPJ(b) {
		t.Fatal("one rng state made two documents")
	}
}
