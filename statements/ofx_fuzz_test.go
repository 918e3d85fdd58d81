package statements

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzParseOFX: whatever the bytes, ParseOFX returns a File or an *Error, never panics;
// every line it reads has a date; and a File it reads, written back in either form, reads
// back the same.
func FuzzParseOFX(f *testing.F) {
	for _, c := range ofxCases() {
		f.Add([]byte(c.file))
	}
	for _, c := range refusals() {
		if len(c.file) < 64<<10 {
			f.Add(c.file)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		file, err := ParseOFX(b)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || file != nil || se.Line < 0 || se.Msg == "" {
				t.Fatalf("ParseOFX = %v, %#v; want nil and an *Error", file, err)
			}
			return
		}
		if file == nil || len(file.Statements) == 0 {
			t.Fatalf("ParseOFX = %v, nil; want statements", file)
		}
		for _, st := range file.Statements {
			if st.Account.Number == "" || len(st.Currency) != 3 {
				t.Fatalf("statement without account or currency: %+v", st.Account)
			}
			for _, l := range st.Lines {
				if l.Date.IsZero() {
					t.Fatalf("a line without a date: %+v", l)
				}
			}
		}
		want := dump(file, true)
		for _, sgml := range []bool{true, false} {
			var buf bytes.Buffer
			if err := WriteOFX(&buf, file, sgml); err != nil {
				t.Fatalf("WriteOFX (sgml %v): %v", sgml, err)
			}
			back, err := ParseOFX(buf.Bytes())
			if err != nil {
				t.Fatalf("written back (sgml %v), refused: %v\n%s", sgml, err, buf.String())
			}
			if got := dump(back, true); got != want {
				t.Fatalf("round trip (sgml %v):\n%s\nwant\n%s", sgml, got, want)
			}
		}
	})
}
