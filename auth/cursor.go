package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
)

// ErrBadCursor is a cursor this service did not issue, or one altered since.
var ErrBadCursor = errors.New("bad cursor")

func (s *Service) cursorMAC(payload []byte) []byte {
	m := hmac.New(sha256.New, DeriveKey(s.jwtKey, "cursor"))
	m.Write(payload)
	return m.Sum(nil)[:12]
}

// SignCursor makes an opaque, URL-safe cursor: clients pass it back unchanged, and a
// changed one is refused rather than read, so it can never reach another account's rows.
func (s *Service) SignCursor(payload []byte) string {
	return base64.RawURLEncoding.EncodeToString(payload) + "." + base64.RawURLEncoding.EncodeToString(s.cursorMAC(payload))
}

// OpenCursor checks a cursor and returns its payload.
func (s *Service) OpenCursor(cursor string) ([]byte, error) {
	p, sig, ok := strings.Cut(cursor, ".")
	if !ok {
		return nil, ErrBadCursor
	}
	payload, ok1 := decodeCanonical(p)
	mac, ok2 := decodeCanonical(sig)
	if !ok1 || !ok2 || !hmac.Equal(mac, s.cursorMAC(payload)) {
		return nil, ErrBadCursor
	}
	return payload, nil
}

// decodeCanonical decodes unpadded base64url and accepts only the spelling the encoder
// writes: the decoder alone skips CR and LF and ignores unused trailing bits, which would
// give one signed value several accepted spellings.
func decodeCanonical(s string) ([]byte, bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || base64.RawURLEncoding.EncodeToString(b) != s {
		return nil, false
	}
	return b, true
}
