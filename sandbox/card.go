package sandbox

// The credit card: purchases, installments, fees, refunds, payments and the monthly bills
// that checking pays.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

const cardClosingDay, cardDueDay = 3, 10

// billMonth is the month of the bill (by due date) a card row at date falls in.
func billMonth(d time.Time) time.Time {
	m := monthStart(d)
	if d.Day() >= cardClosingDay {
		m = m.AddDate(0, 1, 0)
	}
	return m
}

func closingOf(billM time.Time) time.Time {
	return time.Date(billM.Year(), billM.Month(), cardClosingDay, 0, 0, 0, 0, time.UTC)
}

func dueOf(billM time.Time) time.Time {
	return time.Date(billM.Year(), billM.Month(), cardDueDay, 0, 0, 0, 0, time.UTC)
}

type cardRow struct {
	t       model.Transaction
	bill    time.Time // bill month; zero for payments
	brl     float64   // amount in BRL
	isIOF   bool
	payment bool
}

// cardHistory writes the card's purchases, installments, fees, refunds and payments, and
// its bills. It returns every bill's total by due month (YYYY-MM), for the checking
// account that pays them.
func (g *gen) cardHistory(p *plan) map[string]float64 {
	w := g.w
	// Bills closed within the last year are reported; the rows of those bills, of the open
	// one and the future installments are listed.
	openBill := billMonth(g.today)
	oldest := openBill.AddDate(0, -12, 0)
	listFrom := closingOf(oldest.AddDate(0, -1, 0))
	var rows []cardRow
	add := func(t model.Transaction, brl float64) {
		rows = append(rows, cardRow{t: t, bill: billMonth(t.Date.Time), brl: brl})
	}
	cardNo := func(rng *rand.Rand) *string {
		if rng.IntN(10) == 0 {
			return sp(w.additionalLast4)
		}
		return sp(w.cardLast4)
	}
	purchase := func(rng *rand.Rand, key string, day time.Time, m merchant, amount float64) {
		n := 1
		if amount > 300 && rng.IntN(10) < 3 {
			n = 2 + rng.IntN(9)
		}
		when := at(day, 8+rng.IntN(14), rng.IntN(60))
		card := cardNo(rng)
		part := money(amount / float64(n))
		for i := 1; i <= n; i++ {
			value := part
			if i == n {
				value = money(amount - part*float64(n-1))
			}
			desc := m.name
			if n > 1 {
				desc = fmt.Sprintf("%s %02d/%02d", m.name, i, n)
			}
			t := g.tx(p, fmt.Sprintf("%s:%d", key, i), when.AddDate(0, i-1, 0), desc, value, "PAGAMENTO")
			t.Merchant = merchantOf(m)
			t.CreditCardMetadata = &model.CreditCardMetadata{PayeeMCC: ip(m.mcc), CardNumber: card, PurchaseDate: tp(when)}
			if n > 1 {
				t.CreditCardMetadata.InstallmentNumber, t.CreditCardMetadata.TotalInstallments = ip(i), ip(n)
				t.CreditCardMetadata.TotalAmount = fp(money(amount))
			}
			add(t, value)
		}
	}
	from := listFrom.AddDate(0, -12, 0)
	for day := from; day.Before(g.today); day = day.AddDate(0, 0, 1) {
		rng := rngFor(w.seed, p.stream, uint64(day.Unix()))
		k := dayKey(day)
		chance := 16
		if isWeekend(day) {
			chance = 26
		}
		if rng.IntN(100) < chance {
			m := w.merchants[rng.IntN(len(w.merchants))]
			purchase(rng, k, day, m, between(rng, m.min, m.max))
		}
		for i, s := range subscriptionSeeds {
			if day.Day() == s.day {
				m := w.subscriptions[i]
				t := g.tx(p, k+":sub:"+strconv.Itoa(i), at(day, 4, 10), m.name, m.min, "PAGAMENTO")
				t.Merchant = merchantOf(m)
				t.CreditCardMetadata = &model.CreditCardMetadata{PayeeMCC: ip(m.mcc), CardNumber: sp(w.cardLast4), PurchaseDate: tp(at(day, 4, 10))}
				add(t, m.min)
			}
		}
		if day.Day() == 1 {
			n := int(day.Month())
			t := g.tx(p, k+":annual-fee", at(day, 2, 0), fmt.Sprintf("ANUIDADE DIFERENCIADA %02d/12", n), 45, "TARIFA")
			t.CreditCardMetadata = &model.CreditCardMetadata{FeeType: sp("ANNUAL_FEE"), CardNumber: sp(w.cardLast4), InstallmentNumber: ip(n), TotalInstallments: ip(12)}
			add(t, 45)
		}
		if rng.IntN(100) < 3 {
			f := foreignSeeds[rng.IntN(len(foreignSeeds))]
			usd := between(rng, f.min, f.max)
			fx := 5.2 + float64(mix(w.seed, uint64(day.Unix()), 61)%70)/100
			brl := money(usd * fx)
			when := at(day, 1+rng.IntN(20), rng.IntN(60))
			t := g.tx(p, k+":foreign", when, f.name, usd, "PAGAMENTO")
			t.CurrencyCode, t.AmountInAccountCurrency = "USD", fp(brl)
			t.CreditCardMetadata = &model.CreditCardMetadata{PayeeMCC: ip(f.mcc), CardNumber: sp(w.cardLast4), PurchaseDate: tp(when)}
			add(t, brl)
			iof := money(brl * 0.035)
			t = g.tx(p, k+":iof", when.Add(time.Minute), "IOF TRANSACAO EXTERIOR", iof, "TARIFA")
			t.CreditCardMetadata = &model.CreditCardMetadata{FeeType: sp("OTHER"), FeeTypeAdditionalInfo: sp("IOF"), CardNumber: sp(w.cardLast4)}
			add(t, iof)
			rows[len(rows)-1].isIOF = true
		}
		if rng.IntN(100) < 2 {
			m := w.merchants[rng.IntN(len(w.merchants))]
			amount := between(rng, m.min, math.Min(m.max, 250))
			t := g.tx(p, k+":refund", at(day, 12, rng.IntN(60)), "ESTORNO "+m.name, -amount, "ESTORNO")
			t.Merchant = merchantOf(m)
			t.CreditCardMetadata = &model.CreditCardMetadata{PayeeMCC: ip(m.mcc), CardNumber: sp(w.cardLast4)}
			add(t, -amount)
		}
	}
	// Each execution after the first finds one new purchase today.
	for k := 2; k <= g.exec; k++ {
		rng := rngFor(w.seed, p.stream, uint64(g.today.Unix()), uint64(k))
		m := w.merchants[rng.IntN(len(w.merchants))]
		amount := between(rng, m.min, math.Min(m.max, 300))
		t := g.tx(p, fmt.Sprintf("%s:live:%d", dayKey(g.today), k), g.today.Add(time.Duration(k)*4*time.Minute), m.name, amount, "PAGAMENTO")
		t.Merchant = merchantOf(m)
		t.CreditCardMetadata = &model.CreditCardMetadata{PayeeMCC: ip(m.mcc), CardNumber: sp(w.cardLast4), PurchaseDate: tp(t.Date.Time)}
		add(t, amount)
	}

	totals := map[string]float64{}
	iofs := map[string]float64{}
	for _, r := range rows {
		key := r.bill.Format("2006-01")
		totals[key] = money(totals[key] + r.brl)
		if r.isIOF {
			iofs[key] = money(iofs[key] + r.brl)
		}
	}
	// Bills due before today were paid in full on their due date.
	for m := from; m.Before(g.today); m = m.AddDate(0, 1, 0) {
		bm := monthStart(m)
		due := dueOf(bm)
		total := totals[bm.Format("2006-01")]
		if total <= 0 || !due.Before(g.today) || due.Before(listFrom) {
			continue
		}
		t := g.tx(p, "payment:"+bm.Format("2006-01"), at(due, 8, 2), "PAGAMENTO FATURA RECEBIDO", -total, "PAGAMENTO_FATURA")
		rows = append(rows, cardRow{t: t, brl: -total, payment: true})
	}

	// Bills, statuses and the card's figures.
	billIDs := map[string]uuid.UUID{}
	for m := oldest; m.Before(openBill); m = m.AddDate(0, 1, 0) {
		key := m.Format("2006-01")
		id := g.id("bill", key)
		billIDs[key] = id
		total := totals[key]
		due := dueOf(m)
		bill := model.CreditCardBill{ID: id, AccountID: p.acc.ID, DueDate: model.NewTime(due), BillClosingDate: tp(closingOf(m)),
			TotalAmount: total, TotalAmountCurrencyCode: "BRL", MinimumPaymentAmount: fp(money(total * 0.15)), AllowsInstallments: bp(true),
			FinanceCharges: []model.CreditCardBillFinanceCharge{}, Payments: []model.CreditCardBillPayment{}, CreatedAt: g.ts, UpdatedAt: g.ts}
		if iof := iofs[key]; iof > 0 {
			bill.FinanceCharges = append(bill.FinanceCharges, model.CreditCardBillFinanceCharge{ID: g.id("bill-charge", key+":iof"),
				Type: "IOF", Amount: iof, CurrencyCode: "BRL", AdditionalInfo: sp("IOF sobre compras internacionais")})
		}
		if due.Before(g.today) && total > 0 {
			bill.Payments = append(bill.Payments, model.CreditCardBillPayment{ID: g.id("bill-payment", key), ValueType: "FULL_PAYMENT",
				PaymentDate: model.NewTime(due), PaymentMode: sp("DEBIT_ACCOUNT"), Amount: total, CurrencyCode: "BRL"})
		}
		g.snap.Bills = append(g.snap.Bills, bill)
	}
	balance, future := 0.0, 0.0
	for _, b := range g.snap.Bills {
		if !dueOf(monthStart(b.DueDate.Time)).Before(g.today) {
			balance += b.TotalAmount // closed, not yet due
		}
	}
	slices.SortStableFunc(rows, func(a, b cardRow) int { return a.t.Date.Compare(b.t.Date.Time) })
	for _, r := range rows {
		if r.t.Date.Before(listFrom) {
			continue
		}
		t := r.t
		if !r.payment {
			key := r.bill.Format("2006-01")
			if r.bill.Before(openBill) {
				id := billIDs[key].String()
				t.CreditCardMetadata.BillID = &id
			} else {
				// The open bill and future installments are pending (official docs).
				t.Status = "PENDING"
				t.CreditCardMetadata.BillForecastDate = sp(key)
				if t.Date.After(g.now) {
					future += r.brl
				} else {
					balance += r.brl
				}
			}
		}
		p.rows = append(p.rows, baseRow{t: t, single: true})
	}
	cd := p.acc.CreditData
	balance, future = money(balance), money(future)
	p.acc.Balance = fp(balance)
	cd.BalanceCloseDate = tp(closingOf(openBill))
	cd.BalanceDueDate = tp(dueOf(openBill))
	cd.AvailableCreditLimit = fp(money(math.Max(0, w.creditLimit-balance-future)))
	cd.MinimumPayment = fp(money(balance * 0.15))
	used := money(balance + future)
	cd.DisaggregatedCreditLimits = []model.DisaggregatedCreditLimit{
		{CreditLineLimitType: "LIMITE_CREDITO_TOTAL", ConsolidationType: "CONSOLIDADO", IdentificationNumber: w.cardLast4,
			IsLimitFlexible: false, UsedAmount: used, UsedAmountCurrencyCode: "BRL", LimitAmount: fp(w.creditLimit), LimitAmountCurrencyCode: sp("BRL"),
			AvailableAmount: fp(money(math.Max(0, w.creditLimit-used))), AvailableAmountCurrencyCode: sp("BRL")},
		{CreditLineLimitType: "LIMITE_CREDITO_MODALIDADE_OPERACAO", ConsolidationType: "INDIVIDUAL", IdentificationNumber: w.cardLast4,
			LineName: sp("SAQUE_CREDITO_BRASIL"), IsLimitFlexible: false, UsedAmount: 0, UsedAmountCurrencyCode: "BRL",
			LimitAmount: fp(money(w.creditLimit * 0.1)), LimitAmountCurrencyCode: sp("BRL"), AvailableAmount: fp(money(w.creditLimit * 0.1)), AvailableAmountCurrencyCode: sp("BRL")},
	}
	return totals
}
