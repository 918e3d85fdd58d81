package itemsync

import "strings"

// CategorizeInput is what the categorizer reads from a transaction.
type CategorizeInput struct {
	Description  string
	MerchantName string
	MerchantCat  string
	MCC          int
	// DirectoryCategory is the category id the merchant directory gives the merchant's
	// CNAE (merchants.CategoryOf); "" when the merchant is not in the directory.
	DirectoryCategory string
	OperationType     string // PIX, TED, BOLETO, CARTAO, TARIFA_SERVICOS, ...
	Credit            bool
}

// rule maps words found in the folded description or merchant to a category. Rules are
// tried in order, so specific words come before generic ones.
type rule struct {
	words    []string
	category string
}

var descriptionRules = []rule{
	{[]string{"SALARIO", "PAGTO SALARIO", "FOLHA PAGAMENTO", "PROVENTOS"}, "01010000"},
	{[]string{"INSS BENEF", "APOSENTADORIA"}, "01020000"},
	{[]string{"BOLSA FAMILIA", "AUXILIO"}, "01040000"},
	{[]string{"RENDIMENTO", "JUROS POUP", "REMUNERACAO APLIC"}, "01060000"},
	{[]string{"ESTORNO", "REEMBOLSO", "CASHBACK"}, "01080000"},
	{[]string{"PAGAMENTO FATURA", "PAGTO FATURA", "PAG FATURA", "FATURA CARTAO"}, "02060000"},
	{[]string{"JUROS CHEQUE ESPECIAL", "JUROS LIMITE"}, "02050000"},
	{[]string{"EMPRESTIMO", "PARCELA EMPREST", "CONSIGNADO"}, "02010000"},
	{[]string{"FINANCIAMENTO VEIC"}, "02030000"},
	{[]string{"TESOURO DIRETO", "TESOURO"}, "03070000"},
	{[]string{"APLICACAO CDB", "CDB", "LCI", "LCA"}, "03010000"},
	{[]string{"RESGATE"}, "03090000"},
	{[]string{"DIVIDENDO", "JCP", "JUROS S/CAPITAL"}, "03080000"},
	{[]string{"APLICACAO FUNDO", "FUNDO DE INVEST"}, "03030000"},
	{[]string{"PREVIDENCIA", "PGBL", "VGBL"}, "03040000"},
	{[]string{"POUPANCA"}, "03060000"},
	{[]string{"BITCOIN", "CRIPTO", "BINANCE", "MERCADO BITCOIN"}, "03050000"},
	{[]string{"IPVA"}, "06010000"},
	{[]string{"IPTU"}, "06020000"},
	{[]string{"DARF", "RECEITA FEDERAL"}, "06040000"},
	{[]string{"MULTA TRANSITO", "DETRAN"}, "06050000"},
	{[]string{"DAS SIMPLES", "SIMPLES NACIONAL"}, "06090000"},
	{[]string{"TARIFA PACOTE", "CESTA DE SERVICOS", "TARIFA MANUT", "PACOTE SERVICOS"}, "19010000"},
	{[]string{"TARIFA TED", "TARIFA DOC", "TARIFA PIX", "TARIFA TRANSF"}, "19020000"},
	{[]string{"IOF"}, "19030000"},
	{[]string{"ANUIDADE"}, "19040000"},
	{[]string{"TARIFA SAQUE"}, "19050000"},
	{[]string{"ENCARGOS", "MULTA ATRASO", "JUROS ATRASO", "JUROS MORA"}, "19060000"},
	{[]string{"SAQUE", "SAQ 24H", "BANCO24HORAS"}, "05070000"},
	{[]string{"DEPOSITO DINHEIRO", "DEP DINHEIRO"}, "05080000"},
	{[]string{"ENEL", "LIGHT S", "CEMIG", "COPEL", "CPFL", "ENERGISA", "ELETROPAULO", "COELBA", "CELPE", "EQUATORIAL"}, "07060000"},
	{[]string{"SABESP", "CEDAE", "COPASA", "SANEPAR", "EMBASA", "COMPESA", "CAGECE"}, "07050000"},
	{[]string{"COMGAS", "NATURGY", "GAS NATURAL"}, "07070000"},
	{[]string{"VIVO FIBRA", "NET VIRTUA", "CLARO NET", "OI FIBRA"}, "07020000"},
	{[]string{"VIVO", "CLARO", "TIM ", "OI MOVEL", "RECARGA CEL"}, "07030000"},
	{[]string{"SKY", "CLARO TV"}, "07040000"},
	{[]string{"NETFLIX", "PRIME VIDEO", "DISNEY", "HBO", "MAX.COM", "GLOBOPLAY", "STAR+"}, "16010000"},
	{[]string{"SPOTIFY", "DEEZER", "YOUTUBE MUSIC", "APPLE MUSIC"}, "16020000"},
	{[]string{"STEAM", "PLAYSTATION", "XBOX", "NINTENDO"}, "16030000"},
	{[]string{"INGRESSO", "CINEMARK", "CINEPOLIS", "SYMPLA", "TICKETMASTER"}, "16040000"},
	{[]string{"ICLOUD", "GOOGLE STORAGE", "DROPBOX", "MICROSOFT", "GOOGLE ONE", "ADOBE"}, "07110000"},
	{[]string{"CORREIOS", "LOGGI", "JADLOG"}, "07100000"},
	{[]string{"IFOOD", "RAPPI", "UBER EATS", "AIQFOME", "ZE DELIVERY"}, "09020000"},
	{[]string{"PADARIA", "PANIFICADORA"}, "09040000"},
	{[]string{"CAFE", "STARBUCKS", "LANCHONETE", "MCDONALDS", "BURGER KING", "SUBWAY", "HABIBS", "BOBS"}, "09060000"},
	{[]string{"RESTAURANTE", "CHURRASCARIA", "PIZZARIA", "OUTBACK", "SUSHI"}, "09010000"},
	{[]string{"BAR ", "BOTECO", "CHOPERIA"}, "09050000"},
	{[]string{"SUPERMERCADO", "SUPERMERC", "CARREFOUR", "PAO DE ACUCAR", "ASSAI", "ATACADAO", "EXTRA ", "DIA ", "ZAFFARI", "GUANABARA", "MERCADO"}, "09030000"},
	{[]string{"HORTIFRUTI", "ACOUGUE", "SACOLAO"}, "09070000"},
	{[]string{"UBER", "99 TAXI", "99APP", "99 POP", "CABIFY", "TAXI"}, "11010000"},
	{[]string{"METRO", "SPTRANS", "BILHETE UNICO", "RIOCARD", "CPTM", "ONIBUS"}, "11020000"},
	{[]string{"POSTO", "SHELL", "IPIRANGA", "PETROBRAS", "BR MANIA", "COMBUSTIVEL"}, "11030000"},
	{[]string{"ESTACIONAMENTO", "ESTAPAR", "ZONA AZUL"}, "11040000"},
	{[]string{"SEM PARAR", "CONECTCAR", "VELOE", "PEDAGIO"}, "11050000"},
	{[]string{"LOCALIZA", "MOVIDA", "UNIDAS"}, "11070000"},
	{[]string{"LATAM", "GOL LINHAS", "AZUL LINHAS", "AZUL S A"}, "10010000"},
	{[]string{"HOTEL", "AIRBNB", "BOOKING", "POUSADA"}, "10020000"},
	{[]string{"DECOLAR", "CVC", "123MILHAS", "MAXMILHAS"}, "10030000"},
	{[]string{"SEGURO AUTO", "PORTO SEGURO AUTO"}, "12020000"},
	{[]string{"SEGURO VIDA"}, "12010000"},
	{[]string{"SEGURO"}, "12030000"},
	{[]string{"ALUGUEL"}, "13010000"},
	{[]string{"CONDOMINIO", "COND "}, "13020000"},
	{[]string{"LEROY", "TELHA NORTE", "C&C"}, "08080000"},
	{[]string{"DROGA", "FARMACIA", "DROGASIL", "RAIA", "PAGUE MENOS", "PACHECO", "PANVEL"}, "14010000"},
	{[]string{"UNIMED", "AMIL", "BRADESCO SAUDE", "SULAMERICA SAUDE", "HAPVIDA", "PLANO DE SAUDE"}, "14050000"},
	{[]string{"SMART FIT", "SMARTFIT", "ACADEMIA", "BLUEFIT", "GYMPASS", "WELLHUB", "TOTALPASS"}, "14060000"},
	{[]string{"LABORATORIO", "FLEURY", "DASA", "LAVOISIER"}, "14070000"},
	{[]string{"CLINICA", "HOSPITAL"}, "14030000"},
	{[]string{"ODONTO", "DENTISTA"}, "14020000"},
	{[]string{"OTICA"}, "14040000"},
	{[]string{"VETERINAR"}, "14100000"},
	{[]string{"UDEMY", "ALURA", "COURSERA", "HOTMART"}, "15030000"},
	{[]string{"FACULDADE", "UNIVERSIDADE", "MENSALIDADE UNI"}, "15020000"},
	{[]string{"COLEGIO", "ESCOLA", "MENSALIDADE ESC"}, "15010000"},
	{[]string{"WIZARD", "CCAA", "FISK", "DUOLINGO"}, "15050000"},
	{[]string{"AMAZON", "MERCADOLIVRE", "MERCADO LIVRE", "SHOPEE", "ALIEXPRESS", "SHEIN", "MAGALU", "MAGAZINE LUIZA", "AMERICANAS"}, "08010000"},
	{[]string{"RENNER", "C&A", "RIACHUELO", "ZARA", "CENTAURO", "NETSHOES", "HERING", "MARISA"}, "08030000"},
	{[]string{"KABUM", "FAST SHOP", "APPLE STORE", "SAMSUNG"}, "08020000"},
	{[]string{"PETZ", "COBASI", "PET SHOP", "PETLOVE"}, "08040000"},
	{[]string{"LIVRARIA", "SARAIVA", "KALUNGA"}, "08050000"},
	{[]string{"DECATHLON"}, "08060000"},
	{[]string{"TOK&STOK", "TOK STOK", "CAMICADO", "ETNA"}, "08070000"},
	{[]string{"BOTICARIO", "NATURA", "SEPHORA", "AVON", "EUDORA"}, "08090000"},
	{[]string{"BET365", "BETANO", "SPORTINGBET", "BETNACIONAL", "ESTRELABET"}, "18010000"},
	{[]string{"LOTERICA", "LOTERIAS CAIXA", "MEGA SENA"}, "18020000"},
	{[]string{"DOACAO", "VAKINHA"}, "17010000"},
	{[]string{"DIZIMO", "IGREJA"}, "17020000"},
}

// mccCategories maps card network merchant category codes to the tree.
var mccCategories = map[int]string{
	5411: "09030000", 5422: "09070000", 5441: "09060000", 5451: "09030000", 5462: "09040000", 5499: "09030000",
	5812: "09010000", 5813: "09050000", 5814: "09060000", 5921: "09080000",
	4121: "11010000", 4111: "11020000", 4131: "11020000", 5541: "11030000", 5542: "11030000", 7523: "11040000",
	4784: "11050000", 7512: "11070000", 7542: "11090000", 7538: "11060000",
	3000: "10010000", 4511: "10010000", 7011: "10020000", 4722: "10030000",
	5912: "14010000", 8011: "14080000", 8021: "14020000", 8062: "14030000", 8071: "14070000", 8043: "14040000",
	7997: "14060000", 742: "14100000",
	8211: "15010000", 8220: "15020000", 8299: "15070000", 5942: "08050000", 5943: "08050000",
	4814: "07030000", 4899: "07040000", 4900: "07060000", 5968: "07110000", 5734: "07110000",
	5311: "08110000", 5651: "08030000", 5691: "08030000", 5699: "08030000", 5661: "08030000",
	5732: "08020000", 5722: "08020000", 5995: "08040000", 5941: "08060000", 5712: "08070000", 5200: "08080000",
	5211: "08080000", 5977: "08090000", 5945: "08120000", 5947: "08100000", 5999: "08010000", 5964: "08010000",
	7832: "16040000", 7922: "16040000", 7994: "16030000", 5815: "16010000", 5816: "16030000", 5817: "16010000",
	5818: "16010000", 7996: "16080000", 7941: "16050000",
	6300: "12010000", 7995: "18010000", 8398: "17010000", 8661: "17020000",
}

// merchantCategories maps the merchant category words institutions report.
var merchantCategories = []rule{
	{[]string{"RESTAURANTE"}, "09010000"}, {[]string{"SUPERMERCADO"}, "09030000"}, {[]string{"FARMACIA"}, "14010000"},
	{[]string{"POSTO", "COMBUSTIVEL"}, "11030000"}, {[]string{"TRANSPORTE"}, "11010000"}, {[]string{"VESTUARIO"}, "08030000"},
	{[]string{"ELETRONICOS"}, "08020000"}, {[]string{"STREAMING"}, "16010000"}, {[]string{"EDUCACAO"}, "15000000"},
	{[]string{"SAUDE"}, "14000000"}, {[]string{"VIAGEM", "TURISMO"}, "10000000"}, {[]string{"LAZER"}, "16000000"},
}

// accents maps the accented letters of Portuguese to their plain forms. A table beats a
// Unicode normaliser here: it is allocation-light and safe to share between goroutines.
var accents = strings.NewReplacer(
	"á", "a", "à", "a", "â", "a", "ã", "a", "ä", "a", "é", "e", "ê", "e", "è", "e", "í", "i", "î", "i",
	"ó", "o", "ô", "o", "õ", "o", "ö", "o", "ú", "u", "ü", "u", "ç", "c",
	"Á", "A", "À", "A", "Â", "A", "Ã", "A", "É", "E", "Ê", "E", "Í", "I", "Ó", "O", "Ô", "O", "Õ", "O",
	"Ú", "U", "Ü", "U", "Ç", "C",
)

func fold(s string) string {
	return " " + strings.ToUpper(accents.Replace(s)) + " "
}

var (
	descriptionWords = newWordMatcher(descriptionRules)
	merchantWords    = newWordMatcher(merchantCategories)
)

// Categorize assigns a category id, or "" when nothing matched. Precedence: the merchant's
// own words, the description, the card's MCC, the merchant directory's category of its
// CNAE, the merchant category the institution sent, then the operation.
func Categorize(in CategorizeInput) string {
	desc := fold(in.Description)
	if strings.TrimSpace(in.MerchantName) != "" {
		if c := descriptionWords.match(fold(in.MerchantName)); c != "" {
			return c
		}
	}
	if c := descriptionWords.match(desc); c != "" {
		return c
	}
	if c, ok := mccCategories[in.MCC]; ok {
		return c
	}
	if in.DirectoryCategory != "" {
		return in.DirectoryCategory
	}
	if c := merchantWords.match(fold(in.MerchantCat)); c != "" {
		return c
	}
	op := strings.ToUpper(in.OperationType)
	switch {
	case strings.Contains(op, "PIX") || strings.Contains(desc, " PIX "):
		return "05010000"
	case op == "TED" || strings.Contains(desc, " TED "):
		return "05020000"
	case op == "DOC" || strings.Contains(desc, " DOC "):
		return "05030000"
	case strings.Contains(op, "BOLETO") || strings.Contains(desc, "BOLETO") || strings.Contains(desc, "PAGTO ELETRON") || strings.Contains(desc, "PAGAMENTO DE TITULO"):
		return "05050000"
	case strings.Contains(op, "TARIFA"):
		return "19000000"
	case strings.Contains(desc, "TRANSF") || strings.Contains(op, "TRANSFERENCIA"):
		return "05040000"
	case strings.Contains(desc, "DEB AUT") || strings.Contains(desc, "DEBITO AUTOMATICO"):
		return "05060000"
	}
	return ""
}
