// Package jsonscan finds the byte ranges of a JSON document's members and elements
// without decoding them, for code that copies stored documents in part, and finds the keys
// a request body repeats (DuplicateKey, dupkeys.go).
package jsonscan

import "bytes"

// GraphQL's projection (graph/project.go) reads each stored document once, to find where
// the selected members' values are, and copies those bytes. encoding/json would decode
// every value into Go (what the projection avoids), and gjson, tried first, parses every
// number into a float and hands back results of several words each: together they took 60%
// of the projection's time on a 500-row page. The scanners here only find byte ranges.
// They trust that the document is JSON, as the service's own encoder wrote it, and stop
// (returning false) at anything that is not, without reading past its end.

// Span is a value's byte range in its document; the zero Span is an absent value.
type Span struct{ Start, End int }

// Members calls fn with each member of the object doc (surrounding whitespace allowed):
// the key as written between its quotes, and the range of its value.
func Members(doc []byte, fn func(key []byte, v Span)) bool {
	return MembersAt(doc, 0, func(key []byte, v int) int {
		end := valueEnd(doc, v)
		if end >= 0 {
			fn(key, Span{v, end})
		}
		return end
	}) >= 0
}

// Elements calls fn with the range of each element of the array doc.
func Elements(doc []byte, fn func(v Span)) bool {
	return ElementsAt(doc, 0, func(v int) int {
		end := valueEnd(doc, v)
		if end >= 0 {
			fn(Span{v, end})
		}
		return end
	}) >= 0
}

// valueEnd is the index just past the value starting at i, or -1.
func valueEnd(doc []byte, i int) int {
	if i >= len(doc) {
		return -1
	}
	switch doc[i] {
	case '"':
		return stringEnd(doc, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(doc); j++ {
			switch doc[j] {
			case '"':
				e := stringEnd(doc, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	// A number, true, false or null: it runs to the next delimiter.
	j := i
	for j < len(doc) {
		switch doc[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			if j == i {
				return -1
			}
			return j
		}
		j++
	}
	return j
}

// stringEnd is the index just past the string whose opening quote is at i, or -1. It jumps
// from quote to quote (bytes.IndexByte is vectorised; strings are most of a document's
// bytes): a quote ends the string unless an odd number of backslashes escapes it.
func stringEnd(doc []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(doc[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		escapes := 0
		for p := q - 1; p > i && doc[p] == '\\'; p-- {
			escapes++
		}
		if escapes%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

func skipSpace(doc []byte, i int) int {
	for i < len(doc) && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '\r' || doc[i] == '\n') {
		i++
	}
	return i
}

// MembersAt and ElementsAt let the callback read a value itself and say where it ended, so
// a projection reads a document once however deep its selection goes: finding a nested
// value's end first and then reading its members would scan it once per level.

// ValueEnd is the index just past the value starting at doc[i], or -1.
func ValueEnd(doc []byte, i int) int { return valueEnd(doc, i) }

// MembersAt reads the object whose opening brace is at doc[i] (or after space), calling fn
// with each member's key and the index where its value starts; fn returns the index just
// past the value (ValueEnd when it does not read it itself), or -1 to stop. MembersAt
// returns the index just past the object, or -1 when it is not one.
func MembersAt(doc []byte, i int, fn func(key []byte, v int) int) int {
	return MembersGuessing(doc, i, nil, func(key []byte, _ bool, v int) int { return fn(key, v) })
}

// MembersGuessing is MembersAt for objects whose keys mostly come in a known order, as the
// documents the service writes from one struct do. guess[m] is the key the m-th member
// likely has, as fn was given it for an earlier object, or "". A right guess is confirmed
// by comparing bytes instead of searching for the key's closing quote, whose setup costs
// more than the search for keys this short (a sixth of a projection); fn is told whether
// the key is the guess. A key fn was given has no unescaped quote and does not end in an
// escaping backslash, so when the bytes after the opening quote are the guess and a
// quote, that quote closes the key.
func MembersGuessing(doc []byte, i int, guess []string, fn func(key []byte, guessed bool, v int) int) int {
	i, empty, ok := openingAt(doc, i, '{', '}')
	if !ok {
		return -1
	}
	if empty {
		return i + 1
	}
	for m := 0; ; m++ {
		if i >= len(doc) || doc[i] != '"' {
			return -1
		}
		k, guessed := -1, false
		if m < len(guess) {
			if w := guess[m]; w != "" && i+1+len(w) < len(doc) && doc[i+1+len(w)] == '"' && string(doc[i+1:i+1+len(w)]) == w {
				k, guessed = i+2+len(w), true
			}
		}
		if !guessed {
			if k = stringEnd(doc, i); k < 0 {
				return -1
			}
		}
		key := doc[i+1 : k-1]
		i = skipSpace(doc, k)
		if i >= len(doc) || doc[i] != ':' {
			return -1
		}
		i = skipSpace(doc, i+1)
		end := fn(key, guessed, i)
		if end < 0 || end > len(doc) {
			return -1
		}
		i = skipSpace(doc, end)
		if i >= len(doc) {
			return -1
		}
		if doc[i] == '}' {
			return i + 1
		}
		if doc[i] != ',' {
			return -1
		}
		i = skipSpace(doc, i+1)
	}
}

// ElementsAt is MembersAt for the array whose opening bracket is at doc[i].
func ElementsAt(doc []byte, i int, fn func(v int) int) int {
	i, empty, ok := openingAt(doc, i, '[', ']')
	if !ok {
		return -1
	}
	if empty {
		return i + 1
	}
	for {
		end := fn(i)
		if end < 0 || end > len(doc) {
			return -1
		}
		i = skipSpace(doc, end)
		if i >= len(doc) {
			return -1
		}
		if doc[i] == ']' {
			return i + 1
		}
		if doc[i] != ',' {
			return -1
		}
		i = skipSpace(doc, i+1)
	}
}

// openingAt reads a container's opening byte at doc[i] (space around it allowed): the index
// returned is where its first member or element starts, and empty says it closes at once.
func openingAt(doc []byte, i int, open, closing byte) (at int, empty, ok bool) {
	i = skipSpace(doc, i)
	if i >= len(doc) || doc[i] != open {
		return 0, false, false
	}
	i = skipSpace(doc, i+1)
	return i, i < len(doc) && doc[i] == closing, true
}
