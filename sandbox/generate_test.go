package sandbox_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/sandbox"
)

var now = time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)

func byID(list []model.Transaction) map[uuid.UUID]model.Transaction {
	m := make(map[uuid.UUID]model.Transaction, len(list))
	for _, t := range list {
		m[t.ID] = t
	}
	return m
}

func TestGenerateIsDeterministic(t *testing.T) {
	item := uuid.New()
	a := sandbox.Generate(item, 0, "user-ok", 1, now)
	b := sandbox.Generate(item, 0, "user-ok", 1, now)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs of the same execution differ")
	}
	if len(byID(a.Transactions)) != len(a.Transactions) {
		t.Fatal("duplicate transaction ids")
	}
}

func TestExecutionsChangeTransactions(t *testing.T) {
	item := uuid.New()
	first := byID(sandbox.Generate(item, 0, "user-ok", 1, now).Transactions)
	second := byID(sandbox.Generate(item, 0, "user-ok", 2, now).Transactions)
	third := byID(sandbox.Generate(item, 0, "user-ok", 3, now).Transactions)
	diff := func(a, b map[uuid.UUID]model.Transaction) (created, updated, deleted int) {
		for id, t := range b {
			old, ok := a[id]
			switch {
			case !ok:
				created++
			case old.Status != t.Status:
				updated++
			}
		}
		for id := range a {
			if _, ok := b[id]; !ok {
				deleted++
			}
		}
		return
	}
	if c, u, d := diff(first, second); c != 3 || u != 0 || d != 0 {
		t.Fatalf("1→2: created %d updated %d deleted %d", c, u, d)
	}
	if c, u, d := diff(second, third); c != 3 || u != 2 || d != 1 {
		t.Fatalf("2→3: created %d updated %d deleted %d", c, u, d)
	}
}

func TestGeneratedDataIsRealistic(t *testing.T) {
	s := sandbox.Generate(uuid.New(), 0, "user-ok", 1, now)
	kinds := map[string]int{}
	checking := map[uuid.UUID]bool{}
	for _, a := range s.Accounts {
		kinds[a.Subtype]++
		if a.Subtype == "CHECKING_ACCOUNT" {
			checking[a.ID] = true
			if a.BankData == nil || a.BankData.TransferNumber == nil || a.BankData.ClosingBalance == nil {
				t.Fatalf("checking account without bank data: %+v", a)
			}
		}
		if a.Subtype == "CREDIT_CARD" && (a.CreditData == nil || a.CreditData.CreditLimit == nil || len(a.CreditData.DisaggregatedCreditLimits) == 0 || len(a.CreditData.AdditionalCards) == 0) {
			t.Fatalf("card without credit data: %+v", a.CreditData)
		}
	}
	if kinds["CHECKING_ACCOUNT"] != 1 || kinds["SAVINGS_ACCOUNT"] != 1 || kinds["CREDIT_CARD"] != 1 {
		t.Fatalf("accounts %v", kinds)
	}
	year := 0
	var pix, ted, installments, pending int
	for _, tx := range s.Transactions {
		if checking[tx.AccountID] && tx.Date.After(now.AddDate(-1, 0, 0)) {
			year++
		}
		if (tx.Amount < 0) != (tx.Type == "DEBIT") {
			t.Fatalf("sign and type disagree: %+v", tx)
		}
		if tx.Status == "PENDING" {
			pending++
		}
		if pd := tx.PaymentData; pd != nil {
			for _, p := range []*model.PaymentParticipant{pd.Payer, pd.Receiver} {
				if p == nil || p.DocumentNumber == nil {
					continue
				}
				if (p.DocumentNumber.Type == "CPF" && !sandbox.ValidCPF(p.DocumentNumber.Value)) || (p.DocumentNumber.Type == "CNPJ" && !sandbox.ValidCNPJ(p.DocumentNumber.Value)) {
					t.Fatalf("invalid document %+v", p.DocumentNumber)
				}
			}
			if pd.PaymentMethod != nil && *pd.PaymentMethod == "PIX" {
				pix++
			}
			if pd.PaymentMethod != nil && *pd.PaymentMethod == "TED" {
				ted++
			}
		}
		if m := tx.Merchant; m != nil && !sandbox.ValidCNPJ(m.CNPJ) {
			t.Fatalf("invalid merchant CNPJ %s", m.CNPJ)
		}
		if c := tx.CreditCardMetadata; c != nil && c.TotalInstallments != nil {
			installments++
		}
	}
	if year < 200 || pix == 0 || ted == 0 || installments == 0 || pending == 0 {
		t.Fatalf("checking last year %d, pix %d, ted %d, installments %d, pending %d", year, pix, ted, installments, pending)
	}
	if len(s.Investments) == 0 || len(s.InvestmentTransactions) == 0 || s.Identity == nil || len(s.Loans) == 0 || len(s.Bills) < 10 || len(s.Statements) == 0 {
		t.Fatal("a product is missing")
	}
	if !sandbox.ValidCPF(*s.Identity.TaxNumber) {
		t.Fatalf("identity CPF %s", *s.Identity.TaxNumber)
	}
	raw, _ := json.Marshal(s.Transactions[0])
	for _, f := range []string{"id", "accountId", "date", "description", "descriptionRaw", "type", "amount", "amountInAccountCurrency",
		"balance", "currencyCode", "category", "categoryId", "status", "providerCode", "providerId", "paymentData",
		"creditCardMetadata", "merchant", "operationType", "operationTypeAdditionalInfo", "createdAt", "updatedAt"} {
		if !strings.Contains(string(raw), `"`+f+`":`) {
			t.Errorf("transaction JSON lacks %s", f)
		}
	}
	if two := sandbox.Generate(uuid.New(), 0, "user-ok-two-checking-accounts", 1, now); len(two.Accounts) != 4 {
		t.Fatalf("two checking accounts: %d accounts", len(two.Accounts))
	}
}

func TestPerfMultiplier(t *testing.T) {
	one := sandbox.Generate(uuid.New(), 0, "user-ok-perf-1", 1, now)
	ten := sandbox.Generate(uuid.New(), 0, "user-ok-perf-10", 1, now)
	if d := len(ten.Transactions) - len(one.Transactions); d < 9*300 {
		t.Fatalf("perf-10 adds %d transactions over perf-1", d)
	}
}

func TestDocuments(t *testing.T) {
	cases := []struct {
		doc   string
		valid bool
		cpf   bool
	}{
		{"52998224725", true, true}, {"52998224724", false, true}, {"11111111111", false, true}, {"5299822472", false, true},
		{"11444777000161", true, false}, {"11444777000162", false, false}, {"00000000000000", false, false},
	}
	for _, c := range cases {
		got := sandbox.ValidCNPJ(c.doc)
		if c.cpf {
			got = sandbox.ValidCPF(c.doc)
		}
		if got != c.valid {
			t.Errorf("%s: valid %v, want %v", c.doc, got, c.valid)
		}
	}
}

func BenchmarkGeneratePerf5000(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s := sandbox.Generate(uuid.New(), 0, "user-ok-perf-5000", 1, now)
		b.ReportMetric(float64(len(s.Transactions)), "transactions")
	}
}
