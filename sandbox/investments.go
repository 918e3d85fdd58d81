package sandbox

// Investments and their transactions.

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"ponte/brdocs"
	"ponte/model"
)

func (g *gen) investments() {
	w := g.w
	rng := rngFor(w.seed, 71)
	month := monthStart(g.today)
	owner := sp(w.holder.name)
	inst := &model.InvestmentInstitution{Name: sp(w.institution.name), Number: sp(brdocs.NewCNPJ(rng))}
	newInv := func(key, typ, sub, name string) model.Investment {
		return model.Investment{ID: g.id("investment", key), ItemID: g.item, Type: typ, Subtype: sp(sub), Name: name, CurrencyCode: "BRL",
			Status: sp("ACTIVE"), Owner: owner, Institution: inst, Date: tp(g.today), CreatedAt: g.ts, UpdatedAt: g.ts,
			Number: sp(fmt.Sprintf("%09d", rng.IntN(1e9)))}
	}
	txn := func(inv *model.Investment, key, typ, mov, desc string, date time.Time, qty, value, amount float64, exp *model.InvestmentExpenses) model.InvestmentTransaction {
		net := amount
		if exp != nil {
			for _, f := range []*float64{exp.BrokerageFee, exp.SettlementFee, exp.StockExchangeFee, exp.IncomeTax, exp.IOF} {
				if f != nil {
					if mov == "CREDIT" {
						net += *f
					} else {
						net -= *f
					}
				}
			}
		}
		return model.InvestmentTransaction{ID: g.id("investment-tx", key), InvestmentID: inv.ID, Type: typ, MovementType: mov,
			Description: sp(desc), Quantity: fp(qty), Value: fp(value), Amount: fp(money(amount)), NetAmount: fp(money(net)),
			Date: model.NewTime(date), TradeDate: tp(date), Expenses: exp, CreatedAt: g.ts, UpdatedAt: g.ts}
	}
	zeroExp := func() *model.InvestmentExpenses {
		return &model.InvestmentExpenses{ServiceTax: fp(0), BrokerageFee: fp(0), IncomeTax: fp(0), Other: fp(0), TradingAssetsNoticeFee: fp(0),
			MaintenanceFee: fp(0), SettlementFee: fp(0), ClearingFee: fp(0), StockExchangeFee: fp(0), CustodyFee: fp(0), OperatingFee: fp(0),
			IOF: fp(0), IOFProvision: fp(0)}
	}

	// CDB at 110% of CDI, bought 14 months ago.
	cdb := newInv("cdb", "FIXED_INCOME", "CDB", "CDB "+upper(w.institution.name)+" 110% CDI")
	bought := at(month.AddDate(0, -14, 4), 10, 0)
	orig := float64(10000 + 1000*rng.IntN(20))
	gross := money(orig * math.Pow(1+0.1065*1.1, 14.0/12))
	profit := money(gross - orig)
	ir := money(profit * 0.175)
	cdb.Code, cdb.IssuerCNPJ, cdb.Issuer = sp("CDB"+strconv.Itoa(20000000+rng.IntN(9e6))), inst.Number, inst.Name
	cdb.Value, cdb.Quantity, cdb.Amount, cdb.Balance = fp(gross), fp(1), fp(gross), money(gross-ir)
	cdb.AmountOriginal, cdb.AmountProfit, cdb.AmountWithdrawal, cdb.Taxes, cdb.Taxes2 = fp(orig), fp(profit), fp(money(gross-ir)), fp(ir), fp(0)
	cdb.IssueDate, cdb.PurchaseDate, cdb.DueDate = tp(bought), tp(bought), tp(bought.AddDate(3, 0, 0))
	cdb.Rate, cdb.RateType, cdb.LastMonthRate, cdb.LastTwelveMonthsRate = fp(110), sp("CDI"), fp(0.96), fp(11.9)
	cdb.Metadata = &model.InvestmentMetadata{TaxRegime: sp("REGRESSIVO")}
	cdbBuy := txn(&cdb, "cdb:buy", "BUY", "CREDIT", "APLICACAO CDB", bought, 1, orig, orig, zeroExp())
	cdbBuy.AgreedRate, cdbBuy.IndexerPercentage = fp(110), fp(110)

	// Tesouro IPCA+ 2035, two purchases.
	tes := newInv("tesouro", "FIXED_INCOME", "TREASURY", "Tesouro IPCA+ 2035")
	price := 2050 + float64(rng.IntN(20000))/100
	q1, q2 := 1.5+float64(rng.IntN(20))/10, 0.5+float64(rng.IntN(10))/10
	d1, d2 := at(month.AddDate(0, -10, 7), 11, 0), at(month.AddDate(0, -4, 7), 11, 0)
	cur := money(price * 1.07)
	tes.Code, tes.ISIN, tes.Issuer, tes.IssuerCNPJ = sp("NTN-B 2035"), sp("BRSTNCNTB4U6"), sp("Tesouro Nacional"), sp("00394460000141")
	tes.Quantity, tes.Value = fp(q1+q2), fp(cur)
	tes.AmountOriginal = fp(money(price*q1 + price*1.03*q2))
	tes.Amount = fp(money(cur * (q1 + q2)))
	tes.AmountProfit = fp(money(*tes.Amount - *tes.AmountOriginal))
	tes.Taxes, tes.Taxes2 = fp(money(*tes.AmountProfit*0.2)), fp(0)
	tes.Balance = money(*tes.Amount - *tes.Taxes)
	tes.AmountWithdrawal = fp(tes.Balance)
	tes.DueDate, tes.PurchaseDate, tes.IssueDate = tp(time.Date(2035, 5, 15, 0, 0, 0, 0, time.UTC)), tp(d1), tp(time.Date(2023, 1, 6, 0, 0, 0, 0, time.UTC))
	tes.RateType, tes.FixedAnnualRate, tes.Rate = sp("IPCA"), fp(6.42), fp(6.42)
	tes.LastMonthRate, tes.LastTwelveMonthsRate = fp(0.71), fp(10.8)
	tes.Institution = &model.InvestmentInstitution{Name: sp("Tesouro Direto"), Number: sp("00394460000141")}
	tesExp := func(v float64) *model.InvestmentExpenses {
		e := zeroExp()
		e.CustodyFee = fp(money(v * 0.002))
		return e
	}
	tes1 := txn(&tes, "tesouro:buy:1", "BUY", "CREDIT", "COMPRA TESOURO IPCA+ 2035", d1, q1, price, price*q1, tesExp(price*q1))
	tes2 := txn(&tes, "tesouro:buy:2", "BUY", "CREDIT", "COMPRA TESOURO IPCA+ 2035", d2, q2, money(price*1.03), price*1.03*q2, tesExp(price*1.03*q2))
	tes1.AgreedRate, tes2.AgreedRate = fp(6.42), fp(6.35)

	// A multimarket fund: buy, partial redemption, and the come-cotas tax.
	fund := newInv("fund", "MUTUAL_FUND", "MULTIMARKET_FUND", "PONTE MACRO FIC FIM")
	fundCNPJ := brdocs.NewCNPJ(rng)
	quota := 1.8 + float64(rng.IntN(9000))/10000
	units := float64(3000+rng.IntN(5000)) + float64(rng.IntN(10000))/10000
	fd1 := at(month.AddDate(0, -11, 12), 14, 0)
	fd2 := at(month.AddDate(0, -3, 12), 14, 0)
	sold := math.Round(units*0.2*10000) / 10000
	nowQuota := math.Round(quota*1.12*1e6) / 1e6
	fund.Code, fund.IssuerCNPJ, fund.Issuer = sp(fundCNPJ), sp(fundCNPJ), sp("Ponte Asset Management")
	fund.Quantity, fund.Value = fp(units-sold), fp(nowQuota)
	fund.Amount = fp(money((units - sold) * nowQuota))
	fund.AmountOriginal = fp(money((units - sold) * quota))
	fund.AmountProfit = fp(money(*fund.Amount - *fund.AmountOriginal))
	fund.Taxes, fund.Taxes2 = fp(money(*fund.AmountProfit*0.15)), fp(0)
	fund.Balance = money(*fund.Amount - *fund.Taxes)
	fund.AmountWithdrawal = fp(fund.Balance)
	fund.PurchaseDate = tp(fd1)
	fund.AnnualRate, fund.LastMonthRate, fund.LastTwelveMonthsRate = fp(9.8), fp(0.84), fp(12.0)
	fund.Metadata = &model.InvestmentMetadata{TaxRegime: sp("LONGO_PRAZO")}
	fundBuy := txn(&fund, "fund:buy", "BUY", "CREDIT", "APLICACAO FUNDO PONTE MACRO", fd1, units, quota, units*quota, zeroExp())
	sellValue := money(quota * 1.09)
	sellGain := money(sold * (sellValue - quota))
	sellExp := zeroExp()
	sellExp.IncomeTax = fp(money(sellGain * 0.15))
	fundSell := txn(&fund, "fund:sell", "SELL", "DEBIT", "RESGATE FUNDO PONTE MACRO", fd2, sold, sellValue, sold*sellValue, sellExp)
	comeCotas := time.Date(g.today.Year(), time.May, 31, 18, 0, 0, 0, time.UTC)
	if !comeCotas.Before(g.today) {
		comeCotas = comeCotas.AddDate(-1, 6, 0) // last November
	}
	taxExp := zeroExp()
	taxAmount := money(units * quota * 0.012)
	taxExp.IncomeTax = fp(taxAmount)
	fundTax := txn(&fund, "fund:tax", "TAX", "DEBIT", "COME-COTAS IR", comeCotas, 0, 0, taxAmount, nil)
	fundTax.Quantity, fundTax.Value, fundTax.Expenses = nil, nil, taxExp
	fundTax.NetAmount = fp(taxAmount)

	// Stocks.
	var invs []model.Investment
	var txs []model.InvestmentTransaction
	invs = append(invs, cdb, tes, fund)
	txs = append(txs, cdbBuy, tes1, tes2, fundBuy, fundSell, fundTax)
	for i, s := range []struct{ ticker, name, isin, issuer string }{
		{"PETR4", "PETROBRAS PN", "BRPETRACNPR6", "Petróleo Brasileiro S.A. - Petrobras"},
		{"ITUB4", "ITAUUNIBANCO PN", "BRITUBACNPR1", "Itaú Unibanco Holding S.A."},
	} {
		st := newInv("stock:"+s.ticker, "EQUITY", "STOCK", s.name)
		qty := float64(100 * (1 + rng.IntN(5)))
		cost := 25 + float64(rng.IntN(1500))/100
		last := money(cost * (0.95 + float64(rng.IntN(30))/100))
		bd := at(month.AddDate(0, -9+i*2, 15), 13, 30)
		st.Code, st.ISIN, st.Issuer, st.IssuerCNPJ = sp(s.ticker), sp(s.isin), sp(s.issuer), sp(brdocs.NewCNPJ(rng))
		st.Quantity, st.Value = fp(qty), fp(last)
		st.Amount, st.AmountOriginal = fp(money(qty*last)), fp(money(qty*cost))
		st.AmountProfit = fp(money(*st.Amount - *st.AmountOriginal))
		st.Balance = *st.Amount
		st.AmountWithdrawal = fp(st.Balance)
		st.Taxes, st.Taxes2 = fp(0), fp(0)
		st.PurchaseDate = tp(bd)
		st.Institution = &model.InvestmentInstitution{Name: sp("Corretora Horizonte"), Number: sp(brdocs.NewCNPJ(rng))}
		gross := qty * cost
		exp := zeroExp()
		exp.SettlementFee, exp.StockExchangeFee = fp(money(gross*0.00025)), fp(money(gross*0.00005))
		buy := txn(&st, "stock:"+s.ticker+":buy", "BUY", "CREDIT", "COMPRA "+s.ticker, bd, qty, cost, gross, exp)
		buy.BrokerageNumber = sp(strconv.Itoa(100000 + rng.IntN(900000)))
		buy.PriceFactor = fp(1)
		invs = append(invs, st)
		txs = append(txs, buy)
	}
	g.snap.Investments = invs
	g.snap.InvestmentTransactions = txs
}
