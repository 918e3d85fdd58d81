package statements

import (
	"bytes"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Text turns a file's bytes into UTF-8: a UTF-8 byte-order mark is dropped; a file that is
// not valid UTF-8 is read as Windows-1252 (Latin-1 with printable characters where
// ISO-8859-1 has control codes: Brazilian banks' OFX files declare CHARSET:1252 or
// ISO-8859-1, and many CSV exports use it without saying; a file that means ISO-8859-1
// has no reason to hold those control codes, so reading 1252 loses nothing). NUL bytes are
// refused: no statement format has them, and they mark a binary file.
func Text(b []byte) (string, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return "", fail(1+bytes.Count(b[:i], []byte("\n")), "the file has a NUL byte: it is not a text statement")
	}
	if utf8.Valid(b) {
		return string(b), nil
	}
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/8)
	for _, c := range b {
		if c >= 0x80 && c < 0xa0 {
			sb.WriteRune(cp1252[c-0x80])
			continue
		}
		sb.WriteRune(rune(c)) // Latin-1 is the first 256 code points
	}
	return sb.String(), nil
}

// cp1252 is what Windows-1252 has at 0x80-0x9F; the five bytes it leaves undefined keep
// their Latin-1 code points.
var cp1252 = [32]rune{
	'€', 0x81, '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 0x8d, 'Ž', 0x8f,
	0x90, '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 0x9d, 'ž', 'Ÿ',
}

// ParseAmount reads a decimal amount into centavos. It takes a sign (- or +, or the whole
// amount in parentheses), and either decimal mark: with decimalComma "1.234,56" reads as
// 1234.56 and dots group thousands; without, "1,234.56" does. A lone separator followed by
// exactly three digits is never taken as a decimal mark when the other one is the decimal
// mark. "-0,00" is zero. More than two decimals must be zeros (OFX allows 1.2300).
func ParseAmount(s string, decimalComma bool) (int64, bool) {
	s = strings.TrimSpace(s)
	neg := false
	// "-R$ 10,00" and "R$ -10,00" both occur in Brazilian exports.
	if rest, ok := strings.CutPrefix(s, "-R$"); ok {
		neg, s = true, rest
	}
	s = strings.TrimPrefix(s, "R$")
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		neg, s = true, s[1:len(s)-1]
	}
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = !neg, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	s = strings.TrimSpace(s)
	dec, group := byte('.'), byte(',')
	if decimalComma {
		dec, group = ',', '.'
	}
	whole, frac, hasFrac := strings.Cut(s, string(dec))
	if strings.IndexByte(frac, dec) >= 0 || strings.IndexByte(frac, group) >= 0 {
		return 0, false
	}
	if strings.IndexByte(whole, group) >= 0 {
		parts := strings.Split(whole, string(group))
		for i, p := range parts {
			if (i == 0 && (len(p) < 1 || len(p) > 3)) || (i > 0 && len(p) != 3) {
				return 0, false
			}
		}
		whole = strings.Join(parts, "")
	}
	if whole == "" && (!hasFrac || frac == "") {
		return 0, false
	}
	if whole == "" {
		whole = "0"
	}
	if hasFrac {
		if frac == "" {
			return 0, false
		}
		for len(frac) > 2 && frac[len(frac)-1] == '0' {
			frac = frac[:len(frac)-1]
		}
		if len(frac) > 2 {
			return 0, false
		}
	}
	frac += strings.Repeat("0", 2-len(frac))
	if !allDigits(whole) || !allDigits(frac) || len(whole) > 15 {
		return 0, false
	}
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	v := w*100 + f
	if neg {
		v = -v
	}
	return v, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// SaoPaulo is the zone of a date that names none: Brazilian banks write local dates.
var SaoPaulo = func() *time.Location {
	if l, err := time.LoadLocation("America/Sao_Paulo"); err == nil {
		return l
	}
	return time.FixedZone("BRT", -3*3600)
}()
