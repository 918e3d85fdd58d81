package sandbox

// The rolling personal loan: its installments are debited on checking and its contract
// is what the loans product reports.

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"ponte/model"
)

// loanSchedule is the rolling personal loan: a new 36-month contract starts when the
// previous one ends, so every month has an installment whatever the date.
type loanSchedule struct {
	contract   time.Time // contract month
	principal  float64
	rate       float64 // monthly
	payment    float64
	term       int
	contractNo int
}

func (g *gen) loanFor(month time.Time) loanSchedule {
	const term = 36
	off := int(mix(g.w.seed, 31) % term)
	idx := monthIndex(month) - 1 - off
	c := idx / term
	if idx < 0 {
		c = -1
	}
	start := monthOf(off + term*c)
	principal := float64(15000 + 1000*int(mix(g.w.seed, 32, uint64(c+100))%16))
	rate := 0.0189
	pmt := money(principal * rate / (1 - math.Pow(1+rate, -term)))
	return loanSchedule{contract: start, principal: principal, rate: rate, payment: pmt, term: term, contractNo: c}
}

func (l loanSchedule) installmentDue(n int) time.Time {
	return time.Date(l.contract.Year(), l.contract.Month()+time.Month(n), 22, 0, 0, 0, 0, time.UTC)
}

func (g *gen) loans() {
	l := g.loanFor(g.today)
	contract := time.Date(l.contract.Year(), l.contract.Month(), 15, 0, 0, 0, 0, time.UTC)
	paid := 0
	for n := 1; n <= l.term; n++ {
		if onOrAfterBusinessDay(l.installmentDue(n)).Before(g.today) {
			paid = n
		}
	}
	outstanding := money(l.payment * (1 - math.Pow(1+l.rate, -float64(l.term-paid))) / l.rate)
	var releases []model.LoanPaymentRelease
	for n := max(1, paid-2); n <= paid; n++ {
		releases = append(releases, model.LoanPaymentRelease{IsOverParcelPayment: bp(false), InstallmentID: sp(fmt.Sprintf("%d-%02d", 700000+l.contractNo, n)),
			PaidDate: tp(onOrAfterBusinessDay(l.installmentDue(n))), CurrencyCode: sp("BRL"), PaidAmount: fp(l.payment)})
	}
	yearly := math.Round((math.Pow(1+l.rate, 12)-1)*1e4) / 1e4
	number := fmt.Sprintf("%d%06d", 7000+l.contractNo, mix(g.w.seed, 91)%1e6)
	g.snap.Loans = append(g.snap.Loans, model.Loan{
		ID: g.id("loan", "personal:"+strconv.Itoa(l.contractNo)), ItemID: g.item, ContractNumber: sp(number),
		IPOCCode: sp(g.w.institution.ispb + "0101" + g.w.holder.doc + number), ProductName: "CRÉDITO PESSOAL",
		Type: sp("CREDITO_PESSOAL_SEM_CONSIGNACAO"), Kind: "LOAN", Date: tp(g.today), ContractDate: tp(contract),
		DisbursementDates: []model.Time{model.NewTime(contract.AddDate(0, 0, 1))}, ContractAmount: fp(l.principal), CurrencyCode: "BRL",
		DueDate: tp(l.installmentDue(l.term)), InstallmentPeriodicity: sp("MONTHLY"), FirstInstallmentDue: tp(l.installmentDue(1)),
		CET: fp(math.Round((yearly+0.021)*1e4) / 1e4), AmortizationScheduled: sp("PRICE"),
		InterestRates: []model.LoanInterestRate{{TaxType: sp("EFFECTIVE"), InterestRateType: sp("COMPOUND"), TaxPeriodicity: sp("YEARLY"),
			Calculation: sp("21/252"), ReferentialRateIndexerType: sp("PRE_FIXADO"), PreFixedRate: fp(yearly), PostFixedRate: fp(0)}},
		ContractedFees: []model.LoanContractedFee{{Name: sp("Tarifa de cadastro"), Code: sp("CADASTRO"), ChargeType: sp("UNIQUE"),
			Charge: sp("FIXED"), Amount: fp(350)}},
		ContractedFinanceCharges: []model.LoanContractedFinanceCharge{
			{Type: sp("JUROS_REMUNERATORIOS_POR_ATRASO"), Rate: fp(0.01)},
			{Type: sp("MULTA_ATRASO_PAGAMENTO"), Rate: fp(0.02)},
			{Type: sp("JUROS_MORATORIOS_ATRASO"), Rate: fp(0.01)},
		},
		Warranties: []model.LoanWarranty{},
		Installments: &model.LoanInstallments{TypeNumberOfInstallments: sp("MONTH"), TotalNumberOfInstallments: ip(l.term),
			TypeContractRemaining: sp("MONTH"), ContractRemainingNumber: ip(l.term - paid), PaidInstallments: ip(paid),
			DueInstallments: ip(l.term - paid), PastDueInstallments: ip(0), BalloonPayments: []model.LoanBalloonPayment{}},
		Payments: &model.LoanPayments{ContractOutstandingBalance: fp(outstanding), Releases: releases},
	})
}
