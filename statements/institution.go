package statements

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/google/uuid"

	"ponte/itemsync"
	"ponte/model"
)

// Provider is the name the statement-file connectors give as their provider.
const Provider = "statements"

// Institution reads the statement files users upload to their items: every Brazilian bank
// lets its customers export them, so through them Ponte reaches all of them. There is no
// login: an item's data is what its files held, and each upload adds to it.
type Institution struct{}

var (
	_ itemsync.Institution  = Institution{}
	_ itemsync.FileTaker    = Institution{}
	_ itemsync.Configurable = Institution{}
)

// Connector ids of the statement files: OFX, CSV with the application's mapping, and CSV
// with a ready mapping of a bank's export. Ids are stable: clients keep them.
const (
	ConnectorOFX = 900
	ConnectorCSV = 901
)

// readyConnectors gives each ready CSV mapping its connector: id, mapping name, name shown.
var readyConnectors = []struct {
	id               int
	mapping          string
	name, color, url string
}{
	{910, "nubank-conta", "Nubank: extrato CSV", "820ad1", "https://nubank.com.br"},
	{911, "nubank-cartao", "Nubank cartão: fatura CSV", "820ad1", "https://nubank.com.br"},
	{912, "inter", "Inter: extrato CSV", "ff7a00", "https://inter.co"},
	{913, "itau", "Itaú: extrato CSV", "ec7000", "https://www.itau.com.br"},
	{914, "itau-planilha", "Itaú: planilha salva como CSV", "ec7000", "https://www.itau.com.br"},
	{915, "bradesco", "Bradesco: extrato CSV", "cc092f", "https://banco.bradesco"},
	{916, "banco-do-brasil", "Banco do Brasil: extrato CSV", "fcf800", "https://www.bb.com.br"},
	{917, "caixa", "Caixa: extrato CSV", "005ca9", "https://www.caixa.gov.br"},
	{918, "santander", "Santander: extrato CSV", "ec0000", "https://www.santander.com.br"},
	{919, "c6-conta", "C6 Bank: extrato CSV", "242424", "https://www.c6bank.com.br"},
	{920, "c6-cartao", "C6 Bank cartão: fatura CSV", "242424", "https://www.c6bank.com.br"},
}

// Connectors is the statement-file part of the catalogue.
func (Institution) Connectors(publicURL string) []model.Connector {
	epoch := model.Time{Time: time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)}
	online := model.Health{Status: model.HealthOnline}
	both := []model.Product{model.ProductAccounts, model.ProductCreditCards, model.ProductTransactions}
	format := func(f string) *string { return &f }
	list := []model.Connector{
		{ID: ConnectorOFX, Name: "Extrato OFX (qualquer banco)", PrimaryColor: "2b6cb0", StatementFormat: format("OFX"), Products: both,
			InstitutionURL: "https://financialdataexchange.org/ofx"},
		{ID: ConnectorCSV, Name: "Extrato CSV (qualquer banco)", PrimaryColor: "2f855a", StatementFormat: format("CSV"), Products: both,
			InstitutionURL: "https://www.rfc-editor.org/rfc/rfc4180"},
	}
	for _, r := range readyConnectors {
		m, _ := ReadyMapping(r.mapping)
		products := []model.Product{model.ProductAccounts, model.ProductTransactions}
		if m.Account.Kind == KindCreditCard {
			products = []model.Product{model.ProductCreditCards, model.ProductTransactions}
		}
		list = append(list, model.Connector{ID: r.id, Name: r.name, PrimaryColor: r.color, InstitutionURL: r.url, StatementFormat: format("CSV"), Products: products})
	}
	for i := range list {
		c := &list[i]
		c.ImageURL = publicURL + "/connect/assets/logo-statement.svg"
		c.Type, c.Country, c.Health, c.Provider = model.ConnectorTypePersonalBank, "BR", online, Provider
		c.Credentials = []model.CredentialParameter{}
		c.CreatedAt, c.UpdatedAt = epoch, epoch
	}
	return list
}

// Login has nothing to check: the files are the user's own.
func (Institution) Login(context.Context, *itemsync.Session) (itemsync.Step, error) {
	return itemsync.Step{}, nil
}

// Answer is never asked for: Login asks nothing.
func (Institution) Answer(context.Context, *itemsync.Session, map[string]string) (itemsync.Step, error) {
	return itemsync.Step{}, nil
}

// Configures: the generic CSV connector takes the application's mapping, and a ready one
// may be replaced (when a bank changes its export before Ponte does).
func (Institution) Configures(c *model.Connector) bool {
	return c.StatementFormat != nil && *c.StatementFormat == "CSV"
}

// CheckSettings checks a CSV mapping and returns it as it is stored.
func (Institution) CheckSettings(_ *model.Connector, settings json.RawMessage) (json.RawMessage, error) {
	var m Mapping
	dec := json.NewDecoder(strings.NewReader(string(settings)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, model.Fail(model.CodeConnectorSettingsInvalid, "The mapping is not a CSV mapping: %s.", jsonProblem(err))
	}
	if err := m.Check(); err != nil {
		return nil, model.Fail(model.CodeConnectorSettingsInvalid, "The mapping is not valid: %s", err.Error())
	}
	return json.Marshal(m)
}

// jsonProblem says what is wrong with a mapping's JSON without Go's type names.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("the field %q has the wrong type (%s)", te.Field, te.Value)
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	return msg
}

// Check reads a file before it is accepted, so one that cannot be read changes nothing.
func (Institution) Check(_ context.Context, s *itemsync.Session, file []byte) error {
	f, err := read(s, file)
	if err != nil {
		return err
	}
	for _, st := range f.Statements {
		if st.Account.Kind == KindCreditCard && !has(s.Products, model.ProductCreditCards) {
			return model.Fail(model.CodeStatementFileInvalid, "The file is a credit card statement, and this item does not collect CREDIT_CARDS.").
				WithData(map[string]any{"line": 0})
		}
		if st.Account.Kind != KindCreditCard && !has(s.Products, model.ProductAccounts) {
			return model.Fail(model.CodeStatementFileInvalid, "The file is a bank account statement, and this item does not collect ACCOUNTS.").
				WithData(map[string]any{"line": 0})
		}
	}
	return nil
}

func has(list []model.Product, p model.Product) bool {
	for _, q := range list {
		if q == p {
			return true
		}
	}
	return false
}

// read parses a file as the session's connector reads it.
func read(s *itemsync.Session, file []byte) (*File, error) {
	var f *File
	var err error
	switch {
	case s.Connector.StatementFormat != nil && *s.Connector.StatementFormat == "OFX":
		f, err = ParseOFX(file)
	default:
		m, merr := mappingOf(s)
		if merr != nil {
			return nil, merr
		}
		f, err = ParseCSV(file, m)
	}
	var se *Error
	if errors.As(err, &se) {
		msg := se.Msg
		if se.Line > 0 {
			msg = fmt.Sprintf("line %d: %s", se.Line, se.Msg)
		}
		return nil, model.Fail(model.CodeStatementFileInvalid, "The statement file cannot be read: %s. Nothing was stored.", strings.TrimSuffix(msg, ".")).
			WithData(map[string]any{"line": se.Line})
	}
	return f, err
}

// mappingOf is the application's mapping for the connector, or else its ready one.
func mappingOf(s *itemsync.Session) (Mapping, error) {
	if s.Settings != nil {
		var m Mapping
		if err := json.Unmarshal(s.Settings, &m); err != nil {
			return Mapping{}, fmt.Errorf("stored mapping of connector %d: %w", s.Connector.ID, err)
		}
		return m, nil
	}
	for _, r := range readyConnectors {
		if r.id == s.Connector.ID {
			m, _ := ReadyMapping(r.mapping)
			return m, nil
		}
	}
	return Mapping{}, model.Fail(model.CodeConnectorSettingsInvalid,
		"Connector %d reads CSV files with the application's mapping, and none is set: send it with PUT /connectors/%d/settings.", s.Connector.ID, s.Connector.ID)
}

// Collect delivers what the execution's file holds; an execution without a file (the
// item's creation, a sync) delivers nothing and removes nothing.
func (Institution) Collect(_ context.Context, s *itemsync.Session, p model.Product, page func(*itemsync.Page) error) (itemsync.Outcome, error) {
	out := itemsync.Outcome{Adds: true}
	if s.Upload == nil {
		return out, nil
	}
	got, ok := s.State.(*itemsync.Page)
	if !ok {
		f, err := read(s, s.Upload)
		if err != nil {
			return out, err
		}
		got = convert(s.ItemID, f)
		s.State = got
	}
	var pg itemsync.Page
	switch p {
	case model.ProductAccounts, model.ProductCreditCards:
		for _, a := range got.Accounts {
			if (a.Type == "CREDIT") == (p == model.ProductCreditCards) {
				pg.Accounts = append(pg.Accounts, a)
			}
		}
	case model.ProductTransactions:
		pg.Transactions = got.Transactions
	default:
		return out, nil
	}
	return out, page(&pg)
}

// convert turns a file into the item's accounts and transactions, with ids that stay the
// same across uploads (see AccountID and TransactionKey).
// A file may hold one account in several statements (periods, or a bank's export split
// in parts): the account is listed once, with the latest balance, and the lines of all its
// statements share one set of keys.
func convert(itemID uuid.UUID, f *File) *itemsync.Page {
	pg := &itemsync.Page{}
	type seen struct {
		at    int // index in pg.Accounts
		keys  *keys
		order map[string]int
	}
	byID := map[uuid.UUID]*seen{}
	for _, st := range f.Statements {
		acc := account(itemID, st)
		s, ok := byID[acc.ID]
		if !ok {
			s = &seen{at: len(pg.Accounts), keys: newKeys(), order: map[string]int{}}
			byID[acc.ID] = s
			pg.Accounts = append(pg.Accounts, acc)
		} else if was := pg.Accounts[s.at]; acc.BalanceAt != nil && (was.BalanceAt == nil || !acc.BalanceAt.Before(*was.BalanceAt)) {
			pg.Accounts[s.at] = acc
		}
		for _, l := range st.Lines {
			day := l.Date.In(SaoPaulo).Format("2006-01-02")
			s.order[day]++
			pg.Transactions = append(pg.Transactions, transaction(acc, st, l, s.keys.next(l), s.order[day]))
		}
	}
	return pg
}

// AccountID is the id of a statement's account on an item: the same account in every
// file (bank, branch, number and kind) has the same id.
func AccountID(itemID uuid.UUID, a Account) uuid.UUID {
	return uuid.NewSHA1(itemID, []byte("statement-account:"+string(a.Kind)+"|"+digitsAndLetters(a.BankID)+"|"+
		digitsAndLetters(a.Branch)+"|"+digitsAndLetters(a.Number)))
}

func digitsAndLetters(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) || unicode.IsLetter(r) {
			return unicode.ToUpper(r)
		}
		return -1
	}, s)
}

func account(itemID uuid.UUID, st Statement) model.Account {
	a := model.Account{ID: AccountID(itemID, st.Account), ItemID: itemID, Type: "BANK", Subtype: "CHECKING_ACCOUNT",
		Number: st.Account.Number, CurrencyCode: st.Currency}
	if a.CurrencyCode == "" {
		a.CurrencyCode = "BRL"
	}
	if st.Balance != nil {
		a.Balance, a.BalanceAt = ptr(centavos(st.Balance.Amount)), ptr(st.Balance.Date)
	}
	name := "Conta"
	switch {
	case st.Account.Kind == KindCreditCard:
		a.Type, a.Subtype, name = "CREDIT", "CREDIT_CARD", "Cartão de crédito"
		a.CreditData = &model.CreditData{}
		if st.Balance != nil {
			// A card statement's balance is what is owed: negative in the file, positive
			// as the official client shows a card's balance.
			a.Balance = ptr(centavos(-st.Balance.Amount))
		}
	case st.Account.Type == "SAVINGS":
		a.Subtype, name = "SAVINGS_ACCOUNT", "Poupança"
	}
	if a.Number != "" {
		name += " " + a.Number
	}
	a.Name = name
	if a.Type == "BANK" {
		bd := &model.BankData{}
		if st.Account.Branch != "" || st.Account.Number != "" {
			bd.TransferNumber = ptr(strings.Trim(st.Account.Branch+"/"+st.Account.Number, "/"))
		}
		if st.Balance != nil {
			bd.ClosingBalance = a.Balance
		}
		a.BankData = bd
	}
	return a
}

func transaction(acc model.Account, st Statement, l Line, key string, order int) model.Transaction {
	t := model.Transaction{ID: uuid.NewSHA1(acc.ID, []byte(key)), AccountID: acc.ID, Date: model.NewTime(l.Date),
		Description: l.Description, Status: "POSTED", CurrencyCode: acc.CurrencyCode, Order: order}
	if t.Description == "" {
		t.Description = "Lançamento sem descrição"
	}
	raw := l.Description
	t.DescriptionRaw = &raw
	amount := l.Amount
	if st.Account.Kind == KindCreditCard {
		// The official client shows card purchases as positive DEBITs and payments as
		// negative CREDITs; statement files sign them the other way round.
		amount = -amount
		t.Type = "CREDIT"
		if amount > 0 {
			t.Type = "DEBIT"
		}
	} else {
		t.Type = "DEBIT"
		if amount > 0 {
			t.Type = "CREDIT"
		}
	}
	t.Amount = centavos(amount)
	if l.FITID != "" {
		t.ProviderID = ptr(l.FITID)
	}
	if l.Type != "" {
		t.ProviderCode = ptr(l.Type)
	}
	return t
}

// keys gives each line of one statement its identity across uploads: the file's FITID
// where it has one, else a fingerprint of the line's date (in São Paulo), amount and
// normalized description; a counter tells apart lines that share either within one file,
// in the order the file lists them.
type keys struct{ seen map[string]int }

func newKeys() *keys { return &keys{seen: map[string]int{}} }

func (k *keys) next(l Line) string {
	base := "fitid:" + l.FITID
	if l.FITID == "" {
		base = TransactionKey(l)
	}
	n := k.seen[base]
	k.seen[base] = n + 1
	if n == 0 {
		return base
	}
	return base + "#" + strconv.Itoa(n)
}

// TransactionKey is the fingerprint of a line without a FITID: its day in São Paulo, its
// amount in centavos, and its description in upper case without accents, with every run
// of characters that are neither letters nor digits made one space.
func TransactionKey(l Line) string {
	return "line:" + l.Date.In(SaoPaulo).Format("2006-01-02") + "|" + strconv.FormatInt(l.Amount, 10) + "|" + normalize(l.Description)
}

func normalize(desc string) string {
	f := fold(desc)
	f = strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) || unicode.IsLetter(r) {
			return unicode.ToUpper(r)
		}
		return ' '
	}, f)
	return strings.Join(strings.Fields(f), " ")
}

// centavos is an amount as the API's JSON numbers carry it.
func centavos(c int64) float64 { return float64(c) / 100 }

func ptr[T any](v T) *T { return &v }
