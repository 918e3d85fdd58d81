package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzJWT checks the parser of API keys and Connect Tokens. Properties: a token the
// service signs parses back to its claims; the same token under another key is refused;
// and any string that parses carries, byte for byte, the HMAC-SHA256 under the service's
// key of its header and payload, with this service's header and issuer (so nothing parses
// that the key did not sign, and no second spelling of a signed token is accepted); in
// particular, changing any one character of a signed token makes it refused.
func FuzzJWT(f *testing.F) {
	key := DeriveKey([]byte("fuzz-master-key-0123456789abcdef"), "jwt")
	otherKey := DeriveKey([]byte("another-master-key-0123456789abc"), "jwt")
	good := sign(key, claims{Issuer: issuer, Subject: "3f1c6a55-8b7e-4f0e-9d57-5d1f4a3b2c10", Type: tokenAPIKey, ID: "j1", IssuedAt: 1700000000, Expires: 1700007200})
	f.Add("3f1c6a55-8b7e-4f0e-9d57-5d1f4a3b2c10", tokenAPIKey, "j1", int64(1700000000), int64(1700007200), "", uint16(0), byte('x'), good)
	f.Add("c", tokenConnect, "j2", int64(0), int64(-1), "item", uint16(40), byte('A'), jwtHeader+".e30.")
	f.Add("", "", "", int64(0), int64(0), "", uint16(7), byte('.'), "a.b.c")
	f.Add("", "", "", int64(0), int64(0), "", uint16(9), byte('0'), `eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJpc3MiOiJwb250ZSJ9.`)
	f.Fuzz(func(t *testing.T, sub, typ, id string, iat, exp int64, itemID string, at uint16, char byte, token string) {
		c := claims{Issuer: issuer, Subject: sub, Type: typ, ID: id, IssuedAt: iat, Expires: exp, ItemID: itemID}
		signed := sign(key, c)
		got, err := parse(key, signed)
		if err != nil {
			t.Fatalf("parse(sign(%+v)): %v", c, err)
		}
		// JSON replaces invalid UTF-8 with U+FFFD, so compare what the encoder kept.
		if want, _ := parse(key, sign(key, got)); want != got {
			t.Fatalf("claims changed on a second round trip: %+v then %+v", got, want)
		}
		if (utf8.ValidString(sub) && got.Subject != sub) || got.Expires != exp || got.IssuedAt != iat {
			t.Fatalf("parse(sign(%+v)) = %+v", c, got)
		}
		if _, err := parse(otherKey, signed); err == nil {
			t.Fatalf("a token signed under another key parsed: %s", signed)
		}
		if i := int(at) % len(signed); signed[i] != char {
			altered := signed[:i] + string(char) + signed[i+1:]
			if _, err := parse(key, altered); err == nil {
				t.Fatalf("token %s altered at %d to %s still parses", signed, i, altered)
			}
		}
		got, err = parse(key, token)
		if err != nil {
			return
		}
		parts := strings.Split(token, ".")
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(parts[0] + "." + parts[1]))
		if parts[0] != jwtHeader || parts[2] != b64.EncodeToString(mac.Sum(nil)) {
			t.Fatalf("parse accepted %q, whose header or signature is not the one the key makes", token)
		}
		if got.Issuer != issuer {
			t.Fatalf("parse accepted issuer %q", got.Issuer)
		}
	})
}
