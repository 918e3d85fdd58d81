package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// wantCode checks that err is a model.Error with the given code.
func wantCode(t *testing.T, what string, err error, code model.Code) {
	t.Helper()
	var e *model.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Errorf("%s: got %v, want %s", what, err, code)
	}
}

// The token format: only this service's header, a canonical base64url HMAC-SHA256 under
// the key, and this service's issuer parse; expiry is Verify's to judge.
func TestTokenParse(t *testing.T) {
	t.Parallel()
	key := DeriveKey([]byte("rules-master-key-0123456789abcdef"), "jwt")
	c := claims{Issuer: issuer, Subject: "3f1c6a55-8b7e-4f0e-9d57-5d1f4a3b2c10", Type: tokenAPIKey, ID: "j1", IssuedAt: 1700000000, Expires: 1700007200}
	good := sign(key, c)
	parts := strings.Split(good, ".")
	// resign writes a token the service never would, correctly signed by its key.
	resign := func(header, payload string) string {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(header + "." + payload))
		return header + "." + payload + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
	}
	foreign := c
	foreign.Issuer = "someone-else"
	cases := []struct {
		name  string
		token string
		err   error
	}{
		{"signed by the service", good, nil},
		{"under another key", sign(DeriveKey([]byte("another-master-key-0123456789abc"), "jwt"), c), errSignature},
		{"payload swapped", parts[0] + "." + strings.Split(sign(key, claims{Issuer: issuer, Subject: "x"}), ".")[1] + "." + parts[2], errSignature},
		{"alg none", base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + ".", errMalformed},
		{"another header, signed", resign(base64.RawURLEncoding.EncodeToString([]byte(`{"typ":"JWT","alg":"HS256"}`)), parts[1]), errMalformed},
		{"two parts", parts[0] + "." + parts[1], errMalformed},
		{"four parts", good + ".x", errMalformed},
		{"padded signature", good + "=", errMalformed},
		{"signature with a line break", parts[0] + "." + parts[1] + "." + parts[2][:10] + "\n" + parts[2][10:], errMalformed},
		{"another issuer, signed", sign(key, foreign), errMalformed},
		{"payload not JSON, signed", resign(jwtHeader, base64.RawURLEncoding.EncodeToString([]byte("not json"))), errMalformed},
		{"empty", "", errMalformed},
	}
	for _, tc := range cases {
		got, err := parse(key, tc.token)
		if err != tc.err {
			t.Errorf("%s: parse error %v, want %v", tc.name, err, tc.err)
			continue
		}
		if err == nil && got != c {
			t.Errorf("%s: claims %+v, want %+v", tc.name, got, c)
		}
	}
}

// Verify's refusals that need no database: a forged or malformed credential is
// API_KEY_INVALID, one whose exp has come is API_KEY_EXPIRED (exp itself included), and a
// subject that is not a client id is API_KEY_INVALID.
func TestVerifyRefusals(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	s := NewService(nil, []byte("rules-master-key-0123456789abcdef")).WithClock(func() time.Time { return now })
	other := NewService(nil, []byte("another-master-key-0123456789abc"))
	client := uuid.NewString()
	token := func(sv *Service, sub string, exp time.Time) string {
		return sign(sv.jwtKey, claims{Issuer: issuer, Subject: sub, Type: tokenAPIKey, ID: "k", IssuedAt: now.Add(-time.Hour).Unix(), Expires: exp.Unix()})
	}
	cases := []struct {
		name  string
		token string
		code  model.Code
	}{
		{"not a token", "abc", model.CodeAPIKeyInvalid},
		{"signed under another master key", token(other, client, now.Add(time.Hour)), model.CodeAPIKeyInvalid},
		{"expired a second ago", token(s, client, now.Add(-time.Second)), model.CodeAPIKeyExpired},
		{"expires now", token(s, client, now), model.CodeAPIKeyExpired},
		{"subject not a client id", token(s, "client-1", now.Add(time.Hour)), model.CodeAPIKeyInvalid},
	}
	for _, tc := range cases {
		p, err := s.Verify(context.Background(), tc.token)
		if p != nil {
			t.Errorf("%s: verified as %+v", tc.name, p)
		}
		wantCode(t, tc.name, err, tc.code)
	}
}

// A credential's claims are remembered once its signature checked out; what can change is
// still checked each time, and a token differing by one byte is parsed (and refused) anew.
func TestRememberedClaims(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	s := NewService(nil, []byte("rules-master-key-0123456789abcdef")).WithClock(func() time.Time { return now })
	good := sign(s.jwtKey, claims{Issuer: issuer, Subject: uuid.NewString(), Type: tokenAPIKey, ID: "k", IssuedAt: now.Unix(), Expires: now.Add(time.Hour).Unix()})
	for range 2 {
		if c, err := s.claimsOf(good); err != nil || c.Expires != now.Add(time.Hour).Unix() {
			t.Fatalf("claimsOf = %+v, %v", c, err)
		}
	}
	if s.tokens.Len() != 1 {
		t.Fatalf("%d tokens remembered, want 1", s.tokens.Len())
	}
	forged := good[:len(good)-2] + map[bool]string{true: "AA", false: "BB"}[good[len(good)-2:] != "AA"]
	for _, bad := range []string{forged, good + "x", "x" + good, good[:len(good)-1]} {
		if _, err := s.claimsOf(bad); err == nil {
			t.Fatalf("%q accepted after the genuine token was remembered", bad)
		}
	}
	if s.tokens.Len() != 1 {
		t.Fatalf("%d tokens remembered after refusals, want 1", s.tokens.Len())
	}
	// A remembered credential still expires: the clock is read on every request.
	later := s.WithClock(func() time.Time { return now.Add(2 * time.Hour) })
	_, err := later.Verify(context.Background(), good)
	wantCode(t, "a remembered credential past its exp", err, model.CodeAPIKeyExpired)
}

// Cursors open only as the service wrote them, under its own key.
func TestCursorOpen(t *testing.T) {
	t.Parallel()
	s := NewService(nil, []byte("rules-master-key-0123456789abcdef"))
	other := NewService(nil, []byte("another-master-key-0123456789abc"))
	payload := []byte(`{"a":"7b0c","d":1700000000}`)
	good := s.SignCursor(payload)
	p, mac, _ := strings.Cut(good, ".")
	cases := []struct {
		name   string
		cursor string
		ok     bool
	}{
		{"as signed", good, true},
		{"empty payload", s.SignCursor(nil), true},
		{"signed under another key", other.SignCursor(payload), false},
		{"payload of another cursor", strings.Split(s.SignCursor([]byte(`{"a":"other"}`)), ".")[0] + "." + mac, false},
		{"no signature", p, false},
		{"empty", "", false},
		{"padded", good + "=", false},
		{"line break inside", p[:4] + "\n" + p[4:] + "." + mac, false},
		{"two dots", good + ".", false},
		{"signature cut short", p + "." + mac[:len(mac)-2], false},
	}
	for _, tc := range cases {
		got, err := s.OpenCursor(tc.cursor)
		if tc.ok != (err == nil) {
			t.Errorf("%s: OpenCursor(%q) error %v, want ok %v", tc.name, tc.cursor, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrBadCursor) {
			t.Errorf("%s: error %v is not ErrBadCursor", tc.name, err)
		}
		if tc.name == "as signed" && string(got) != string(payload) {
			t.Errorf("opened %q, want %q", got, payload)
		}
	}
}

// A Connect Token reaches exactly the actions of the Connect flow; an API key reaches all.
func TestRequire(t *testing.T) {
	t.Parallel()
	every := []Action{ReadConnectors, ValidateParameters, ReadCategories, ReadClient, IssueConnectToken, ReadItem, ListItems,
		CreateItem, UpdateItem, DeleteItem, ReadAccounts, ReadProductData, WriteProductData, ManageWebhooks, ReadEvents, ManagePayments}
	tokenMay := map[Action]bool{ReadConnectors: true, ValidateParameters: true, ReadItem: true, CreateItem: true, UpdateItem: true, ReadAccounts: true}
	apiKey := WithResult(context.Background(), &Principal{ClientID: uuid.New(), Kind: KindAPIKey}, nil)
	token := WithResult(context.Background(), &Principal{ClientID: uuid.New(), Kind: KindConnectToken}, nil)
	refused := model.Fail(model.CodeAPIKeyExpired, "expired")
	for _, a := range every {
		if _, err := Require(apiKey, a); err != nil {
			t.Errorf("API key refused %s: %v", a, err)
		}
		_, err := Require(token, a)
		if tokenMay[a] && err != nil {
			t.Errorf("Connect Token refused %s: %v", a, err)
		}
		if !tokenMay[a] {
			wantCode(t, "Connect Token on "+string(a), err, model.CodeForbidden)
		}
		_, err = Require(context.Background(), a)
		wantCode(t, "no credential on "+string(a), err, model.CodeAPIKeyMissing)
		if _, err := Require(WithResult(context.Background(), nil, refused), a); err != refused {
			t.Errorf("a refused credential on %s: got %v, want the refusal itself", a, err)
		}
	}
}

// A Connect Token reaches only its own item, and none before it has one; API keys are not
// bound to items.
func TestRequireItem(t *testing.T) {
	t.Parallel()
	mine, other := uuid.New(), uuid.New()
	cases := []struct {
		name string
		p    Principal
		item uuid.UUID
		ok   bool
	}{
		{"API key", Principal{Kind: KindAPIKey}, other, true},
		{"token on its item", Principal{Kind: KindConnectToken, ItemID: &mine}, mine, true},
		{"token on another item", Principal{Kind: KindConnectToken, ItemID: &mine}, other, false},
		{"token without an item yet", Principal{Kind: KindConnectToken}, mine, false},
	}
	for _, tc := range cases {
		err := tc.p.RequireItem(tc.item)
		if tc.ok && err != nil {
			t.Errorf("%s: refused: %v", tc.name, err)
		}
		if !tc.ok {
			wantCode(t, tc.name, err, model.CodeForbidden)
		}
	}
}

// The limiter counts per group and IP in fixed one-minute windows, and says how many
// seconds are left of the window (at least 1).
