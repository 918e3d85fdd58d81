package sandbox

// The accounts an execution collects and their monthly statements.

import (
	"ponte/model"
)

func (g *gen) bankAccount(key, subtype, name, account string) *model.Account {
	w := g.w
	number := w.holder.branch + "/" + account
	a := &model.Account{
		ID: g.id("account", key), ItemID: g.item, Type: "BANK", Subtype: subtype, Number: number, Name: name,
		Owner: sp(w.holder.name), TaxNumber: sp(w.holder.doc), CurrencyCode: "BRL", CreatedAt: g.ts, UpdatedAt: g.ts,
		BankData: &model.BankData{TransferNumber: sp(number)},
	}
	if subtype == "CHECKING_ACCOUNT" {
		a.MarketingName = sp(upper(w.institution.name) + " CONTA MAX")
		limit := 2000.0
		if key != "checking-1" {
			limit = 500
		}
		a.BankData.OverdraftContractedLimit = fp(limit)
		a.BankData.OverdraftUsedLimit, a.BankData.UnarrangedOverdraftAmount = fp(0), fp(0)
		a.BankData.AutomaticallyInvestedBalance = fp(money(4000 + float64(mix(w.seed, uint64(monthIndex(g.today)), 21)%1200000)/100))
		if key == "checking-1" {
			reserved := money(1500 + float64(mix(w.seed, 22)%500000)/100)
			a.BankData.HasReservedBalance = bp(true)
			a.BankData.ReservedBalances = []map[string]any{{
				"name": "Caixinha Viagem", "identification": g.id("reserved-balance", key).String(),
				"availableAmounts": []map[string]any{{"amount": reserved, "currencyCode": "BRL", "remuneration": map[string]any{
					"preFixedRate": nil, "postFixedIndexerPercentage": 1.0, "rateType": "LINEAR", "indexer": "CDI",
					"calculation": "DIAS_UTEIS", "ratePeriodicity": "ANUAL", "indexerAdditionalInfo": nil}}},
			}}
		} else {
			a.BankData.HasReservedBalance = bp(false)
		}
	} else {
		a.MarketingName = sp("POUPANCA " + upper(w.institution.name))
		a.BankData.AutomaticallyInvestedBalance = fp(0)
		a.BankData.HasReservedBalance = bp(false)
	}
	return a
}

func (g *gen) cardAccount() *model.Account {
	w := g.w
	a := &model.Account{
		ID: g.id("account", "card"), ItemID: g.item, Type: "CREDIT", Subtype: "CREDIT_CARD", Number: w.cardLast4,
		Name: "Mastercard Black", MarketingName: sp(upper(w.institution.name) + " MASTERCARD BLACK"), Owner: sp(w.holder.name),
		TaxNumber: sp(w.holder.doc), CurrencyCode: "BRL", CreatedAt: g.ts, UpdatedAt: g.ts,
		CreditData: &model.CreditData{Level: sp("BLACK"), Brand: sp("MASTERCARD"), CreditLimit: fp(w.creditLimit),
			IsLimitFlexible: bp(false), Status: sp("ACTIVE"), HolderType: sp("MAIN"), BalanceForeignCurrency: fp(0),
			AdditionalCards: []model.AdditionalCard{{Number: "************" + w.additionalLast4, Holder: w.spouse.name}}},
	}
	return a
}

func (g *gen) statements(accounts []*plan) {
	for _, p := range accounts {
		acc := p.acc
		for m := 1; m <= 12; m++ {
			month := monthStart(g.today).AddDate(0, -m, 0)
			id := g.id("statement", acc.ID.String()+":"+month.Format("2006-01"))
			g.snap.Statements = append(g.snap.Statements, model.AccountStatement{ID: id, AccountID: acc.ID,
				MonthYear: month.Format("01/2006"), URL: "/accounts/" + acc.ID.String() + "/statements/" + id.String() + ".pdf", Date: model.NewTime(month)})
		}
	}
}
