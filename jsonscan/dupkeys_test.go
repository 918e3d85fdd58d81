package jsonscan

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestDuplicateKey(t *testing.T) {
	for _, c := range []struct {
		doc          string
		dup          bool
		first, again string
	}{
		{`{"amount":10,"Amount":20}`, true, "amount", "Amount"},
		{`{"query":"{ a }","query":"mutation { b }"}`, true, "query", "query"},
		{`{"a":1,"b":2,"c":3,"B":4}`, true, "b", "B"},
		{`{"o":{"x":1,"y":{"z":[1,{"k":1,"K":2}]}}}`, true, "k", "K"},
		{`{"a":1,"b":{"c":1},"A":2}`, true, "a", "A"},
		{`{"\u0061mount":1,"amount":2}`, true, "amount", "amount"},
		{`{"amount":1,"AM\u004fUNT":2}`, true, "amount", "AMOUNT"},
		{`{"é":1,"É":2}`, true, "é", "É"},
		{`{"kind":1,"\u212aind":2}`, true, "kind", "\u212aind"}, // the Kelvin sign
		{`{"ſ":1,"s":2}`, true, "ſ", "s"},                       // long s
		{`{"":1,"":2}`, true, "", ""},
		{`{"a\"b":1,"A\"B":2}`, true, `a"b`, `A"B`},
		{` { "a" : 1 , "A" : 2 } `, true, "a", "A"},
		{`{"a":1,"b":{"a":1,"b":1},"c":[{"a":1},{"a":1}]}`, false, "", ""},
		{`[{"a":1},{"a":2},{"A":3}]`, false, "", ""},
		{`{"a":"b","b":"a","x":"\"a\":1"}`, false, "", ""},
		{`{"amount":1,"amounts":2,"ss":3,"ß":4,"i":5,"j":6}`, false, "", ""},
		{`{"id":1,"ıd":2,"İD":3}`, false, "", ""}, // the Turkish i's fold apart from i and I, in encoding/json too
		{`{"a\\":1,"a":2}`, false, "", ""},
		{`{}`, false, "", ""},
		{`[]`, false, "", ""},
		{`"a"`, false, "", ""},
		{`1`, false, "", ""},
		// Not JSON: any answer, but no panic and no read past the end.
		{`{"a`, false, "", ""},
		{`}}]]`, false, "", ""},
		{`{"a":1,"b"`, false, "", ""},
	} {
		first, again, found := DuplicateKey([]byte(c.doc))
		if found != c.dup || first != c.first || again != c.again {
			t.Errorf("DuplicateKey(%s) = %q, %q, %v; want %q, %q, %v", c.doc, first, again, found, c.first, c.again, c.dup)
		}
	}
}

// TestDuplicateKeyIsWhatEncodingJSONMatches holds the folding to encoding/json itself: each
// spelling fills the field tagged with the other, so a body with both is read two ways.
func TestDuplicateKeyIsWhatEncodingJSONMatches(t *testing.T) {
	type fields struct {
		Amount int `json:"amount"`
		ID     int `json:"id"`
		Kind   int `json:"kind"`
		S      int `json:"s"`
		I      int `json:"i"`
	}
	for _, c := range []struct{ tag, spelling string }{
		{"amount", "Amount"}, {"amount", "AMOUNT"}, {"amount", `\u0061mount`}, {"id", "Id"},
		{"kind", "\u212aind"}, {"s", "ſ"}, {"i", "I"},
	} {
		var v fields
		if err := json.Unmarshal([]byte(`{"`+c.spelling+`":7}`), &v); err != nil {
			t.Fatal(err)
		}
		if v == (fields{}) {
			t.Errorf("encoding/json does not read %q as %q: the case is wrong", c.spelling, c.tag)
		}
		if _, _, found := DuplicateKey([]byte(`{"` + c.tag + `":1,"` + c.spelling + `":2}`)); !found {
			t.Errorf("%q and %q: encoding/json reads them as one field, DuplicateKey lets both through", c.tag, c.spelling)
		}
	}
	// And names encoding/json keeps apart pass.
	for _, c := range []struct{ tag, spelling string }{{"id", "ıd"}, {"id", "İd"}, {"i", "ı"}, {"s", "ß"}, {"amount", "amounts"}} {
		var v fields
		if err := json.Unmarshal([]byte(`{"`+c.spelling+`":7}`), &v); err != nil {
			t.Fatal(err)
		}
		if v != (fields{}) {
			t.Errorf("encoding/json reads %q as a field: the case is wrong", c.spelling)
		}
		if first, again, found := DuplicateKey([]byte(`{"` + c.tag + `":1,"` + c.spelling + `":2}`)); found {
			t.Errorf("%q and %q are two fields to encoding/json, DuplicateKey joins %q and %q", c.tag, c.spelling, first, again)
		}
	}
}

// TestDuplicateKeyLargeObject: an object of many keys is indexed, not compared pairwise
// (100,000 keys pairwise would be 5·10⁹ comparisons, minutes; indexed it is milliseconds).
func TestDuplicateKeyLargeObject(t *testing.T) {
	const n = 100_000
	var b bytes.Buffer
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":{"a":1}`)
	}
	distinct := append(bytes.Clone(b.Bytes()), '}')
	repeated := append(b.Bytes(), `,"\u00e9":1,"K99998":1}`...)
	start := time.Now()
	if first, again, found := DuplicateKey(distinct); found {
		t.Fatalf("distinct keys: found %q and %q", first, again)
	}
	if first, again, found := DuplicateKey(repeated); !found || first != "k99998" || again != "K99998" {
		t.Fatalf("repeat at the end: %q, %q, %v", first, again, found)
	}
	// A bound far above the linear time (milliseconds) and far below the quadratic one.
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("two scans of %d keys took %v", n, took)
	}
}

// refRepeat is the reference for DuplicateKey: encoding/json's own tokens, each object's
// keys compared with each earlier one by strings.EqualFold.
func refRepeat(doc []byte) (first, again string, found bool) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	// A valid number too large for float64 (json.Valid allows it) would end the walk early.
	dec.UseNumber()
	type frame struct {
		obj    bool
		keyNow bool // in an object: the next token is a key
		keys   []string
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", "", false
		}
		top := (*frame)(nil)
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 && stack[len(stack)-1].obj {
				stack[len(stack)-1].keyNow = true
			}
			continue
		}
		if top != nil && top.obj && top.keyNow {
			k := tok.(string)
			for _, earlier := range top.keys {
				if strings.EqualFold(earlier, k) {
					return earlier, k, true
				}
			}
			top.keys = append(top.keys, k)
			top.keyNow = false
			continue
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, &frame{obj: d == '{', keyNow: d == '{'})
			continue
		}
		if top != nil && top.obj {
			top.keyNow = true
		}
	}
}

// FuzzDuplicateKey holds DuplicateKey to the reference walk on every JSON document: the same
// first repeat, or none. On anything else it must only not panic.
func FuzzDuplicateKey(f *testing.F) {
	for _, s := range []string{`{"amount":10,"Amount":20}`, `{"query":"a","variables":{"x":1,"X":2},"query":"b"}`,
		`{"a":[{"b":1},{"b":2}],"c":{"d":{"e":1,"E":2}}}`, `{"\u0041":1,"a":2}`, `{"ıd":1,"ID":2,"İd":3}`, `{"\u212a":1,"k":2}`,
		`{"é":1,"É":2}`, `{"a\"":1,"A\"":2}`, `{"\ud800":1,"\ufffd":2}`, "{\"\xff\":1,\"\xfe\":2}", `{"a":1`, `[1,{"a":1}]`} {
		f.Add([]byte(s))
	}
	var many strings.Builder
	many.WriteString("{")
	for i := range dupLinear + 4 {
		many.WriteString(`"k` + strconv.Itoa(i) + `":1,`)
	}
	f.Add([]byte(many.String() + `"K3":1}`))
	f.Add([]byte(many.String() + `"\u006b3":1}`))
	f.Add([]byte(many.String() + `"k99":1}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		first, again, found := DuplicateKey(doc)
		if !json.Valid(doc) {
			return
		}
		wantFirst, wantAgain, want := refRepeat(doc)
		if found != want || first != wantFirst || again != wantAgain {
			t.Fatalf("DuplicateKey(%q) = %q, %q, %v; the reference finds %q, %q, %v", doc, first, again, found, wantFirst, wantAgain, want)
		}
	})
}
