package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
)

// claims are the JWT payload of API keys and connect tokens. The official client decodes
// the API key without verifying it and reads exp, so exp is always present.
type claims struct {
	Issuer   string `json:"iss"`
	Subject  string `json:"sub"` // clientId
	Type     string `json:"typ"` // tokenAPIKey or tokenConnect
	ID       string `json:"jti"`
	IssuedAt int64  `json:"iat"`
	Expires  int64  `json:"exp"`
	ItemID   string `json:"itemId,omitempty"`
	// Generation is the client's credential generation when the key was issued (for a
	// Connect Token, the one of the API key that asked for it); a secret change or a
	// disable moves the client's on, and older credentials are refused. Keys issued before
	// generations existed have none, which reads as 0, the generation every client started at.
	Generation int64 `json:"gen"`
	// Clock is the test clock of a Connect Token issued for an item on one: its iat and exp
	// are that clock's times, and Verify judges them against the clock, not real time.
	Clock string `json:"clk,omitempty"`
	// Origin is a Connect Token's targetOrigin: the signature vouches for it, so a refusal
	// written before the store could be asked (the database away) still names the page
	// that may read it.
	Origin string `json:"org,omitempty"`
}

const (
	issuer       = "ponte"
	tokenAPIKey  = "api_key"
	tokenConnect = "connect_token"
)

var (
	errMalformed = errors.New("malformed token")
	errSignature = errors.New("bad signature")
	b64          = base64.RawURLEncoding
	jwtHeader    = b64.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
)

func sign(key []byte, c claims) string {
	payload, _ := json.Marshal(c)
	unsigned := jwtHeader + "." + b64.EncodeToString(payload)
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(unsigned))
	return unsigned + "." + b64.EncodeToString(mac.Sum(nil))
}

// parse checks the signature and decodes the claims; expiry is the caller's to judge.
func parse(key []byte, token string) (claims, error) {
	var c claims
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return c, errMalformed
	}
	// Only our own header is accepted: no algorithm negotiation, so no "alg: none".
	if parts[0] != jwtHeader {
		return c, errMalformed
	}
	sig, ok := decodeCanonical(parts[2])
	if !ok {
		return c, errMalformed
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(parts[0] + "." + parts[1]))
	if !hmac.Equal(sig, mac.Sum(nil)) {
		return c, errSignature
	}
	payload, ok := decodeCanonical(parts[1])
	if !ok {
		return c, errMalformed
	}
	if err := json.Unmarshal(payload, &c); err != nil || c.Issuer != issuer {
		return c, errMalformed
	}
	return c, nil
}

// Claimed is what token's signature vouches for, without the store: its kind and, for a
// Connect Token, the targetOrigin it was issued with; signed is false for anything not
// signed here. Expiry and revocation are not judged: it serves only to choose who may read
// an answer given before, or without, the credential's full check.
func (s *Service) Claimed(token string) (kind Kind, origin string, signed bool) {
	if token == "" {
		return 0, "", false
	}
	c, err := s.claimsOf(token)
	if err != nil {
		return 0, "", false
	}
	switch c.Type {
	case tokenAPIKey:
		return KindAPIKey, "", true
	case tokenConnect:
		return KindConnectToken, c.Origin, true
	}
	return 0, "", false
}
