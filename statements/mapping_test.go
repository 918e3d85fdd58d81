package statements

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestMappingJSON(t *testing.T) {
	var m Mapping
	err := json.Unmarshal([]byte(`{
		"delimiter": ";", "skipRows": 2,
		"columns": {"date": "Data", "description": ["Histórico", 3], "amount": 4, "id": "Identificador"},
		"dateFormat": "DD/MM/YYYY", "decimal": "comma", "sign": "inverted",
		"balanceRows": ["Saldo anterior"],
		"account": {"kind": "CREDIT_CARD", "bankId": "260", "numberAfter": "Conta"}
	}`), &m)
	if err != nil {
		t.Fatal(err)
	}
	want := Mapping{Delimiter: ";", SkipRows: 2,
		Columns: Columns{Date: name("Data"), Description: ColumnList{name("Histórico"), pos(3)},
			Amount: pos(4), ID: name("Identificador")},
		DateFormat: "DD/MM/YYYY", Decimal: "comma", Sign: SignInverted,
		BalanceRows: []string{"Saldo anterior"},
		Account:     AccountMapping{Kind: KindCreditCard, BankID: "260", NumberAfter: "Conta"}}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got %+v\nwant %+v", m, want)
	}
	if err := m.Check(); err != nil {
		t.Errorf("check: %v", err)
	}

	// A single description column needs no array.
	var one Mapping
	if err := json.Unmarshal([]byte(`{"columns": {"date": 1, "description": 2, "amount": 3}}`), &one); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one.Columns.Description, ColumnList{pos(2)}) {
		t.Errorf("single description: %+v", one.Columns.Description)
	}
}

func TestColumnJSONRefusals(t *testing.T) {
	for _, in := range []string{`0`, `-1`, `1.5`, `true`, `{}`, `["a"]`} {
		var c Column
		if err := json.Unmarshal([]byte(in), &c); err == nil {
			t.Errorf("column %s accepted as %+v", in, c)
		}
	}
}

func TestMappingCheck(t *testing.T) {
	ok := plain()
	cases := []struct {
		change func(*Mapping)
		msg    string
	}{
		{func(m *Mapping) { m.Delimiter = "|" }, `delimiter "|"`},
		{func(m *Mapping) { m.SkipRows = -1 }, "skipRows"},
		{func(m *Mapping) { m.Columns.Date = Column{} }, "columns.date is missing"},
		{func(m *Mapping) { m.Columns.Description = nil }, "columns.description is missing"},
		{func(m *Mapping) { m.Columns.Description = ColumnList{{}} }, "columns.description[0] is empty"},
		{func(m *Mapping) { m.Columns.Amount = Column{} }, "columns.amount is missing"},
		{func(m *Mapping) { m.Columns.Debit = name("D") }, "both given"},
		{func(m *Mapping) { m.Columns.Amount, m.Columns.Debit = Column{}, name("D") }, "go together"},
		{func(m *Mapping) { m.Columns.Amount = name(" | ") }, "columns.amount is a blank name"},
		{func(m *Mapping) { m.NoHeader = true }, "noHeader is true"},
		{func(m *Mapping) { m.Columns.Amount = pos(5000) }, "position 5000"},
		{func(m *Mapping) { m.DateFormat = "" }, "dateFormat is empty"},
		{func(m *Mapping) { m.DateFormat = strings.Repeat("DD/MM/YYYY|", 10) + "YYYYMMDD" }, "at most 10 forms"},
		{func(m *Mapping) { m.Columns.Description = make(ColumnList, 21) }, "at most 20"},
		{func(m *Mapping) { m.Columns.Amount = name(strings.Repeat("a", 201)) }, "at most 200"},
		{func(m *Mapping) { m.BalanceRows = []string{strings.Repeat("saldo ", 40)} }, "over 200 characters"},
		{func(m *Mapping) { m.DateFormat = "DD/MM/AAAA" }, `dateFormat "DD/MM/AAAA"`},
		{func(m *Mapping) { m.DateFormat = "DD/MM/YYYY|" }, "dateFormat is empty"},
		{func(m *Mapping) { m.Decimal = "" }, "decimal is missing"},
		{func(m *Mapping) { m.Decimal = "point" }, `decimal "point"`},
		{func(m *Mapping) { m.Sign = "negative" }, `sign "negative"`},
		{func(m *Mapping) { m.Sign = SignType }, "needs columns.type"},
		{func(m *Mapping) {
			m.Columns.Amount, m.Columns.Debit, m.Columns.Credit, m.Sign = Column{}, name("D"), name("C"), SignInverted
		}, "already say the sign"},
		{func(m *Mapping) { m.DebitValues = []string{"D"} }, `only with sign "type"`},
		{func(m *Mapping) {
			m.Sign, m.Columns.Type, m.DebitValues, m.CreditValues = SignType, name("T"), []string{"Débito"}, []string{"DEBITO"}
		}, "both a debit and a credit value"},
		{func(m *Mapping) { m.BalanceRows = []string{" "} }, "blank descriptions"},
		{func(m *Mapping) { m.Account.Kind = "SAVINGS" }, `account.kind "SAVINGS"`},
		{func(m *Mapping) { m.Account.Number, m.Account.NumberAfter = "1", "Conta" }, "account.number is fixed"},
		{func(m *Mapping) { m.Account.NumberAfter, m.Account.NumberColumn = "Conta", name("Conta") }, "give one"},
		{func(m *Mapping) { m.Account.Branch, m.Account.BranchAfter = "1", "Ag" }, "account.branch is fixed"},
		{func(m *Mapping) { m.Account.BankID = strings.Repeat("1", 65) }, "account.bankId is 65 characters"},
	}
	if err := ok.Check(); err != nil {
		t.Fatalf("base mapping: %v", err)
	}
	for i, c := range cases {
		m := plain()
		c.change(&m)
		err := m.Check()
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%d: %v, want it to say %q", i, err, c.msg)
		}
	}
	for _, f := range []string{"dd/mm/yyyy", "YYYYMMDD", "02/01/2006", "2006-01-02T15:04:05Z07:00", "02 Jan 2006", "DD/MM/YYYY|DD/MM/YY"} {
		m := plain()
		m.DateFormat = f
		if err := m.Check(); err != nil {
			t.Errorf("date format %q refused: %v", f, err)
		}
	}
}

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"  Descrição ":     "descricao",
		"DÉBITO":           "debito",
		"Data  Lançamento": "data lancamento",
		"S A L D O":        "s a l d o",
		"Nº Documento":     "nº documento",
	} {
		if got := fold(in); got != want {
			t.Errorf("fold(%q) = %q, want %q", in, got, want)
		}
	}
}
