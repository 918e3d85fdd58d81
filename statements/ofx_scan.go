package statements

import "strings"

// The OFX tokenizer. One hand-written scanner reads both OFX forms: 2.x XML is, for what a
// statement uses, SGML whose every element happens to be closed, so the SGML rules (a leaf
// ends at the next tag, a missing end tag is implied) read it as well. encoding/xml was
// not used: it cannot read 1.x at all, so it would only add a second path to keep right, it
// allocates a token per element (several times slower on a 100,000-line file), and its
// DOCTYPE handling would have to be switched off with care; here a declaration is simply
// refused when it is met, and no entity but the five predefined ones and character
// references is ever expanded. Every step moves forward through the string, so the cost is
// linear in the file whatever it holds.

type tokKind uint8

const (
	tokSkip  tokKind = iota // a processing instruction or a comment
	tokStart                // <NAME> or <NAME/>
	tokEnd                  // </NAME>
)

type token struct {
	kind  tokKind
	name  string // upper case
	end   int    // offset just past the token
	self  bool   // <NAME/>
	ofxPI bool   // <?OFX ...?>
}

// maxNameBytes bounds a tag name: OFX's longest are about 20 characters.
const maxNameBytes = 64

// nextMarkup is the offset of the next '<' at or after i that opens markup, or len(s). A
// '<' followed by anything else (a space, a digit) is text: banks write "VALOR < 5" too.
func nextMarkup(s string, i int) int {
	for i < len(s) {
		j := strings.IndexByte(s[i:], '<')
		if j < 0 {
			return len(s)
		}
		k := i + j
		if k+1 < len(s) && opensMarkup(s[k+1]) {
			return k
		}
		i = k + 1
	}
	return len(s)
}

func opensMarkup(c byte) bool {
	return c == '/' || c == '?' || c == '!' || isLetter(c)
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isNameByte(c byte) bool {
	return isLetter(c) || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' || c == ':'
}

// token reads the markup at s[i] == '<' (nextMarkup found it).
func (p *ofxParser) token(i int) (token, *Error) {
	s := p.s
	switch c := s[i+1]; {
	case c == '?':
		j := strings.Index(s[i+2:], "?>")
		if j < 0 {
			return token{}, p.failAt(i, "the processing instruction starting here is never ended by '?>': the file is truncated")
		}
		body := s[i+2 : i+2+j]
		return token{kind: tokSkip, end: i + 2 + j + 2, ofxPI: len(body) >= 3 && strings.EqualFold(body[:3], "OFX")}, nil
	case c == '!':
		if strings.HasPrefix(s[i:], "<!--") {
			j := strings.Index(s[i+4:], "-->")
			if j < 0 {
				return token{}, p.failAt(i, "the comment starting here is never ended by '-->': the file is truncated")
			}
			return token{kind: tokSkip, end: i + 4 + j + 3}, nil
		}
		return token{}, p.failAt(i, "declarations (<!DOCTYPE, <!ENTITY, <![CDATA[) are not accepted in an OFX file: expected only elements")
	case c == '/':
		name, j, err := p.name(i, i+2)
		if err != nil {
			return token{}, err
		}
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		if j >= len(s) || s[j] != '>' {
			return token{}, p.failAt(i, "expected '>' to end the tag </%s", name)
		}
		return token{kind: tokEnd, name: name, end: j + 1}, nil
	default:
		name, j, err := p.name(i, i+1)
		if err != nil {
			return token{}, err
		}
		// OFX elements have no attributes; whatever stands before the '>' is skipped.
		k := j
		for k < len(s) && s[k] != '>' && s[k] != '<' {
			k++
		}
		if k == len(s) || s[k] == '<' {
			return token{}, p.failAt(i, "expected '>' to end the tag <%s", name)
		}
		return token{kind: tokStart, name: name, end: k + 1, self: k > j && s[k-1] == '/'}, nil
	}
}

// name reads a tag name starting at j (tag is the '<' offset, for the error's line).
func (p *ofxParser) name(tag, j int) (string, int, *Error) {
	k := j
	for k < len(p.s) && isNameByte(p.s[k]) {
		if k-j >= maxNameBytes {
			return "", 0, p.failAt(tag, "a tag name longer than %d characters: this is not an OFX file", maxNameBytes)
		}
		k++
	}
	if k == j {
		return "", 0, p.failAt(tag, "expected a tag name after '<'")
	}
	return strings.ToUpper(p.s[j:k]), k, nil // ToUpper does not allocate for upper-case names
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isSpace(s[i]) {
			return false
		}
	}
	return true
}

// lineAt is the 1-based line of offset pos, counting CRLF, LF and a lone CR as one line end
// each. It runs only when a file is refused, so nothing per line is kept while parsing.
func lineAt(s string, pos int) int {
	head := s[:pos]
	return 1 + strings.Count(head, "\n") + strings.Count(head, "\r") - strings.Count(head, "\r\n")
}

func (p *ofxParser) failAt(pos int, format string, args ...any) *Error {
	return fail(lineAt(p.s, pos), format, args...)
}

// failEnd refuses at the last line that has anything on it: where a truncated file stops.
func (p *ofxParser) failEnd(format string, args ...any) *Error {
	end := len(strings.TrimRight(p.s, " \t\r\n\f\v"))
	return fail(lineAt(p.s, end), format, args...)
}
