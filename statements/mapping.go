package statements

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Mapping says how to read one bank's CSV export. An application sends it once per
// connector as JSON, so every field has a camelCase name and Check explains, in a sentence
// an API user can act on, what is wrong with it. docs/statements.md documents each field.
type Mapping struct {
	// Delimiter is ",", ";", "\t", or "auto" (also ""): the one of the three that occurs
	// most often, outside quotes, in the header line (the first row without a header).
	Delimiter string `json:"delimiter,omitempty"`
	// SkipRows is the number of lines skipped at the top before the header (or, without
	// one, the first row) is looked for: banks put a title and account lines there.
	SkipRows int `json:"skipRows,omitempty"`
	// NoHeader says the file has no header row; columns must then be given by position.
	NoHeader bool    `json:"noHeader,omitempty"`
	Columns  Columns `json:"columns"`
	// DateFormat is a named form (see dateForms) or a Go layout; alternatives separated by
	// "|" are tried in order ("DD/MM/YYYY|DD/MM/YY").
	DateFormat string `json:"dateFormat"`
	// Decimal is "comma" (1.234,56), "dot" (1,234.56) or "auto" (the mark followed by one
	// or two final digits is the decimal mark; any other separates thousands).
	Decimal string `json:"decimal"`
	// Sign is how amounts are signed: "asGiven" (also ""), "inverted" (card exports that
	// list purchases positive), or "type" (the type column says debit or credit).
	Sign string `json:"sign,omitempty"`
	// DebitValues and CreditValues are the type column's values with Sign "type", matched
	// like column names; empty lists mean D/Débito/Deb/- and C/Crédito/Cred/+.
	DebitValues  []string `json:"debitValues,omitempty"`
	CreditValues []string `json:"creditValues,omitempty"`
	// BalanceRows are descriptions (prefixes, matched like column names) of the rows that
	// state a balance rather than a transaction: "Saldo anterior", "S A L D O".
	BalanceRows []string       `json:"balanceRows,omitempty"`
	Account     AccountMapping `json:"account"`
}

// Columns names the columns a Mapping reads. Date, Description and either Amount or both
// Debit and Credit are required; the others are optional.
type Columns struct {
	Date Column `json:"date"`
	// Description is one column or several, joined with " - " (empty and repeated parts
	// left out).
	Description ColumnList `json:"description"`
	Amount      Column     `json:"amount,omitzero"`
	Debit       Column     `json:"debit,omitzero"`
	Credit      Column     `json:"credit,omitzero"`
	Balance     Column     `json:"balance,omitzero"`
	// ID is a transaction id unique in the account (becomes the line's FITID). A document
	// number that repeats belongs in Document instead.
	ID       Column `json:"id,omitzero"`
	Document Column `json:"document,omitzero"`
	Type     Column `json:"type,omitzero"`
}

// Column is a column by header name (JSON string) or by 1-based position (JSON number).
// A name may list alternatives separated by "|": the first the header has is used.
type Column struct {
	Name     string
	Position int
}

// IsZero reports an unset column.
func (c Column) IsZero() bool { return c.Name == "" && c.Position == 0 }

func (c Column) String() string {
	if c.Position > 0 {
		return "column " + strconv.Itoa(c.Position)
	}
	return strconv.Quote(c.Name)
}

func (c Column) MarshalJSON() ([]byte, error) {
	if c.Position > 0 {
		return json.Marshal(c.Position)
	}
	return json.Marshal(c.Name)
}

func (c *Column) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		c.Position = 0
		return json.Unmarshal(b, &c.Name)
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return errors.New("a column is a header name (string) or a 1-based position (number)")
	}
	p, err := strconv.Atoi(n.String())
	if err != nil || p < 1 {
		return fmt.Errorf("column position %s is not a whole number of 1 or more", n)
	}
	c.Name, c.Position = "", p
	return nil
}

// name, pos and cols spell columns in Go, for the ready mappings and tests.
func name(n string) Column { return Column{Name: n} }
func pos(p int) Column     { return Column{Position: p} }

func cols(names ...string) ColumnList {
	var l ColumnList
	for _, n := range names {
		l = append(l, Column{Name: n})
	}
	return l
}

// ColumnList is one column or several; JSON takes a single column or an array.
type ColumnList []Column

func (l *ColumnList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var cs []Column
		if err := json.Unmarshal(b, &cs); err != nil {
			return err
		}
		*l = cs
		return nil
	}
	var c Column
	if err := json.Unmarshal(b, &c); err != nil {
		return err
	}
	*l = ColumnList{c}
	return nil
}

// AccountMapping says which account a CSV file is of. Most exports do not name it, so
// the mapping gives it, or says where the lines above the header carry it.
type AccountMapping struct {
	// Kind is BANK (also "") or CREDIT_CARD.
	Kind   AccountKind `json:"kind,omitempty"`
	BankID string      `json:"bankId,omitempty"`
	Branch string      `json:"branch,omitempty"`
	Number string      `json:"number,omitempty"`
	// BranchAfter and NumberAfter are labels ("Agência", "Conta") looked for in the lines
	// above the header: the digits (with "-", "." and "X") after the label are taken.
	BranchAfter string `json:"branchAfter,omitempty"`
	NumberAfter string `json:"numberAfter,omitempty"`
	// NumberColumn is a column whose value in the first transaction row is the number.
	NumberColumn Column `json:"numberColumn,omitzero"`
}

// dateForms are the named date formats, each with the Go layouts it reads. Days and
// months may have one digit, as some exports write them.
var dateForms = map[string][]string{
	"DD/MM/YYYY":          {"2/1/2006"},
	"DD/MM/YY":            {"2/1/06"},
	"DD-MM-YYYY":          {"2-1-2006"},
	"DD.MM.YYYY":          {"2.1.2006"},
	"YYYY-MM-DD":          {"2006-1-2"},
	"YYYYMMDD":            {"20060102"},
	"DD/MM/YYYY HH:mm":    {"2/1/2006 15:04"},
	"DD/MM/YYYY HH:mm:ss": {"2/1/2006 15:04:05"},
	"YYYY-MM-DD HH:mm:ss": {"2006-1-2 15:04:05"},
	"YYYY-MM-DDTHH:mm:ss": {"2006-1-2T15:04:05"},
}

// layouts turns a DateFormat into the Go layouts it stands for.
func layouts(format string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(format, "|") {
		f = strings.TrimSpace(f)
		if f == "" {
			return nil, errors.New("dateFormat is empty: give a form such as \"DD/MM/YYYY\" or a Go layout such as \"02/01/2006\"")
		}
		if ls := namedForm(f); ls != nil {
			out = append(out, ls...)
			continue
		}
		// A Go layout is accepted when it reads back a date it wrote, day, month and year
		// intact: that rejects "DD/MM/AAAA" and other forms Go would take as literal text.
		ref := time.Date(2024, 11, 23, 14, 5, 6, 0, time.UTC)
		back, err := time.Parse(f, ref.Format(f))
		if err != nil || back.Year() != 2024 || back.Month() != 11 || back.Day() != 23 {
			return nil, fmt.Errorf("dateFormat %q is neither one of %s nor a Go layout with day, month and year (such as \"02/01/2006\")", f, strings.Join(dateFormNames(), ", "))
		}
		out = append(out, f)
	}
	return out, nil
}

// namedForm is the layouts of a named form, whatever its letters' case.
func namedForm(f string) []string {
	for name, ls := range dateForms {
		if strings.EqualFold(name, f) {
			return ls
		}
	}
	return nil
}

func dateFormNames() []string {
	return []string{`"DD/MM/YYYY"`, `"DD/MM/YY"`, `"DD-MM-YYYY"`, `"DD.MM.YYYY"`, `"YYYY-MM-DD"`, `"YYYYMMDD"`,
		`"DD/MM/YYYY HH:mm"`, `"DD/MM/YYYY HH:mm:ss"`, `"YYYY-MM-DD HH:mm:ss"`, `"YYYY-MM-DDTHH:mm:ss"`}
}

const (
	SignAsGiven  = "asGiven"
	SignInverted = "inverted"
	SignType     = "type"
)

// Check says what is wrong with a mapping, or nil. ParseCSV checks the mapping itself,
// but an API receives a mapping long before any file: it should refuse a bad one then.
func (m Mapping) Check() error {
	switch m.Delimiter {
	case "", "auto", ",", ";", "\t":
	default:
		return fmt.Errorf("delimiter %q is not one of \",\", \";\", \"\\t\" or \"auto\"", m.Delimiter)
	}
	if m.SkipRows < 0 || m.SkipRows > 1000 {
		return fmt.Errorf("skipRows is %d: it counts the lines above the header, from 0 to 1000", m.SkipRows)
	}
	c := m.Columns
	named := map[string]Column{"date": c.Date}
	if c.Date.IsZero() {
		return errors.New("columns.date is missing: name the column that holds each transaction's date")
	}
	if len(c.Description) == 0 {
		return errors.New("columns.description is missing: name the column (or columns) that describe each transaction")
	}
	if len(c.Description) > 20 {
		return fmt.Errorf("columns.description lists %d columns: at most 20", len(c.Description))
	}
	for i, d := range c.Description {
		named[fmt.Sprintf("description[%d]", i)] = d
	}
	hasAmount, hasDebit, hasCredit := !c.Amount.IsZero(), !c.Debit.IsZero(), !c.Credit.IsZero()
	switch {
	case hasAmount && (hasDebit || hasCredit):
		return errors.New("columns.amount and columns.debit/credit are both given: use one amount column, or a debit and a credit column")
	case !hasAmount && !hasDebit && !hasCredit:
		return errors.New("columns.amount is missing: name the amount column, or a debit and a credit column")
	case hasDebit != hasCredit:
		return errors.New("columns.debit and columns.credit go together: name both, or use columns.amount")
	}
	for name, col := range map[string]Column{"amount": c.Amount, "debit": c.Debit, "credit": c.Credit,
		"balance": c.Balance, "id": c.ID, "document": c.Document, "type": c.Type, "account.numberColumn": m.Account.NumberColumn} {
		if !col.IsZero() {
			named[name] = col
		}
	}
	for name, col := range named {
		if col.IsZero() {
			return fmt.Errorf("columns.%s is empty: give a header name or a 1-based position", name)
		}
		if len(col.Name) > 200 {
			return fmt.Errorf("columns.%s is a name of %d characters: at most 200", name, len(col.Name))
		}
		if col.Position == 0 && strings.TrimSpace(strings.ReplaceAll(col.Name, "|", "")) == "" {
			return fmt.Errorf("columns.%s is a blank name: give the header's text or a 1-based position", name)
		}
		if col.Position == 0 && m.NoHeader {
			return fmt.Errorf("columns.%s is named %s but noHeader is true: without a header, give columns by position", name, col)
		}
		if col.Position > 1000 {
			return fmt.Errorf("columns.%s is position %d: a statement has far fewer columns", name, col.Position)
		}
	}
	if len(m.DateFormat) > 200 || strings.Count(m.DateFormat, "|") >= 10 {
		return errors.New("dateFormat is too long: give at most 10 forms, 200 characters in all")
	}
	if _, err := layouts(m.DateFormat); err != nil {
		return err
	}
	switch m.Decimal {
	case "comma", "dot", "auto":
	case "":
		return errors.New("decimal is missing: say \"comma\" (1.234,56), \"dot\" (1,234.56) or \"auto\"")
	default:
		return fmt.Errorf("decimal %q is not \"comma\", \"dot\" or \"auto\"", m.Decimal)
	}
	switch m.Sign {
	case "", SignAsGiven:
	case SignInverted:
		if hasDebit {
			return errors.New("sign \"inverted\" does not go with debit and credit columns: those columns already say the sign")
		}
	case SignType:
		if c.Type.IsZero() {
			return errors.New("sign \"type\" needs columns.type: name the column whose values say debit or credit")
		}
		if hasDebit {
			return errors.New("sign \"type\" does not go with debit and credit columns: those columns already say the sign")
		}
	default:
		return fmt.Errorf("sign %q is not \"asGiven\", \"inverted\" or \"type\"", m.Sign)
	}
	if (len(m.DebitValues) > 0 || len(m.CreditValues) > 0) && m.Sign != SignType {
		return errors.New("debitValues and creditValues are read only with sign \"type\"")
	}
	for _, v := range append(append(append([]string{}, m.DebitValues...), m.CreditValues...), m.BalanceRows...) {
		if len(v) > 200 {
			return fmt.Errorf("%q is over 200 characters: debitValues, creditValues and balanceRows hold short values", v[:40]+"…")
		}
	}
	for _, v := range append(append([]string{}, m.DebitValues...), m.CreditValues...) {
		if fold(v) == "" {
			return errors.New("debitValues and creditValues may not hold blank values")
		}
	}
	for _, d := range m.DebitValues {
		for _, cr := range m.CreditValues {
			if fold(d) == fold(cr) {
				return fmt.Errorf("%q is both a debit and a credit value", d)
			}
		}
	}
	if n := len(m.DebitValues) + len(m.CreditValues) + len(m.BalanceRows); n > 100 {
		return fmt.Errorf("debitValues, creditValues and balanceRows hold %d values: at most 100 together", n)
	}
	for _, b := range m.BalanceRows {
		if fold(b) == "" {
			return errors.New("balanceRows may not hold blank descriptions: each would match every row")
		}
	}
	switch m.Account.Kind {
	case "", KindBank, KindCreditCard:
	default:
		return fmt.Errorf("account.kind %q is not \"BANK\" or \"CREDIT_CARD\"", m.Account.Kind)
	}
	if m.Account.Number != "" && (m.Account.NumberAfter != "" || !m.Account.NumberColumn.IsZero()) {
		return errors.New("account.number is fixed, so account.numberAfter and account.numberColumn would never be read: give one of them")
	}
	if m.Account.NumberAfter != "" && !m.Account.NumberColumn.IsZero() {
		return errors.New("account.numberAfter and account.numberColumn both say where the number is: give one")
	}
	if m.Account.Branch != "" && m.Account.BranchAfter != "" {
		return errors.New("account.branch is fixed, so account.branchAfter would never be read: give one of them")
	}
	for name, v := range map[string]string{"bankId": m.Account.BankID, "branch": m.Account.Branch, "number": m.Account.Number,
		"branchAfter": m.Account.BranchAfter, "numberAfter": m.Account.NumberAfter} {
		if len(v) > 64 {
			return fmt.Errorf("account.%s is %d characters long: at most 64", name, len(v))
		}
	}
	return nil
}

// fold is the form names, type values and balance descriptions are compared in: no
// accents, lower case, inner spaces collapsed, trimmed.
func fold(s string) string {
	if !isASCII(s) {
		// A chain keeps buffers between calls, so each call builds its own.
		t, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), s)
		if err == nil {
			s = t
		}
	}
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
