package jsonscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// scanMembers collects members' keys and raw values, or nil when members refuses doc.
func scanMembers(doc []byte) map[string]string {
	out := map[string]string{}
	if !Members(doc, func(k []byte, v Span) { out[string(k)] = string(doc[v.Start:v.End]) }) {
		return nil
	}
	return out
}

// scanMembersAt is scanMembers through MembersAt, reading every value down to its leaves
// itself (the way the projection reads a selection), and checking that the end it returns
// is the object's own.
func scanMembersAt(doc []byte) map[string]string {
	var value func(i int) int
	value = func(i int) int {
		if i < len(doc) && doc[i] == '{' {
			return MembersAt(doc, i, func(_ []byte, v int) int { return value(v) })
		}
		if i < len(doc) && doc[i] == '[' {
			return ElementsAt(doc, i, value)
		}
		return ValueEnd(doc, i)
	}
	out := map[string]string{}
	end := MembersAt(doc, 0, func(k []byte, v int) int {
		e := value(v)
		if e >= 0 && e != ValueEnd(doc, v) {
			return -1
		}
		if e >= 0 {
			out[string(k)] = string(doc[v:e])
		}
		return e
	})
	if end < 0 || (len(bytes.TrimSpace(doc[end:])) > 0) {
		return nil
	}
	return out
}

// scanGuessing reads doc's members through MembersGuessing, guessing its own keys as read
// by MembersAt, then each the next member's key, then each key less its last byte (when
// that is a key too): right guesses, wrong ones, and ones that match the start of the key. Each pass must read what
// MembersAt reads and say which keys it guessed. It returns a failure, or "".
func scanGuessing(doc []byte) string {
	var keys []string
	want := MembersAt(doc, 0, func(k []byte, v int) int {
		keys = append(keys, string(k))
		return ValueEnd(doc, v)
	})
	next := append(append([]string(nil), keys[min(1, len(keys)):]...), "")
	var short []string
	for _, k := range keys {
		// A guess is a key as found between quotes: one the scanner could have read.
		if k = k[:max(len(k)-1, 0)]; json.Valid([]byte(`"` + k + `"`)) {
			short = append(short, k)
		} else {
			short = append(short, "")
		}
	}
	for _, guess := range [][]string{keys, next, short} {
		m := 0
		end := MembersGuessing(doc, 0, guess, func(k []byte, guessed bool, v int) int {
			defer func() { m++ }()
			if m >= len(keys) || string(k) != keys[m] {
				return -1 // a key MembersAt did not read: reported below
			}
			if guessed != (guess[m] != "" && guess[m] == keys[m]) {
				return -1
			}
			return ValueEnd(doc, v)
		})
		if end != want {
			return fmt.Sprintf("guessing %q: end %d, MembersAt %d", guess, end, want)
		}
	}
	return ""
}

func TestMembers(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want map[string]string // nil: refused
	}{
		{`{}`, map[string]string{}},
		{` { } `, map[string]string{}},
		{`{"a":1}`, map[string]string{"a": "1"}},
		{`{"a" : -1.5e+06 , "b":"x"}`, map[string]string{"a": "-1.5e+06", "b": `"x"`}},
		{`{"s":"a\"b}\\","n":null,"t":true,"f":false}`, map[string]string{"s": `"a\"b}\\"`, "n": "null", "t": "true", "f": "false"}},
		{`{"o":{"x":[1,{"y":"]}"}],"z":{}},"l":[]}`, map[string]string{"o": `{"x":[1,{"y":"]}"}],"z":{}}`, "l": "[]"}},
		{"{\n\t\"a\":\r\n[ 1 , 2 ]\n}", map[string]string{"a": "[ 1 , 2 ]"}},
		{`{"k\u0041":1}`, map[string]string{`k\u0041`: "1"}}, // keys as written: no schema name has an escape
		{``, nil},
		{`[]`, nil},
		{`null`, nil},
		{`{"a":1`, nil},
		{`{"a":}`, nil},
		{`{"a" 1}`, nil},
		{`{"a":1,}`, nil},
		{`{a:1}`, nil},
		{`{"a":"unterminated}`, nil},
		{`{"a":{"b":1}`, nil},
		{`{"a":1 "b":2}`, nil},
	} {
		if got := scanMembers([]byte(c.doc)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Members(%q) = %v, want %v", c.doc, got, c.want)
		}
		if got := scanMembersAt([]byte(c.doc)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("MembersAt(%q) = %v, want %v", c.doc, got, c.want)
		}
		if failed := scanGuessing([]byte(c.doc)); failed != "" {
			t.Errorf("%s: %s", c.doc, failed)
		}
	}
}

func TestElements(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want []string // nil: refused
	}{
		{`[]`, []string{}},
		{`[1, "a,]" ,{"b":[2]}, null]`, []string{"1", `"a,]"`, `{"b":[2]}`, "null"}},
		{`[1,]`, nil},
		{`[1`, nil},
		{`{}`, nil},
		{`[,1]`, nil},
	} {
		got := []string{}
		if !Elements([]byte(c.doc), func(v Span) { got = append(got, c.doc[v.Start:v.End]) }) {
			got = nil
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Elements(%q) = %q, want %q", c.doc, got, c.want)
		}
	}
}

// FuzzMembers holds the scanner to encoding/json on every JSON object it is given: the same
// members with the same values, the last of a repeated key winning as in encoding/json. On
// anything else it may refuse, but never reads out of bounds.
func FuzzMembers(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[true,{"c":"d\"}"}],"e":null}`, `{"a\"b":1,"a\\":2,"a":3}`, `{}`, `{"x":"\u00e9"}`, `[1]`, `{"a":1`, `{"a":-0.5e-3}`, `{"a":1,"A":2,"a":3}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		got := scanMembers(doc)
		if at := scanMembersAt(doc); at != nil && !reflect.DeepEqual(at, got) {
			t.Fatalf("MembersAt(%q) = %v, Members %v", doc, at, got)
		}
		if failed := scanGuessing(doc); failed != "" {
			t.Fatalf("%q: %s", doc, failed)
		}
		var want map[string]json.RawMessage
		if !json.Valid(doc) || json.Unmarshal(doc, &want) != nil || want == nil {
			return
		}
		if got == nil {
			t.Fatalf("members refused the JSON object %q", doc)
		}
		if len(got) != len(want) {
			return // a key written with escapes: json unescapes it, members keeps it as written
		}
		for k, v := range want {
			var c1, c2 bytes.Buffer
			g, ok := got[k]
			if !ok {
				return // as above
			}
			if json.Compact(&c1, v) != nil || json.Compact(&c2, []byte(g)) != nil || c1.String() != c2.String() {
				t.Fatalf("member %q of %q: members %q, encoding/json %q", k, doc, g, v)
			}
		}
	})
}
