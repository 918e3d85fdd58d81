package sandbox

// The SCR report of the Central Bank, answered from the generated world: the operations
// it lists are the loans and cards the same document holds on the sandbox banks that log
// in with it, so an application comparing the two sees the same debts.

import (
	"maps"
	"math"
	"slices"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// SCRConnectorID is the catalogue id of the SCR connector.
const SCRConnectorID = 13

// The documents that pick the SCR connector's scenarios (docs/credit-information.md).
const (
	SCRNoHistoryCPF   = "12345678909"
	SCROverdueCPF     = "98765432100"
	SCRUnavailableCPF = "39053344705"
)

// SCR modality codes (Documento 3040, modalidade + submodalidade) the sandbox reports.
var scrModalityNames = map[string]string{
	"0203": "Empréstimos - crédito pessoal sem consignação em folha de pagamento",
	"0213": "Empréstimos - cheque especial",
	"0215": "Empréstimos - capital de giro com prazo de vencimento até 365 dias",
	"1304": "Outros créditos - cartão de crédito - compra à vista e parcelado lojista",
}

// scrOperation is one credit operation an institution reports, with its debt already
// split into the SCR's maturity buckets.
type scrOperation struct {
	institution string
	modality    string
	coobligated bool // the holder guarantees it for someone else
	buckets     model.CreditMaturity
}

// scrBanks are the sandbox banks whose first credential is the document, by kind of
// holder: their worlds are the holder's loans and cards elsewhere in the sandbox.
func scrBanks(company bool) []model.Connector {
	var out []model.Connector
	for _, c := range Connectors() {
		if c.ID == SCRConnectorID || len(c.Credentials) == 0 || c.IsSandbox {
			continue
		}
		first := c.Credentials[0].Name
		if (company && first == "cnpj") || (!company && first == "cpf") {
			if slices.Contains(c.Products, model.ProductLoans) || slices.Contains(c.Products, model.ProductCreditCards) {
				out = append(out, c)
			}
		}
	}
	return out
}

// cents turns a generated amount in reais into centavos.
func cents(reais float64) model.Centavos { return model.Centavos(math.Round(reais * 100)) }

// SCRReport is the report for document on the day now. The no-history document has no
// operations; the overdue one has two installments past due and a written-off overdraft.
func SCRReport(itemID uuid.UUID, document string, now time.Time) *model.CreditInformation {
	now = now.UTC()
	company := len(document) == 14
	var ops []scrOperation
	if document != SCRNoHistoryCPF {
		for _, c := range scrBanks(company) {
			snap := Generate(itemID, c.ID, "user-ok:"+document, 1, now)
			if slices.Contains(c.Products, model.ProductLoans) {
				for _, l := range snap.Loans {
					ops = append(ops, loanOperation(c.Name, company, l, now))
				}
			}
			if slices.Contains(c.Products, model.ProductCreditCards) {
				for _, a := range snap.Accounts {
					if a.Type == "CREDIT" && a.Balance != nil && *a.Balance > 0 {
						ops = append(ops, scrOperation{institution: c.Name, modality: "1304",
							buckets: model.CreditMaturity{DueUpTo30Days: cents(*a.Balance)}})
					}
				}
			}
		}
	}
	if document == SCROverdueCPF {
		ops = append(ops, overdueOperations(ops)...)
	}
	return summarize(itemID, document, company, now, ops)
}

// loanOperation splits a loan's outstanding balance over its remaining monthly
// installments by the day each falls due.
func loanOperation(bank string, company bool, l model.Loan, now time.Time) scrOperation {
	op := scrOperation{institution: bank, modality: "0203"}
	if company {
		op.modality = "0215"
	}
	if l.Payments == nil || l.Payments.ContractOutstandingBalance == nil || l.Installments == nil || l.Installments.DueInstallments == nil {
		return op
	}
	total := cents(*l.Payments.ContractOutstandingBalance)
	n := *l.Installments.DueInstallments
	if n <= 0 || total <= 0 {
		return op
	}
	first := now
	if l.FirstInstallmentDue != nil {
		paid := 0
		if l.Installments.PaidInstallments != nil {
			paid = *l.Installments.PaidInstallments
		}
		first = l.FirstInstallmentDue.Time.AddDate(0, paid, 0)
	}
	share := total / model.Centavos(n)
	for k := 0; k < n; k++ {
		amount := share
		if k == n-1 {
			amount = total - share*model.Centavos(n-1)
		}
		days := int(first.AddDate(0, k, 0).Sub(now).Hours() / 24)
		switch {
		case days <= 30:
			op.buckets.DueUpTo30Days += amount
		case days <= 360:
			op.buckets.Due31To360Days += amount
		default:
			op.buckets.DueOver360Days += amount
		}
	}
	return op
}

// overdueOperations are what the overdue scenario adds: its personal loans' next two
// installments past due, an overdraft written off, and a loan it guarantees.
func overdueOperations(ops []scrOperation) []scrOperation {
	var out []scrOperation
	for i := range ops {
		if ops[i].modality != "0203" {
			continue
		}
		b := &ops[i].buckets
		moved := min(b.DueUpTo30Days*2, b.DueUpTo30Days+b.Due31To360Days)
		fromNear := min(moved, b.DueUpTo30Days)
		b.DueUpTo30Days -= fromNear
		b.Due31To360Days -= moved - fromNear
		b.Overdue += moved
	}
	bank := "Banco Jacarandá Open Finance"
	out = append(out,
		scrOperation{institution: bank, modality: "0213", buckets: model.CreditMaturity{WrittenOff: 428_517}},
		scrOperation{institution: "Caixa Econômica São João", modality: "0203", coobligated: true,
			buckets: model.CreditMaturity{DueUpTo30Days: 61_250, Due31To360Days: 673_750}})
	return out
}

// summarize adds the operations up as the SCR reports them: own debt by modality and by
// bucket; coobligations apart, with their share of everything reported.
func summarize(itemID uuid.UUID, document string, company bool, now time.Time, ops []scrOperation) *model.CreditInformation {
	ref := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, -1, 0)
	r := &model.CreditInformation{
		ID: uuid.NewSHA1(itemID, []byte("credit-information")), ItemID: itemID, Document: document,
		DocumentType: "CPF", ReferenceMonth: ref.Format("2006-01"), Modalities: []model.CreditModality{},
		CreatedAt: model.NewTime(now), UpdatedAt: model.NewTime(now),
	}
	if company {
		r.DocumentType = "CNPJ"
	}
	banks := map[string]bool{}
	byCode := map[string]*model.CreditModality{}
	for _, op := range ops {
		t := op.buckets.DueUpTo30Days + op.buckets.Due31To360Days + op.buckets.DueOver360Days + op.buckets.Overdue + op.buckets.WrittenOff
		if t == 0 {
			continue
		}
		banks[op.institution] = true
		r.OperationCount++
		if op.coobligated {
			r.CoobligationsAmount += t
			continue
		}
		m := &r.Maturity
		m.DueUpTo30Days += op.buckets.DueUpTo30Days
		m.Due31To360Days += op.buckets.Due31To360Days
		m.DueOver360Days += op.buckets.DueOver360Days
		m.Overdue += op.buckets.Overdue
		m.WrittenOff += op.buckets.WrittenOff
		m.Total += t
		if byCode[op.modality] == nil {
			byCode[op.modality] = &model.CreditModality{Code: op.modality, Name: scrModalityNames[op.modality]}
		}
		byCode[op.modality].OperationCount++
		byCode[op.modality].Amount += t
	}
	r.InstitutionCount = len(banks)
	if all := r.Maturity.Total + r.CoobligationsAmount; all > 0 {
		r.CoobligationsShareBps = int((r.CoobligationsAmount*10000 + all/2) / all)
	}
	for _, code := range slices.Sorted(maps.Keys(byCode)) {
		r.Modalities = append(r.Modalities, *byCode[code])
	}
	return r
}
