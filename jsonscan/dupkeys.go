package jsonscan

import (
	"bytes"
	"encoding/json"
	"unicode"
	"unicode/utf8"
)

// A body that names a member twice is read differently by different readers: encoding/json
// keeps the last, many gateways, loggers and other languages' parsers the first. And
// encoding/json fills a struct field from a key of any case ({"amount":10,"Amount":20} is
// an amount of 20), so a key that differs from another only in case is a repeat as well.
// The service refuses both, before any decoder runs, so that every reader of a body it
// accepts sees the same request.

// dupLinear is how many keys an object holds before DuplicateKey indexes them: below it a
// new key is compared with each earlier one (no allocation, and most objects have a few
// keys); from it on the object's keys go into a map, so an object of 100,000 keys costs
// linear time, not 5·10⁹ comparisons.
const dupLinear = 16

// keyRef is a key of the object being scanned, as written between its quotes. plain keys
// are ASCII with no escape and are folded in place when compared; any other key is decoded
// and folded once, into DuplicateKey's arena, at folded.
type keyRef struct {
	start, end int
	folded     Span
	plain      bool
}

// dupFrame is an open object or array: where the object's keys and their folded names
// begin in DuplicateKey's stacks, and the index of its names once it has dupLinear keys.
type dupFrame struct {
	obj         bool
	keys, arena int
	index       map[string]int
}

// names reads the keys of doc whose folded names are in arena. It is passed by value and
// never appended to: DuplicateKey's stacks start in arrays on its own stack, which a
// method appending through a pointer would move to the heap for every body.
type names struct{ doc, arena []byte }

// DuplicateKey finds the first member of an object of doc, at any depth, whose key names
// what an earlier key of the same object names to encoding/json: equal once decoded
// (escapes included) and under Unicode simple case folding, as encoding/json matches a key
// to a struct field and as strings.EqualFold compares. It returns the earlier key and the
// repeat, decoded. Like the rest of the package it trusts doc to be JSON: on anything else
// it may report a repeat or none, but never reads out of bounds. It keeps the keys of the
// open objects, so its memory grows with the document's nesting and keys; callers bound the
// nesting first (by depth, or by validity, which encoding/json bounds at 10,000 levels).
func DuplicateKey(doc []byte) (first, again string, found bool) {
	var framesBuf [16]dupFrame
	var keysBuf [64]keyRef
	var arenaBuf [256]byte
	frames, keys, arena := framesBuf[:0], keysBuf[:0], arenaBuf[:0]
	wantKey := false
	for i := 0; i < len(doc); {
		switch c := doc[i]; c {
		case '{', '[':
			frames = append(frames, dupFrame{obj: c == '{', keys: len(keys), arena: len(arena)})
			wantKey = c == '{'
			i++
		case '}', ']':
			if len(frames) == 0 {
				return "", "", false
			}
			f := frames[len(frames)-1]
			keys, arena = keys[:f.keys], arena[:f.arena]
			frames = frames[:len(frames)-1]
			wantKey = false
			i++
		case ',':
			wantKey = len(frames) > 0 && frames[len(frames)-1].obj
			i++
		case ':':
			wantKey = false
			i++
		case '"':
			end := stringEnd(doc, i)
			if end < 0 {
				return "", "", false
			}
			if wantKey && len(frames) > 0 {
				f := &frames[len(frames)-1]
				var k keyRef
				k, arena = foldKey(doc, arena, i+1, end-1)
				n := names{doc, arena}
				if j := n.repeats(f, keys[f.keys:], k); j >= 0 {
					return decodeKey(doc, keys[f.keys+j]), decodeKey(doc, k), true
				}
				keys = append(keys, k)
				wantKey = false
			}
			i = end
		default:
			i++
		}
	}
	return "", "", false
}

// foldKey makes the keyRef of the key written at doc[start:end], folding it onto arena
// unless it is plain.
func foldKey(doc, arena []byte, start, end int) (keyRef, []byte) {
	k := keyRef{start: start, end: end, plain: true}
	for _, c := range doc[start:end] {
		if c >= utf8.RuneSelf || c == '\\' {
			k.plain = false
			break
		}
	}
	if !k.plain {
		name := doc[start:end]
		if bytes.IndexByte(name, '\\') >= 0 || !utf8.Valid(name) {
			name = []byte(decodeKey(doc, k))
		}
		from := len(arena)
		arena = appendFolded(arena, name)
		k.folded = Span{from, len(arena)}
	}
	return k, arena
}

// repeats is the position among f's earlier keys of the one k repeats, or -1; it adds k to
// f's index once f has one.
func (s names) repeats(f *dupFrame, earlier []keyRef, k keyRef) int {
	if f.index == nil && len(earlier) < dupLinear {
		for j, e := range earlier {
			if s.sameName(e, k) {
				return j
			}
		}
		return -1
	}
	if f.index == nil {
		f.index = make(map[string]int, 2*len(earlier))
		for j, e := range earlier {
			f.index[string(s.name(e))] = j // earlier keys are distinct: nothing is overwritten
		}
	}
	name := s.name(k)
	if j, ok := f.index[string(name)]; ok {
		return j
	}
	f.index[string(name)] = len(earlier)
	return -1
}

// sameName reports whether two keys fold to the same name, without allocating.
func (s names) sameName(a, b keyRef) bool {
	if !a.plain && !b.plain {
		return string(s.arena[a.folded.Start:a.folded.End]) == string(s.arena[b.folded.Start:b.folded.End])
	}
	if !a.plain {
		a, b = b, a
	}
	// a is plain: its folded name is its bytes in upper case.
	x, y := s.doc[a.start:a.end], s.doc[b.start:b.end]
	if !b.plain {
		y = s.arena[b.folded.Start:b.folded.End]
	}
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if asciiUpper(x[i]) != asciiUpper(y[i]) {
			return false
		}
	}
	return true
}

// name is k's folded name (a new slice for a plain key, to be used at once).
func (s names) name(k keyRef) []byte {
	if !k.plain {
		return s.arena[k.folded.Start:k.folded.End]
	}
	out := make([]byte, k.end-k.start)
	for i, c := range s.doc[k.start:k.end] {
		out[i] = asciiUpper(c)
	}
	return out
}

// appendFolded appends name folded as encoding/json folds a name to match a struct field
// (its fold.go): ASCII letters to upper case, any other character to the smallest of its
// simple case folding orbit. Two names fold alike exactly when strings.EqualFold holds.
func appendFolded(dst, name []byte) []byte {
	for i := 0; i < len(name); {
		if c := name[i]; c < utf8.RuneSelf {
			dst = append(dst, asciiUpper(c))
			i++
			continue
		}
		r, n := utf8.DecodeRune(name[i:])
		for {
			next := unicode.SimpleFold(r)
			if next <= r {
				r = next
				break
			}
			r = next
		}
		dst = utf8.AppendRune(dst, r)
		i += n
	}
	return dst
}

func asciiUpper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// decodeKey is a key as encoding/json decodes it: escapes resolved, and invalid UTF-8 and
// lone surrogates replaced by U+FFFD.
func decodeKey(doc []byte, k keyRef) string {
	raw := doc[k.start:k.end]
	if k.plain || bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw)
	}
	var v string
	if json.Unmarshal(doc[k.start-1:k.end+1], &v) != nil {
		return string(raw) // not JSON: the caller's decoder says why
	}
	return v
}
