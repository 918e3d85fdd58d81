package auth

import (
	"bytes"
	"testing"
)

// FuzzCursor checks the signed cursors every keyset page hands out. Properties: a payload
// signed by the service opens to the same bytes; a cursor signed under another key never
// opens; and any string that opens is exactly the cursor the service would write for its
// payload, so one page has one cursor and an altered spelling is refused rather than read;
// in particular, changing any one character of a signed cursor makes it refused.
func FuzzCursor(f *testing.F) {
	s := NewService(nil, []byte("fuzz-master-key-0123456789abcdef"))
	other := NewService(nil, []byte("another-master-key-0123456789abc"))
	for _, p := range []string{"", "{}", `{"a":"7b0c...","f":"x","d":1700000000000000000,"i":"1f0e"}`, "\x00\xff"} {
		f.Add([]byte(p), uint16(0), byte('A'), s.SignCursor([]byte(p)))
	}
	f.Add([]byte("x"), uint16(1), byte('Z'), "eA.AAAAAAAAAAAAAAAA")
	f.Add([]byte("x"), uint16(2), byte('.'), "..")
	f.Fuzz(func(t *testing.T, payload []byte, at uint16, char byte, cursor string) {
		signed := s.SignCursor(payload)
		got, err := s.OpenCursor(signed)
		if err != nil || !bytes.Equal(got, payload) {
			t.Fatalf("OpenCursor(SignCursor(%q)) = %q, %v", payload, got, err)
		}
		if i := int(at) % len(signed); signed[i] != char {
			altered := signed[:i] + string(char) + signed[i+1:]
			if _, err := s.OpenCursor(altered); err == nil {
				t.Fatalf("cursor %q altered at %d to %q still opens", signed, i, altered)
			}
		}
		if _, err := other.OpenCursor(signed); err == nil {
			t.Fatalf("a cursor signed under another key opened: %q", signed)
		}
		if got, err := s.OpenCursor(cursor); err == nil {
			if want := s.SignCursor(got); want != cursor {
				t.Fatalf("OpenCursor accepted %q, which is not the cursor of its payload %q (%q)", cursor, got, want)
			}
		}
	})
}
