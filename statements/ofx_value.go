package statements

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// held are the elements each aggregate kind the parser reads has (those it does not use
// too). A leaf is read into the innermost open aggregate that has it, so one left unclosed
// does not swallow its parent's elements: a MEMO after a PAYEE never closed is the
// transaction's, a DTEND after a STMTTRN never closed is the list's. An aggregate the
// table names but does not read (BANKACCTTO, STATUS) keeps whatever is inside it.
var held = map[aggKind]map[string]bool{}

func init() {
	for kind, names := range map[aggKind]string{
		aStmt:     "CURDEF MKTGINFO",
		aAcct:     "BANKID BRANCHID ACCTID ACCTTYPE ACCTKEY",
		aTranList: "DTSTART DTEND",
		aTrn: `TRNTYPE DTPOSTED DTUSER DTAVAIL TRNAMT FITID CORRECTFITID CORRECTACTION SRVRTID
			CHECKNUM REFNUM SIC PAYEEID NAME EXTDNAME MEMO INV401KSOURCE`,
		aPayee: "NAME ADDR1 ADDR2 ADDR3 CITY STATE POSTALCODE COUNTRY PHONE",
		aBal:   "BALAMT DTASOF",
	} {
		held[kind] = map[string]bool{}
		for _, n := range strings.Fields(names) {
			held[kind][n] = true
		}
	}
}

// leaf reads one element's text into the statement part it belongs to. Elements this
// package does not use are read only as far as their size.
func (p *ofxParser) leaf(name, raw string, at int) *Error {
	v := strings.TrimSpace(raw)
	// A reference is at most 11 bytes for one character, so a value this long is too long
	// however it decodes: refusing it now spares decoding a hostile 60 MB one.
	if len(v) > 11*maxValueBytes {
		return p.failAt(at, "the <%s> value is %d bytes long: expected at most %d", name, len(v), maxValueBytes)
	}
	if strings.IndexByte(v, '&') >= 0 {
		v = strings.TrimSpace(decodeEntities(v))
	}
	if len(v) > maxValueBytes {
		return p.failAt(at, "the <%s> value is %d bytes long: expected at most %d", name, len(v), maxValueBytes)
	}
	k := p.find(func(o openAgg) bool { return o.kind == aIgnored || held[o.kind][name] })
	if k < 0 {
		return nil
	}
	switch p.stack[k].kind {
	case aStmt:
		if name == "CURDEF" {
			c := strings.ToUpper(v)
			if len(c) != 3 || !isLetter(c[0]) || !isLetter(c[1]) || !isLetter(c[2]) {
				return p.failAt(at, "expected a three-letter currency code (ISO 4217) in <CURDEF>, found %.24q", v)
			}
			p.stmt.st.Currency = strings.Clone(c)
		}
	case aAcct:
		if p.stmt == nil {
			return nil
		}
		a := &p.stmt.st.Account
		if name == "ACCTID" {
			a.Number = strings.Clone(v)
		}
		// A card account is its number alone (CCACCTFROM has nothing else).
		if a.Kind != KindBank {
			return nil
		}
		switch name {
		case "BANKID":
			a.BankID = strings.Clone(v)
		case "BRANCHID":
			a.Branch = strings.Clone(v)
		case "ACCTTYPE":
			a.Type = strings.ToUpper(strings.Clone(v))
		}
	case aTranList:
		if p.stmt == nil || name != "DTSTART" && name != "DTEND" {
			return nil
		}
		d, err := p.date(v, name, at)
		if err != nil {
			return err
		}
		if name == "DTSTART" {
			p.stmt.st.Start = &d
		} else {
			p.stmt.st.End = &d
		}
	case aTrn:
		return p.trnLeaf(name, v, at)
	case aPayee:
		if name == "NAME" && p.trn != nil {
			p.trn.payee = v
		}
	case aBal:
		if p.bal == nil {
			return nil
		}
		switch name {
		case "BALAMT":
			amt, err := p.amount(v, name, at)
			if err != nil {
				return err
			}
			p.bal.Amount = amt
		case "DTASOF":
			d, err := p.date(v, name, at)
			if err != nil {
				return err
			}
			p.bal.Date = d
		}
	}
	return nil
}

func (p *ofxParser) trnLeaf(name, v string, at int) *Error {
	t := p.trn
	switch name {
	case "TRNTYPE":
		t.line.Type = strings.ToUpper(strings.Clone(v))
	case "DTPOSTED":
		d, err := p.date(v, name, at)
		if err != nil {
			return err
		}
		t.line.Date, t.hasDate = d, true
	case "TRNAMT":
		amt, err := p.amount(v, name, at)
		if err != nil {
			return err
		}
		t.line.Amount, t.hasAmt = amt, true
	case "FITID":
		t.line.FITID = strings.Clone(v)
	case "CHECKNUM":
		t.line.CheckNum = strings.Clone(v)
	case "REFNUM":
		t.line.RefNum = strings.Clone(v)
	case "NAME":
		t.name = v
	case "MEMO":
		t.memo = v
	}
	return nil
}

func (p *ofxParser) amount(v, tag string, at int) (int64, *Error) {
	// OFX allows either decimal mark and no grouping; a file that groups anyway has the
	// decimal mark last.
	comma := strings.LastIndexByte(v, ',') > strings.LastIndexByte(v, '.')
	amt, ok := ParseAmount(v, comma)
	if !ok {
		return 0, p.failAt(at, "expected an amount such as -12.50 in <%s>, found %.24q", tag, v)
	}
	return amt, nil
}

func (p *ofxParser) date(v, tag string, at int) (time.Time, *Error) {
	d, ok := p.parseDate(v)
	if !ok {
		return time.Time{}, p.failAt(at, "expected a date such as 20240131 or 20240131093000[-3:BRT] in <%s>, found %.32q", tag, v)
	}
	return d, nil
}

// parseDate reads an OFX date: YYYYMMDD, YYYYMMDDHHMM, YYYYMMDDHHMMSS or
// YYYYMMDDHHMMSS.XXX, then optionally a zone [offset:NAME] with the offset in hours. A date
// without a zone is São Paulo's: Brazilian banks write local time and often no zone,
// though the specification would read it as GMT.
func (p *ofxParser) parseDate(v string) (time.Time, bool) {
	loc := SaoPaulo
	if i := strings.IndexByte(v, '['); i >= 0 {
		if !strings.HasSuffix(v, "]") {
			return time.Time{}, false
		}
		l, ok := p.zone(v[i+1 : len(v)-1])
		if !ok {
			return time.Time{}, false
		}
		loc, v = l, strings.TrimSpace(v[:i])
	}
	digits, frac, hasFrac := strings.Cut(v, ".")
	if !allDigits(digits) || hasFrac && (len(digits) != 14 || frac == "" || len(frac) > 9 || !allDigits(frac)) {
		return time.Time{}, false
	}
	if len(digits) != 8 && len(digits) != 12 && len(digits) != 14 {
		return time.Time{}, false
	}
	n := func(i, j int) int {
		if j > len(digits) {
			return 0
		}
		x, _ := strconv.Atoi(digits[i:j])
		return x
	}
	y, mo, d, h, mi, sec := n(0, 4), n(4, 6), n(6, 8), n(8, 10), n(10, 12), n(12, 14)
	ns, _ := strconv.Atoi((frac + "000000000")[:9])
	// Ranges are checked in UTC: in São Paulo some midnights never happened (the clocks
	// sprang forward at 0:00), and time.Date moves those forward rather than failing.
	u := time.Date(y, time.Month(mo), d, h, mi, sec, 0, time.UTC)
	if y < 1900 || y > 2200 || u.Month() != time.Month(mo) || u.Day() != d || u.Hour() != h || u.Minute() != mi || u.Second() != sec {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, ns, loc)
	if t.Day() != d || t.Hour() != h {
		// A time in the hour São Paulo's clocks skipped: Go may place it before the gap,
		// on the day before; the instant the clocks showed next is the one meant.
		t = t.Add(time.Hour)
	}
	return t, true
}

// zone reads the inside of a date's brackets: "-3:BRT", "-03:EST", "0:GMT", "-3", "+5.30"
// (hours and hundredths), "-0300". Zones are shared between the dates that name the same
// one, so a 100,000-line file does not make 100,000 of them.
func (p *ofxParser) zone(z string) (*time.Location, bool) {
	if l, ok := p.zones[z]; ok {
		return l, true
	}
	off, name, _ := strings.Cut(z, ":")
	off, name = strings.TrimSpace(off), strings.TrimSpace(name)
	sign := 1
	switch {
	case strings.HasPrefix(off, "-"):
		sign, off = -1, off[1:]
	case strings.HasPrefix(off, "+"):
		off = off[1:]
	}
	hours, hund, hasHund := strings.Cut(off, ".")
	if !allDigits(hours) || hasHund && (hund == "" || len(hund) > 2 || !allDigits(hund)) {
		return nil, false
	}
	var secs int
	switch len(hours) {
	case 1, 2:
		h, _ := strconv.Atoi(hours)
		secs = h * 3600
		if hasHund {
			c, _ := strconv.Atoi((hund + "0")[:2])
			secs += c * 36
		}
	case 4:
		if hasHund {
			return nil, false
		}
		h, _ := strconv.Atoi(hours[:2])
		m, _ := strconv.Atoi(hours[2:])
		if m >= 60 {
			return nil, false
		}
		secs = h*3600 + m*60
	default:
		return nil, false
	}
	if secs > 14*3600 {
		return nil, false
	}
	if len(name) > 6 || !allLetters(name) {
		name = "" // "-03:00" or a name too odd to show: the offset is what counts
	}
	l := time.FixedZone(strings.Clone(name), sign*secs) // not a slice of the whole file, which it would keep alive
	if len(p.zones) < 64 {
		p.zones[z] = l
	}
	return l, true
}

func allLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) {
			return false
		}
	}
	return true
}

// describe joins a transaction's NAME and MEMO the way a statement reads: both when they
// say different things, else whichever there is.
func describe(name, memo string) string {
	n, m := collapseSpace(name), collapseSpace(memo)
	switch {
	case n != "" && m != "" && n != m:
		return n + " - " + m
	case n != "":
		return strings.Clone(n)
	default:
		return strings.Clone(m)
	}
}

// collapseSpace trims s and makes every run of white space one space.
func collapseSpace(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || c != ' ' && isSpace(c) || c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' ') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// decodeEntities expands the five XML entities and character references. Nothing else is
// an entity here: a bare "&" (banks write "M&M" in SGML) or an unknown name stays as
// written.
func decodeEntities(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		// The longest reference is "&#x10FFFF;"; looking no further keeps "&&&&…" linear.
		if j := strings.IndexByte(s[:min(len(s), 11)], ';'); j > 1 {
			if r, ok := entity(s[1:j]); ok {
				b.WriteString(r)
				s = s[j+1:]
				continue
			}
		}
		b.WriteByte('&')
		s = s[1:]
	}
}

func entity(name string) (string, bool) {
	switch name {
	case "amp":
		return "&", true
	case "lt":
		return "<", true
	case "gt":
		return ">", true
	case "quot":
		return `"`, true
	case "apos":
		return "'", true
	}
	if name[0] != '#' {
		return "", false
	}
	var n uint64
	var err error
	if len(name) > 1 && (name[1] == 'x' || name[1] == 'X') {
		n, err = strconv.ParseUint(name[2:], 16, 32)
	} else {
		n, err = strconv.ParseUint(name[1:], 10, 32)
	}
	r := rune(n)
	if err != nil || !utf8.ValidRune(r) || r < 0x20 && r != '\t' && r != '\n' && r != '\r' {
		return "", false
	}
	return string(r), true
}
