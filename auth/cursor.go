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
	payload, err1 := base64.RawURLEncoding.DecodeString(p)
	mac, err2 := base64.RawURLEncoding.DecodeString(sig)
	if err1 != nil || err2 != nil || !hmac.Equal(mac, s.cursorMAC(payload)) {
		return nil, ErrBadCursor
	}
	return payload, nil
}
