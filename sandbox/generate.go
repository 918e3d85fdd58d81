package sandbox

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// Snapshot is everything one execution collects.
type Snapshot struct {
	Accounts               []model.Account
	Transactions           []model.Transaction // AccountID set; per account in date order
	Investments            []model.Investment
	InvestmentTransactions []model.InvestmentTransaction // InvestmentID set
	Identity               *model.Identity
	Loans                  []model.Loan
	Bills                  []model.CreditCardBill // AccountID set
	Statements             []model.AccountStatement
}

// historyDays is how far back an execution reads.
const historyDays = 365

// maxPerf caps the history multiplier of user-ok-perf-N.
const maxPerf = 5000

// Generate makes the snapshot an execution collects. It depends only on its arguments:
// ids derive from the item and a stable key; amounts, people and merchants from the
// connector and username, so two items with the same credentials see the same data with
// different ids, and repeating an execution yields identical rows.
//
// The history is made day by day from per-day seeds, so a given day always holds the same
// rows whichever day the execution runs; balances are anchored to calendar months, so a
// history window moving by a day does not change the rows it keeps. Today's rows come
// in batches, one per execution: execution N's batch is PENDING, earlier batches are
// POSTED and lose one or two rows each (authorisations the institution dropped). So
// executions N-1 and N of the same day differ by created, updated and deleted rows.
//
// Signs follow the official client: on bank accounts debits are negative; on the card,
// purchases are positive DEBITs and payments or refunds negative CREDITs. Category and
// categoryId are left nil for the categorizer.
func Generate(itemID uuid.UUID, connectorID int, username string, execution int, now time.Time) *Snapshot {
	now = now.UTC()
	g := &gen{
		item: itemID, w: newWorld(connectorID, username), now: now, exec: max(execution, 1),
		today: time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC),
	}
	g.ts = model.NewTime(now)
	g.start = g.today.AddDate(0, 0, -historyDays)
	g.openFinance = connectorInfo()[connectorID].IsOpenFinance
	g.run(perfMultiplier(username), username == "user-ok-two-checking-accounts")
	return &g.snap
}

// perfMultiplier reads N of user-ok-perf-N.
func perfMultiplier(username string) int {
	rest, ok := strings.CutPrefix(username, "user-ok-perf-")
	if !ok {
		return 1
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 1 {
		return 1
	}
	return min(n, maxPerf)
}

var connectorInfo = sync.OnceValue(func() map[int]model.Connector {
	m := map[int]model.Connector{}
	for _, c := range Connectors() {
		m[c.ID] = c
	}
	return m
})

func seedOf(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		_, _ = h.Write([]byte(p))
		_, _ = h.Write([]byte{0})
	}
	return h.Sum64()
}

// mix derives a well-spread value from a seed and small integers (splitmix64 finaliser).
func mix(seed uint64, vals ...uint64) uint64 {
	x := seed
	for _, v := range vals {
		x ^= v + 0x9e3779b97f4a7c15 + (x << 6) + (x >> 2)
		x ^= x >> 30
		x *= 0xbf58476d1ce4e5b9
		x ^= x >> 27
		x *= 0x94d049bb133111eb
		x ^= x >> 31
	}
	return x
}

func rngFor(seed uint64, vals ...uint64) *rand.Rand {
	return rand.New(rand.NewPCG(mix(seed, vals...), mix(seed^0x5bd1e995, vals...)))
}

func sp(s string) *string        { return &s }
func fp(f float64) *float64      { return &f }
func ip(i int) *int              { return &i }
func bp(b bool) *bool            { return &b }
func tp(t time.Time) *model.Time { v := model.NewTime(t); return &v }

func money(f float64) float64 { return math.Round(f*100) / 100 }

// between is a money amount uniformly in [lo, hi).
func between(rng *rand.Rand, lo, hi float64) float64 { return money(lo + rng.Float64()*(hi-lo)) }

var plain = strings.NewReplacer(
	"á", "a", "à", "a", "â", "a", "ã", "a", "é", "e", "ê", "e", "í", "i", "ó", "o", "ô", "o", "õ", "o",
	"ú", "u", "ü", "u", "ç", "c", "Á", "A", "À", "A", "Â", "A", "Ã", "A", "É", "E", "Ê", "E", "Í", "I",
	"Ó", "O", "Ô", "O", "Õ", "O", "Ú", "U", "Ü", "U", "Ç", "C",
)

// upper writes a name as bank statements do: capitals, no accents.
func upper(s string) string { return strings.ToUpper(plain.Replace(s)) }

// ---------------------------------------------------------------------------------------
// The world: what stays the same for a set of credentials.

type bankInfo struct{ name, compe, ispb string }

type party struct {
	name, doc, docType string // docType CPF or CNPJ
	bank               bankInfo
	branch, account    string // account as number-digit
}

type merchant struct {
	name, business, cnpj, cnae, category string
	mcc                                  int
	min, max                             float64
}

type biller struct {
	desc, name, cnpj, company string
	segment                   byte
	min, max                  float64
}

var banks = []bankInfo{
	{"Itaú Unibanco S.A.", "341", "60701190"}, {"Banco Bradesco S.A.", "237", "60746948"},
	{"Banco do Brasil S.A.", "001", "00000000"}, {"Caixa Econômica Federal", "104", "00360305"},
	{"Banco Santander (Brasil) S.A.", "033", "90400888"}, {"Nu Pagamentos S.A.", "260", "18236120"},
	{"Banco Inter S.A.", "077", "00416968"}, {"Banco C6 S.A.", "336", "31872495"},
}

var firstNames = []string{"Ana", "Bruno", "Carla", "Diego", "Eduarda", "Felipe", "Gabriela", "Henrique", "Isabela",
	"João", "Larissa", "Marcos", "Natália", "Otávio", "Patrícia", "Rafael", "Sabrina", "Thiago", "Vanessa", "Lucas",
	"Mariana", "Gustavo", "Juliana", "Leonardo", "Fernanda", "Rodrigo", "Camila", "André", "Letícia", "Vinícius"}
var lastNames = []string{"Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima",
	"Gomes", "Costa", "Ribeiro", "Martins", "Carvalho", "Almeida", "Araújo", "Barros", "Cardoso", "Nascimento", "Moreira"}

var merchantSeeds = []merchant{
	{"IFOOD *RESTAURANTE SABOR", "IFOOD.COM AGENCIA DE RESTAURANTES ONLINE S.A.", "", "7319002", "Restaurante", 5812, 25, 120},
	{"UBER *TRIP", "UBER DO BRASIL TECNOLOGIA LTDA.", "", "8299799", "Transporte", 4121, 9, 65},
	{"99APP *99POP", "99 TECNOLOGIA LTDA", "", "7490104", "Transporte", 4121, 8, 50},
	{"SUPERMERCADO PAO DE ACUCAR", "COMPANHIA BRASILEIRA DE DISTRIBUICAO", "", "4711301", "Supermercado", 5411, 60, 480},
	{"CARREFOUR HIPER", "CARREFOUR COMERCIO E INDUSTRIA LTDA", "", "4711301", "Supermercado", 5411, 80, 650},
	{"DROGASIL 1234", "RAIA DROGASIL S.A.", "", "4771701", "Farmacia", 5912, 15, 180},
	{"POSTO IPIRANGA AV BRASIL", "IPIRANGA PRODUTOS DE PETROLEO S.A.", "", "4731800", "Combustivel", 5541, 80, 320},
	{"AMAZON MARKETPLACE", "AMAZON SERVICOS DE VAREJO DO BRASIL LTDA.", "", "4713004", "Compras online", 5999, 30, 900},
	{"MERCADOLIVRE*VENDEDOR", "EBAZAR.COM.BR LTDA", "", "4713004", "Compras online", 5999, 20, 700},
	{"RENNER SHOPPING IGUATEMI", "LOJAS RENNER S.A.", "", "4781400", "Vestuario", 5651, 60, 450},
	{"PADARIA REAL", "PANIFICADORA REAL LTDA", "", "1091102", "Padaria", 5462, 8, 45},
	{"STARBUCKS PAULISTA", "SBF COMERCIO DE CAFES LTDA", "", "5611203", "Cafeteria", 5814, 15, 48},
	{"OUTBACK STEAKHOUSE", "BLOOMIN BRANDS BRASIL LTDA", "", "5611201", "Restaurante", 5812, 90, 340},
	{"LATAM AIRLINES", "TAM LINHAS AEREAS S.A.", "", "5111100", "Viagem", 4511, 350, 2200},
	{"KABUM", "KABUM COMERCIO ELETRONICO S.A.", "", "4751201", "Eletronicos", 5732, 80, 3200},
	{"PETZ", "PET CENTER COMERCIO E PARTICIPACOES S.A.", "", "4789004", "Pet shop", 5995, 40, 320},
	{"CINEMARK", "CINEMARK BRASIL S.A.", "", "5914600", "Lazer", 7832, 30, 95},
	{"ESTAPAR", "ALLPARK EMPREENDIMENTOS PARTICIPACOES E SERVICOS S.A.", "", "5223100", "Estacionamento", 7523, 10, 48},
	{"SEM PARAR", "S.A. SEM PARAR INSTITUICAO DE PAGAMENTO", "", "5221400", "Pedagio", 4784, 15, 130},
	{"ZE DELIVERY", "ZX VENTURES BRASIL LTDA", "", "4723700", "Restaurante", 5921, 30, 160},
	{"MAGALU", "MAGAZINE LUIZA S.A.", "", "4753900", "Compras online", 5311, 50, 2500},
	{"DECATHLON MORUMBI", "DECATHLON COMERCIO DE ARTIGOS ESPORTIVOS LTDA", "", "4763602", "Esporte", 5941, 40, 600},
}

// Subscriptions charged on the card every month on a fixed day.
var subscriptionSeeds = []struct {
	merchant
	day int
}{
	{merchant{"NETFLIX.COM", "NETFLIX ENTRETENIMENTO BRASIL LTDA.", "", "5911199", "Streaming", 5815, 44.90, 44.90}, 7},
	{merchant{"SPOTIFY", "SPOTIFY BRASIL SERVICOS DE MUSICA LTDA.", "", "5920100", "Streaming", 5815, 21.90, 21.90}, 14},
	{merchant{"SMART FIT", "SMARTFIT ESCOLA DE GINASTICA E DANCA S.A.", "", "9313100", "Academia", 7997, 119.90, 119.90}, 3},
}

// Purchases abroad: no CNPJ, so no merchant object; amounts in USD.
var foreignSeeds = []struct {
	name string
	mcc  int
	min  float64
	max  float64
}{
	{"STEAMGAMES.COM 4259522985", 5816, 5, 60}, {"OPENAI *CHATGPT SUBSCR", 5734, 20, 20},
	{"AIRBNB * HMQ4X2", 7011, 80, 400}, {"AMAZON.COM*RT4Y7", 5999, 15, 120},
}

type world struct {
	seed                       uint64
	holder, spouse             party
	institution                bankInfo
	employer, landlord, condo  party
	contacts                   []party
	merchants                  []merchant
	subscriptions              []merchant
	billers                    []biller
	salary, rent, condoFee     float64
	cardLast4, additionalLast4 string
	creditLimit                float64
}

func newParty(rng *rand.Rand) party {
	bank := banks[rng.IntN(len(banks))]
	a, b := rng.IntN(len(lastNames)), rng.IntN(len(lastNames)-1)
	if b >= a {
		b++ // two different family names
	}
	name := firstNames[rng.IntN(len(firstNames))] + " " + lastNames[a] + " " + lastNames[b]
	return party{name: name, doc: NewCPF(rng), docType: "CPF", bank: bank,
		branch: fmt.Sprintf("%04d", 1+rng.IntN(9000)), account: fmt.Sprintf("%d-%d", 10000+rng.IntN(900000), rng.IntN(10))}
}

func newCompany(rng *rand.Rand, name string) party {
	b := banks[rng.IntN(len(banks))]
	return party{name: name, doc: NewCNPJ(rng), docType: "CNPJ", bank: b,
		branch: fmt.Sprintf("%04d", 1+rng.IntN(9000)), account: fmt.Sprintf("%d-%d", 10000+rng.IntN(900000), rng.IntN(10))}
}

func newWorld(connectorID int, username string) *world {
	base := username
	if strings.HasPrefix(username, "user-ok-perf-") {
		base = "user-ok" // the perf users see user-ok's data, multiplied
	}
	seed := seedOf(strconv.Itoa(connectorID), base)
	rng := rngFor(seed, 1)
	w := &world{seed: seed}
	c := connectorInfo()[connectorID]
	name := c.Name
	if name == "" {
		name = "Ponte Bank"
	}
	w.institution = bankInfo{name: name, compe: fmt.Sprintf("%03d", 600+connectorID%300), ispb: fmt.Sprintf("%08d", 43215000+connectorID)}
	w.holder = newParty(rng)
	w.holder.bank = w.institution
	w.holder.branch = fmt.Sprintf("%04d", 1+rng.IntN(3000))
	// Connectors that log in with a CPF collect that CPF's data.
	if doc, ok := strings.CutPrefix(username, "user-ok:"); ok && ValidCPF(doc) {
		w.holder.doc = doc
	}
	w.spouse = newParty(rng)
	w.employer = newCompany(rng, "ACME TECNOLOGIA LTDA")
	w.landlord = newParty(rng)
	w.condo = newCompany(rng, "CONDOMINIO EDIFICIO AURORA")
	for i := 0; i < 14; i++ {
		w.contacts = append(w.contacts, newParty(rng))
	}
	for _, m := range merchantSeeds {
		m.cnpj = NewCNPJ(rng)
		w.merchants = append(w.merchants, m)
	}
	for _, s := range subscriptionSeeds {
		m := s.merchant
		m.cnpj = NewCNPJ(rng)
		w.subscriptions = append(w.subscriptions, m)
	}
	w.billers = []biller{
		{"PAGTO ELETRON ENEL SP", "ENEL DISTRIBUICAO SAO PAULO", NewCNPJ(rng), "0048", '3', 130, 290},
		{"PAGTO ELETRON SABESP", "CIA DE SANEAMENTO BASICO DO ESTADO DE SAO PAULO", NewCNPJ(rng), "0097", '2', 60, 130},
		{"PAGTO ELETRON COMGAS", "COMPANHIA DE GAS DE SAO PAULO", NewCNPJ(rng), "0061", '3', 35, 95},
	}
	w.salary = float64(7000 + 500*rng.IntN(11))
	w.rent = float64(1800 + 100*rng.IntN(18))
	w.condoFee = money(520 + rng.Float64()*300)
	w.cardLast4 = fmt.Sprintf("%04d", rng.IntN(10000))
	w.additionalLast4 = fmt.Sprintf("%04d", rng.IntN(10000))
	w.creditLimit = float64(12000 + 1000*rng.IntN(14))
	return w
}

// ---------------------------------------------------------------------------------------
// Calendar helpers.

func isWeekend(d time.Time) bool { return d.Weekday() == time.Saturday || d.Weekday() == time.Sunday }

// nthBusinessDay is the n-th weekday of a month (holidays ignored).
func nthBusinessDay(y int, m time.Month, n int) time.Time {
	d := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	for {
		if !isWeekend(d) {
			if n--; n == 0 {
				return d
			}
		}
		d = d.AddDate(0, 0, 1)
	}
}

// onOrAfterBusinessDay moves a weekend date to the next Monday.
func onOrAfterBusinessDay(d time.Time) time.Time {
	for isWeekend(d) {
		d = d.AddDate(0, 0, 1)
	}
	return d
}

// onOrBeforeBusinessDay moves a weekend date to the previous Friday.
func onOrBeforeBusinessDay(d time.Time) time.Time {
	for isWeekend(d) {
		d = d.AddDate(0, 0, -1)
	}
	return d
}

func monthStart(d time.Time) time.Time {
	return time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// monthIndex counts months since January 2000.
func monthIndex(d time.Time) int { return (d.Year()-2000)*12 + int(d.Month()) - 1 }

func monthOf(index int) time.Time {
	return time.Date(2000+index/12, time.Month(index%12+1), 1, 0, 0, 0, 0, time.UTC)
}

func dayKey(d time.Time) string { return d.Format("2006-01-02") }

func at(day time.Time, h, m int) time.Time {
	return day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute)
}

// ---------------------------------------------------------------------------------------
// The generator.

type gen struct {
	item        uuid.UUID
	w           *world
	now, today  time.Time
	start       time.Time // first day of the history window
	exec        int
	ts          model.Time
	openFinance bool
	snap        Snapshot
}

func (g *gen) id(kind, key string) uuid.UUID { return uuid.NewSHA1(g.item, []byte(kind+":"+key)) }

// plan is one account being generated.
type plan struct {
	acc     *model.Account
	key     string
	stream  uint64
	primary bool
	perf    int
	opening float64 // bank accounts: balance before the first row
	rows    []baseRow
}

// baseRow is one generated row; history rows are copied perf times, the others once.
// A balancing row takes the amount that brings the balance to target.
type baseRow struct {
	t         model.Transaction
	single    bool
	balancing bool
	target    float64
}

func (g *gen) run(perf int, twoChecking bool) {
	w := g.w
	checking := []*plan{{acc: g.bankAccount("checking-1", "CHECKING_ACCOUNT", "Conta Corrente", w.holder.account), key: "checking-1", stream: 11, primary: true, perf: perf}}
	if twoChecking {
		second := fmt.Sprintf("%d-%d", 10000+int(mix(w.seed, 2)%900000), mix(w.seed, 3)%10)
		checking = append(checking, &plan{acc: g.bankAccount("checking-2", "CHECKING_ACCOUNT", "Conta Corrente Conjunta", second), key: "checking-2", stream: 12, perf: 1})
	}
	savingsNumber := fmt.Sprintf("%d-%d", 500000+int(mix(w.seed, 4)%400000), mix(w.seed, 5)%10)
	savings := &plan{acc: g.bankAccount("savings", "SAVINGS_ACCOUNT", "Poupança", savingsNumber), key: "savings", stream: 13}
	card := &plan{acc: g.cardAccount(), key: "card", stream: 14}

	bills := g.cardHistory(card)
	for _, p := range checking {
		g.checkingHistory(p, bills)
	}
	g.savingsHistory(savings)

	all := append(append([]*plan{}, checking...), savings, card)
	total := 0
	for _, p := range all {
		for _, r := range p.rows {
			if r.single {
				total++
			} else {
				total += max(p.perf, 1)
			}
		}
	}
	g.snap.Transactions = make([]model.Transaction, 0, total)
	for _, p := range all {
		g.expand(p)
	}
	for _, p := range all {
		g.snap.Accounts = append(g.snap.Accounts, *p.acc)
	}
	g.investments()
	g.identity()
	g.loans()
	g.statements(append(checking, savings))
}

// expand appends an account's rows to the snapshot, copying history rows perf times,
// and sets the running balance (bank accounts) and the position within the day.
func (g *gen) expand(p *plan) {
	perf := max(p.perf, 1)
	out := g.snap.Transactions
	bank := p.acc.Type == "BANK"
	var balances []float64
	running := p.opening
	if bank {
		n := 0
		for _, r := range p.rows {
			if r.single {
				n++
			} else {
				n += perf
			}
		}
		// One backing array holds every balance, instead of an allocation per row.
		balances = make([]float64, 0, n)
	}
	lastDay, order := int64(math.MinInt64), 0
	posted := running
	for i := range p.rows {
		r := &p.rows[i]
		copies := perf
		if r.single {
			copies = 1
		}
		if r.balancing {
			g.balance(&r.t, money(r.target-running))
		}
		for c := 0; c < copies; c++ {
			out = append(out, r.t)
			t := &out[len(out)-1]
			if c > 0 {
				t.ID = perfID(r.t.ID, c)
			}
			if day := t.Date.Unix() / 86400; day != lastDay {
				lastDay, order = day, 0
			}
			order++
			t.Order = order
			if bank {
				running = money(running + t.Amount)
				balances = append(balances, running)
				t.Balance = &balances[len(balances)-1]
				if t.Status == "POSTED" {
					posted = running
				}
			}
		}
	}
	g.snap.Transactions = out
	if bank {
		p.acc.Balance = fp(running)
		p.acc.BankData.ClosingBalance = fp(posted)
		if p.acc.Subtype == "CHECKING_ACCOUNT" {
			used := money(math.Max(0, -running))
			p.acc.BankData.OverdraftUsedLimit = fp(math.Min(used, *p.acc.BankData.OverdraftContractedLimit))
			p.acc.BankData.UnarrangedOverdraftAmount = fp(money(math.Max(0, used-*p.acc.BankData.OverdraftContractedLimit)))
		}
	}
}

// balance turns a balancing row into an automatic investment or redemption of amount.
func (g *gen) balance(t *model.Transaction, amount float64) {
	t.Amount = amount
	if amount < 0 {
		t.Type, t.Description = "DEBIT", "APLICACAO AUTOMATICA CDB DI"
	} else {
		t.Type, t.Description = "CREDIT", "RESGATE AUTOMATICO CDB DI"
	}
	t.DescriptionRaw = sp(t.Description)
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

// ---------------------------------------------------------------------------------------
// Accounts.

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

// ---------------------------------------------------------------------------------------
// Bank transactions.

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
		bc, line := bankBoleto(banks[rng.IntN(len(banks))].compe, day.AddDate(0, 0, 2), amount, fmt.Sprintf("%025d", rng.Int64N(1e18)))
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
			bc, line := bankBoleto("341", time.Date(y, m, 10, 0, 0, 0, 0, time.UTC), amount, fmt.Sprintf("%025d", mix(w.seed, uint64(monthIndex(day)), 41)%1e18))
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
				bc, line := utilityBoleto(b.segment, amount, b.company, fmt.Sprintf("%025d", mix(w.seed, uint64(monthIndex(day)), uint64(i))%1e18))
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

// ---------------------------------------------------------------------------------------
// Credit card.

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

// ---------------------------------------------------------------------------------------
// Investments, identity, loans, statements.

func (g *gen) investments() {
	w := g.w
	rng := rngFor(w.seed, 71)
	month := monthStart(g.today)
	owner := sp(w.holder.name)
	inst := &model.InvestmentInstitution{Name: sp(w.institution.name), Number: sp(NewCNPJ(rng))}
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
	fundCNPJ := NewCNPJ(rng)
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
		st.Code, st.ISIN, st.Issuer, st.IssuerCNPJ = sp(s.ticker), sp(s.isin), sp(s.issuer), sp(NewCNPJ(rng))
		st.Quantity, st.Value = fp(qty), fp(last)
		st.Amount, st.AmountOriginal = fp(money(qty*last)), fp(money(qty*cost))
		st.AmountProfit = fp(money(*st.Amount - *st.AmountOriginal))
		st.Balance = *st.Amount
		st.AmountWithdrawal = fp(st.Balance)
		st.Taxes, st.Taxes2 = fp(0), fp(0)
		st.PurchaseDate = tp(bd)
		st.Institution = &model.InvestmentInstitution{Name: sp("Corretora Horizonte"), Number: sp(NewCNPJ(rng))}
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

func (g *gen) identity() {
	w := g.w
	rng := rngFor(w.seed, 81)
	birth := time.Date(1970+rng.IntN(30), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)
	parts := strings.Fields(upper(w.holder.name))
	email := strings.ToLower(parts[0] + "." + parts[len(parts)-1])
	female := strings.HasSuffix(strings.Fields(w.holder.name)[0], "a")
	sex := "MALE"
	if female {
		sex = "FEMALE"
	}
	mobile := fmt.Sprintf("9%04d%04d", rng.IntN(1e4), rng.IntN(1e4))
	acc := strings.Split(w.holder.account, "-")
	since := time.Date(2012+rng.IntN(8), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC)
	rg := fmt.Sprintf("%08d", rng.IntN(1e8))
	g.snap.Identity = &model.Identity{
		ID: g.id("identity", "holder"), ItemID: g.item, BirthDate: tp(birth), TaxNumber: sp(w.holder.doc),
		Document: sp(w.holder.doc), DocumentType: sp("CPF"), JobTitle: sp("Analista de Sistemas"),
		CompanyName: sp(w.employer.name), FullName: sp(w.holder.name),
		PhoneNumbers: []model.Phone{
			{Type: sp("Personal"), Value: "+55 11 " + mobile[:5] + "-" + mobile[5:], AreaCode: sp("11")},
			{Type: sp("Work"), Value: fmt.Sprintf("+55 11 3%03d-%04d", rng.IntN(1000), rng.IntN(1e4)), AreaCode: sp("11"), Extension: sp(strconv.Itoa(200 + rng.IntN(700)))},
		},
		Emails: []model.Email{{Type: sp("Personal"), Value: email + "@example.com.br"}, {Type: sp("Work"), Value: email + "@acme.example"}},
		Addresses: []model.Address{{FullAddress: sp("Rua Augusta, 1500, Apto 82, Consolação, São Paulo - SP, 01304-001"),
			PrimaryAddress: sp("Rua Augusta, 1500"), City: sp("São Paulo"), PostalCode: sp("01304-001"), State: sp("SP"),
			Country: sp("Brasil"), Type: sp("Personal"), AdditionalInfo: sp("Apto 82"), District: sp("Consolação"),
			IBGETownCode: sp("3550308"), CountryCode: sp("BRA"), GeographicCoordinates: &model.GeographicCoordinates{Latitude: -23.5558, Longitude: -46.6622}},
			{FullAddress: sp("Avenida Paulista, 1000, 10º andar, Bela Vista, São Paulo - SP, 01310-100"),
				PrimaryAddress: sp("Avenida Paulista, 1000"), City: sp("São Paulo"), PostalCode: sp("01310-100"), State: sp("SP"),
				Country: sp("Brasil"), Type: sp("Work"), AdditionalInfo: sp("10º andar"), District: sp("Bela Vista"),
				IBGETownCode: sp("3550308"), CountryCode: sp("BRA")}},
		Relations: []model.Relation{
			{Type: sp("Mother"), Name: sp(w.contacts[1].name), Document: sp(w.contacts[1].doc)},
			{Type: sp("Spouse"), Name: sp(w.spouse.name), Document: sp(w.spouse.doc)},
		},
		InvestorProfile: sp("Moderate"),
		FinancialRelationships: &model.FinancialRelationships{StartDate: model.NewTime(since),
			ProductsServicesType: []string{"CONTA_DEPOSITO_A_VISTA", "CONTA_POUPANCA", "CARTAO_CREDITO", "EMPRESTIMO", "INVESTIMENTO"},
			Procurators:          []model.Procurator{},
			Accounts: []model.FinancialRelationshipAccount{{CompeCode: w.institution.compe, BranchCode: w.holder.branch, Number: acc[0],
				CheckDigit: acc[1], Type: "CONTA_DEPOSITO_A_VISTA", Subtype: "INDIVIDUAL"}},
			PaychecksBankLink: []model.PaycheckBankLink{{EmployerName: w.employer.name, EmployerDocument: w.employer.doc,
				PaycheckBankCNPJ: "60701190000104", PaycheckBankISPB: w.institution.ispb, AccountOpeningDate: model.NewTime(since)}}},
		Qualifications: &model.Qualifications{CompanyCNPJ: w.employer.doc, OccupationCode: sp("CBO"), OccupationDescription: sp("212405"),
			InformedIncome:    &model.InformedIncome{Frequency: "MENSAL", Amount: w.salary, Date: model.NewTime(time.Date(g.today.Year()-1, 3, 1, 0, 0, 0, 0, time.UTC))},
			InformedPatrimony: &model.InformedPatrimony{Amount: float64(150000 + 10000*rng.IntN(50)), Year: g.today.Year() - 1}},
		Sex:            sp(sex),
		MaritalStatus:  &model.MaritalStatus{Code: "MARRIED"},
		Nationality:    &model.Nationality{HasBrazilianNationality: true},
		OtherDocuments: []model.IdentityDocument{{Type: "RG", Number: rg, CheckDigit: sp(strconv.Itoa(rng.IntN(10))), AdditionalInfo: sp("SSP/SP")}},
		CompaniesCNPJ:  []string{"60701190000104"},
		CreatedAt:      g.ts, UpdatedAt: g.ts,
	}
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
