package sandbox

import (
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

var scrNow = time.Date(2026, 11, 27, 15, 0, 0, 0, time.UTC)

// checkSums holds the report's own arithmetic: buckets add up to the total, the
// modalities to the same total, the share to the coobligations.
func checkSums(t *testing.T, r *model.CreditInformation) {
	t.Helper()
	m := r.Maturity
	if m.DueUpTo30Days+m.Due31To360Days+m.DueOver360Days+m.Overdue+m.WrittenOff != m.Total {
		t.Fatalf("buckets do not add up to the total: %+v", m)
	}
	var sum model.Centavos
	ops := 0
	for _, md := range r.Modalities {
		sum += md.Amount
		ops += md.OperationCount
		if md.Name == "" || !regexp.MustCompile(`^\d{4}$`).MatchString(md.Code) {
			t.Fatalf("modality without an SCR code and name: %+v", md)
		}
	}
	if sum != m.Total {
		t.Fatalf("modalities add up to %d, the total is %d", sum, m.Total)
	}
	if r.CoobligationsAmount == 0 && (r.CoobligationsShareBps != 0 || ops != r.OperationCount) {
		t.Fatalf("no coobligations but share %d, %d of %d operations", r.CoobligationsShareBps, ops, r.OperationCount)
	}
	if r.ReferenceMonth != "2026-10" {
		t.Fatalf("reference month %q, want the last closed one, 2026-10", r.ReferenceMonth)
	}
}

func TestSCRReportMatchesTheSandboxBanks(t *testing.T) {
	item := uuid.New()
	const cpf = "52998224725"
	r := SCRReport(item, cpf, scrNow)
	checkSums(t, r)
	// The personal loans are the loans the same CPF holds on the banks that log in with it.
	var loans, cards model.Centavos
	banks := 0
	for _, c := range scrBanks(false) {
		snap := Generate(item, c.ID, "user-ok:"+cpf, 1, scrNow)
		counted := false
		for _, l := range snap.Loans {
			if hasProduct(c, model.ProductLoans) {
				loans += cents(*l.Payments.ContractOutstandingBalance)
				counted = true
			}
		}
		for _, a := range snap.Accounts {
			if a.Type == "CREDIT" && hasProduct(c, model.ProductCreditCards) && a.Balance != nil && *a.Balance > 0 {
				cards += cents(*a.Balance)
				counted = true
			}
		}
		if counted {
			banks++
		}
	}
	got := map[string]model.Centavos{}
	for _, md := range r.Modalities {
		got[md.Code] = md.Amount
	}
	if loans == 0 || got["0203"] != loans || got["1304"] != cards {
		t.Fatalf("SCR says loans %d cards %d; the banks hold %d and %d", got["0203"], got["1304"], loans, cards)
	}
	if r.InstitutionCount != banks || r.DocumentType != "CPF" || r.Maturity.Overdue != 0 || r.Maturity.WrittenOff != 0 {
		t.Fatalf("report %+v (banks %d)", r, banks)
	}
	if again := SCRReport(item, cpf, scrNow); again.Maturity != r.Maturity {
		t.Fatal("the same day's report differs between two runs")
	}
}

func hasProduct(c model.Connector, p model.Product) bool {
	for _, q := range c.Products {
		if q == p {
			return true
		}
	}
	return false
}

func TestSCRScenarios(t *testing.T) {
	item := uuid.New()
	none := SCRReport(item, SCRNoHistoryCPF, scrNow)
	checkSums(t, none)
	if none.OperationCount != 0 || none.InstitutionCount != 0 || none.Maturity.Total != 0 || len(none.Modalities) != 0 {
		t.Fatalf("no-history report has data: %+v", none)
	}
	if b, _ := json.Marshal(none); !regexp.MustCompile(`"modalities":\[\]`).Match(b) {
		t.Fatalf("no-history modalities must be an empty list: %s", b)
	}
	bad := SCRReport(item, SCROverdueCPF, scrNow)
	checkSums(t, bad)
	if bad.Maturity.Overdue == 0 || bad.Maturity.WrittenOff == 0 || bad.CoobligationsAmount == 0 {
		t.Fatalf("overdue report lacks overdue, written-off or coobligations: %+v", bad.Maturity)
	}
	want := int((bad.CoobligationsAmount*10000 + (bad.Maturity.Total+bad.CoobligationsAmount)/2) / (bad.Maturity.Total + bad.CoobligationsAmount))
	if bad.CoobligationsShareBps != want || want == 0 {
		t.Fatalf("share %d bps, want %d", bad.CoobligationsShareBps, want)
	}
	co := SCRReport(item, "11222333000181", scrNow)
	checkSums(t, co)
	if co.DocumentType != "CNPJ" || len(co.Modalities) == 0 || co.Modalities[0].Code != "0215" {
		t.Fatalf("company report %+v", co)
	}
	sc := Choose(&model.Connector{ID: SCRConnectorID, OAuth: true}, map[string]string{"document": SCRUnavailableCPF})
	if sc.CollectError == nil || sc.CollectError.Code != model.ExecSiteNotAvailable || sc.Action == nil {
		t.Fatalf("unavailable scenario %+v", sc)
	}
}

func TestCentavosJSON(t *testing.T) {
	cases := map[model.Centavos]string{0: "0.00", 5: "0.05", 1234: "12.34", -1: "-0.01", -250: "-2.50", 123456789012: "1234567890.12"}
	for c, want := range cases {
		b, _ := json.Marshal(c)
		if string(b) != want {
			t.Fatalf("%d → %s, want %s", c, b, want)
		}
		var back model.Centavos
		if err := json.Unmarshal(b, &back); err != nil || back != c {
			t.Fatalf("%s read back as %d (%v)", b, back, err)
		}
	}
	for _, bad := range []string{`1.234`, `"1.00"`, `1e3`, `.5`, `--1`} {
		var c model.Centavos
		if err := json.Unmarshal([]byte(bad), &c); err == nil {
			t.Fatalf("%s accepted as %d", bad, c)
		}
	}
}
