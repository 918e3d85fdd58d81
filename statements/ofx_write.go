package statements

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// WriteOFX writes f as an OFX file, 1.6 SGML when sgml is set, else 2.2 XML, such that
// ParseOFX reads the same File back (dates as the same instants). It exists for round-trip
// tests and to make large files for benchmarks; it is not an OFX server. Elements the
// File has no value for are left out, even ones the specification requires (DTSTART,
// LEDGERBAL), so that reading the file back does not invent them.
func WriteOFX(w io.Writer, f *File, sgml bool) error {
	for i, st := range f.Statements {
		if st.Account.Kind != KindBank && st.Account.Kind != KindCreditCard {
			return fmt.Errorf("statements: statement %d has account kind %q; OFX holds BANK and CREDIT_CARD", i, st.Account.Kind)
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	o := &ofxWriter{w: bw, sgml: sgml}
	if sgml {
		bw.WriteString("OFXHEADER:100\nDATA:OFXSGML\nVERSION:160\nSECURITY:NONE\nENCODING:UNICODE\n" +
			"CHARSET:NONE\nCOMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n")
	} else {
		bw.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="no"?>` + "\n" +
			`<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>` + "\n")
	}
	o.open("OFX")
	o.open("SIGNONMSGSRSV1")
	o.open("SONRS")
	o.status()
	o.leaf("DTSERVER", ofxDate(newest(f)))
	o.leaf("LANGUAGE", "POR")
	o.close("SONRS")
	o.close("SIGNONMSGSRSV1")
	// A message set holds the statements of its kind; consecutive ones share one, so the
	// statements are read back in their order.
	for i, trnuid := 0, 1; i < len(f.Statements); {
		card := f.Statements[i].Account.Kind == KindCreditCard
		msgs := "BANKMSGSRSV1"
		if card {
			msgs = "CREDITCARDMSGSRSV1"
		}
		o.open(msgs)
		for ; i < len(f.Statements) && (f.Statements[i].Account.Kind == KindCreditCard) == card; i++ {
			if err := o.statement(&f.Statements[i], card, trnuid); err != nil {
				return err
			}
			trnuid++
		}
		o.close(msgs)
	}
	o.close("OFX")
	return bw.Flush() // bufio keeps the first write error, so Flush reports it
}

type ofxWriter struct {
	w    *bufio.Writer
	sgml bool
}

var ofxEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func (o *ofxWriter) open(tag string)  { o.w.WriteString("<" + tag + ">\n") }
func (o *ofxWriter) close(tag string) { o.w.WriteString("</" + tag + ">\n") }

func (o *ofxWriter) leaf(tag, v string) {
	if v == "" {
		return
	}
	o.w.WriteString("<" + tag + ">")
	ofxEscaper.WriteString(o.w, v)
	if !o.sgml {
		o.w.WriteString("</" + tag + ">")
	}
	o.w.WriteByte('\n')
}

func (o *ofxWriter) status() {
	o.open("STATUS")
	o.leaf("CODE", "0")
	o.leaf("SEVERITY", "INFO")
	o.close("STATUS")
}

func (o *ofxWriter) statement(st *Statement, card bool, trnuid int) error {
	trnrs, rs := "STMTTRNRS", "STMTRS"
	if card {
		trnrs, rs = "CCSTMTTRNRS", "CCSTMTRS"
	}
	o.open(trnrs)
	o.leaf("TRNUID", strconv.Itoa(trnuid))
	o.status()
	o.open(rs)
	cur := st.Currency
	if cur == "" {
		cur = "BRL"
	}
	o.leaf("CURDEF", cur)
	if card {
		o.open("CCACCTFROM")
		o.leaf("ACCTID", st.Account.Number)
		o.close("CCACCTFROM")
	} else {
		o.open("BANKACCTFROM")
		o.leaf("BANKID", st.Account.BankID)
		o.leaf("BRANCHID", st.Account.Branch)
		o.leaf("ACCTID", st.Account.Number)
		o.leaf("ACCTTYPE", st.Account.Type)
		o.close("BANKACCTFROM")
	}
	o.open("BANKTRANLIST")
	if st.Start != nil {
		o.leaf("DTSTART", ofxDate(*st.Start))
	}
	if st.End != nil {
		o.leaf("DTEND", ofxDate(*st.End))
	}
	for i := range st.Lines {
		if err := o.line(&st.Lines[i]); err != nil {
			return err
		}
	}
	o.close("BANKTRANLIST")
	o.balance("LEDGERBAL", st.Balance)
	o.balance("AVAILBAL", st.Available)
	o.close(rs)
	o.close(trnrs)
	return nil
}

func (o *ofxWriter) line(l *Line) error {
	name, memo, ok := splitDescription(l.Description)
	if !ok {
		return fmt.Errorf("statements: a description of %d bytes does not fit OFX's NAME and MEMO (%d bytes each)", len(l.Description), maxValueBytes)
	}
	o.open("STMTTRN")
	o.leaf("TRNTYPE", l.Type)
	o.leaf("DTPOSTED", ofxDate(l.Date))
	o.leaf("TRNAMT", ofxAmount(l.Amount))
	o.leaf("FITID", l.FITID)
	o.leaf("CHECKNUM", l.CheckNum)
	o.leaf("REFNUM", l.RefNum)
	o.leaf("NAME", name)
	o.leaf("MEMO", memo)
	o.close("STMTTRN")
	return nil
}

// splitDescription puts a description in NAME alone when it fits, else splits it at a
// " - " into NAME and MEMO, which ParseOFX joins back the same way.
func splitDescription(d string) (name, memo string, ok bool) {
	if len(d) <= maxValueBytes {
		return d, "", true
	}
	for i := 0; ; {
		k := strings.Index(d[i:], " - ")
		if k < 0 {
			return "", "", false
		}
		i += k
		n, m := d[:i], d[i+3:]
		if n != "" && m != "" && n != m && len(n) <= maxValueBytes && len(m) <= maxValueBytes {
			return n, m, true
		}
		i++
	}
}

func (o *ofxWriter) balance(tag string, b *Balance) {
	if b == nil {
		return
	}
	o.open(tag)
	o.leaf("BALAMT", ofxAmount(b.Amount))
	o.leaf("DTASOF", ofxDate(b.Date))
	o.close(tag)
}

// ofxDate writes t in its own zone: the offset in hours and hundredths as OFX has it, or,
// for an offset of minutes no hundredth of an hour makes, as HHMM, which ParseOFX reads
// too. Other offsets (a city's mean time, before standard zones) are written in GMT.
func ofxDate(t time.Time) string {
	name, off := t.Zone()
	if off%60 != 0 || off > 14*3600 || off < -14*3600 {
		t = t.UTC()
		name, off = "GMT", 0
	}
	b := t.AppendFormat(make([]byte, 0, 32), "20060102150405.000")
	b = append(b, '[')
	if off < 0 {
		b = append(b, '-')
		off = -off
	}
	switch r := off % 3600; {
	case r == 0:
		b = strconv.AppendInt(b, int64(off/3600), 10)
	case r%36 == 0:
		b = strconv.AppendInt(b, int64(off/3600), 10)
		b = append(b, '.', byte('0'+r/36/10), byte('0'+r/36%10))
	default:
		b = append(b, byte('0'+off/3600/10), byte('0'+off/3600%10), byte('0'+r/60/10), byte('0'+r/60%10))
	}
	if name != "" && len(name) <= 6 && allLetters(name) {
		b = append(b, ':')
		b = append(b, name...)
	}
	return string(append(b, ']'))
}

func ofxAmount(c int64) string {
	u := uint64(c)
	sign := ""
	if c < 0 {
		u, sign = -u, "-"
	}
	cents := u % 100
	return sign + strconv.FormatUint(u/100, 10) + "." + string([]byte{byte('0' + cents/10), byte('0' + cents%10)})
}

// newest is the file's latest date, for the sign-on's DTSERVER, so that the same File
// always writes the same bytes.
func newest(f *File) time.Time {
	var t time.Time
	for _, st := range f.Statements {
		if st.End != nil && st.End.After(t) {
			t = *st.End
		}
		for _, l := range st.Lines {
			if l.Date.After(t) {
				t = l.Date
			}
		}
	}
	if t.IsZero() {
		return time.Unix(0, 0).UTC()
	}
	return t
}
