package sandbox

// Values the ordinary scenarios never show, so that a client can see each documented value
// at least once: a user whose card carries every fee type, every otherCreditsType and every
// card operationType; and (connectors.go) sandbox connectors of types INVOICE and OTHER.

import (
	"slices"

	"ponte/model"
)

// EveryValueUser is the user (on connectors 0 and 1, password GoodPassword) whose card
// history adds the rows below to what user-ok would see. Its own world seed gives it its
// own people and amounts; the added rows are the same at every execution.
const EveryValueUser = "user-ok-every-value"

// everyValueRow is one added card row: its operationType, and the fee type or the
// otherCreditsType it carries, with the additional information the interface asks for
// when the value is OTHER.
type everyValueRow struct {
	key, desc, op          string
	amount                 float64
	feeType, otherCredits  string
	additionalInfo         string
	daysAgo, hour, minutes int
}

var everyValueRows = []everyValueRow{
	{key: "fee-atm-domestic", desc: "TARIFA SAQUE NACIONAL", op: "TARIFA", amount: 18.9, feeType: "ATM_WITHDRAWAL_DOMESTIC", daysAgo: 2, hour: 9},
	{key: "fee-atm-international", desc: "TARIFA SAQUE INTERNACIONAL", op: "TARIFA", amount: 36.5, feeType: "ATM_WITHDRAWAL_INTERNATIONAL", daysAgo: 2, hour: 10},
	{key: "fee-emergency-credit", desc: "AVALIACAO EMERGENCIAL DE CREDITO", op: "TARIFA", amount: 22, feeType: "EMERGENCY_CREDIT_EVALUATION", daysAgo: 2, hour: 11},
	{key: "fee-card-reissue", desc: "SEGUNDA VIA DO CARTAO", op: "TARIFA", amount: 12.5, feeType: "CARD_REISSUE", daysAgo: 2, hour: 12},
	{key: "fee-bill-payment", desc: "TARIFA PAGAMENTO DE CONTAS", op: "TARIFA", amount: 4.9, feeType: "BILL_PAYMENT_FEE", daysAgo: 2, hour: 13},
	{key: "fee-sms", desc: "SERVICO DE AVISO POR SMS", op: "TARIFA", amount: 3.5, feeType: "SMS", daysAgo: 2, hour: 14},
	{key: "credit-revolving", desc: "JUROS CREDITO ROTATIVO", op: "OPERACOES_CREDITO_CONTRATADAS_CARTAO", amount: 87.31, otherCredits: "REVOLVING_CREDIT", daysAgo: 3, hour: 9},
	{key: "credit-bill-installment", desc: "PARCELAMENTO DE FATURA 01/06", op: "OPERACOES_CREDITO_CONTRATADAS_CARTAO", amount: 412.77, otherCredits: "BILL_INSTALLMENT", daysAgo: 3, hour: 10},
	{key: "credit-loan", desc: "EMPRESTIMO NO CARTAO 01/10", op: "OPERACOES_CREDITO_CONTRATADAS_CARTAO", amount: 250, otherCredits: "LOAN", daysAgo: 3, hour: 11},
	{key: "credit-other", desc: "SAQUE NO CREDITO", op: "OPERACOES_CREDITO_CONTRATADAS_CARTAO", amount: 300, otherCredits: "OTHER", additionalInfo: "Saque com cartão de crédito", daysAgo: 3, hour: 12},
	{key: "cashback", desc: "CASHBACK PROGRAMA DE PONTOS", op: "CASHBACK", amount: -15.4, daysAgo: 4, hour: 9},
	{key: "other", desc: "AJUSTE DE LANCAMENTO", op: "OUTROS", amount: 9.99, daysAgo: 4, hour: 10},
}

// everyValueCard adds everyValueRows to the card's rows. They fall in the open bill (so they
// are PENDING with its forecast month, as the card's other open rows); the bills and the
// card's figures, computed before, leave them out, so the other rows stay as user-ok's are.
func (g *gen) everyValueCard(p *plan) {
	for _, r := range everyValueRows {
		when := at(g.today.AddDate(0, 0, -r.daysAgo), r.hour, r.minutes)
		t := g.tx(p, "every-value:"+r.key, when, r.desc, r.amount, r.op)
		md := &model.CreditCardMetadata{CardNumber: sp(g.w.cardLast4), BillForecastDate: sp(billMonth(when).Format("2006-01"))}
		if r.feeType != "" {
			md.FeeType = sp(r.feeType)
		}
		if r.otherCredits != "" {
			md.OtherCreditsType = sp(r.otherCredits)
			if r.additionalInfo != "" {
				md.OtherCreditsAdditionalInfo = sp(r.additionalInfo)
			}
		}
		t.CreditCardMetadata, t.Status = md, "PENDING"
		p.rows = append(p.rows, baseRow{t: t, single: true})
	}
	slices.SortStableFunc(p.rows, func(a, b baseRow) int { return a.t.Date.Compare(b.t.Date.Time) })
}
