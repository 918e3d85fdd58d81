package statements

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

type wantLine struct {
	date   time.Time
	amount int64
	desc   string
	fitid  string
	refnum string
}

// Each file is written as the bank exports it (title lines, encoding, line ends, quoting,
// balance and footer lines), from the layouts banks.go cites.
var bankFiles = []struct {
	mapping string
	file    []byte
	account Account
	balance *Balance
	lines   []wantLine
}{
	{
		mapping: "nubank-conta",
		file: []byte(lf(
			"Data,Valor,Identificador,Descrição",
			"01/05/2025,-37.79,68138eea-2dd1-40ae-898f-6ebf077ff936,Compra no débito via NuPay - iFood",
			`02/05/2025,1500.00,6814a0b1-8c2d-4e0f-9a3b-5c6d7e8f9a0b,"Transferência recebida pelo Pix - FULANO, DE TAL"`,
			"03/05/2025,-0.00,6815b1c2-9d3e-4f10-8b4c-6d7e8f9a0b1c,Estorno de tarifa",
		)),
		account: Account{Kind: KindBank, BankID: "260"},
		lines: []wantLine{
			{day(2025, 5, 1), -3779, "Compra no débito via NuPay - iFood", "68138eea-2dd1-40ae-898f-6ebf077ff936", ""},
			{day(2025, 5, 2), 150000, "Transferência recebida pelo Pix - FULANO, DE TAL", "6814a0b1-8c2d-4e0f-9a3b-5c6d7e8f9a0b", ""},
			{day(2025, 5, 3), 0, "Estorno de tarifa", "6815b1c2-9d3e-4f10-8b4c-6d7e8f9a0b1c", ""},
		},
	},
	{
		mapping: "nubank-cartao",
		file: []byte(lf(
			"date,title,amount",
			"2025-12-20,Studio Z - Parcela 1/3,106.66",
			"2025-12-20,Burger King,72.80",
			"2025-12-05,Pagamento recebido,-4558.53",
		)),
		account: Account{Kind: KindCreditCard, BankID: "260"},
		lines: []wantLine{
			{day(2025, 12, 20), -10666, "Studio Z - Parcela 1/3", "", ""},
			{day(2025, 12, 20), -7280, "Burger King", "", ""},
			{day(2025, 12, 5), 455853, "Pagamento recebido", "", ""},
		},
	},
	{
		mapping: "nubank-cartao", // older files carry a category column
		file: []byte(lf(
			"date,category,title,amount",
			"2021-03-01,restaurante,Padaria Doce,12.5",
		)),
		account: Account{Kind: KindCreditCard, BankID: "260"},
		lines:   []wantLine{{day(2021, 3, 1), -1250, "Padaria Doce", "", ""}},
	},
	{
		mapping: "inter",
		file: latin1(crlf(
			"Extrato Conta Corrente",
			"Conta ;72385499",
			"Período ;19/08/2026 a 17/09/2026",
			"Saldo ;1.992,51",
			"",
			"Data Lançamento;Histórico;Descrição;Valor;Saldo",
			"30/08/2026;Pix enviado;JOAO DA SILVA;-250,00;1.742,51",
			"30/08/2026;Pix enviado;JOAO DA SILVA;-250,00;1.492,51",
			"02/09/2026;Pagamento efetuado;NETFLIX.COM;-55,90;1.436,61",
			"03/09/2026;Pix recebido;;1.000,00;2.436,61",
		)),
		account: Account{Kind: KindBank, BankID: "077", Number: "72385499"},
		balance: &Balance{Amount: 243661, Date: day(2026, 9, 3)},
		lines: []wantLine{
			{day(2026, 8, 30), -25000, "Pix enviado - JOAO DA SILVA", "", ""},
			{day(2026, 8, 30), -25000, "Pix enviado - JOAO DA SILVA", "", ""},
			{day(2026, 9, 2), -5590, "Pagamento efetuado - NETFLIX.COM", "", ""},
			{day(2026, 9, 3), 100000, "Pix recebido", "", ""},
		},
	},
	{
		mapping: "itau",
		file: latin1(crlf(
			"01/09/2026;SALDO ANTERIOR;1.000,00",
			"02/09/2026;PIX TRANSF MARIA 02/09;-250,00",
			"02/09/2026;SALDO DO DIA;750,00",
			"03/09/2026;TAR PACOTE SERVIÇOS;-12,90",
			"03/09/2026;REND PAGO APLIC AUT;1,45",
		)),
		account: Account{Kind: KindBank, BankID: "341"},
		balance: &Balance{Amount: 75000, Date: day(2026, 9, 2)},
		lines: []wantLine{
			{day(2026, 9, 2), -25000, "PIX TRANSF MARIA 02/09", "", ""},
			{day(2026, 9, 3), -1290, "TAR PACOTE SERVIÇOS", "", ""},
			{day(2026, 9, 3), 145, "REND PAGO APLIC AUT", "", ""},
		},
	},
	{
		mapping: "itau-planilha",
		file: latin1(crlf(
			"Logotipo Itaú;;;;",
			"Atualização:;15/09/2026;;;",
			"Agência:;2059;;;",
			"Conta:;0099676-5;;;",
			"data;lançamento;ag./origem;valor (R$);saldos (R$)",
			"lançamentos;;;;",
			"30/09/2026;SALDO ANTERIOR;;;1.200,00",
			"01/10/2026;PIX TRANSF ERICA G01/10;;-950,00;",
			"01/10/2026;SALDO DO DIA;;;250,00",
			"02/10/2026;TED HOTMART COMPANY;0001;2.500,00;2.750,00",
			";(+) LIMITE DA CONTA TOTAL;;15.500,00;",
			"lançamentos futuros;;;;",
			"05/10/2026;BOLETO AGENDADO;;-100,00;",
		)),
		account: Account{Kind: KindBank, BankID: "341", Branch: "2059", Number: "0099676-5"},
		balance: &Balance{Amount: 275000, Date: day(2026, 10, 2)},
		lines: []wantLine{
			{day(2026, 10, 1), -95000, "PIX TRANSF ERICA G01/10", "", ""},
			{day(2026, 10, 2), 250000, "TED HOTMART COMPANY", "", ""},
		},
	},
	{
		mapping: "bradesco",
		file: latin1(crlf(
			"Extrato de: Ag: 1234 | Conta: 123456-7 | Entre 01/01/2026 e 31/01/2026;;;;;",
			"Data;Histórico;Docto.;Crédito (R$);Débito (R$);Saldo (R$);",
			"31/12/25;SALDO ANTERIOR;;;;488,64;",
			"02/01/26;GASTOS CARTAO DE CREDITO;9081726; ;354,60;134,04;",
			"03/01/26;Reg Rendimento*;0004135;;-1,17;132,87;",
			"20/01/26;Transfe Pix;1951332;15.000,00;;15.132,87;",
			";;;;;",
			"Filtro de resultados - Movimentação entre:  01/01/2026 e 31/01/2026;;;;;",
			"Últimos Lançamentos;;;;;",
			"Data;Histórico;Docto.;Crédito (R$);Débito (R$);",
			"01/02/26;COD. LANC. 0;0; ; ;15.132,87",
			"01/02/26;LOJA BETA;666; ;500,00;14.632,87",
			";;Total;0,00;500,00;14.632,87;",
		)),
		account: Account{Kind: KindBank, BankID: "237", Branch: "1234", Number: "123456-7"},
		balance: &Balance{Amount: 1513287, Date: day(2026, 1, 20)},
		lines: []wantLine{
			{day(2026, 1, 2), -35460, "GASTOS CARTAO DE CREDITO", "", "9081726"},
			{day(2026, 1, 3), -117, "Reg Rendimento*", "", "0004135"},
			{day(2026, 1, 20), 1500000, "Transfe Pix", "", "1951332"},
		},
	},
	{
		mapping: "bradesco", // newer files: four-digit years, the opening balance as COD. LANC. 0
		file: latin1(crlf(
			"Extrato de: Ag: 1234 | Conta: 99999-9;;;;;",
			"Data;Histórico;Docto.;Crédito (R$);Débito (R$);Saldo (R$)",
			"30/04/2026;COD. LANC. 0;0;0,00; ;2.539,71",
			"04/05/2026;COMPRA ELO DEBITO VISTA;10099; ;56,50;2.483,21",
			"07/05/2026;RENDIMENTOS;706673;4,56; ;2.487,77",
			";;;;;",
			";;Total;4,56;56,50;2.487,77;",
		)),
		account: Account{Kind: KindBank, BankID: "237", Branch: "1234", Number: "99999-9"},
		balance: &Balance{Amount: 248777, Date: day(2026, 5, 7)},
		lines: []wantLine{
			{day(2026, 5, 4), -5650, "COMPRA ELO DEBITO VISTA", "", "10099"},
			{day(2026, 5, 7), 456, "RENDIMENTOS", "", "706673"},
		},
	},
	{
		mapping: "banco-do-brasil",
		file: latin1(crlf(
			`"Data","Dependencia Origem","Histórico","Data do Balancete","Número do documento","Valor",`,
			`"31/12/2024","","Saldo Anterior","","0","20750.31",`,
			`"02/01/2025","5899-8","Compra com Cartão - 01/01 14:53 AUTO POSTO LUCKY","","153589","-164.48",`,
			`"03/01/2025","","Pix - Recebido - 03/01 10:00 FULANO, DE TAL","","","1500.00",`,
			`"03/01/2025","","S A L D O","","","22085.83",`,
		)),
		account: Account{Kind: KindBank, BankID: "001"},
		balance: &Balance{Amount: 2208583, Date: day(2025, 1, 3)},
		lines: []wantLine{
			{day(2025, 1, 2), -16448, "Compra com Cartão - 01/01 14:53 AUTO POSTO LUCKY", "", "153589"},
			{day(2025, 1, 3), 150000, "Pix - Recebido - 03/01 10:00 FULANO, DE TAL", "", ""},
		},
	},
	{
		mapping: "banco-do-brasil", // the same layout with comma decimals
		file: latin1(crlf(
			`"Data","Dependencia Origem","Histórico","Data do Balancete","Número do documento","Valor",`,
			`"01/07/2026","1234-5","Transferencia recebida","01/07/2026","000987","2.000,00",`,
		)),
		account: Account{Kind: KindBank, BankID: "001"},
		lines:   []wantLine{{day(2026, 7, 1), 200000, "Transferencia recebida", "", "000987"}},
	},
	{
		mapping: "caixa",
		file: []byte(crlf(
			`"Conta";"Data_Mov";"Nr_Doc";"Historico";"Valor";"Deb_Cred"`,
			`"0423012920005778782426";"20250401";"000000";"SALDO ANTERIOR";"1000.00";"C"`,
			`"0423012920005778782426";"20250401";"310325";"COB COMPE";"5964.52";"C"`,
			`"0423012920005778782426";"20250402";"311325";"PAG BOLETO";"1.060,00";"D"`,
			`"0423012920005778782426";"20250402";"000000";"SALDO DIA";"5904.52";"C"`,
		)),
		account: Account{Kind: KindBank, BankID: "104", Number: "0423012920005778782426"},
		balance: &Balance{Amount: 590452, Date: day(2025, 4, 2)},
		lines: []wantLine{
			{day(2025, 4, 1), 596452, "COB COMPE", "", "310325"},
			{day(2025, 4, 2), -106000, "PAG BOLETO", "", "311325"},
		},
	},
	{
		mapping: "santander",
		file: latin1(crlf(
			"AGENCIA;4334;CONTA;130053675",
			"Data;Histórico;Documento;Valor (R$);Saldo (R$)",
			"01/08/2023;SALDO ANTERIOR;;;1.000,00",
			"02/08/2023;PIX ENVIADO FULANO;123456;-100,00;900,00",
			"03/08/2023;TED RECEBIDA;;2.000,00;2.900,00",
		)),
		account: Account{Kind: KindBank, BankID: "033"},
		balance: &Balance{Amount: 290000, Date: day(2023, 8, 3)},
		lines: []wantLine{
			{day(2023, 8, 2), -10000, "PIX ENVIADO FULANO", "", ""},
			{day(2023, 8, 3), 200000, "TED RECEBIDA", "", ""},
		},
	},
	{
		mapping: "c6-conta",
		file: []byte("\ufeff" + lf(
			"EXTRATO DE CONTA CORRENTE C6 BANK",
			"",
			"Agência: 1 / Conta: 12345678",
			"Extrato gerado em 06/10/2026 - as 11:04:55",
			"",
			"Extrato de 06/09/2026 a 06/10/2026",
			"",
			"",
			"Data Lançamento,Data Contábil,Título,Descrição,Entrada(R$),Saída(R$),Saldo do Dia(R$)",
			"09/09/2026,09/09/2026,Pix recebido de Fulano de Tal,Pix recebido de Fulano de Tal,65.00,0.00,3.98",
			"09/09/2026,09/09/2026,Tesouro Direto,IPCA+ 2032,0.00,61.02,3.98",
			"10/09/2026,10/09/2026,IOF CHEQUE ESPECIAL,,0.00,1.77,2.21",
			`10/09/2026,10/09/2026,CRED LOJ C DEBITO,"CART. DEBIT - Stone Pagamento, Maestro ",937.03,0.00,939.24`,
		)),
		account: Account{Kind: KindBank, BankID: "336", Branch: "1", Number: "12345678"},
		balance: &Balance{Amount: 93924, Date: day(2026, 9, 10)},
		lines: []wantLine{
			{day(2026, 9, 9), 6500, "Pix recebido de Fulano de Tal", "", ""},
			{day(2026, 9, 9), -6102, "Tesouro Direto - IPCA+ 2032", "", ""},
			{day(2026, 9, 10), -177, "IOF CHEQUE ESPECIAL", "", ""},
			{day(2026, 9, 10), 93703, "CRED LOJ C DEBITO - CART. DEBIT - Stone Pagamento, Maestro", "", ""},
		},
	},
	{
		mapping: "c6-cartao",
		file: []byte(lf(
			"Data de Compra;Nome no Cartão;Final do Cartão;Categoria;Descrição;Parcela;Valor (em US$);Cotação (em R$);Valor (em R$)",
			"17/04/2026;MATHEUS S BATISTA;0469;Especialidade varejo;COBASI;2/2;0;0;83.40",
			`11/05/2026;MATHEUS S BATISTA;3641;-;"Inclusao de Pagamento    ";Única;0;0;-3387.39`,
			"12/05/2026;MATHEUS S BATISTA;0469;Viagem;HOTEL EXTERIOR;Única;10,00;5,50;1.055,00",
		)),
		account: Account{Kind: KindCreditCard, BankID: "336"},
		lines: []wantLine{
			{day(2026, 4, 17), -8340, "COBASI - 2/2", "", ""},
			{day(2026, 5, 11), 338739, "Inclusao de Pagamento - Única", "", ""},
			{day(2026, 5, 12), -105500, "HOTEL EXTERIOR - Única", "", ""},
		},
	},
}

func TestReadyMappingsReadTheirBanksFiles(t *testing.T) {
	covered := map[string]bool{}
	for i, c := range bankFiles {
		covered[c.mapping] = true
		m, ok := ReadyMapping(c.mapping)
		if !ok {
			t.Fatalf("%d: no ready mapping %q", i, c.mapping)
		}
		f, err := ParseCSV(c.file, m)
		if err != nil {
			t.Errorf("%d %s: %v", i, c.mapping, err)
			continue
		}
		if len(f.Statements) != 1 {
			t.Fatalf("%d %s: %d statements", i, c.mapping, len(f.Statements))
		}
		st := f.Statements[0]
		if st.Account != c.account || st.Currency != "BRL" {
			t.Errorf("%d %s: account %+v %s, want %+v BRL", i, c.mapping, st.Account, st.Currency, c.account)
		}
		switch {
		case c.balance == nil && st.Balance != nil:
			t.Errorf("%d %s: balance %+v, want none", i, c.mapping, *st.Balance)
		case c.balance != nil && (st.Balance == nil || st.Balance.Amount != c.balance.Amount || !st.Balance.Date.Equal(c.balance.Date)):
			t.Errorf("%d %s: balance %+v, want %+v", i, c.mapping, st.Balance, *c.balance)
		}
		if len(st.Lines) != len(c.lines) {
			t.Errorf("%d %s: %d lines, want %d: %+v", i, c.mapping, len(st.Lines), len(c.lines), st.Lines)
			continue
		}
		for j, w := range c.lines {
			g := st.Lines[j]
			if !g.Date.Equal(w.date) || g.Amount != w.amount || g.Description != w.desc || g.FITID != w.fitid || g.RefNum != w.refnum {
				t.Errorf("%d %s line %d: %v %d %q %q %q; want %v %d %q %q %q", i, c.mapping, j,
					g.Date, g.Amount, g.Description, g.FITID, g.RefNum, w.date, w.amount, w.desc, w.fitid, w.refnum)
			}
			if g.Date.Location() != SaoPaulo {
				t.Errorf("%d %s line %d: date in %v, want São Paulo", i, c.mapping, j, g.Date.Location())
			}
		}
	}
	for _, n := range ReadyMappings() {
		if !covered[n] {
			t.Errorf("ready mapping %q has no file in this test", n)
		}
	}
}

func TestReadyMappingsNameTheLargestBanks(t *testing.T) {
	names := ReadyMappings()
	for _, want := range []string{"nubank-conta", "nubank-cartao", "inter", "itau", "bradesco",
		"banco-do-brasil", "caixa", "santander", "c6-conta"} {
		if _, ok := ReadyMapping(want); !ok {
			t.Errorf("no ready mapping %q (have %v)", want, names)
		}
	}
	for i := 1; i < len(names); i++ {
		if names[i-1] >= names[i] {
			t.Errorf("ReadyMappings not sorted: %v", names)
		}
	}
	for _, n := range names {
		m, _ := ReadyMapping(n)
		if err := m.Check(); err != nil {
			t.Errorf("ready mapping %q fails its own check: %v", n, err)
		}
	}
	if _, ok := ReadyMapping("unknown-bank"); ok {
		t.Error("ReadyMapping found an unknown bank")
	}
}

func TestReadyMappingIsACopy(t *testing.T) {
	m, _ := ReadyMapping("inter")
	m.Columns.Description[0] = Column{Name: "changed"}
	m.BalanceRows = append(m.BalanceRows, "x")
	again, _ := ReadyMapping("inter")
	if again.Columns.Description[0].Name != "Histórico" || len(again.BalanceRows) != 0 {
		t.Errorf("changing a ready mapping's copy changed the table: %+v", again)
	}
}

// Every ready mapping survives JSON unchanged, with no unset optional column written.
func TestReadyMappingsJSON(t *testing.T) {
	for _, n := range ReadyMappings() {
		m, _ := ReadyMapping(n)
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		var back Mapping
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v in %s", n, err, b)
		}
		if !reflect.DeepEqual(normalizeNil(back), normalizeNil(m)) {
			t.Errorf("%s: round trip\n%s\ngave %+v", n, b, back)
		}
		var raw struct{ Columns map[string]any }
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatal(err)
		}
		for k, v := range raw.Columns {
			if v == "" || v == nil {
				t.Errorf("%s: writes the unset column %s: %s", n, k, b)
			}
		}
	}
}

// normalizeNil makes empty and nil slices compare equal.
func normalizeNil(m Mapping) Mapping {
	for _, s := range []*[]string{&m.BalanceRows, &m.DebitValues, &m.CreditValues} {
		if len(*s) == 0 {
			*s = nil
		}
	}
	return m
}
