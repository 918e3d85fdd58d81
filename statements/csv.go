package statements

import (
	"encoding/csv"
	"errors"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// headerSearch is how many non-blank lines after SkipRows are searched for the header:
// banks put a handful of title, account and period lines above it, never dozens.
const headerSearch = 50

// maxHeaderLine is the longest line taken for a header: real ones are a few hundred
// bytes, and splitting and comparing a megabyte line three times over is slow for nothing.
const maxHeaderLine = 16 << 10

// ParseCSV reads a CSV statement export with the mapping m into one statement.
//
// Rows are read with encoding/csv (LazyQuotes, any number of fields a row): it handles
// quoted fields with embedded delimiters, quotes and newlines, and CRLF, and it reports
// the line each field starts on, which the errors name. The lines above the header are
// never fed to it, so a stray quote in a bank's title line cannot swallow the table.
//
// Rows are classified, in order: a row of empty cells is skipped. A row whose date cell
// is empty or does not begin with a digit is not a transaction: before the first dated
// row it is skipped (title, sub-header), after it it is the footer, and it and every
// later row are ignored ("Saldo final", "Total", a later section of future entries). A
// date cell that begins with a digit must be a date in the mapping's format, or the file
// is refused at that line. A dated row whose description begins with one of BalanceRows
// states a balance. Any other dated row is a transaction: its amount must read, or the
// file is refused at that line.
func ParseCSV(b []byte, m Mapping) (*File, error) {
	if len(b) > MaxFileBytes {
		return nil, fail(0, "the file is %d bytes: the largest statement file read is %d MiB", len(b), MaxFileBytes>>20)
	}
	if err := m.Check(); err != nil {
		return nil, fail(0, "the CSV mapping is not valid: %s", err)
	}
	text, err := Text(b)
	if err != nil {
		return nil, err
	}
	if !strings.Contains(text, "\n") {
		text = strings.ReplaceAll(text, "\r", "\n") // old Mac line ends: some exports still use them
	}
	if n := longLine(text); n > 0 {
		return nil, fail(n, "the line is over %d KiB long: no statement row is", maxLine>>10)
	}
	p, err := newCSVParser(text, m)
	if err != nil {
		return nil, err
	}
	return p.read()
}

type csvParser struct {
	m       Mapping
	text    string
	layouts []string
	delim   rune
	// start is the byte offset of the first row after the header (or the first row);
	// base the number of lines before it.
	start, base int
	preamble    string // the lines above the header
	header      []string

	date, amount, debit, credit, balance, id, document, typ, number int
	description                                                     []int
	balancePrefixes, debitValues, creditValues                      []string
}

func newCSVParser(text string, m Mapping) (*csvParser, error) {
	p := &csvParser{m: m, text: text}
	p.layouts, _ = layouts(m.DateFormat) // Check has accepted it
	named := false
	for _, c := range p.columns() {
		named = named || (!c.IsZero() && c.Position == 0)
	}
	delims := []rune{';', ',', '\t'}
	if m.Delimiter != "" && m.Delimiter != "auto" {
		delims = []rune{rune(m.Delimiter[0])}
	}
	found, searched, firstLine := false, 0, 0
	var failure error
	linesWithText(text, func(line string, n, off int) bool {
		if n <= m.SkipRows {
			return true
		}
		if firstLine == 0 {
			firstLine = n
		}
		if searched++; searched > headerSearch {
			return false
		}
		if !named {
			// Without names the header (or the first row) is the first line with text.
			d, ok := sniff(line, delims)
			if !ok {
				failure = fail(n, "the line has none of the delimiters %s, so its columns cannot be told apart", delimNames(delims))
				return false
			}
			p.delim, found = d, true
			p.base, p.start, p.preamble = n-1, off, text[:off]
			if !m.NoHeader {
				p.header = splitLine(line, d)
				p.base, p.start = n, nextLine(text, off)
			}
			return false
		}
		if len(line) > maxHeaderLine {
			return true
		}
		for _, d := range delims {
			cells := splitLine(line, d)
			if p.resolve(cells) {
				p.delim, p.header, found = d, cells, true
				p.base, p.preamble, p.start = n, text[:off], nextLine(text, off)
				return false
			}
		}
		return true
	})
	if failure != nil {
		return nil, failure
	}
	if !found {
		if firstLine == 0 {
			return nil, fail(0, "the file has no transactions: it has no line with text after the %d skipped", m.SkipRows)
		}
		return nil, fail(firstLine, "no header with the columns %s was found in the %d lines with text from here", p.namedColumns(), headerSearch)
	}
	if !named {
		p.resolve(p.header)
	}
	for _, b := range m.BalanceRows {
		p.balancePrefixes = append(p.balancePrefixes, fold(b))
	}
	p.debitValues, p.creditValues = foldAll(m.DebitValues), foldAll(m.CreditValues)
	if len(p.debitValues) == 0 && len(p.creditValues) == 0 {
		p.debitValues = []string{"d", "debito", "deb", "-"}
		p.creditValues = []string{"c", "credito", "cred", "+"}
	}
	return p, nil
}

func foldAll(ss []string) []string {
	var out []string
	for _, s := range ss {
		out = append(out, fold(s))
	}
	return out
}

func (p *csvParser) columns() []Column {
	c := p.m.Columns
	cols := []Column{c.Date, c.Amount, c.Debit, c.Credit, c.Balance, c.ID, c.Document, c.Type, p.m.Account.NumberColumn}
	return append(cols, c.Description...)
}

func (p *csvParser) namedColumns() string {
	var names []string
	for _, c := range p.columns() {
		if !c.IsZero() && c.Position == 0 {
			names = append(names, c.String())
		}
	}
	return strings.Join(names, ", ")
}

// resolve finds every column's index in the header cells; false when a named one is not
// there.
func (p *csvParser) resolve(header []string) bool {
	folded := foldAll(header)
	idx := func(c Column) int {
		switch {
		case c.IsZero():
			return -1
		case c.Position > 0:
			return c.Position - 1
		}
		for _, alt := range strings.Split(c.Name, "|") {
			want := fold(alt)
			for i, h := range folded {
				if want != "" && h == want {
					return i
				}
			}
		}
		return -2
	}
	c := p.m.Columns
	p.date, p.amount, p.debit, p.credit = idx(c.Date), idx(c.Amount), idx(c.Debit), idx(c.Credit)
	p.balance, p.id, p.document, p.typ = idx(c.Balance), idx(c.ID), idx(c.Document), idx(c.Type)
	p.number = idx(p.m.Account.NumberColumn)
	p.description = p.description[:0]
	ok := p.date != -2 && p.amount != -2 && p.debit != -2 && p.credit != -2 && p.balance != -2 &&
		p.id != -2 && p.document != -2 && p.typ != -2 && p.number != -2
	for _, d := range c.Description {
		i := idx(d)
		ok = ok && i != -2
		p.description = append(p.description, i)
	}
	return ok
}

// sniff picks the delimiter that occurs most often outside quotes in a line.
func sniff(line string, delims []rune) (rune, bool) {
	best, bestN := rune(0), 0
	for _, d := range delims {
		n, quoted := 0, false
		for _, r := range line {
			switch {
			case r == '"':
				quoted = !quoted
			case r == d && !quoted:
				n++
			}
		}
		if n > bestN {
			best, bestN = d, n
		}
	}
	if len(delims) == 1 {
		return delims[0], true // a one-column file with a fixed delimiter still reads
	}
	return best, bestN > 0
}

func delimNames(delims []rune) string {
	var s []string
	for _, d := range delims {
		if d == '\t' {
			s = append(s, "tab")
		} else {
			s = append(s, `"`+string(d)+`"`)
		}
	}
	return strings.Join(s, ", ")
}

func splitLine(line string, d rune) []string {
	r := csv.NewReader(strings.NewReader(line))
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = d, true, -1
	rec, err := r.Read()
	if err != nil {
		return nil
	}
	return rec
}

// row is one record being read, with the line each field starts on.
type row struct {
	rec  []string
	r    *csv.Reader
	sk   *skipper
	base int
}

func (w row) cell(i int) string {
	if i < 0 || i >= len(w.rec) {
		return ""
	}
	return strings.TrimSpace(w.rec[i])
}

func (w row) has(i int) bool { return i >= 0 && i < len(w.rec) }

func (w row) line(i int) int {
	if i < 0 || i >= len(w.rec) {
		i = len(w.rec) - 1
	}
	l, _ := w.r.FieldPos(i)
	return w.base + w.sk.line(l)
}

type balanceSeen struct {
	date   time.Time
	amount int64
}

// maxTitleRows bounds the rows without a date read before the first transaction.
const maxTitleRows = 50

func (p *csvParser) read() (*File, error) {
	sk := newSkipper(p.text[p.start:])
	r := csv.NewReader(sk)
	r.Comma, r.LazyQuotes, r.FieldsPerRecord, r.ReuseRecord = p.delim, true, -1, true
	st := Statement{
		Account: Account{Kind: p.m.Account.Kind, BankID: p.m.Account.BankID,
			Branch: p.m.Account.Branch, Number: p.m.Account.Number},
		Currency: "BRL",
	}
	if st.Account.Kind == "" {
		st.Account.Kind = KindBank
	}
	if p.m.Account.BranchAfter != "" {
		st.Account.Branch = labelled(p.preamble, p.m.Account.BranchAfter)
	}
	if p.m.Account.NumberAfter != "" {
		st.Account.Number = labelled(p.preamble, p.m.Account.NumberAfter)
	}
	var (
		balances      []balanceSeen
		first, last   time.Time
		dated, footer bool
		undated       int
		next          = 1 // the handed-out line the next record starts at
	)
	for !footer {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, errRecordTooLong) {
			return nil, fail(p.base+sk.line(next), "the row runs over %d KiB (a quote that never closes?): no statement row is that long", maxRecord>>10)
		}
		sk.record = 0
		if err == nil && len(rec) > 0 {
			end, _ := r.FieldPos(len(rec) - 1)
			next = end + 1
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fail(p.base+sk.line(pe.Line), "the row cannot be read as CSV: %v", pe.Err)
			}
			return nil, fail(0, "the file cannot be read as CSV: %v", err)
		}
		w := row{rec: rec, r: r, sk: sk, base: p.base}
		if blank(rec) {
			continue
		}
		ds := w.cell(p.date)
		if ds == "" || ds[0] < '0' || ds[0] > '9' {
			footer = dated
			// Title rows come before the first transaction, a few of them: a file whose
			// first rows hold no date at all is not this mapping's export, and is refused
			// here rather than read to its end.
			if undated++; !dated && undated > maxTitleRows {
				return nil, fail(w.line(p.date), "no transaction in the first %d rows: no row has a date in the date column (%s, form %s); is this the bank's CSV export, and the right mapping?",
					maxTitleRows, p.m.Columns.Date, p.m.DateFormat)
			}
			continue
		}
		date, ok := p.parseDate(ds)
		if !ok {
			return nil, fail(w.line(p.date), "the date %s is not a date in the form %s", quote(ds), p.m.DateFormat)
		}
		if !dated {
			first = date
		}
		dated, last = true, date
		desc := p.describe(w)
		if p.isBalance(desc) {
			v, ok, err := p.balanceOf(w)
			if err != nil {
				return nil, err
			}
			if ok {
				balances = append(balances, balanceSeen{date, v})
			}
			continue
		}
		amount, err := p.amountOf(w)
		if err != nil {
			return nil, err
		}
		if p.balance >= 0 {
			if v, ok := p.parseAmount(w.cell(p.balance)); ok {
				balances = append(balances, balanceSeen{date, v})
			}
		}
		if p.number >= 0 && st.Account.Number == "" {
			st.Account.Number = w.cell(p.number)
		}
		st.Lines = append(st.Lines, Line{FITID: w.cell(p.id), Date: date, Amount: amount,
			Description: desc, RefNum: w.cell(p.document)})
	}
	if len(st.Lines) == 0 {
		return nil, fail(0, "the file has no transactions: no row after the header has a date in the date column (%s, form %s) and an amount", p.m.Columns.Date, p.m.DateFormat)
	}
	// The balance is the latest one the file states. Same-day ties go to the row read
	// last, unless the file lists the newest entries first.
	newestFirst := last.Before(first)
	for i, b := range balances {
		if i == 0 || b.date.After(st.Balance.Date) || (b.date.Equal(st.Balance.Date) && !newestFirst) {
			st.Balance = &Balance{Amount: b.amount, Date: b.date}
		}
	}
	return &File{Statements: []Statement{st}}, nil
}

func blank(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// quote shows a cell in an error, cut short: the message must not carry a whole file.
func quote(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:40]) + "…"
	}
	return `"` + s + `"`
}

func (p *csvParser) parseDate(s string) (time.Time, bool) {
	for _, l := range p.layouts {
		if t, err := time.ParseInLocation(l, s, SaoPaulo); err == nil && t.Year() >= 1900 && t.Year() <= 2200 {
			return t, true
		}
	}
	return time.Time{}, false
}

func (p *csvParser) describe(w row) string {
	var parts, seen []string
	for _, i := range p.description {
		s := strings.Join(strings.Fields(w.cell(i)), " ")
		f := fold(s)
		if f == "" || slices.Contains(seen, f) {
			continue
		}
		parts, seen = append(parts, s), append(seen, f)
	}
	return strings.Join(parts, " - ")
}

func (p *csvParser) isBalance(desc string) bool {
	if len(p.balancePrefixes) == 0 {
		return false
	}
	f := fold(desc)
	for _, b := range p.balancePrefixes {
		if strings.HasPrefix(f, b) {
			return true
		}
	}
	return false
}

func (p *csvParser) parseAmount(s string) (int64, bool) {
	switch p.m.Decimal {
	case "comma":
		return ParseAmount(s, true)
	case "dot":
		return ParseAmount(s, false)
	}
	// auto: the last separator is the decimal mark when one or two digits follow it.
	t := strings.TrimRight(strings.TrimSpace(s), ")")
	i := strings.LastIndexAny(t, ".,")
	if i < 0 {
		return ParseAmount(s, true)
	}
	decimal := len(t)-i-1 <= 2 && allDigits(t[i+1:])
	return ParseAmount(s, (t[i] == ',') == decimal)
}

// amountOf reads a transaction row's amount, signed as the mapping says.
func (p *csvParser) amountOf(w row) (int64, error) {
	if p.amount >= 0 {
		if !w.has(p.amount) {
			return 0, fail(w.line(-1), "the row has %d columns; the amount (%s) is column %d", len(w.rec), p.m.Columns.Amount, p.amount+1)
		}
		s := w.cell(p.amount)
		if s == "" {
			return 0, fail(w.line(p.amount), "the amount column (%s) is empty", p.m.Columns.Amount)
		}
		v, ok := p.parseAmount(s)
		if !ok {
			return 0, fail(w.line(p.amount), "the amount %s is not a number (decimal %s)", quote(s), p.m.Decimal)
		}
		switch p.m.Sign {
		case SignInverted:
			v = -v
		case SignType:
			if !w.has(p.typ) {
				return 0, fail(w.line(-1), "the row has %d columns; the type (%s) is column %d", len(w.rec), p.m.Columns.Type, p.typ+1)
			}
			t := fold(w.cell(p.typ))
			switch {
			case slices.Contains(p.debitValues, t):
				v = -abs(v)
			case slices.Contains(p.creditValues, t):
				v = abs(v)
			default:
				return 0, fail(w.line(p.typ), "the type %s is neither a debit value (%s) nor a credit value (%s)",
					quote(w.cell(p.typ)), strings.Join(p.debitValues, ", "), strings.Join(p.creditValues, ", "))
			}
		}
		return v, nil
	}
	if !w.has(p.debit) && !w.has(p.credit) {
		col := max(p.debit, p.credit)
		return 0, fail(w.line(-1), "the row has %d columns; the debit and credit columns reach column %d", len(w.rec), col+1)
	}
	ds, cs := w.cell(p.debit), w.cell(p.credit)
	if ds == "" && cs == "" {
		return 0, fail(w.line(min(p.debit, p.credit)), "neither the debit (%s) nor the credit (%s) column has an amount", p.m.Columns.Debit, p.m.Columns.Credit)
	}
	var d, c int64
	var ok bool
	if ds != "" {
		if d, ok = p.parseAmount(ds); !ok {
			return 0, fail(w.line(p.debit), "the debit %s is not a number (decimal %s)", quote(ds), p.m.Decimal)
		}
	}
	if cs != "" {
		if c, ok = p.parseAmount(cs); !ok {
			return 0, fail(w.line(p.credit), "the credit %s is not a number (decimal %s)", quote(cs), p.m.Decimal)
		}
	}
	// Banks write debits either bare or with a minus; the column says the sign.
	return abs(c) - abs(d), nil
}

// balanceOf reads a balance row: its balance column, else its amount. A row with
// neither states nothing.
func (p *csvParser) balanceOf(w row) (int64, bool, error) {
	if p.balance >= 0 && w.cell(p.balance) != "" {
		if v, ok := p.parseAmount(w.cell(p.balance)); ok {
			return v, true, nil
		}
	}
	if p.amount >= 0 && w.cell(p.amount) == "" || p.amount < 0 && w.cell(p.debit) == "" && w.cell(p.credit) == "" {
		return 0, false, nil
	}
	v, err := p.amountOf(w)
	if err != nil {
		return 0, false, err
	}
	if p.m.Sign == SignInverted {
		v = -v // a balance is stated as the file states it
	}
	return v, true, nil
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// labelled finds a label ("Conta") in the lines above the header and returns the number
// written after it ("Conta: 12345-6", "Conta ;12345-6"), or "".
func labelled(preamble, label string) string {
	want := fold(label)
	if want == "" {
		return ""
	}
	found := ""
	linesWithText(preamble, func(line string, _, _ int) bool {
		found = labelledIn(fold(line), want)
		return found == ""
	})
	return found
}

// labelledIn finds the number after the label want in a folded line, or "".
func labelledIn(f, want string) string {
	for from := 0; ; {
		i := strings.Index(f[from:], want)
		if i < 0 {
			return ""
		}
		i += from
		from = i + len(want)
		if (i > 0 && isFoldedLetter(f[i-1])) || (from < len(f) && isFoldedLetter(f[from])) {
			continue
		}
		rest := strings.TrimLeft(f[from:], " :;,|\t\"'")
		n := 0
		for n < len(rest) && (rest[n] >= '0' && rest[n] <= '9' || rest[n] == '-' || rest[n] == '.' || rest[n] == 'x') {
			n++
		}
		if v := strings.TrimRight(rest[:n], ".-"); strings.ContainsAny(v, "0123456789") {
			return strings.ToUpper(v)
		}
	}
}

// isFoldedLetter is a letter of text already folded to lower case (any byte of a multi-byte
// character counts).
func isFoldedLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 0x80 }
