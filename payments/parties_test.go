package payments

import (
	"errors"
	"strings"
	"testing"

	"ponte/model"
)

func wantFail(t *testing.T, what string, err error, code model.Code, says string) {
	t.Helper()
	var e *model.Error
	if !errors.As(err, &e) || e.Code != code || !strings.Contains(e.Message, says) {
		t.Errorf("%s: got %v, want %s saying %q", what, err, code, says)
	}
}

// The five kinds of PIX key, as the DICT knows them; anything else is INVALID_PIX_KEY.
func TestPixKeyKind(t *testing.T) {
	t.Parallel()
	cases := []struct{ key, kind string }{
		{"11144477735", "CPF"},
		{"11222333000181", "CNPJ"},
		{"+5511987654321", "PHONE"},
		{"+551133334444", "PHONE"},
		{"fulano@example.com", "EMAIL"},
		{"123e4567-e12b-12d1-a456-426655440000", "EVP"},
		{"111.444.777-35", ""},                         // keys are written without punctuation
		{"11144477736", ""},                            // a wrong check digit
		{"00000000000", ""},                            // repeated digits
		{"11987654321", ""},                            // a phone without +55
		{"+5501987654321", ""},                         // no area code starts with 0
		{"+55119876543210", ""},                        // too long
		{"Fulano <fulano@example.com>", ""},            // an address, not a key
		{strings.Repeat("a", 66) + "@example.com", ""}, // 78 characters
		{"{123e4567-e12b-12d1-a456-426655440000}", ""},
		{"", ""},
	}
	for _, c := range cases {
		kind, err := pixKeyKind(c.key)
		if c.kind == "" {
			wantFail(t, c.key, err, model.CodeInvalidPixKey, "is not a PIX key")
			continue
		}
		if err != nil || kind != c.kind {
			t.Errorf("pixKeyKind(%q) = %q, %v; want %s", c.key, kind, err, c.kind)
		}
	}
}

// A taxNumber is a CPF or a CNPJ by its number of digits, punctuation allowed, and comes
// back as digits.
func TestCheckTaxNumber(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, want string
		code     model.Code
	}{
		{"111.444.777-35", "11144477735", model.Code{}},
		{"11.222.333/0001-81", "11222333000181", model.Code{}},
		{"111 444 777 35", "11144477735", model.Code{}},
		{"11144477736", "", model.CodeInvalidCPF},
		{"11222333000180", "", model.CodeInvalidCNPJ},
		{"1114447773", "", model.CodeInvalidCPF},
		{"111_444_777_35", "", model.CodeInvalidCNPJ}, // other punctuation keeps the text: 14 characters, read as a CNPJ
		// The alphanumeric CNPJ issued from July 2026: the Receita Federal's own example
		// (12.ABC.345/01DE-35), typed as printed, bare, or in lower case.
		{"12.ABC.345/01DE-35", "12ABC34501DE35", model.Code{}},
		{"12ABC34501DE35", "12ABC34501DE35", model.Code{}},
		{"12.abc.345/01de-35", "12ABC34501DE35", model.Code{}},
		{"12ABC34501DE36", "", model.CodeInvalidCNPJ},
		{"12ABC34501DEA5", "", model.CodeInvalidCNPJ}, // the check digits are digits
		{"12ÁBC34501DE35", "", model.CodeInvalidCPF},  // not ASCII: neither length once read as typed
		{"", "", model.CodeInvalidCPF},
	}
	for _, c := range cases {
		got, err := checkTaxNumber(c.in)
		if c.want == "" {
			wantFail(t, c.in, err, c.code, "taxNumber")
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("checkTaxNumber(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// A recipient's account: branch of up to 4 digits, number with an optional check digit,
// and one of the account types.
func TestCheckAccount(t *testing.T) {
	t.Parallel()
	cases := []struct {
		a    *model.PaymentRecipientAccount
		says string // "" accepts
	}{
		{&model.PaymentRecipientAccount{Branch: "0001", Number: "12345-6", Type: "CHECKING_ACCOUNT"}, ""},
		{&model.PaymentRecipientAccount{Branch: "1", Number: "123456", Type: "SAVINGS_ACCOUNT"}, ""},
		{&model.PaymentRecipientAccount{Branch: "0001", Number: "12345-X", Type: "PAYMENT_ACCOUNT"}, ""},
		{&model.PaymentRecipientAccount{Branch: "0001", Number: "1", Type: "GUARANTEED_ACCOUNT"}, ""},
		{nil, "is required"},
		{&model.PaymentRecipientAccount{Branch: "00001", Number: "1", Type: "CHECKING_ACCOUNT"}, "account.branch"},
		{&model.PaymentRecipientAccount{Branch: "", Number: "1", Type: "CHECKING_ACCOUNT"}, "account.branch"},
		{&model.PaymentRecipientAccount{Branch: "0001", Number: "12.345-6", Type: "CHECKING_ACCOUNT"}, "account.number"},
		{&model.PaymentRecipientAccount{Branch: "0001", Number: "12345-67", Type: "CHECKING_ACCOUNT"}, "account.number"},
		{&model.PaymentRecipientAccount{Branch: "0001", Number: "12345", Type: "checking"}, "account.type"},
	}
	for i, c := range cases {
		err := checkAccount(c.a)
		if c.says == "" {
			if err != nil {
				t.Errorf("case %d: refused: %v", i, err)
			}
			continue
		}
		wantFail(t, c.says, err, model.CodeInvalidParameter, c.says)
	}
}

// A customer: INDIVIDUAL with a CPF or BUSINESS with a CNPJ, a name, an optional plain
// e-mail address; documents are kept as digits.
func TestCheckCustomer(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	cases := []struct {
		name string
		c    model.PaymentCustomer
		code model.Code
		says string // "" accepts
	}{
		{"individual", model.PaymentCustomer{Type: "INDIVIDUAL", Name: "Ana", Cpf: s("111.444.777-35"), Email: s("ana@example.com")}, model.Code{}, ""},
		{"business with its representative", model.PaymentCustomer{Type: "BUSINESS", Name: "Loja SA", Cnpj: s("11222333000181"), Cpf: s("11144477735")}, model.Code{}, ""},
		{"no such type", model.PaymentCustomer{Type: "PERSON", Name: "Ana", Cpf: s("11144477735")}, model.CodeInvalidParameter, "type must be"},
		{"blank name", model.PaymentCustomer{Type: "INDIVIDUAL", Name: "  ", Cpf: s("11144477735")}, model.CodeInvalidParameter, "name is required"},
		{"long name", model.PaymentCustomer{Type: "INDIVIDUAL", Name: strings.Repeat("a", 201), Cpf: s("11144477735")}, model.CodeInvalidParameter, "200 characters"},
		{"named address", model.PaymentCustomer{Type: "INDIVIDUAL", Name: "Ana", Cpf: s("11144477735"), Email: s("Ana <ana@example.com>")}, model.CodeInvalidParameter, "not an e-mail address"},
		{"individual without CPF", model.PaymentCustomer{Type: "INDIVIDUAL", Name: "Ana"}, model.CodeInvalidParameter, "cpf is required"},
		{"business without CNPJ", model.PaymentCustomer{Type: "BUSINESS", Name: "Loja", Cpf: s("11144477735")}, model.CodeInvalidParameter, "cnpj is required"},
		{"wrong CPF", model.PaymentCustomer{Type: "INDIVIDUAL", Name: "Ana", Cpf: s("11144477736")}, model.CodeInvalidCPF, "not a valid CPF"},
		{"wrong CNPJ", model.PaymentCustomer{Type: "BUSINESS", Name: "Loja", Cnpj: s("11222333000180")}, model.CodeInvalidCNPJ, "not a valid CNPJ"},
	}
	for _, c := range cases {
		err := checkCustomer(&c.c)
		if c.says == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", c.name, err)
			} else if c.c.Cpf != nil && strings.ContainsAny(*c.c.Cpf, ".-") {
				t.Errorf("%s: cpf kept as %q, want digits", c.name, *c.c.Cpf)
			}
			continue
		}
		wantFail(t, c.name, err, c.code, c.says)
	}
}
