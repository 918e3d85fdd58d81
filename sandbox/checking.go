package sandbox

// Bank transactions: the checking accounts' days (salary, bills, PIX, card debits) and
// the savings account, with today's rows arriving in batches.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"ponte/model"
)

// Open Finance transaction types of bank accounts, and the institution's own codes.
const (
	opPIX      = "PIX"
	opTED      = "TED"
	opBoleto   = "BOLETO"
	opUtility  = "CONVENIO_ARRECADACAO"
	opCard     = "CARTAO"
	opPayroll  = "FOLHA_PAGAMENTO"
	opFee      = "PACOTE_TARIFA_SERVICOS"
	opInternal = "TRANSFERENCIA_MESMA_INSTITUICAO"
	opCredit   = "OPERACAO_CREDITO"
	opWithdraw = "SAQUE"
	opOther    = "OUTROS"
)

var providerCodes = map[string]string{
	opPIX: "0813", opTED: "0555", opBoleto: "0461", opUtility: "0470", opCard: "0234", opPayroll: "0731",
	opFee: "0117", opInternal: "0610", opCredit: "0720", opWithdraw: "0114", opOther: "0933",
	"PAGAMENTO": "1001", "PAGAMENTO_FATURA": "1002", "TARIFA": "1003", "ESTORNO": "1004",
}

// tx builds one row. On bank accounts amount is signed (debits negative); on the card a
// positive amount is a purchase (DEBIT).
func (g *gen) tx(p *plan, key string, date time.Time, desc string, amount float64, op string) model.Transaction {
	id := g.id("tx", p.key+":"+key)
	t := model.Transaction{
		ID: id, AccountID: p.acc.ID, Date: model.NewTime(date), Description: desc, DescriptionRaw: sp(desc),
		Amount: money(amount), CurrencyCode: "BRL", Status: "POSTED", CreatedAt: g.ts, UpdatedAt: g.ts,
	}
	debit := amount < 0
	if p.acc.Type == "CREDIT" {
		debit = amount > 0
	}
	t.Type = "CREDIT"
	if debit {
		t.Type = "DEBIT"
	}
	if op != "" {
		t.OperationType = sp(op)
		if code, ok := providerCodes[op]; ok {
			t.ProviderCode = sp(code)
		}
	}
	if g.openFinance {
		t.ProviderID = sp(strings.ReplaceAll(id.String(), "-", "")[:24])
	}
	return t
}

func participant(p party) *model.PaymentParticipant {
	return &model.PaymentParticipant{DocumentNumber: &model.Document{Type: p.docType, Value: p.doc}, Name: sp(p.name),
		AccountNumber: sp(p.account), BranchNumber: sp(p.branch), RoutingNumber: sp(p.bank.compe), RoutingNumberISPB: sp(p.bank.ispb)}
}

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// endToEndID is a PIX end-to-end identifier: E + payer ISPB + UTC timestamp + 11 characters.
func endToEndID(rng *rand.Rand, ispb string, when time.Time) string {
	b := make([]byte, 11)
	for i := range b {
		b[i] = alnum[rng.IntN(len(alnum))]
	}
	return "E" + ispb + when.Format("200601021504") + string(b)
}

func (g *gen) pix(p *plan, rng *rand.Rand, key string, when time.Time, other party, amount float64, reason string) model.Transaction {
	holder := g.w.holder
	var t model.Transaction
	pd := &model.PaymentData{PaymentMethod: sp("PIX")}
	if amount < 0 {
		t = g.tx(p, key, when, "PIX ENVIADO "+upper(other.name), amount, opPIX)
		pd.Payer, pd.Receiver = participant(holder), participant(other)
		pd.ReferenceNumber = sp(endToEndID(rng, holder.bank.ispb, when))
	} else {
		t = g.tx(p, key, when, "PIX RECEBIDO "+upper(other.name), amount, opPIX)
		pd.Payer, pd.Receiver = participant(other), participant(holder)
		pd.ReferenceNumber = sp(endToEndID(rng, other.bank.ispb, when))
	}
	if reason != "" {
		pd.Reason = sp(reason)
	}
	t.PaymentData = pd
	return t
}

func merchantOf(m merchant) *model.Merchant {
	return &model.Merchant{Name: m.name, BusinessName: m.business, CNPJ: m.cnpj, CNAE: sp(m.cnae), Category: sp(m.category)}
}

func merchantParty(m merchant, rng *rand.Rand) party {
	b := banks[rng.IntN(len(banks))]
	return party{name: m.business, doc: m.cnpj, docType: "CNPJ", bank: b, branch: "0001", account: fmt.Sprintf("%d-%d", 100000+rng.IntN(800000), rng.IntN(10))}
}

// everyday makes one of the unplanned movements of a checking account.
func (g *gen) everyday(p *plan, rng *rand.Rand, key string, day, when time.Time) model.Transaction {
	w := g.w
	k := rng.IntN(100)
	switch {
	case k < 24:
		c := w.contacts[rng.IntN(len(w.contacts))]
		reasons := []string{"", "", "Racha do almoço", "Presente", "Aluguel da quadra", "Conta do bar", ""}
		return g.pix(p, rng, key, when, c, -between(rng, 15, 450), reasons[rng.IntN(len(reasons))])
	case k < 38:
		c := w.contacts[rng.IntN(len(w.contacts))]
		return g.pix(p, rng, key, when, c, between(rng, 20, 380), "")
	case k < 46:
		m := w.merchants[rng.IntN(len(w.merchants))]
		t := g.pix(p, rng, key, when, merchantParty(m, rng), -between(rng, m.min, m.max), "")
		t.Description = "PIX ENVIADO " + m.name
		t.DescriptionRaw = sp(t.Description)
		t.Merchant = merchantOf(m)
		return t
	case k < 51:
		c := w.contacts[rng.IntN(len(w.contacts))]
		t := g.tx(p, key, when, "TED ENVIADA "+upper(c.name), -float64(300+50*rng.IntN(50)), opTED)
		t.PaymentData = &model.PaymentData{Payer: participant(w.holder), Receiver: participant(c), PaymentMethod: sp("TED"),
			ReferenceNumber: sp(fmt.Sprintf("%010d", rng.IntN(1e10)))}
		return t
	case k < 56:
		t := g.tx(p, key, when, "SAQUE BANCO24HORAS", -float64(50*(1+rng.IntN(8))), opWithdraw)
		t.DescriptionRaw = sp(fmt.Sprintf("SAQUE BANCO24HORAS %s TERM %06d", day.Format("02/01"), rng.IntN(1e6)))
		return t
	case k < 61:
		m := w.merchants[7+rng.IntN(2)] // online stores issue boletos
		amount := between(rng, m.min, m.max)
		t := g.tx(p, key, when, "PAGAMENTO DE BOLETO "+m.name, -amount, opBoleto)
		bc, line := bankBoleto(banks[rng.IntN(len(banks))].compe, day.AddDate(0, 0, 2), centavos(amount), fmt.Sprintf("%025d", rng.Int64N(1e18)))
		t.PaymentData = &model.PaymentData{Payer: participant(w.holder), Receiver: participant(merchantParty(m, rng)), PaymentMethod: sp("BOLETO"),
			BoletoMetadata: &model.BoletoMetadata{DigitableLine: sp(line), Barcode: sp(bc), BaseAmount: fp(amount), PenaltyAmount: fp(0), InterestAmount: fp(0), DiscountAmount: fp(0)}}
		t.Merchant = merchantOf(m)
		return t
	default:
		m := w.merchants[rng.IntN(len(w.merchants))]
		t := g.tx(p, key, when, m.name, -between(rng, m.min, m.max), opCard)
		t.DescriptionRaw = sp("COMPRA CARTAO DEB MC " + day.Format("02/01") + " " + m.name)
		t.Merchant = merchantOf(m)
		t.CreditCardMetadata = &model.CreditCardMetadata{PayeeMCC: ip(m.mcc), CardNumber: sp(w.cardLast4)}
		return t
	}
}

// savingsDay is when the monthly transfer to savings happens.
func savingsDay(y int, m time.Month) time.Time { return at(nthBusinessDay(y, m, 6), 10, 5) }

// checkingDay writes one day of a checking account into day (returned, sorted by time).
func (g *gen) checkingDay(p *plan, day time.Time, bills map[string]float64, out []model.Transaction) []model.Transaction {
	w := g.w
	rng := rngFor(w.seed, p.stream, uint64(day.Unix()))
	k := dayKey(day)
	y, m := day.Year(), day.Month()
	add := func(t model.Transaction) { out = append(out, t) }
	if p.primary {
		if day.Equal(nthBusinessDay(y, m, 1)) {
			add(g.tx(p, k+":fee", at(day, 3, 12), "TARIFA PACOTE SERVICOS", -49.90, opFee))
		}
		if day.Equal(nthBusinessDay(y, m, 5)) {
			t := g.tx(p, k+":salary", at(day, 6, 30), "SALARIO "+w.employer.name, money(w.salary*0.6), opPayroll)
			t.PaymentData = &model.PaymentData{Payer: participant(w.employer), Receiver: participant(w.holder), PaymentMethod: sp("TED"),
				ReferenceNumber: sp(fmt.Sprintf("%010d", rng.IntN(1e10)))}
			add(t)
		}
		if day.Equal(onOrBeforeBusinessDay(time.Date(y, m, 20, 0, 0, 0, 0, time.UTC))) {
			t := g.tx(p, k+":advance", at(day, 6, 30), "ADIANT SALARIO "+w.employer.name, money(w.salary*0.4), opPayroll)
			t.PaymentData = &model.PaymentData{Payer: participant(w.employer), Receiver: participant(w.holder), PaymentMethod: sp("TED"),
				ReferenceNumber: sp(fmt.Sprintf("%010d", rng.IntN(1e10)))}
			add(t)
		}
		if sd := savingsDay(y, m); day.Equal(monthStart(sd).AddDate(0, 0, sd.Day()-1)) {
			add(g.tx(p, k+":savings", sd, "TRANSF PARA POUPANCA", -500, opInternal))
		}
		if day.Equal(onOrAfterBusinessDay(time.Date(y, m, 10, 0, 0, 0, 0, time.UTC))) {
			add(g.pix(p, rng, k+":rent", at(day, 9, 14), w.landlord, -w.rent, "Aluguel "+m.String()))
			amount := money(w.condoFee + float64(rng.IntN(4000))/100)
			t := g.tx(p, k+":condo", at(day, 9, 40), "PAGAMENTO DE BOLETO CONDOMINIO ED AURORA", -amount, opBoleto)
			bc, line := bankBoleto("341", time.Date(y, m, 10, 0, 0, 0, 0, time.UTC), centavos(amount), fmt.Sprintf("%025d", mix(w.seed, uint64(monthIndex(day)), 41)%1e18))
			t.PaymentData = &model.PaymentData{Payer: participant(w.holder), Receiver: participant(w.condo), PaymentMethod: sp("BOLETO"),
				BoletoMetadata: &model.BoletoMetadata{DigitableLine: sp(line), Barcode: sp(bc), BaseAmount: fp(amount), PenaltyAmount: fp(0), InterestAmount: fp(0), DiscountAmount: fp(0)}}
			add(t)
		}
		// The card bill is due on the 10th and debited that day.
		if day.Day() == 10 {
			if total := bills[day.Format("2006-01")]; total > 0 {
				add(g.tx(p, k+":card-bill", at(day, 8, 2), "PAGAMENTO FATURA CARTAO MASTERCARD", -total, opBoleto))
			}
		}
		if day.Equal(onOrAfterBusinessDay(time.Date(y, m, 15, 0, 0, 0, 0, time.UTC))) {
			for i, b := range w.billers {
				amount := between(rng, b.min, b.max)
				t := g.tx(p, k+":utility:"+strconv.Itoa(i), at(day, 7, 10+i*3), b.desc, -amount, opUtility)
				bc, line := utilityBoleto(b.segment, centavos(amount), b.company, fmt.Sprintf("%025d", mix(w.seed, uint64(monthIndex(day)), uint64(i))%1e18))
				t.PaymentData = &model.PaymentData{Payer: participant(w.holder),
					Receiver:       &model.PaymentParticipant{DocumentNumber: &model.Document{Type: "CNPJ", Value: b.cnpj}, Name: sp(b.name)},
					PaymentMethod:  sp("BOLETO"),
					BoletoMetadata: &model.BoletoMetadata{DigitableLine: sp(line), Barcode: sp(bc), BaseAmount: fp(amount), PenaltyAmount: fp(0), InterestAmount: fp(0), DiscountAmount: fp(0)}}
				add(t)
			}
		}
		if day.Day() == 18 {
			add(g.tx(p, k+":telecom", at(day, 5, 0), "DEB AUTOMATICO VIVO FIBRA", -129.90, opUtility))
		}
		loan := g.loanFor(day)
		n := monthIndex(day) - monthIndex(loan.contract)
		if day.Equal(onOrAfterBusinessDay(loan.installmentDue(n))) {
			add(g.tx(p, k+":loan", at(day, 4, 45), fmt.Sprintf("PARCELA EMPRESTIMO PESSOAL %02d/%02d", n, loan.term), -loan.payment, opCredit))
		}
	} else if day.Equal(nthBusinessDay(y, m, 5)) {
		add(g.pix(p, rng, k+":spouse", at(day, 11, 20), w.spouse, float64(1500+100*rng.IntN(10)), "Despesas da casa"))
	} else if day.Equal(nthBusinessDay(y, m, 1)) {
		add(g.tx(p, k+":fee", at(day, 3, 12), "TARIFA PACOTE SERVICOS", -19.90, opFee))
	}
	// Unplanned movements: about one every two days; more on the joint account, which
	// has few planned ones.
	n := 0
	switch r := rng.IntN(100); {
	case r < 40:
		n = 1
	case r < 48:
		n = 2
	}
	if !p.primary {
		n += rng.IntN(2)
	}
	for i := 0; i < n; i++ {
		add(g.everyday(p, rng, fmt.Sprintf("%s:day:%d", k, i), day, at(day, 7+rng.IntN(15), rng.IntN(60))))
	}
	// Month's end: the automatic investment keeps the next month's opening balance.
	if day.Month() != day.AddDate(0, 0, 1).Month() {
		t := g.tx(p, k+":auto-invest", at(day, 23, 50), "", 0, opOther)
		out = append(out, t)
	}
	slices.SortStableFunc(out, func(a, b model.Transaction) int { return a.Date.Compare(b.Date.Time) })
	return out
}

// opening is a bank account's balance at the start of a month.
func (g *gen) opening(p *plan, month time.Time) float64 {
	v := float64(mix(g.w.seed, p.stream, uint64(monthIndex(month))) % 500000)
	if p.primary {
		return money(9000 + v/100)
	}
	return money(1500 + v/200)
}

// checkingHistory plans a checking account's rows: the history window day by day, then
// today's batches. A balancing row closes each month (its description is empty until
// expand sets it).
func (g *gen) checkingHistory(p *plan, bills map[string]float64) {
	var day []model.Transaction
	// The first month's opening balance plus its movements before the window.
	pre := 0.0
	for d := monthStart(g.start); d.Before(g.start); d = d.AddDate(0, 0, 1) {
		day = g.checkingDay(p, d, bills, day[:0])
		for _, t := range day {
			if t.Description != "" {
				pre += t.Amount
			}
		}
	}
	p.opening = money(g.opening(p, g.start) + pre*float64(max(p.perf, 1)))
	p.rows = make([]baseRow, 0, 400)
	for d := g.start; d.Before(g.today); d = d.AddDate(0, 0, 1) {
		day = g.checkingDay(p, d, bills, day[:0])
		for _, t := range day {
			r := baseRow{t: t}
			if t.Description == "" {
				r.single, r.balancing = true, true
				r.target = g.opening(p, d.AddDate(0, 0, 1))
			}
			p.rows = append(p.rows, r)
		}
	}
	g.liveBatches(p)
}

// liveBatches adds today's rows: batch k (1-based) has 5 rows for k=1 and 3 after; the
// current execution's batch is PENDING, earlier ones POSTED without their dropped rows.
func (g *gen) liveBatches(p *plan) {
	j := 0
	tk := uint64(g.today.Unix())
	for k := 1; k <= g.exec; k++ {
		size := 3
		if k == 1 {
			size = 5
		}
		drop := map[int]bool{}
		if k < g.exec {
			dr := rngFor(g.w.seed, p.stream, tk, uint64(k), 999)
			drop[dr.IntN(size)] = true
			if dr.IntN(2) == 0 {
				drop[dr.IntN(size)] = true
			}
		}
		for i := 0; i < size; i++ {
			j++
			if drop[i] {
				continue
			}
			rng := rngFor(g.w.seed, p.stream, tk, uint64(k), uint64(i))
			when := g.today.Add(time.Duration(j)*3*time.Minute + time.Duration(rng.IntN(170))*time.Second)
			t := g.everyday(p, rng, fmt.Sprintf("%s:live:%d:%d", dayKey(g.today), k, i), g.today, when)
			if k == g.exec {
				t.Status = "PENDING"
			}
			p.rows = append(p.rows, baseRow{t: t, single: true})
		}
	}
}

func (g *gen) savingsHistory(p *plan) {
	// The balance runs from a fixed month, so it never depends on the window.
	epoch := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	balance := money(15000 + float64(mix(g.w.seed, 51)%1000000)/100)
	opened := false
	for m := epoch; !m.After(g.today); m = m.AddDate(0, 1, 0) {
		yield := money(balance * 0.005)
		yieldAt := at(m, 6, 0)
		deposit := savingsDay(m.Year(), m.Month())
		for _, ev := range []struct {
			when   time.Time
			key    string
			desc   string
			amount float64
			op     string
		}{{yieldAt, "yield", "RENDIMENTO POUPANCA", yield, opOther}, {deposit, "deposit", "TRANSF RECEBIDA CONTA CORRENTE", 500, opInternal}} {
			if ev.when.Before(g.start) || !ev.when.Before(g.today) {
				if ev.when.Before(g.start) {
					balance = money(balance + ev.amount)
				}
				continue
			}
			t := g.tx(p, m.Format("2006-01")+":"+ev.key, ev.when, ev.desc, ev.amount, ev.op)
			if !opened {
				p.opening, opened = balance, true
			}
			balance = money(balance + ev.amount)
			p.rows = append(p.rows, baseRow{t: t, single: true})
		}
	}
	if !opened {
		p.opening = balance
	}
}
