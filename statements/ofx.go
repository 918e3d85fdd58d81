package statements

import (
	"slices"
	"strings"
	"time"
)

// ParseOFX reads an OFX file, 1.x (SGML) or 2.x (XML), into its bank and credit-card
// statements. It refuses, with the line it stopped at, a file that is not OFX, is
// truncated, has a date or an amount it cannot read, or a statement with no account.
//
// Brazilian banks' exports break the specification in the same few ways, and all of them
// are read: aggregates left unclosed (a STMTTRN running into the next one, a BANKTRANLIST
// never closed), lower-case tags, comma decimals, Latin-1 text. The structure that makes
// this possible is a small table of the aggregates a statement is built of and where each
// belongs: opening one closes whatever was left open inside its parent.
func ParseOFX(b []byte) (*File, error) {
	if len(b) > MaxFileBytes {
		return nil, fail(0, "the file is %d bytes; the largest statement file read is %d bytes", len(b), MaxFileBytes)
	}
	s, err := Text(b)
	if err != nil {
		return nil, err
	}
	p := &ofxParser{s: s, zones: map[string]*time.Location{}}
	if e := p.run(); e != nil {
		return nil, e
	}
	return &p.file, nil
}

const (
	// maxDepth bounds nesting: a bank statement is 8 levels deep.
	maxDepth = 32
	// maxValueBytes bounds one element's text. OFX allows 255 characters in MEMO and
	// fewer elsewhere; the limit is far above what any bank writes and keeps a hostile
	// 60 MB value out of the result.
	maxValueBytes = 4096
)

type aggKind uint8

const (
	aOther   aggKind = iota // an aggregate the table does not name: its leaves go to the nearest known one
	aIgnored                // named, so leaves inside are not taken for its parent's, but not read
	aOFX
	aMsgs
	aTrnRs
	aStmt
	aAcct
	aTranList
	aTrn
	aPayee
	aBal
)

type aggSpec struct {
	kind    aggKind
	parents []string
}

var (
	stmtParents = []string{"STMTRS", "CCSTMTRS"}
	trnParents  = []string{"STMTTRN"}
)

// aggregates are the OFX aggregates a statement file holds, with the aggregates each one
// sits directly inside.
var aggregates = map[string]aggSpec{
	"OFX":                {aOFX, nil},
	"SIGNONMSGSRSV1":     {aIgnored, []string{"OFX"}},
	"SONRS":              {aIgnored, []string{"SIGNONMSGSRSV1"}},
	"FI":                 {aIgnored, []string{"SONRS"}},
	"STATUS":             {aIgnored, []string{"SONRS", "STMTTRNRS", "CCSTMTTRNRS"}},
	"BANKMSGSRSV1":       {aMsgs, []string{"OFX"}},
	"CREDITCARDMSGSRSV1": {aMsgs, []string{"OFX"}},
	"STMTTRNRS":          {aTrnRs, []string{"BANKMSGSRSV1"}},
	"CCSTMTTRNRS":        {aTrnRs, []string{"CREDITCARDMSGSRSV1"}},
	"STMTRS":             {aStmt, []string{"STMTTRNRS"}},
	"CCSTMTRS":           {aStmt, []string{"CCSTMTTRNRS"}},
	"BANKACCTFROM":       {aAcct, []string{"STMTRS"}},
	"CCACCTFROM":         {aAcct, []string{"CCSTMTRS"}},
	"BANKTRANLIST":       {aTranList, stmtParents},
	"STMTTRN":            {aTrn, []string{"BANKTRANLIST"}},
	"PAYEE":              {aPayee, trnParents},
	"BANKACCTTO":         {aIgnored, trnParents},
	"CCACCTTO":           {aIgnored, trnParents},
	"CURRENCY":           {aIgnored, trnParents},
	"ORIGCURRENCY":       {aIgnored, trnParents},
	"IMAGEDATA":          {aIgnored, trnParents},
	"LEDGERBAL":          {aBal, stmtParents},
	"AVAILBAL":           {aBal, stmtParents},
	"BALLIST":            {aIgnored, stmtParents},
	"BAL":                {aIgnored, []string{"BALLIST"}},
}

// leaves are elements that hold text even when it is empty: an SGML `<MEMO>` with nothing
// after it must not be taken for an aggregate swallowing the elements that follow.
var leaves = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`TRNTYPE DTPOSTED DTUSER DTAVAIL TRNAMT FITID CORRECTFITID
		CORRECTACTION SRVRTID CHECKNUM REFNUM SIC PAYEEID NAME EXTDNAME MEMO INV401KSOURCE
		CURDEF BANKID BRANCHID ACCTID ACCTTYPE ACCTKEY DTSTART DTEND BALAMT DTASOF CODE
		SEVERITY MESSAGE DTSERVER LANGUAGE DTPROFUP DTACCTUP ORG FID TRNUID CLTCOOKIE
		MKTGINFO ADDR1 ADDR2 ADDR3 CITY STATE POSTALCODE COUNTRY PHONE CURSYM CURRATE DESC
		BALTYPE VALUE USERKEY SESSCOOKIE ACCESSKEY TSKEYEXPIRE INTU.BID INTU.USERID`) {
		leaves[n] = true
	}
}

type openAgg struct {
	name string
	kind aggKind
	at   int // offset of its '<'
}

type ofxParser struct {
	s     string
	pos   int
	stack []openAgg
	file  File
	stmt  *stmtState // the statement open on the stack, if any
	trn   *trnState  // the transaction open on the stack, if any
	bal   *Balance   // the balance open on the stack, if any
	zones map[string]*time.Location
}

type stmtState struct {
	st            Statement
	at            int
	ledger, avail *Balance
}

type trnState struct {
	line              Line
	at                int
	name, payee, memo string
	hasDate, hasAmt   bool
}

func (p *ofxParser) run() *Error {
	if e := p.prelude(); e != nil {
		return e
	}
	for {
		i := nextMarkup(p.s, p.pos)
		if i == len(p.s) {
			return p.eof()
		}
		t, e := p.token(i)
		if e != nil {
			return e
		}
		p.pos = t.end
		switch t.kind {
		case tokEnd:
			done, e := p.close(t.name)
			if e != nil {
				return e
			}
			if done {
				return p.finish()
			}
		case tokStart:
			if e := p.start(t, i); e != nil {
				return e
			}
		}
	}
}

// prelude reads up to and including the <OFX> root: the 1.x header lines, or the 2.x
// processing instructions.
func (p *ofxParser) prelude() *Error {
	i := nextMarkup(p.s, 0)
	lead := strings.TrimLeft(p.s[:i], " \t\r\n\f\v")
	if lead != "" && !hasPrefixFold(lead, "OFXHEADER") && !hasPrefixFold(lead, "DATA:OFXSGML") {
		return p.failAt(i-len(lead), "this is not an OFX file: expected an OFX header (OFXHEADER:100) or an <OFX> element, found %.24q", lead)
	}
	header := lead != ""
	for {
		if i == len(p.s) {
			if header {
				return p.failEnd("the file ends before its <OFX> element: it is truncated")
			}
			return p.failEnd("this is not an OFX file: it has no OFX header and no <OFX> element")
		}
		t, e := p.token(i)
		if e != nil {
			return e
		}
		switch t.kind {
		case tokEnd:
			return p.failAt(i, "this is not an OFX file: expected the <OFX> element, found </%s>", t.name)
		case tokStart:
			if t.name != "OFX" {
				return p.failAt(i, "this is not an OFX file: expected the <OFX> element, found <%s>", t.name)
			}
			p.stack = append(p.stack, openAgg{name: "OFX", kind: aOFX, at: i})
			p.pos = t.end
			if t.self {
				return p.finish()
			}
			return nil
		}
		header = header || t.ofxPI
		i = nextMarkup(p.s, t.end)
	}
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// start handles an opening tag at offset at: an aggregate, or a leaf and its text.
func (p *ofxParser) start(t token, at int) *Error {
	if spec, ok := aggregates[t.name]; ok {
		if e := p.open(t.name, spec, at); e != nil {
			return e
		}
		if t.self {
			_, e := p.close(t.name)
			return e
		}
		return nil
	}
	if t.self {
		return p.leaf(t.name, "", at)
	}
	j := nextMarkup(p.s, p.pos)
	raw := p.s[p.pos:j]
	end := j
	closed := false
	if j+1 < len(p.s) && p.s[j+1] == '/' {
		if t2, e := p.token(j); e == nil && t2.name == t.name {
			closed, end = true, t2.end
		}
	}
	if !closed && !leaves[t.name] && j < len(p.s) && isBlank(raw) {
		// An element with no text that is not closed at once holds elements: an
		// aggregate this parser does not read (a bank's extension, say).
		return p.open(t.name, aggSpec{kind: aOther}, at)
	}
	p.pos = end
	return p.leaf(t.name, raw, at)
}

// open pushes an aggregate, first closing what SGML leaves implicitly closed: whatever is
// open inside the aggregate's parent, and an earlier aggregate of its own kind.
func (p *ofxParser) open(name string, spec aggSpec, at int) *Error {
	if spec.kind != aOther {
		if k := p.find(func(o openAgg) bool { return slices.Contains(spec.parents, o.name) }); k >= 0 {
			if e := p.popTo(k + 1); e != nil {
				return e
			}
		}
		same := func(o openAgg) bool {
			if spec.kind == aIgnored {
				return o.name == name
			}
			return o.kind == spec.kind
		}
		if k := p.find(same); k >= 0 {
			if e := p.popTo(k); e != nil {
				return e
			}
		}
	}
	if len(p.stack) >= maxDepth {
		return p.failAt(at, "the elements nest more than %d deep: this is not a statement file", maxDepth)
	}
	switch spec.kind {
	case aStmt:
		kind := KindBank
		if name == "CCSTMTRS" {
			kind = KindCreditCard
		}
		p.stmt = &stmtState{at: at, st: Statement{Account: Account{Kind: kind}}}
	case aTrn:
		if p.stmt == nil {
			return p.failAt(at, "a transaction (<STMTTRN>) outside any statement: expected it inside <STMTRS> or <CCSTMTRS>")
		}
		p.trn = &trnState{at: at}
	case aBal:
		if p.stmt != nil {
			p.bal = &Balance{Amount: noAmount}
			if name == "AVAILBAL" {
				p.stmt.avail = p.bal
			} else {
				p.stmt.ledger = p.bal
			}
		}
	}
	p.stack = append(p.stack, openAgg{name: name, kind: spec.kind, at: at})
	return nil
}

// find is the index of the innermost open aggregate matching, or -1.
func (p *ofxParser) find(match func(openAgg) bool) int {
	for k := len(p.stack) - 1; k >= 0; k-- {
		if match(p.stack[k]) {
			return k
		}
	}
	return -1
}

// close handles </NAME>: it closes NAME and whatever was left open inside it. An end tag
// of nothing open is ignored (SGML files close leaves, and sometimes close twice). done
// says the root was closed.
func (p *ofxParser) close(name string) (done bool, err *Error) {
	k := p.find(func(o openAgg) bool { return o.name == name })
	if k < 0 {
		return false, nil
	}
	return k == 0, p.popTo(k)
}

// popTo closes aggregates until n remain, completing each one's statement part.
func (p *ofxParser) popTo(n int) *Error {
	for len(p.stack) > n {
		top := p.stack[len(p.stack)-1]
		p.stack = p.stack[:len(p.stack)-1]
		switch top.kind {
		case aTrn:
			if e := p.endTrn(); e != nil {
				return e
			}
		case aStmt:
			if e := p.endStmt(); e != nil {
				return e
			}
		case aBal:
			p.bal = nil
		}
	}
	return nil
}

func (p *ofxParser) endTrn() *Error {
	t := p.trn
	p.trn = nil
	if !t.hasDate {
		return p.failAt(t.at, "the transaction (<STMTTRN>) starting on this line has no <DTPOSTED>: expected a posting date in every transaction (is the file truncated?)")
	}
	if !t.hasAmt {
		return p.failAt(t.at, "the transaction (<STMTTRN>) starting on this line has no <TRNAMT>: expected an amount in every transaction (is the file truncated?)")
	}
	name := t.name
	if name == "" {
		name = t.payee
	}
	t.line.Description = describe(name, t.memo)
	p.stmt.st.Lines = append(p.stmt.st.Lines, t.line)
	return nil
}

func (p *ofxParser) endStmt() *Error {
	s := p.stmt
	p.stmt = nil
	if s.st.Account.Number == "" {
		from := "BANKACCTFROM"
		if s.st.Account.Kind == KindCreditCard {
			from = "CCACCTFROM"
		}
		return p.failAt(s.at, "the statement starting on this line names no account: expected <%s> with an <ACCTID>", from)
	}
	if s.st.Currency == "" {
		s.st.Currency = "BRL"
	}
	s.st.Balance = balance(s.ledger, &s.st)
	s.st.Available = balance(s.avail, &s.st)
	p.file.Statements = append(p.file.Statements, s.st)
	return nil
}

// balance completes a LEDGERBAL or AVAILBAL. One without BALAMT says nothing and is
// dropped. One without DTASOF, which the specification requires but exports omit, is
// taken as of the statement's end, else its last transaction; a file is not refused for
// it, the user could do nothing about it.
func balance(b *Balance, st *Statement) *Balance {
	if b == nil || b.Amount == noAmount {
		return nil
	}
	if b.Date.IsZero() {
		switch {
		case st.End != nil:
			b.Date = *st.End
		case len(st.Lines) > 0:
			for _, l := range st.Lines {
				if l.Date.After(b.Date) {
					b.Date = l.Date
				}
			}
		default:
			return nil
		}
	}
	return b
}

// noAmount marks a balance whose BALAMT has not been read; no parsed amount reaches it
// (ParseAmount takes at most 15 integer digits).
const noAmount = -1 << 63

func (p *ofxParser) eof() *Error {
	if p.trn != nil {
		return p.failEnd("the file ends inside a transaction (<STMTTRN>): it is truncated")
	}
	if p.stmt != nil {
		return p.failEnd("the file ends inside a statement (<STMTRS> or <CCSTMTRS> not closed): it is truncated")
	}
	// The root and the message sets are often left open by SGML writers: the statements
	// are complete, so the file is read.
	if e := p.popTo(0); e != nil {
		return e
	}
	return p.finish()
}

func (p *ofxParser) finish() *Error {
	if len(p.file.Statements) == 0 {
		return p.failEnd("the file has no bank or credit-card statement: expected <STMTRS> or <CCSTMTRS> (investment and other statements are not read)")
	}
	return nil
}
