package sandbox

// The world: what stays the same for a set of credentials (the holder, their family,
// employer, contacts, merchants and billers), drawn once per connector and username.

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"ponte/brdocs"
)

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
	{"IFOOD *RESTAURANTE SABOR", "IFOOD.COM AGENCIA DE RESTAURANTES ONLINE S.A.", "91036958000198", "7319002", "Restaurante", 5812, 25, 120},
	{"UBER *TRIP", "UBER DO BRASIL TECNOLOGIA LTDA.", "98557844000132", "8299799", "Transporte", 4121, 9, 65},
	{"99APP *99POP", "99 TECNOLOGIA LTDA", "76176860000142", "7490104", "Transporte", 4121, 8, 50},
	{"SUPERMERCADO PAO DE ACUCAR", "COMPANHIA BRASILEIRA DE DISTRIBUICAO", "55785360000138", "4711301", "Supermercado", 5411, 60, 480},
	{"CARREFOUR HIPER", "CARREFOUR COMERCIO E INDUSTRIA LTDA", "07665418000167", "4711301", "Supermercado", 5411, 80, 650},
	{"DROGASIL 1234", "RAIA DROGASIL S.A.", "00803439000152", "4771701", "Farmacia", 5912, 15, 180},
	{"POSTO IPIRANGA AV BRASIL", "IPIRANGA PRODUTOS DE PETROLEO S.A.", "07565772000110", "4731800", "Combustivel", 5541, 80, 320},
	{"AMAZON MARKETPLACE", "AMAZON SERVICOS DE VAREJO DO BRASIL LTDA.", "40266893000136", "4713004", "Compras online", 5999, 30, 900},
	{"MERCADOLIVRE*VENDEDOR", "EBAZAR.COM.BR LTDA", "09412499000119", "4713004", "Compras online", 5999, 20, 700},
	{"RENNER SHOPPING IGUATEMI", "LOJAS RENNER S.A.", "36493033000168", "4781400", "Vestuario", 5651, 60, 450},
	{"PADARIA REAL", "PANIFICADORA REAL LTDA", "08884856000189", "1091102", "Padaria", 5462, 8, 45},
	{"STARBUCKS PAULISTA", "SBF COMERCIO DE CAFES LTDA", "57451532000162", "5611203", "Cafeteria", 5814, 15, 48},
	{"OUTBACK STEAKHOUSE", "BLOOMIN BRANDS BRASIL LTDA", "79577628000104", "5611201", "Restaurante", 5812, 90, 340},
	{"LATAM AIRLINES", "TAM LINHAS AEREAS S.A.", "03592608000140", "5111100", "Viagem", 4511, 350, 2200},
	{"KABUM", "KABUM COMERCIO ELETRONICO S.A.", "00326495000143", "4751201", "Eletronicos", 5732, 80, 3200},
	{"PETZ", "PET CENTER COMERCIO E PARTICIPACOES S.A.", "82398864000178", "4789004", "Pet shop", 5995, 40, 320},
	{"CINEMARK", "CINEMARK BRASIL S.A.", "89941565000187", "5914600", "Lazer", 7832, 30, 95},
	{"ESTAPAR", "ALLPARK EMPREENDIMENTOS PARTICIPACOES E SERVICOS S.A.", "91625193000121", "5223100", "Estacionamento", 7523, 10, 48},
	{"SEM PARAR", "S.A. SEM PARAR INSTITUICAO DE PAGAMENTO", "79192834000104", "5221400", "Pedagio", 4784, 15, 130},
	{"ZE DELIVERY", "ZX VENTURES BRASIL LTDA", "37931467000165", "4723700", "Restaurante", 5921, 30, 160},
	{"MAGALU", "MAGAZINE LUIZA S.A.", "23331356000103", "4753900", "Compras online", 5311, 50, 2500},
	{"DECATHLON MORUMBI", "DECATHLON COMERCIO DE ARTIGOS ESPORTIVOS LTDA", "27919847000120", "4763602", "Esporte", 5941, 40, 600},
}

// Subscriptions charged on the card every month on a fixed day.
var subscriptionSeeds = []struct {
	merchant
	day int
}{
	{merchant{"NETFLIX.COM", "NETFLIX ENTRETENIMENTO BRASIL LTDA.", "16731196000124", "5911199", "Streaming", 5815, 44.90, 44.90}, 7},
	{merchant{"SPOTIFY", "SPOTIFY BRASIL SERVICOS DE MUSICA LTDA.", "12767992000166", "5920100", "Streaming", 5815, 21.90, 21.90}, 14},
	{merchant{"SMART FIT", "SMARTFIT ESCOLA DE GINASTICA E DANCA S.A.", "43971993000151", "9313100", "Academia", 7997, 119.90, 119.90}, 3},
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
	return party{name: name, doc: brdocs.NewCPF(rng), docType: "CPF", bank: bank,
		branch: fmt.Sprintf("%04d", 1+rng.IntN(9000)), account: fmt.Sprintf("%d-%d", 10000+rng.IntN(900000), rng.IntN(10))}
}

func newCompany(rng *rand.Rand, name string) party {
	b := banks[rng.IntN(len(banks))]
	return party{name: name, doc: brdocs.NewCNPJ(rng), docType: "CNPJ", bank: b,
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
	if doc, ok := strings.CutPrefix(username, "user-ok:"); ok && brdocs.ValidCPF(doc) {
		w.holder.doc = doc
	}
	w.spouse = newParty(rng)
	w.employer = newCompany(rng, "ACME TECNOLOGIA LTDA")
	w.landlord = newParty(rng)
	w.condo = newCompany(rng, "CONDOMINIO EDIFICIO AURORA")
	for i := 0; i < 14; i++ {
		w.contacts = append(w.contacts, newParty(rng))
	}
	// The merchants' CNPJs are fixed, the ones the merchant directory holds (migration
	// 0040), so GET /merchants and the transactions agree; the draws that once made them
	// stay, so every other value of an existing world is what it was.
	for _, m := range merchantSeeds {
		_ = brdocs.NewCNPJ(rng)
		w.merchants = append(w.merchants, m)
	}
	for _, s := range subscriptionSeeds {
		_ = brdocs.NewCNPJ(rng)
		w.subscriptions = append(w.subscriptions, s.merchant)
	}
	w.billers = []biller{
		{"PAGTO ELETRON ENEL SP", "ENEL DISTRIBUICAO SAO PAULO", brdocs.NewCNPJ(rng), "0048", '3', 130, 290},
		{"PAGTO ELETRON SABESP", "CIA DE SANEAMENTO BASICO DO ESTADO DE SAO PAULO", brdocs.NewCNPJ(rng), "0097", '2', 60, 130},
		{"PAGTO ELETRON COMGAS", "COMPANHIA DE GAS DE SAO PAULO", brdocs.NewCNPJ(rng), "0061", '3', 35, 95},
	}
	w.salary = float64(7000 + 500*rng.IntN(11))
	w.rent = float64(1800 + 100*rng.IntN(18))
	w.condoFee = money(520 + rng.Float64()*300)
	w.cardLast4 = fmt.Sprintf("%04d", rng.IntN(10000))
	w.additionalLast4 = fmt.Sprintf("%04d", rng.IntN(10000))
	w.creditLimit = float64(12000 + 1000*rng.IntN(14))
	return w
}
