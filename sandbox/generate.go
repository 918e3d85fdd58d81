package sandbox

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// Snapshot is everything one execution collects.
type Snapshot struct {
	Accounts               []model.Account
	Transactions           []model.Transaction
	Investments            []model.Investment
	InvestmentTransactions []model.InvestmentTransaction
	Identity               *model.Identity
	Loans                  []model.Loan
	Bills                  []model.CreditCardBill
	Statements             []model.AccountStatement
}

// historyDays is how far back an execution reads.
const historyDays = 365

// maxPerf caps the history multiplier of user-ok-perf-N.
const maxPerf = 5000

func seedOf(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		_, _ = h.Write([]byte(p))
		_, _ = h.Write([]byte{0})
	}
	return h.Sum64()
}

func sp(s string) *string        { return &s }
func fp(f float64) *float64      { return &f }
func ip(i int) *int              { return &i }
func bp(b bool) *bool            { return &b }
func tp(t time.Time) *model.Time { v := model.NewTime(t); return &v }

func money(f float64) float64 { return math.Round(f*100) / 100 }

// perfMultiplier reads N of user-ok-perf-N.
func perfMultiplier(username string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(username, "user-ok-perf-"))
	if err != nil || !strings.HasPrefix(username, "user-ok-perf-") || n < 1 {
		return 1
	}
	return min(n, maxPerf)
}

type merchant struct {
	name, business, cnpj, cnae, category string
	mcc                                  int
	min, max                             float64
}

type person struct{ name, cpf, bank, ispb, branch, account string }

var merchantSeeds = []struct {
	name, business, cnae, category string
	mcc                            int
	min, max                       float64
}{
	{"IFOOD *RESTAURANTE SABOR", "IFOOD.COM AGENCIA DE RESTAURANTES ONLINE S.A.", "7319-0/02", "Delivery", 5812, 25, 120},
	{"UBER *TRIP", "UBER DO BRASIL TECNOLOGIA LTDA.", "8299-7/99", "Transporte", 4121, 12, 60},
	{"SUPERMERCADO PAO DE ACUCAR", "COMPANHIA BRASILEIRA DE DISTRIBUICAO", "4711-3/01", "Supermercado", 5411, 60, 450},
	{"DROGASIL 1234", "RAIA DROGASIL S.A.", "4771-7/01", "Farmacia", 5912, 15, 180},
	{"POSTO IPIRANGA AV BRASIL", "IPIRANGA PRODUTOS DE PETROLEO S.A.", "4731-8/00", "Combustivel", 5541, 80, 300},
	{"NETFLIX.COM", "NETFLIX ENTRETENIMENTO BRASIL LTDA.", "5911-1/99", "Streaming", 5815, 39.9, 55.9},
	{"SPOTIFY", "SPOTIFY BRASIL SERVICOS DE MUSICA LTDA.", "5920-1/00", "Streaming", 5815, 21.9, 34.9},
	{"AMAZON MARKETPLACE", "AMAZON SERVICOS DE VAREJO DO BRASIL LTDA.", "4713-0/04", "Compras online", 5999, 30, 600},
	{"MERCADOLIVRE*VENDEDOR", "EBAZAR.COM.BR LTDA", "4713-0/04", "Compras online", 5999, 20, 500},
	{"RENNER SHOPPING", "LOJAS RENNER S.A.", "4781-4/00", "Vestuario", 5651, 60, 400},
	{"PADARIA REAL", "PANIFICADORA REAL LTDA", "1091-1/02", "Padaria", 5462, 8, 45},
	{"STARBUCKS PAULISTA", "SBF COMERCIO DE CAFES LTDA", "5611-2/03", "Cafeteria", 5814, 15, 45},
	{"OUTBACK STEAKHOUSE", "BLOOMIN BRANDS BRASIL LTDA", "5611-2/01", "Restaurante", 5812, 90, 320},
	{"SMART FIT", "SMARTFIT ESCOLA DE GINASTICA E DANCA S.A.", "9313-1/00", "Academia", 7997, 99.9, 149.9},
	{"LATAM AIRLINES", "TAM LINHAS AEREAS S.A.", "5111-1/00", "Viagem", 4511, 350, 1800},
	{"KABUM", "KABUM COMERCIO ELETRONICO S.A.", "4751-2/01", "Eletronicos", 5732, 80, 2500},
	{"PETZ", "PET CENTER COMERCIO E PARTICIPACOES S.A.", "4789-0/04", "Pet shop", 5995, 40, 300},
	{"CINEMARK", "CINEMARK BRASIL S.A.", "5914-6/00", "Lazer", 7832, 30, 90},
	{"ESTAPAR", "ALLPARK EMPREENDIMENTOS PARTICIPACOES E SERVICOS S.A.", "5223-1/00", "Estacionamento", 7523, 10, 45},
	{"SEM PARAR", "S.A. SEM PARAR INSTITUICAO DE PAGAMENTO", "5221-4/00", "Pedagio", 4784, 15, 120},
}

var firstNames = []string{"Ana", "Bruno", "Carla", "Diego", "Eduarda", "Felipe", "Gabriela", "Henrique", "Isabela", "João", "Larissa", "Marcos", "Natália", "Otávio", "Patrícia", "Rafael", "Sabrina", "Thiago", "Vanessa", "William"}
var lastNames = []string{"Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima", "Gomes", "Costa", "Ribeiro", "Martins", "Carvalho", "Almeida"}
var banks = []struct{ name, compe, ispb string }{
	{"Itaú Unibanco", "341", "60701190"}, {"Bradesco", "237", "60746948"}, {"Banco do Brasil", "001", "00000000"},
	{"Caixa Econômica Federal", "104", "00360305"}, {"Santander", "033", "90400888"}, {"Nubank", "260", "18236120"},
	{"Banco Inter", "077", "00416968"},
}

func newPerson(rng *rand.Rand) person {
	b := banks[rng.IntN(len(banks))]
	return person{
		name: firstNames[rng.IntN(len(firstNames))] + " " + lastNames[rng.IntN(len(lastNames))] + " " + lastNames[rng.IntN(len(lastNames))],
		cpf:  NewCPF(rng), bank: b.compe, ispb: b.ispb,
		branch: fmt.Sprintf("%04d", 1+rng.IntN(9000)), account: fmt.Sprintf("%d-%d", 10000+rng.IntN(900000), rng.IntN(10)),
	}
}

// world is what stays the same for a set of credentials: the holder, counterparts, merchants.
type world struct {
	seed      uint64
	holder    person
	employer  merchant
	landlord  person
	contacts  []person
	merchants []merchant
	name      string
}

func newWorld(connectorID int, username string) *world {
	seed := seedOf(strconv.Itoa(connectorID), strings.TrimPrefix(strings.TrimPrefix(username, "user-ok-perf-"), "x"))
	if strings.HasPrefix(username, "user-ok-perf-") {
		seed = seedOf(strconv.Itoa(connectorID), "user-ok")
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	w := &world{seed: seed, holder: newPerson(rng), landlord: newPerson(rng)}
	w.name = w.holder.name
	w.employer = merchant{name: "ACME TECNOLOGIA LTDA", business: "ACME TECNOLOGIA LTDA", cnpj: NewCNPJ(rng), cnae: "6201-5/01"}
	for i := 0; i < 12; i++ {
		w.contacts = append(w.contacts, newPerson(rng))
	}
	for _, m := range merchantSeeds {
		w.merchants = append(w.merchants, merchant{m.name, m.business, NewCNPJ(rng), m.cnae, m.category, m.mcc, m.min, m.max})
	}
	return w
}

// Generate makes the snapshot an execution collects. It depends only on its arguments:
// ids derive from the item and a stable key, amounts and counterparts from the connector
// and username, so repeating an execution yields identical rows.
func Generate(itemID uuid.UUID, connectorID int, username string, execution int, now time.Time) *Snapshot {
	w := newWorld(connectorID, username)
	g := &gen{item: itemID, w: w, now: now.UTC(), exec: max(execution, 1)}
	return g.run(perfMultiplier(username), username == "user-ok-two-checking-accounts")
}

type gen struct {
	item uuid.UUID
	w    *world
	now  time.Time
	exec int
	snap Snapshot
}

func (g *gen) id(kind, key string) uuid.UUID {
	return uuid.NewSHA1(g.item, []byte(kind+":"+key))
}

func (g *gen) run(perf int, twoChecking bool) *Snapshot {
	today := time.Date(g.now.Year(), g.now.Month(), g.now.Day(), 0, 0, 0, 0, time.UTC)
	checking := g.account("checking-1", "BANK", "CHECKING_ACCOUNT", "Conta Corrente", 1)
	accounts := []*model.Account{checking}
	if twoChecking {
		accounts = append(accounts, g.account("checking-2", "BANK", "CHECKING_ACCOUNT", "Conta Corrente Conjunta", 2))
	}
	savings := g.account("savings", "BANK", "SAVINGS_ACCOUNT", "Poupança", 3)
	card := g.account("card", "CREDIT", "CREDIT_CARD", "Mastercard Black", 4)

	for _, acc := range accounts {
		g.checkingHistory(acc, today, perf)
	}
	g.savingsHistory(savings, today)
	g.cardHistory(card, today)
	for _, a := range append(accounts, savings, card) {
		g.snap.Accounts = append(g.snap.Accounts, *a)
	}
	g.investments(today)
	g.identity()
	g.loans(today)
	g.statements(accounts, today)
	return &g.snap
}

func (g *gen) account(key, typ, subtype, name string, n int) *model.Account {
	t := model.NewTime(g.now)
	a := &model.Account{
		ID: g.id("account", key), ItemID: g.item, Type: typ, Subtype: subtype, Name: name,
		MarketingName: sp(name + " " + []string{"Exclusive", "Personnalité", "Prime", "Ultravioleta"}[int(g.w.seed%4)]),
		Owner:         sp(g.w.name), TaxNumber: sp(g.w.holder.cpf), CurrencyCode: "BRL", CreatedAt: t, UpdatedAt: t,
	}
	if typ == "BANK" {
		a.Number = fmt.Sprintf("%s/%s", g.w.holder.branch, g.w.holder.account[:len(g.w.holder.account)-2]+strconv.Itoa(n))
		a.BankData = &model.BankData{
			TransferNumber: sp(fmt.Sprintf("%s/%s", g.w.holder.branch, a.Number[5:])), AutomaticallyInvestedBalance: fp(0),
			OverdraftContractedLimit: fp(2000), OverdraftUsedLimit: fp(0), UnarrangedOverdraftAmount: fp(0),
			HasReservedBalance: bp(false), ReservedBalances: []map[string]any{},
		}
	} else {
		a.Number = "5162" + fmt.Sprintf("%04d", int(g.w.seed%10000))
		close := time.Date(g.now.Year(), g.now.Month(), 3, 0, 0, 0, 0, time.UTC)
		a.CreditData = &model.CreditData{
			Level: sp("BLACK"), Brand: sp("MASTERCARD"), BalanceCloseDate: tp(close), BalanceDueDate: tp(close.AddDate(0, 0, 7)),
			CreditLimit: fp(15000), AvailableCreditLimit: fp(15000), BalanceForeignCurrency: fp(0), MinimumPayment: fp(0),
			IsLimitFlexible: bp(false), Status: sp("ACTIVE"), HolderType: sp("MAIN"),
			DisaggregatedCreditLimits: []model.DisaggregatedCreditLimit{
				{CreditLineLimitType: "LIMITE_CREDITO_TOTAL", ConsolidationType: "CONSOLIDADO", IdentificationNumber: a.Number[len(a.Number)-4:], IsLimitFlexible: false, UsedAmount: 0, UsedAmountCurrencyCode: "BRL", LineName: sp("CREDITO_A_VISTA"), LimitAmount: fp(15000), LimitAmountCurrencyCode: sp("BRL"), AvailableAmount: fp(15000), AvailableAmountCurrencyCode: sp("BRL")},
				{CreditLineLimitType: "LIMITE_CREDITO_MODALIDADE_OPERACAO", ConsolidationType: "INDIVIDUAL", IdentificationNumber: a.Number[len(a.Number)-4:], IsLimitFlexible: false, UsedAmount: 0, UsedAmountCurrencyCode: "BRL", LineName: sp("SAQUE_CREDITO_BRASIL"), LimitAmount: fp(1500), LimitAmountCurrencyCode: sp("BRL"), AvailableAmount: fp(1500), AvailableAmountCurrencyCode: sp("BRL")},
			},
			AdditionalCards: []model.AdditionalCard{{Number: "5162********" + fmt.Sprintf("%04d", int(g.w.seed>>8%10000)), Holder: g.w.contacts[0].name}},
		}
	}
	return a
}

// tx builds one transaction; sign follows the official client: debits are negative.
func (g *gen) tx(acc *model.Account, key string, date time.Time, desc string, amount float64, op string) model.Transaction {
	t := model.Transaction{
		ID: g.id("tx", acc.ID.String()+":"+key), AccountID: acc.ID, Date: model.NewTime(date), Description: desc,
		DescriptionRaw: sp(desc), Amount: money(amount), CurrencyCode: "BRL", Status: "POSTED",
		CreatedAt: model.NewTime(g.now), UpdatedAt: model.NewTime(g.now),
	}
	if amount < 0 {
		t.Type = "DEBIT"
	} else {
		t.Type = "CREDIT"
	}
	if op != "" {
		t.OperationType = sp(op)
	}
	t.ProviderID = sp(strings.ReplaceAll(t.ID.String()[:18], "-", ""))
	return t
}

func (g *gen) participant(p person) *model.PaymentParticipant {
	return &model.PaymentParticipant{DocumentNumber: &model.Document{Type: "CPF", Value: p.cpf}, Name: sp(p.name),
		AccountNumber: sp(p.account), BranchNumber: sp(p.branch), RoutingNumber: sp(p.bank), RoutingNumberISPB: sp(p.ispb)}
}

func (g *gen) holderParticipant() *model.PaymentParticipant { return g.participant(g.w.holder) }

// checkingHistory writes a year of a checking account: salary, bills, transfers and
// purchases, day by day from a per-day seed, so a given day always holds the same rows
// whichever day the execution runs. perf copies each day's movements perf times.
func (g *gen) checkingHistory(acc *model.Account, today time.Time, perf int) {
	start := today.AddDate(0, 0, -historyDays)
	// Rows go straight into the snapshot, grown once: at user-ok-perf-5000 the history is
	// millions of rows, and regrowing or copying it would cost more than making it.
	if need := len(g.snap.Transactions) + (historyDays+1)*2*perf; cap(g.snap.Transactions) < need {
		grown := make([]model.Transaction, len(g.snap.Transactions), need+2000)
		copy(grown, g.snap.Transactions)
		g.snap.Transactions = grown
	}
	first := len(g.snap.Transactions)
	for day := start; !day.After(today); day = day.AddDate(0, 0, 1) {
		dayKey := day.Format("2006-01-02")
		rng := rand.New(rand.NewPCG(g.w.seed, uint64(day.Unix())))
		var todays []model.Transaction
		add := func(t model.Transaction) { todays = append(todays, t) }
		at := func(h int) time.Time {
			return day.Add(time.Duration(h)*time.Hour + time.Duration(rng.IntN(3600))*time.Second)
		}
		if day.Day() == 5 {
			t := g.tx(acc, dayKey+":salary", at(8), "SALARIO "+g.w.employer.name, 8500+float64(rng.IntN(300)), "TRANSFERENCIA_MESMA_INSTITUICAO")
			t.PaymentData = &model.PaymentData{Payer: &model.PaymentParticipant{DocumentNumber: &model.Document{Type: "CNPJ", Value: g.w.employer.cnpj}, Name: sp(g.w.employer.name)}, Receiver: g.holderParticipant(), PaymentMethod: sp("TED")}
			add(t)
		}
		if day.Day() == 10 {
			t := g.tx(acc, dayKey+":rent", at(9), "PIX ENVIADO "+strings.ToUpper(g.w.landlord.name)+" ALUGUEL", -2800, "PIX")
			t.PaymentData = &model.PaymentData{Payer: g.holderParticipant(), Receiver: g.participant(g.w.landlord), PaymentMethod: sp("PIX"), Reason: sp("Aluguel")}
			add(t)
			add(g.tx(acc, dayKey+":condo", at(10), "PAGAMENTO DE TITULO CONDOMINIO EDIFICIO AURORA", -650-float64(rng.IntN(80)), "BOLETO"))
		}
		if day.Day() == 15 {
			add(g.tx(acc, dayKey+":energy", at(7), "PAGTO ELETRON ENEL SP", -(140 + float64(rng.IntN(120))), "BOLETO"))
			add(g.tx(acc, dayKey+":water", at(7), "PAGTO ELETRON SABESP", -(60 + float64(rng.IntN(50))), "BOLETO"))
			add(g.tx(acc, dayKey+":internet", at(8), "DEB AUT VIVO FIBRA", -129.9, "DEBITO_AUTOMATICO"))
		}
		if day.Day() == 1 {
			t := g.tx(acc, dayKey+":fee", at(2), "TARIFA PACOTE SERVICOS", -39.9, "TARIFA_SERVICOS")
			add(t)
		}
		if day.Day() == 12 {
			add(g.tx(acc, dayKey+":card-bill", at(9), "PAGAMENTO FATURA CARTAO MASTERCARD", -(1500 + float64(rng.IntN(1500))), "PAGAMENTO_FATURA"))
		}
		// Everyday movements: about one a day.
		for n := rng.IntN(3); n > 0; n-- {
			i := len(todays)
			switch k := rng.IntN(10); {
			case k < 3:
				c := g.w.contacts[rng.IntN(len(g.w.contacts))]
				t := g.tx(acc, fmt.Sprintf("%s:pix-out:%d", dayKey, i), at(9+rng.IntN(12)), "PIX ENVIADO "+strings.ToUpper(c.name), -float64(10+rng.IntN(400)), "PIX")
				t.PaymentData = &model.PaymentData{Payer: g.holderParticipant(), Receiver: g.participant(c), PaymentMethod: sp("PIX")}
				add(t)
			case k < 5:
				c := g.w.contacts[rng.IntN(len(g.w.contacts))]
				t := g.tx(acc, fmt.Sprintf("%s:pix-in:%d", dayKey, i), at(9+rng.IntN(12)), "PIX RECEBIDO "+strings.ToUpper(c.name), float64(20+rng.IntN(300)), "PIX")
				t.PaymentData = &model.PaymentData{Payer: g.participant(c), Receiver: g.holderParticipant(), PaymentMethod: sp("PIX")}
				add(t)
			case k < 6:
				c := g.w.contacts[rng.IntN(len(g.w.contacts))]
				t := g.tx(acc, fmt.Sprintf("%s:ted:%d", dayKey, i), at(10+rng.IntN(6)), "TED ENVIADA "+c.bank+" "+strings.ToUpper(c.name), -float64(200+rng.IntN(3000)), "TED")
				t.PaymentData = &model.PaymentData{Payer: g.holderParticipant(), Receiver: g.participant(c), PaymentMethod: sp("TED")}
				add(t)
			default:
				m := g.w.merchants[rng.IntN(len(g.w.merchants))]
				t := g.tx(acc, fmt.Sprintf("%s:debit:%d", dayKey, i), at(8+rng.IntN(14)), m.name, -(m.min + rng.Float64()*(m.max-m.min)), "CARTAO")
				t.Merchant = &model.Merchant{Name: m.name, BusinessName: m.business, CNPJ: m.cnpj, CNAE: sp(m.cnae), Category: sp(m.category)}
				t.CreditCardMetadata = &model.CreditCardMetadata{PayeeMCC: ip(m.mcc), CardNumber: sp(acc.Number[len(acc.Number)-4:])}
				add(t)
			}
		}
		if day.Equal(today) {
			for i := range todays {
				todays[i].Status = "PENDING"
			}
			todays = append(todays, g.executionExtras(acc, today)...)
		}
		for copyN := 0; copyN < perf; copyN++ {
			for _, t := range todays {
				if copyN > 0 {
					t.ID = perfID(t.ID, copyN)
				}
				g.snap.Transactions = append(g.snap.Transactions, t)
			}
		}
	}
	// Running balance, oldest first, ending at the account's balance. One backing array
	// holds every balance, instead of a small allocation per row.
	list := g.snap.Transactions[first:]
	balances := make([]float64, len(list))
	balance := 12000.0
	for i := range list {
		balance = money(balance + list[i].Amount)
		balances[i] = balance
		list[i].Balance = &balances[i]
	}
	acc.Balance = fp(balance)
	acc.BankData.ClosingBalance = fp(balance)
}

// executionExtras are what each later execution adds on the current day: three new
// pending rows per execution; the previous execution's rows become posted, and its third
// row disappears, as an institution drops a pending authorisation.
func (g *gen) executionExtras(acc *model.Account, today time.Time) []model.Transaction {
	var out []model.Transaction
	for k := 2; k <= g.exec; k++ {
		for i := 0; i < 3; i++ {
			if k < g.exec && i == 2 {
				continue
			}
			m := g.w.merchants[(k*3+i)%len(g.w.merchants)]
			t := g.tx(acc, fmt.Sprintf("exec:%d:%d", k, i), today.Add(time.Duration(12+i)*time.Hour), m.name, -(m.min + float64(k+i)), "CARTAO")
			t.Merchant = &model.Merchant{Name: m.name, BusinessName: m.business, CNPJ: m.cnpj, CNAE: sp(m.cnae), Category: sp(m.category)}
			t.CreditCardMetadata = &model.CreditCardMetadata{PayeeMCC: ip(m.mcc)}
			if k == g.exec {
				t.Status = "PENDING"
			}
			out = append(out, t)
		}
	}
	return out
}

func (g *gen) savingsHistory(acc *model.Account, today time.Time) {
	balance := 25000.0
	start := today.AddDate(0, 0, -historyDays)
	for m := 0; m <= 12; m++ {
		day := time.Date(start.Year(), start.Month()+time.Month(m), 1, 6, 0, 0, 0, time.UTC)
		if day.Before(start) || day.After(today) {
			continue
		}
		y := money(balance * 0.005)
		balance += y
		t := g.tx(acc, day.Format("2006-01")+":yield", day, "RENDIMENTO POUPANCA", y, "RENDIMENTO")
		t.Balance = fp(money(balance))
		g.snap.Transactions = append(g.snap.Transactions, t)
	}
	acc.Balance = fp(money(balance))
	acc.BankData.ClosingBalance = acc.Balance
}

// cardHistory writes a year of card purchases, some in installments, and a bill per month
// whose total is the sum of its purchases.
func (g *gen) cardHistory(acc *model.Account, today time.Time) {
	start := today.AddDate(0, 0, -historyDays)
	totals := map[string]float64{}
	billID := func(d time.Time) (string, time.Time) {
		// Purchases after the 3rd close into next month's bill, due on the 10th.
		due := time.Date(d.Year(), d.Month(), 10, 0, 0, 0, 0, time.UTC)
		if d.Day() > 3 {
			due = due.AddDate(0, 1, 0)
		}
		return g.id("bill", due.Format("2006-01")).String(), due
	}
	for day := start; !day.After(today); day = day.AddDate(0, 0, 1) {
		rng := rand.New(rand.NewPCG(g.w.seed^0x9e3779b97f4a7c15, uint64(day.Unix())))
		if rng.IntN(5) > 1 {
			continue
		}
		m := g.w.merchants[rng.IntN(len(g.w.merchants))]
		amount := m.min + rng.Float64()*(m.max-m.min)
		installments := 1
		if amount > 400 && rng.IntN(2) == 0 {
			installments = 2 + rng.IntN(9)
		}
		for n := 1; n <= installments; n++ {
			when := day.AddDate(0, n-1, 0)
			if when.After(today) {
				break
			}
			bid, _ := billID(when)
			part := money(amount / float64(installments))
			desc := m.name
			if installments > 1 {
				desc = fmt.Sprintf("%s %02d/%02d", m.name, n, installments)
			}
			t := g.tx(acc, fmt.Sprintf("%s:%d", day.Format("2006-01-02"), n), when.Add(time.Duration(10+rng.IntN(10))*time.Hour), desc, -part, "CARTAO")
			t.Merchant = &model.Merchant{Name: m.name, BusinessName: m.business, CNPJ: m.cnpj, CNAE: sp(m.cnae), Category: sp(m.category)}
			t.CreditCardMetadata = &model.CreditCardMetadata{PayeeMCC: ip(m.mcc), CardNumber: sp(acc.Number[len(acc.Number)-4:]),
				BillID: sp(bid), PurchaseDate: tp(day)}
			if installments > 1 {
				t.CreditCardMetadata.InstallmentNumber, t.CreditCardMetadata.TotalInstallments = ip(n), ip(installments)
				t.CreditCardMetadata.TotalAmount = fp(money(amount))
			}
			if when.Equal(today) || today.Sub(when) < 24*time.Hour {
				t.Status = "PENDING"
			}
			totals[bid] += part
			g.snap.Transactions = append(g.snap.Transactions, t)
		}
	}
	used := 0.0
	for m := 0; m <= 13; m++ {
		due := time.Date(start.Year(), start.Month()+time.Month(m), 10, 0, 0, 0, 0, time.UTC)
		bid := g.id("bill", due.Format("2006-01"))
		total := money(totals[bid.String()])
		if total == 0 {
			continue
		}
		closing := due.AddDate(0, 0, -7)
		var payments []map[string]any
		if due.Before(today) {
			payments = []map[string]any{{"id": g.id("bill-payment", bid.String()).String(), "valueType": "FULL_PAYMENT",
				"paymentDate": model.NewTime(due), "paymentMode": "DEBIT_ACCOUNT", "amount": total, "currencyCode": "BRL"}}
		} else {
			used += total
		}
		g.snap.Bills = append(g.snap.Bills, model.CreditCardBill{ID: bid, AccountID: acc.ID, DueDate: model.NewTime(due),
			BillClosingDate: tp(closing), TotalAmount: total, TotalAmountCurrencyCode: "BRL", MinimumPaymentAmount: fp(money(total * 0.15)),
			AllowsInstallments: bp(true), FinanceCharges: []map[string]any{}, Payments: nonNilMaps(payments),
			CreatedAt: model.NewTime(g.now), UpdatedAt: model.NewTime(g.now)})
	}
	acc.Balance = fp(money(used))
	acc.CreditData.AvailableCreditLimit = fp(money(15000 - used))
	acc.CreditData.MinimumPayment = fp(money(used * 0.15))
	acc.CreditData.DisaggregatedCreditLimits[0].UsedAmount = money(used)
	acc.CreditData.DisaggregatedCreditLimits[0].AvailableAmount = fp(money(15000 - used))
}

func nonNilMaps(m []map[string]any) []map[string]any {
	if m == nil {
		return []map[string]any{}
	}
	return m
}

func (g *gen) investments(today time.Time) {
	rng := rand.New(rand.NewPCG(g.w.seed, 99))
	specs := []struct{ key, typ, sub, name, code, issuer, rateType string }{
		{"cdb", "FIXED_INCOME", "CDB", "CDB Banco Aurora 110% CDI", "CDB-AUR-2027", "Banco Aurora S.A.", "CDI"},
		{"tesouro", "FIXED_INCOME", "TREASURY", "Tesouro IPCA+ 2035", "NTNB-2035", "Tesouro Nacional", "IPCA"},
		{"fund", "MUTUAL_FUND", "MULTIMARKET_FUND", "Horizonte Multimercado FIC FIM", "HZMM11", "Horizonte Asset", ""},
		{"stock", "EQUITY", "STOCK", "PETROBRAS PN", "PETR4", "Petróleo Brasileiro S.A.", ""},
	}
	for _, s := range specs {
		inv := model.Investment{ID: g.id("investment", s.key), ItemID: g.item, Code: sp(s.code), Type: s.typ, Subtype: sp(s.sub),
			Name: s.name, CurrencyCode: "BRL", Issuer: sp(s.issuer), IssuerCNPJ: sp(NewCNPJ(rng)), Status: sp("ACTIVE"),
			Owner: sp(g.w.name), Number: sp(fmt.Sprintf("%08d", rng.IntN(1e8))), CreatedAt: model.NewTime(g.now), UpdatedAt: model.NewTime(g.now)}
		inv.Institution = &struct {
			Name   *string `json:"name"`
			Number *string `json:"number"`
		}{sp("Corretora Horizonte"), sp("3")}
		if s.rateType != "" {
			inv.RateType = sp(s.rateType)
			inv.Rate = fp(110)
		}
		bought := today.AddDate(0, -(3 + rng.IntN(9)), 0)
		qty := float64(1 + rng.IntN(200))
		price := 10 + rng.Float64()*90
		invested := money(qty * price)
		profit := money(invested * (0.02 + rng.Float64()*0.1))
		inv.Quantity, inv.Value = fp(qty), fp(money(price*1.05))
		inv.AmountOriginal, inv.AmountProfit = fp(invested), fp(profit)
		inv.Balance = money(invested + profit)
		inv.Amount = fp(inv.Balance)
		inv.PurchaseDate, inv.Date = tp(bought), tp(today)
		if s.typ == "FIXED_INCOME" {
			inv.DueDate, inv.IssueDate = tp(today.AddDate(3, 0, 0)), tp(bought)
			inv.AnnualRate, inv.LastMonthRate, inv.LastTwelveMonthsRate = fp(11.4), fp(0.9), fp(11.2)
		}
		g.snap.Investments = append(g.snap.Investments, inv)
		buy := model.InvestmentTransaction{ID: g.id("investment-tx", s.key+":buy"), InvestmentID: inv.ID, Type: "BUY", MovementType: "CREDIT",
			Description: sp("Aplicação " + s.name), Quantity: fp(qty), Value: fp(money(price)), Amount: fp(invested), NetAmount: fp(invested),
			Date: model.NewTime(bought), TradeDate: tp(bought), BrokerageNumber: sp(fmt.Sprintf("%06d", rng.IntN(1e6))),
			Expenses: map[string]float64{"brokerageFee": 0, "custodyFee": 0}, CreatedAt: model.NewTime(g.now), UpdatedAt: model.NewTime(g.now)}
		tax := model.InvestmentTransaction{ID: g.id("investment-tx", s.key+":tax"), InvestmentID: inv.ID, Type: "TAX", MovementType: "DEBIT",
			Description: sp("IR sobre rendimentos"), Amount: fp(money(profit * 0.15)), NetAmount: fp(money(profit * 0.15)),
			Date: model.NewTime(today.AddDate(0, -1, 0)), Expenses: map[string]float64{"incomeTax": money(profit * 0.15)},
			CreatedAt: model.NewTime(g.now), UpdatedAt: model.NewTime(g.now)}
		g.snap.InvestmentTransactions = append(g.snap.InvestmentTransactions, buy, tax)
	}
}

func (g *gen) identity() {
	rng := rand.New(rand.NewPCG(g.w.seed, 42))
	birth := time.Date(1975+rng.IntN(25), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)
	first := strings.ToLower(strings.Split(g.w.name, " ")[0])
	g.snap.Identity = &model.Identity{
		ID: g.id("identity", "holder"), ItemID: g.item, BirthDate: tp(birth), TaxNumber: sp(g.w.holder.cpf),
		Document: sp(g.w.holder.cpf), DocumentType: sp("CPF"), JobTitle: sp("Analista de Sistemas"),
		CompanyName: sp(g.w.employer.name), FullName: sp(g.w.name),
		PhoneNumbers: []model.Phone{{Type: sp("Personal"), Value: fmt.Sprintf("+55 11 9%04d-%04d", rng.IntN(1e4), rng.IntN(1e4))}},
		Emails:       []model.Email{{Type: sp("Personal"), Value: first + "@example.com.br"}},
		Addresses: []model.Address{{FullAddress: sp("Rua Augusta, 1500, Apto 82, Consolação, São Paulo - SP, 01304-001"),
			PrimaryAddress: sp("Rua Augusta, 1500"), City: sp("São Paulo"), PostalCode: sp("01304-001"), State: sp("SP"),
			Country: sp("Brasil"), Type: sp("Personal"), AdditionalInfo: sp("Apto 82")}},
		Relations:       []model.Relation{{Type: sp("Mother"), Name: sp(g.w.contacts[1].name), Document: sp(g.w.contacts[1].cpf)}},
		InvestorProfile: sp("Moderate"), CreatedAt: model.NewTime(g.now), UpdatedAt: model.NewTime(g.now),
	}
}

func (g *gen) loans(today time.Time) {
	contract := today.AddDate(-1, 0, 0)
	g.snap.Loans = append(g.snap.Loans, model.Loan{
		ID: g.id("loan", "personal"), ItemID: g.item, ContractNumber: sp("CP-" + strconv.FormatUint(g.w.seed%1e8, 10)),
		IPOCCode: sp("60701190" + "0101" + strconv.FormatUint(g.w.seed%1e6, 10)), ProductName: "Crédito Pessoal",
		Type: sp("EMPRESTIMO_CREDITO_PESSOAL_SEM_CONSIGNACAO"), Kind: "LOAN", Date: tp(today), ContractDate: tp(contract),
		DisbursementDates: []model.Time{model.NewTime(contract.AddDate(0, 0, 2))}, ContractAmount: fp(20000), CurrencyCode: "BRL",
		DueDate: tp(contract.AddDate(3, 0, 0)), InstallmentPeriodicity: sp("MONTHLY"), FirstInstallmentDue: tp(contract.AddDate(0, 1, 0)),
		CET: fp(0.3456), AmortizationScheduled: sp("PRICE"),
		InterestRates: []map[string]any{{"taxType": "EFFECTIVE", "interestRateType": "COMPOUND", "taxPeriodicity": "YEARLY",
			"calculation": "21/252", "referentialRateIndexerType": "PRE_FIXADO", "preFixedRate": 0.2599}},
		ContractedFees: []map[string]any{{"name": "Tarifa de cadastro", "code": "CADASTRO", "chargeType": "UNIQUE", "charge": "FIXED", "amount": 350.0}},
		Warranties:     []map[string]any{},
		Installments: map[string]any{"typeNumberOfInstalments": "MONTH", "totalNumberOfInstallments": 36,
			"typeContractRemaining": "MONTH", "contractRemainingNumber": 24, "paidInstallments": 12, "dueInstallments": 24, "pastDueInstallments": 0},
		Payments: map[string]any{"contractOutstandingBalance": 14350.77},
	})
}

func (g *gen) statements(accounts []*model.Account, today time.Time) {
	for _, acc := range accounts {
		for m := 1; m <= 12; m++ {
			month := time.Date(today.Year(), today.Month()-time.Month(m), 1, 0, 0, 0, 0, time.UTC)
			id := g.id("statement", acc.ID.String()+":"+month.Format("2006-01"))
			g.snap.Statements = append(g.snap.Statements, model.AccountStatement{ID: id, AccountID: acc.ID,
				MonthYear: month.Format("01/2006"), URL: "/accounts/" + acc.ID.String() + "/statements/" + id.String() + ".pdf", Date: model.NewTime(month)})
		}
	}
}

// perfID derives the id of the n-th copy of a row cheaply: a million SHA-1 ids would cost
// more than the sync they feed. Multiplying by an odd constant is a bijection on 32 bits,
// so the copies of one row never collide; the rest of the id still comes from SHA-1.
func perfID(base uuid.UUID, n int) uuid.UUID {
	id := base
	v := binary.BigEndian.Uint32(id[10:14]) ^ uint32(n)*2654435761
	binary.BigEndian.PutUint32(id[10:14], v)
	return id
}
