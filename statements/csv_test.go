package statements

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// latin1 writes s as ISO-8859-1, as Itaú, Bradesco and Banco do Brasil export.
func latin1(s string) []byte {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			panic("not Latin-1: " + string(r))
		}
		b = append(b, byte(r))
	}
	return b
}

func crlf(lines ...string) string { return strings.Join(lines, "\r\n") + "\r\n" }
func lf(lines ...string) string   { return strings.Join(lines, "\n") + "\n" }

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, SaoPaulo) }

// plain is a simple mapping the fault cases vary.
func plain() Mapping {
	return Mapping{
		Delimiter:  ";",
		Columns:    Columns{Date: name("Data"), Description: cols("Descrição"), Amount: name("Valor")},
		DateFormat: "DD/MM/YYYY",
		Decimal:    "comma",
	}
}

func TestParseCSVRefusesWithTheLine(t *testing.T) {
	typed := plain()
	typed.Columns.Type = name("Tipo")
	typed.Sign = SignType
	split := plain()
	split.Columns.Amount = Column{}
	split.Columns.Debit, split.Columns.Credit = name("Débito"), name("Crédito")
	positions := Mapping{Delimiter: ";", NoHeader: true, DateFormat: "DD/MM/YYYY", Decimal: "comma",
		Columns: Columns{Date: pos(1), Description: ColumnList{pos(2)}, Amount: pos(4)}}
	cases := []struct {
		name string
		m    Mapping
		file string
		line int
		msg  string
	}{
		{"bad date", plain(), lf("Data;Descrição;Valor", "01/02/2026;Pão;-3,00", "31/02/2026;Leite;-5,00"), 3, `date "31/02/2026"`},
		{"date in another form", plain(), lf("Data;Descrição;Valor", "2026-02-01;Pão;-3,00"), 2, "form DD/MM/YYYY"},
		{"bad amount", plain(), lf("Data;Descrição;Valor", "01/02/2026;Pão;-3,00", "02/02/2026;Leite;cinco"), 3, `amount "cinco"`},
		{"amount of three dot decimals", plain(), lf("Data;Descrição;Valor", "01/02/2026;Pão;1.2345"), 2, "not a number"},
		{"empty amount", plain(), lf("Data;Descrição;Valor", "01/02/2026;Pão;"), 2, "amount column"},
		{"missing column", plain(), lf("Data;Descrição;Valor", "01/02/2026;Pão;-3,00", "02/02/2026;Leite"), 3, "the row has 2 columns"},
		{"missing positional column", positions, lf("01/02/2026;Pão;x;-3,00", "02/02/2026;Leite;x"), 2, "column 4"},
		{"no header", plain(), lf("Extrato", "Data;Histórico;Valor", "01/02/2026;Pão;-3,00"), 1, `"Descrição"`},
		{"no transactions", plain(), lf("Data;Descrição;Valor"), 0, "no transactions"},
		{"only a footer", plain(), lf("Data;Descrição;Valor", "Total;;0,00", "Saldo final;;10,00"), 0, "no transactions"},
		{"empty file", plain(), "", 0, "no transactions"},
		{"unknown type", typed, lf("Data;Descrição;Valor;Tipo", "01/02/2026;Pão;3,00;D", "02/02/2026;Leite;5,00;X"), 3, `type "X"`},
		{"neither debit nor credit", split, lf("Data;Descrição;Débito;Crédito", "01/02/2026;Pão;3,00;", "02/02/2026;Leite;;"), 3, "neither the debit"},
		{"bad debit", split, lf("Data;Descrição;Débito;Crédito", "01/02/2026;Pão;três;"), 2, `debit "três"`},
		// A quoted description running over two lines: the next row's line is still right.
		{"after an embedded newline", plain(), lf("Data;Descrição;Valor", `01/02/2026;"Pão`, `de queijo";-3,00`, "02/02/2026;Leite;x"), 4, `amount "x"`},
		{"after blank lines", plain(), lf("", "Data;Descrição;Valor", "", "01/02/2026;Pão;-3,00", "", " \t", "\r", "02/02/2026;Leite;-1", "", "", "03/02/2026;Leite;x"), 11, `amount "x"`},
		{"after blank lines in a quoted field", plain(), lf("Data;Descrição;Valor", `01/02/2026;"Pão`, "", "", `de queijo";-3,00`, "", "02/02/2026;Leite;x"), 7, `amount "x"`},
		{"invalid mapping", Mapping{Delimiter: ";"}, lf("Data;Descrição;Valor"), 0, "mapping is not valid"},
		{"NUL byte", plain(), "Data;Descrição;Valor\n01/02/2026;P\x00;-3,00\n", 2, "NUL"},
		{"long cell cut short", plain(), lf("Data;Descrição;Valor", "01/02/2026;Pão;"+strings.Repeat("9x", 500)), 2, "…"},
	}
	for _, c := range cases {
		_, err := ParseCSV([]byte(c.file), c.m)
		var se *Error
		if !errors.As(err, &se) {
			t.Errorf("%s: error %v, want *Error", c.name, err)
			continue
		}
		if se.Line != c.line || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("%s: line %d %q; want line %d containing %q", c.name, se.Line, se.Msg, c.line, c.msg)
		}
		if len(se.Msg) > 400 {
			t.Errorf("%s: message of %d bytes", c.name, len(se.Msg))
		}
	}
}

func TestParseCSVRefusesAFileOverTheLimit(t *testing.T) {
	b := make([]byte, MaxFileBytes+1)
	_, err := ParseCSV(b, plain())
	var se *Error
	if !errors.As(err, &se) || se.Line != 0 || !strings.Contains(se.Msg, "64 MiB") {
		t.Fatalf("over the limit: %v", err)
	}
}

func TestParseCSVRefusesHostileFilesQuickly(t *testing.T) {
	empty := bytes.Repeat([]byte("\n"), 10_000_000)
	withHeader := append([]byte("Data;Descrição;Valor\n"), empty...)
	crlfs := bytes.Repeat([]byte("\r\n"), 10_000_000)
	delims := bytes.Repeat([]byte(";"), 10_000_000)
	wideRow := append([]byte("Data;Descrição;Valor\n"), delims...)
	unclosed := append([]byte("Data;Descrição;Valor\n01/02/2026;\"PADARIA;-1,00\n"), bytes.Repeat([]byte("x;y;z\n"), 200_000)...)
	titles := bytes.Repeat([]byte("Data;Descrição;Valor\n<A>;<B>;<C>\n"), 1_000_000)
	cases := []struct {
		name string
		file []byte
		line int
		msg  string
	}{
		{"empty", empty, 0, "no transactions"},
		{"after a header", withHeader, 0, "no transactions"},
		{"CRLF", crlfs, 0, "no transactions"},
		{"one line of delimiters", delims, 1, "over 64 KiB"},
		{"a row of ten million empty cells", wideRow, 2, "over 64 KiB"},
		{"a quote that never closes", unclosed, 2, "a quote that never closes"},
		{"two million rows without a date", titles, 52, "no transaction in the first 50 rows"},
	}
	for _, c := range cases {
		_, err := ParseCSV(c.file, plain())
		var se *Error
		if !errors.As(err, &se) || se.Line != c.line || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

func TestParseCSVRows(t *testing.T) {
	m := plain()
	m.Delimiter = "auto"
	m.SkipRows = 1
	m.Columns.Description = cols("Histórico", "Descrição")
	m.Columns.ID = name("ID")
	m.BalanceRows = []string{"Saldo anterior"}
	f, err := ParseCSV([]byte(lf(
		"Data;Histórico;Descrição;Valor;ID", // skipped by skipRows, though it looks like the header
		"Banco Exemplo S.A.",
		"  DATA ; HISTORICO ;DESCRICAO;valor;id",
		";;;;",
		"Subtotal anterior;;;;", // text before the first dated row: skipped
		"01/02/2026;Saldo Anterior;;100,00;",
		`02/02/2026;"Compra; parcelada";"Loja ""Boa""";-1.234,56;a1`,
		"2/2/2026;  Pix   recebido ;PIX RECEBIDO;+10;a2",
		"",
		"03/02/2026;Tarifa;;(12,30);a3",
		"Saldo final;;;-1.136,86;",
		"99/99/9999;ignored after the footer;;x;",
	)), m)
	if err != nil {
		t.Fatal(err)
	}
	got := f.Statements[0].Lines
	want := []Line{
		{FITID: "a1", Date: day(2026, 2, 2), Amount: -123456, Description: `Compra; parcelada - Loja "Boa"`},
		{FITID: "a2", Date: day(2026, 2, 2), Amount: 1000, Description: "Pix recebido"},
		{FITID: "a3", Date: day(2026, 2, 3), Amount: -1230, Description: "Tarifa"},
	}
	if len(got) != len(want) {
		t.Fatalf("lines %+v", got)
	}
	for i := range want {
		if got[i].FITID != want[i].FITID || !got[i].Date.Equal(want[i].Date) || got[i].Amount != want[i].Amount || got[i].Description != want[i].Description {
			t.Errorf("line %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if b := f.Statements[0].Balance; b == nil || b.Amount != 10000 || !b.Date.Equal(day(2026, 2, 1)) {
		t.Errorf("balance %+v", b)
	}
	if k := f.Statements[0].Account.Kind; k != KindBank {
		t.Errorf("kind %q", k)
	}
}

func TestParseCSVSigns(t *testing.T) {
	inverted := plain()
	inverted.Sign = SignInverted
	typed := plain()
	typed.Columns.Type = name("Natureza")
	typed.Sign = SignType
	custom := typed
	custom.DebitValues, custom.CreditValues = []string{"Saída"}, []string{"Entrada"}
	cases := []struct {
		m    Mapping
		file string
		want []int64
	}{
		{inverted, lf("Data;Descrição;Valor", "01/02/2026;Compra;10,00", "02/02/2026;Pagamento;-20,00"), []int64{-1000, 2000}},
		{typed, lf("Data;Descrição;Valor;Natureza", "01/02/2026;a;10,00;Débito", "01/02/2026;b;-20,00;CRÉDITO", "01/02/2026;c;5;d", "01/02/2026;d;5;C"), []int64{-1000, 2000, -500, 500}},
		{custom, lf("Data;Descrição;Valor;Natureza", "01/02/2026;a;10,00;saida", "01/02/2026;b;20,00;ENTRADA"), []int64{-1000, 2000}},
	}
	for i, c := range cases {
		f, err := ParseCSV([]byte(c.file), c.m)
		if err != nil {
			t.Errorf("%d: %v", i, err)
			continue
		}
		var got []int64
		for _, l := range f.Statements[0].Lines {
			got = append(got, l.Amount)
		}
		if len(got) != len(c.want) {
			t.Errorf("%d: %v, want %v", i, got, c.want)
			continue
		}
		for j := range got {
			if got[j] != c.want[j] {
				t.Errorf("%d: %v, want %v", i, got, c.want)
				break
			}
		}
	}
}

func TestParseCSVDelimitersAndLineEnds(t *testing.T) {
	rows := [][]string{{"Data", "Descrição", "Valor"}, {"01/02/2026", "Pão, francês", "-3,50"}, {"02/02/2026", "Leite", "10"}}
	for _, d := range []string{",", ";", "\t"} {
		for _, end := range []string{"\n", "\r\n", "\r"} {
			var sb strings.Builder
			for _, r := range rows {
				for i, c := range r {
					if i > 0 {
						sb.WriteString(d)
					}
					if strings.Contains(c, d) || strings.Contains(c, ",") {
						c = `"` + c + `"`
					}
					sb.WriteString(c)
				}
				sb.WriteString(end)
			}
			for _, md := range []string{d, "auto", ""} {
				m := plain()
				m.Delimiter = md
				f, err := ParseCSV([]byte(sb.String()), m)
				if err != nil {
					t.Errorf("delimiter %q (mapping %q) line end %q: %v", d, md, end, err)
					continue
				}
				ls := f.Statements[0].Lines
				if len(ls) != 2 || ls[0].Description != "Pão, francês" || ls[0].Amount != -350 || ls[1].Amount != 1000 {
					t.Errorf("delimiter %q (mapping %q) line end %q: %+v", d, md, end, ls)
				}
			}
		}
	}
}

func TestParseCSVSniffsTheDelimiterOfAHeaderByPosition(t *testing.T) {
	m := Mapping{Delimiter: "auto", DateFormat: "DD/MM/YYYY HH:mm", Decimal: "dot",
		Columns: Columns{Date: pos(1), Description: ColumnList{pos(2)}, Amount: pos(3)}}
	f, err := ParseCSV([]byte(lf("When;What;How much", "01/02/2026 13:45;Pão;-3.50")), m)
	if err != nil {
		t.Fatal(err)
	}
	l := f.Statements[0].Lines[0]
	if l.Amount != -350 || !l.Date.Equal(time.Date(2026, 2, 1, 13, 45, 0, 0, SaoPaulo)) {
		t.Errorf("%+v", l)
	}
	_, err = ParseCSV([]byte(lf("When What How much", "01/02/2026 Pão -3.50")), m)
	var se *Error
	if !errors.As(err, &se) || se.Line != 1 || !strings.Contains(se.Msg, "delimiters") {
		t.Errorf("no delimiter: %v", err)
	}
}

func TestParseCSVDecimalAuto(t *testing.T) {
	m := plain()
	m.Decimal = "auto"
	cases := map[string]int64{"5964.52": 596452, "1.060,00": 106000, "1.234": 123400, "1,234": 123400,
		"1,5": 150, "-0.5": -50, "1,234.56": 123456, "(12,30)": -1230, "7": 700}
	for in, want := range cases {
		f, err := ParseCSV([]byte(lf("Data;Descrição;Valor", `01/02/2026;x;"`+in+`"`)), m)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if got := f.Statements[0].Lines[0].Amount; got != want {
			t.Errorf("%s: %d, want %d", in, got, want)
		}
	}
}

func TestParseCSVAccountFromTheFile(t *testing.T) {
	m := plain()
	m.Account = AccountMapping{Kind: KindCreditCard, BankID: "999", BranchAfter: "Agência", NumberAfter: "Conta"}
	f, err := ParseCSV([]byte(lf(
		"Extrato de conta corrente", // "conta" with no number after it: looked past
		"AGENCIA: 0001-9 | Conta-corrente 1234 | CONTA: 12.345-x",
		"Data;Descrição;Valor",
		"01/02/2026;Pão;-3,00",
	)), m)
	if err != nil {
		t.Fatal(err)
	}
	if a := f.Statements[0].Account; a != (Account{Kind: KindCreditCard, BankID: "999", Branch: "0001-9", Number: "12.345-X"}) {
		t.Errorf("account %+v", a)
	}
}

func TestParseCSVBalanceOfANewestFirstFile(t *testing.T) {
	m := plain()
	m.Columns.Balance = name("Saldo")
	f, err := ParseCSV([]byte(lf(
		"Data;Descrição;Valor;Saldo",
		"03/02/2026;c;-1,00;97,00",
		"03/02/2026;b;-1,00;98,00",
		"02/02/2026;a;-1,00;99,00",
	)), m)
	if err != nil {
		t.Fatal(err)
	}
	if b := f.Statements[0].Balance; b == nil || b.Amount != 9700 || !b.Date.Equal(day(2026, 2, 3)) {
		t.Errorf("balance %+v, want 97,00 on 03/02", b)
	}
}
