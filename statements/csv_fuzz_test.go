package statements

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"
)

// FuzzParseCSV: whatever the file and the mapping, ParseCSV never panics and returns
// either one statement with lines or an *Error naming a line the file has.
func FuzzParseCSV(f *testing.F) {
	names := ReadyMappings()
	index := map[string]uint8{}
	for i, n := range names {
		index[n] = uint8(i)
	}
	for _, c := range bankFiles {
		f.Add(c.file, index[c.mapping], []byte(nil))
	}
	custom, _ := json.Marshal(plain())
	f.Add([]byte("Data;Descrição;Valor\n01/02/2026;\"Pão\n de queijo\";-3,00\n\n\nTotal;;\n"), uint8(0), custom)
	f.Add([]byte("x\r01/02/2026;a;1\r"), uint8(0), []byte(`{"delimiter":"auto","noHeader":true,"columns":{"date":1,"description":[2,2],"amount":3},"dateFormat":"DD/MM/YYYY|YYYYMMDD","decimal":"auto","sign":"inverted"}`))
	f.Fuzz(func(t *testing.T, file []byte, which uint8, mapping []byte) {
		m, _ := ReadyMapping(names[int(which)%len(names)])
		if len(mapping) > 0 {
			var given Mapping
			if json.Unmarshal(mapping, &given) == nil {
				m = given
			}
		}
		got, err := ParseCSV(file, m)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v, want *Error", err, err)
			}
			lines := bytes.Count(file, []byte("\n")) + bytes.Count(file, []byte("\r")) + 1
			if se.Line < 0 || se.Line > lines {
				t.Fatalf("error at line %d of a file of %d: %v", se.Line, lines, se)
			}
			if se.Msg == "" || len(se.Msg) > 1000 {
				t.Fatalf("message of %d bytes: %q", len(se.Msg), se.Msg)
			}
			return
		}
		if m.Check() != nil {
			t.Fatalf("a mapping that fails Check read the file: %+v", m)
		}
		if got == nil || len(got.Statements) != 1 || len(got.Statements[0].Lines) == 0 {
			t.Fatalf("no error and no lines: %+v", got)
		}
		for _, l := range got.Statements[0].Lines {
			if l.Date.IsZero() || !utf8.ValidString(l.Description) {
				t.Fatalf("line %+v", l)
			}
		}
	})
}
