package payer_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/uuid"

	"ponte/brdocs"
	"ponte/model"
	"ponte/payments"
	"ponte/sandbox/payer"
)

// happy is a valid CPF no scenario claims.
const happy = "11144477735"

// seeded stands for the seeded institution list: the n-th one, named by its index.
type seeded struct{}

func (seeded) PaymentInstitutionByIndex(_ context.Context, n int) (*model.PaymentInstitution, error) {
	compe := fmt.Sprintf("%03d", n%1000)
	return &model.PaymentInstitution{Name: fmt.Sprintf("Banco %d", n), Ispb: fmt.Sprintf("%08d", n), Compe: &compe}, nil
}

func code(d *model.PaymentErrorDetail) string {
	if d == nil {
		return ""
	}
	return d.Code
}

// Every scenario payer's bank answers as docs/payments.md says, at the one moment its
// scenario names, and pays normally everywhere else; any other payer pays.
func TestBankAnswersEachScenarioAtItsStep(t *testing.T) {
	t.Parallel()
	const (
		open, authorize, pending, processing, debtor = "open", "authorize", payments.PaymentPending, payments.SettlementProcessing, payments.SettlementDebtorAccount
	)
	cases := []struct {
		name, cpf     string
		signatures    int
		preauthorized bool
		at            string // where the bank says something other than "go on"
		outcome       payments.Outcome
		code          string
		detail        string
	}{
		{"pays", happy, 1, false, "", payments.Proceed, "", ""},
		{"insufficient funds", payer.CPFInsufficientFunds, 1, false, pending, payments.Reject, model.PaymentErrorInsufficientFunds, "SALDO_INSUFICIENTE"},
		{"limit exceeded", payer.CPFLimitExceeded, 1, false, pending, payments.Reject, model.PaymentErrorLimitExceeded, "VALOR_ACIMA_LIMITE"},
		{"rejected in the app", payer.CPFRejectedInApp, 1, false, authorize, payments.Reject, model.PaymentErrorRejectedByUser, "REJEITADO_USUARIO"},
		{"settlement failure", payer.CPFSettlementFailure, 1, false, processing, payments.Reject, model.PaymentErrorSettlementFailed, "FALHA_INFRAESTRUTURA_ICP"},
		{"multi-signature, first signer", payer.CPFMultiSignature, 1, false, pending, payments.AwaitSignature, "", ""},
		{"multi-signature, both signed", payer.CPFMultiSignature, 2, false, "", payments.Proceed, "", ""},
		{"multi-signature, pre-authorized", payer.CPFMultiSignature, 1, true, "", payments.Proceed, "", ""},
		{"account blocked", payer.CPFAccountBlocked, 0, false, open, payments.Reject, model.PaymentErrorAccountBlocked, "CONTA_BLOQUEADA"},
		{"insufficient funds, pre-authorized", payer.CPFInsufficientFunds, 1, true, pending, payments.Reject, model.PaymentErrorInsufficientFunds, "SALDO_INSUFICIENTE"},
	}
	bank := payer.New(seeded{})
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := payments.Attempt{ID: uuid.New(), ConnectorID: 5, Payer: payments.Payer{CPF: c.cpf}, Signatures: c.signatures, Amount: 1000, Preauthorized: c.preauthorized}
			answers := map[string]payments.Answer{}
			for _, at := range []string{open, authorize} {
				var d *model.PaymentErrorDetail
				var err error
				if at == open {
					d, err = bank.Open(ctx, a)
				} else {
					d, err = bank.Authorize(ctx, a)
				}
				if err != nil {
					t.Fatal(err)
				}
				if d != nil {
					answers[at] = payments.Answer{Outcome: payments.Reject, Error: d}
				}
			}
			for _, at := range []string{pending, processing, debtor} {
				a.Status = at
				ans, err := bank.Settle(ctx, a)
				if err != nil {
					t.Fatal(err)
				}
				if ans.Outcome != payments.Proceed || ans.Error != nil {
					answers[at] = ans
				}
			}
			if c.at == "" {
				if len(answers) != 0 {
					t.Fatalf("a paying payer got %+v", answers)
				}
				return
			}
			got, ok := answers[c.at]
			if len(answers) != 1 || !ok || got.Outcome != c.outcome || code(got.Error) != c.code {
				t.Fatalf("answers %+v, want %s at %s with %q", answers, c.outcome, c.at, c.code)
			}
			if c.outcome == payments.Reject && (got.Error.Detail == nil || *got.Error.Detail != c.detail || got.Error.Description == "") {
				t.Fatalf("reason %+v, want detail %s and a description", got.Error, c.detail)
			}
		})
	}
}

// A reason handed out is the caller's own: changing it changes no later answer.
func TestBankReasonsAreNotShared(t *testing.T) {
	t.Parallel()
	bank := payer.New(seeded{})
	a := payments.Attempt{Payer: payments.Payer{CPF: payer.CPFAccountBlocked}}
	first, _ := bank.Open(context.Background(), a)
	first.Description = "changed"
	if second, _ := bank.Open(context.Background(), a); second.Description == "changed" {
		t.Fatal("the bank's reasons are shared between answers")
	}
}

// The debtor is the payer's account at the institution the connector stands for, named as
// the payer gave their name, or masked when they gave none.
func TestBankReportsThePayersAccount(t *testing.T) {
	t.Parallel()
	bank := payer.New(seeded{})
	name := "Maria Silva"
	cases := []struct {
		payer payments.Payer
		want  model.PaymentDebtor
	}{
		{payments.Payer{CPF: happy, Name: &name}, model.PaymentDebtor{Name: "Maria Silva", TaxNumber: happy, Ispb: "00000007", Branch: "0001", Number: "444777-3", AccountType: "CHECKING_ACCOUNT"}},
		{payments.Payer{CPF: happy}, model.PaymentDebtor{Name: "Pagador 111.***.***-35", TaxNumber: happy, Ispb: "00000007", Branch: "0001", Number: "444777-3", AccountType: "CHECKING_ACCOUNT"}},
	}
	for _, c := range cases {
		d, err := bank.Debtor(context.Background(), payments.Attempt{ConnectorID: 7, Payer: c.payer})
		if err != nil {
			t.Fatal(err)
		}
		if d.Compe == nil || *d.Compe != "007" {
			t.Fatalf("debtor's COMPE %v", d.Compe)
		}
		d.Compe = nil
		if *d != c.want {
			t.Fatalf("debtor %+v, want %+v", *d, c.want)
		}
	}
	if _, err := bank.Debtor(context.Background(), payments.Attempt{Payer: payments.Payer{CPF: "123"}}); err == nil {
		t.Fatal("a debtor made up for a CPF that is not one")
	}
}

// Refunds whose cents are ,99 are refused; every other is given back.
func TestBankRefusesRefundsOfNinetyNineCents(t *testing.T) {
	t.Parallel()
	bank := payer.New(seeded{})
	for cents, refused := range map[int64]bool{1: false, 99: true, 1099: true, 1098: false, 100: false, 199: true} {
		d, err := bank.Refund(context.Background(), payments.Refund{RequestID: uuid.New(), Amount: cents})
		if err != nil || (d != nil) != refused || (refused && d.Code != model.PaymentErrorRefundRejected) {
			t.Fatalf("refund of %d centavos: %+v %v", cents, d, err)
		}
	}
}

// Every well-formed key resolves, always to the same account; a document key is its owner's
// tax number, any other key's owner has a valid CPF. The first case pins the account the
// directory has always given, so a change of the derivation shows.
func TestDirectoryResolvesEveryKeyToItsOwnAccount(t *testing.T) {
	t.Parallel()
	dir := payer.NewDirectory(seeded{})
	ctx := context.Background()
	pinned, err := dir.ResolvePixKey(ctx, payments.PixKey{Key: "ana@example.com", Kind: "EMAIL"})
	if err != nil {
		t.Fatal(err)
	}
	want := payments.PixKeyOwner{Name: "Clínica Vida", TaxNumber: "53192947276", Account: model.PaymentRecipientAccount{Branch: "2501", Number: "492263-2", Type: "CHECKING_ACCOUNT"}}
	got := *pinned
	got.Institution = nil
	if pinned.Institution == nil || pinned.Institution.Ispb != "00000207" || got != want {
		t.Fatalf("ana@example.com resolves to %+v at %+v, want %+v at the 207th institution", *pinned, pinned.Institution, want)
	}
	for _, k := range []payments.PixKey{
		{Key: "ana@example.com", Kind: "EMAIL"}, {Key: "+5511999998888", Kind: "PHONE"},
		{Key: "0f5c8b0e-4c1a-4f0e-9d43-1b2c3d4e5f60", Kind: "EVP"}, {Key: happy, Kind: "CPF"}, {Key: "11222333000181", Kind: "CNPJ"},
	} {
		a, err := dir.ResolvePixKey(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := dir.ResolvePixKey(ctx, k)
		if a.Institution == nil || b.Institution == nil || *a.Institution.Compe != *b.Institution.Compe {
			t.Fatalf("key %s at %+v then %+v", k.Key, a.Institution, b.Institution)
		}
		a.Institution, b.Institution = nil, nil
		if *a != *b || a.Account.Type != "CHECKING_ACCOUNT" || a.Name == "" {
			t.Fatalf("key %s: %+v then %+v", k.Key, a, b)
		}
		switch k.Kind {
		case "CPF", "CNPJ":
			if a.TaxNumber != k.Key {
				t.Fatalf("key %s owned by %s", k.Key, a.TaxNumber)
			}
		default:
			if !brdocs.ValidCPF(a.TaxNumber) {
				t.Fatalf("key %s owned by %q, not a CPF", k.Key, a.TaxNumber)
			}
		}
	}
}
