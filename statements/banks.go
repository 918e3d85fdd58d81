package statements

import "sort"

// The ready mappings read the CSV exports of the largest Brazilian banks and digital
// banks. Banks do not publish these layouts: each one below was taken from what several
// independent open-source importers (Firefly III's import configurations, personal
// finance tools) read from real exports, and the comment says how sure that is. Headers
// are found by name wherever the export has one, so the title and account lines banks
// put above them, whose count varies, need no skipRows. docs/statements.md shows each
// layout.

// Bank codes (COMPE) the ready mappings give, since the exports do not carry them.
const (
	compeBB        = "001"
	compeSantander = "033"
	compeInter     = "077"
	compeCaixa     = "104"
	compeBradesco  = "237"
	compeNubank    = "260"
	compeC6        = "336"
	compeItau      = "341"
)

var readyMappings = map[string]Mapping{
	// Nubank conta: "Data,Valor,Identificador,Descrição", UTF-8, dot decimals, signed
	// amounts, a UUID per transaction. Confirmed by many importers; the most stable
	// export of the list.
	"nubank-conta": {
		Delimiter: ",",
		Columns: Columns{Date: name("Data"), Description: cols("Descrição"),
			Amount: name("Valor"), ID: name("Identificador")},
		DateFormat: "DD/MM/YYYY", Decimal: "dot",
		Account: AccountMapping{Kind: KindBank, BankID: compeNubank},
	},
	// Nubank cartão: "date,title,amount" (older files add "category"), ISO dates, dot
	// decimals, purchases positive and payments negative: inverted. Confirmed (Firefly
	// III's nubank/credit.json negates the amount too).
	"nubank-cartao": {
		Delimiter: ",",
		Columns: Columns{Date: name("date"), Description: cols("title"),
			Amount: name("amount")},
		DateFormat: "YYYY-MM-DD", Decimal: "dot", Sign: SignInverted,
		Account: AccountMapping{Kind: KindCreditCard, BankID: compeNubank},
	},
	// Inter: title lines ("Extrato Conta Corrente", "Conta ;123", "Período ;…",
	// "Saldo ;…"), then "Data Lançamento;Histórico;Descrição;Valor;Saldo", comma
	// decimals, signed amounts, a running balance. Confirmed by several importers;
	// older exports wrote two-digit years (Firefly III's configuration reads d/m/y).
	"inter": {
		Delimiter: ";",
		Columns: Columns{Date: name("Data Lançamento"), Description: cols("Histórico", "Descrição"),
			Amount: name("Valor"), Balance: name("Saldo")},
		DateFormat: "DD/MM/YYYY|DD/MM/YY", Decimal: "comma",
		Account: AccountMapping{Kind: KindBank, BankID: compeInter, NumberAfter: "Conta"},
	},
	// Itaú's CSV download: no header, "data;lançamento;valor", comma decimals, signed
	// amounts, Latin-1, balance lines among the entries. Confirmed by Firefly III's
	// itau/default.json and other importers, which agree on three unnamed columns.
	"itau": {
		Delimiter: ";", NoHeader: true,
		Columns:    Columns{Date: pos(1), Description: ColumnList{pos(2)}, Amount: pos(3)},
		DateFormat: "DD/MM/YYYY", Decimal: "comma",
		BalanceRows: []string{"SALDO ANTERIOR", "SALDO DO DIA", "SALDO TOTAL", "SALDO FINAL", "S A L D O"},
		Account:     AccountMapping{Kind: KindBank, BankID: compeItau},
	},
	// Itaú's spreadsheet export saved as CSV: title lines, then
	// "data;lançamento;ag./origem;valor (R$);saldos (R$)". Reported by several
	// importers, but it is a spreadsheet the user converts, not a CSV Itaú serves.
	"itau-planilha": {
		Delimiter: "auto",
		Columns: Columns{Date: name("data"), Description: cols("lançamento"),
			Amount: name("valor (R$)|valor"), Balance: name("saldos (R$)|saldo (R$)|saldos|saldo")},
		DateFormat: "DD/MM/YYYY", Decimal: "comma",
		BalanceRows: []string{"SALDO ANTERIOR", "SALDO DO DIA", "SALDO TOTAL", "SALDO FINAL", "S A L D O"},
		Account:     AccountMapping{Kind: KindBank, BankID: compeItau, BranchAfter: "Agência", NumberAfter: "Conta"},
	},
	// Bradesco: "Extrato de: Ag: 1234 | Conta: 12345-6 | Entre …", then
	// "Data;Histórico;Docto.;Crédito (R$);Débito (R$);Saldo (R$)", Latin-1, CRLF, comma
	// decimals, separate credit and debit columns (debits bare or with a minus), the
	// opening balance as "SALDO ANTERIOR" or "COD. LANC. 0", then a footer ("Total",
	// "Filtro de resultados…", "Últimos Lançamentos" and its entries) that ends the
	// reading. Confirmed by several importers, one of them from a real file; dates come
	// with four or two-digit years.
	"bradesco": {
		Delimiter: ";",
		Columns: Columns{Date: name("Data"), Description: cols("Histórico"),
			Credit: name("Crédito (R$)|Crédito"), Debit: name("Débito (R$)|Débito"),
			Balance: name("Saldo (R$)|Saldo"), Document: name("Docto.")},
		DateFormat: "DD/MM/YYYY|DD/MM/YY", Decimal: "comma",
		BalanceRows: []string{"SALDO ANTERIOR", "COD. LANC. 0"},
		Account:     AccountMapping{Kind: KindBank, BankID: compeBradesco, BranchAfter: "Ag", NumberAfter: "Conta"},
	},
	// Banco do Brasil: "Data","Dependencia Origem","Histórico","Data do Balancete",
	// "Número do documento","Valor", (every field quoted, a trailing comma), signed
	// amounts, "Saldo Anterior" and "S A L D O" lines. Confirmed by Firefly III's
	// banco-do-brasil/default.json and several importers. The importers' samples disagree
	// on the decimal mark (20750.31 and 2.000,00), so it is read by "auto".
	"banco-do-brasil": {
		Delimiter: ",",
		Columns: Columns{Date: name("Data"), Description: cols("Histórico"),
			Amount: name("Valor"), Document: name("Número do documento")},
		DateFormat: "DD/MM/YYYY", Decimal: "auto",
		BalanceRows: []string{"Saldo Anterior", "S A L D O", "Saldo do dia"},
		Account:     AccountMapping{Kind: KindBank, BankID: compeBB},
	},
	// Caixa: "Conta";"Data_Mov";"Nr_Doc";"Historico";"Valor";"Deb_Cred", dates as
	// YYYYMMDD, unsigned amounts with C or D beside them, the account in every row,
	// "SALDO DIA" and "SALDO ANTERIOR" lines. Confirmed by several importers; their
	// samples disagree on the decimal mark (5964.52 and 1.060,00), so "auto".
	"caixa": {
		Delimiter: ";",
		Columns: Columns{Date: name("Data_Mov"), Description: cols("Historico"),
			Amount: name("Valor"), Type: name("Deb_Cred"), Document: name("Nr_Doc")},
		DateFormat: "YYYYMMDD", Decimal: "auto", Sign: SignType,
		BalanceRows: []string{"SALDO DIA", "SALDO ANT"},
		Account:     AccountMapping{Kind: KindBank, BankID: compeCaixa, NumberColumn: name("Conta")},
	},
	// Santander: NOT CONFIRMED. No importer found reads a CSV Santander serves: its
	// Internet Banking exports PDF and a spreadsheet. This mapping reads that
	// spreadsheet's columns as the importers that rebuild it describe them ("Data",
	// "Histórico", "Documento", "Valor (R$)", "Saldo (R$)") once saved as CSV; the
	// delimiter is sniffed, decimals are commas. Check it against a real file.
	"santander": {
		Delimiter: "auto",
		Columns: Columns{Date: name("Data"), Description: cols("Histórico|Descrição"),
			Amount: name("Valor (R$)|Valor R$|Valor"), Balance: name("Saldo (R$)|Saldo R$|Saldo")},
		DateFormat: "DD/MM/YYYY", Decimal: "comma",
		BalanceRows: []string{"SALDO ANTERIOR", "SALDO TOTAL", "SALDO FINAL", "SALDO DISPONÍVEL", "SALDO EM"},
		Account:     AccountMapping{Kind: KindBank, BankID: compeSantander},
	},
	// C6 conta: UTF-8 with BOM, title lines ("EXTRATO DE CONTA CORRENTE C6 BANK",
	// "Agência: 1 / Conta: 12345678", the period), then "Data Lançamento,Data Contábil,
	// Título,Descrição,Entrada(R$),Saída(R$),Saldo do Dia(R$)", dot decimals, separate in
	// and out columns. Confirmed by several importers, one from a real file.
	"c6-conta": {
		Delimiter: ",",
		Columns: Columns{Date: name("Data Lançamento"), Description: cols("Título", "Descrição"),
			Credit: name("Entrada(R$)|Entrada"), Debit: name("Saída(R$)|Saída"),
			Balance: name("Saldo do Dia(R$)|Saldo do Dia|Saldo")},
		DateFormat: "DD/MM/YYYY", Decimal: "dot",
		Account: AccountMapping{Kind: KindBank, BankID: compeC6, BranchAfter: "Agência", NumberAfter: "Conta"},
	},
	// C6 cartão: "Data de Compra;Nome no Cartão;Final do Cartão;Categoria;Descrição;
	// Parcela;Valor (em US$);Cotação (em R$);Valor (em R$)", purchases positive (so
	// inverted), the instalment ("Única", "2/3") kept in the description. Confirmed by
	// several importers; their samples disagree on the decimal mark, so "auto".
	"c6-cartao": {
		Delimiter: ";",
		Columns: Columns{Date: name("Data de Compra"), Description: cols("Descrição", "Parcela"),
			Amount: name("Valor (em R$)")},
		DateFormat: "DD/MM/YYYY", Decimal: "auto", Sign: SignInverted,
		Account: AccountMapping{Kind: KindCreditCard, BankID: compeC6},
	},
}

// ReadyMapping is the ready mapping of a bank's CSV export by name (see ReadyMappings).
func ReadyMapping(name string) (Mapping, bool) {
	m, ok := readyMappings[name]
	if !ok {
		return Mapping{}, false
	}
	// The slices are shared with the table: a caller changing its copy must not change
	// the next caller's.
	m.Columns.Description = append(ColumnList(nil), m.Columns.Description...)
	m.BalanceRows = append([]string(nil), m.BalanceRows...)
	m.DebitValues = append([]string(nil), m.DebitValues...)
	m.CreditValues = append([]string(nil), m.CreditValues...)
	return m, true
}

// ReadyMappings lists the ready mappings' names, sorted.
func ReadyMappings() []string {
	names := make([]string, 0, len(readyMappings))
	for n := range readyMappings {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
