package auth

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"hash"
	"reflect"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

const rulesMaster = "rules-master-key-0123456789abcdef"

// A sealed value opens only whole, under its own key and with its own associated data: any
// byte changed, another row's data or another purpose's key refuse it.
func TestSealerProperty(t *testing.T) {
	t.Parallel()
	s := NewSealerFor([]byte(rulesMaster), "p")
	rapid.Check(t, func(r *rapid.T) {
		plain := rapid.SliceOfN(rapid.Byte(), 0, 300).Draw(r, "plain")
		ad := rapid.SliceOfN(rapid.Byte(), 0, 40).Draw(r, "ad")
		sealed := s.Seal(plain, ad)
		got, err := s.Open(sealed, ad)
		if err != nil || !bytes.Equal(got, plain) {
			r.Fatalf("Open(Seal(%x)) = %x, %v", plain, got, err)
		}
		i := rapid.IntRange(0, len(sealed)-1).Draw(r, "at")
		flip := rapid.ByteRange(1, 255).Draw(r, "xor")
		tampered := bytes.Clone(sealed)
		tampered[i] ^= flip
		if _, err := s.Open(tampered, ad); err == nil {
			r.Fatalf("byte %d changed by %#x still opens", i, flip)
		}
		if _, err := s.Open(sealed, append(bytes.Clone(ad), 0)); err == nil {
			r.Fatal("opens with another row's associated data")
		}
		if _, err := s.Open(sealed[:rapid.IntRange(0, len(sealed)-1).Draw(r, "cut")], ad); err == nil {
			r.Fatal("a truncated value opens")
		}
	})
}

func TestSealerKeys(t *testing.T) {
	t.Parallel()
	master := []byte(rulesMaster)
	sealed := NewSealer(master).Seal([]byte("password-ok"), []byte("row-1"))
	if got, err := NewSealerFor(master, "item-credentials").Open(sealed, []byte("row-1")); err != nil || string(got) != "password-ok" {
		t.Errorf("item credentials do not open under their purpose's key after a restart: %q, %v", got, err)
	}
	for name, other := range map[string]*Sealer{
		"another purpose":    NewSealerFor(master, "client-rsa-keys"),
		"another master key": NewSealer([]byte("another-master-key-0123456789abc")),
	} {
		if _, err := other.Open(sealed, []byte("row-1")); err == nil {
			t.Errorf("%s opens item credentials", name)
		}
	}
	if bytes.Equal(sealed, NewSealer(master).Seal([]byte("password-ok"), []byte("row-1"))) {
		t.Error("two seals of one value are equal: the nonce repeats")
	}
	// Idempotency answers are sealed under a key of their own that outlives the process.
	a, b := NewService(nil, master), NewService(nil, master)
	answer := a.AnswerSealer().Seal([]byte(`{"accessToken":"x"}`), []byte("key-1"))
	if got, err := b.AnswerSealer().Open(answer, []byte("key-1")); err != nil || string(got) != `{"accessToken":"x"}` {
		t.Errorf("another process of the service cannot open a kept answer: %q, %v", got, err)
	}
	for name, other := range map[string]*Sealer{
		"the item credentials' sealer":    NewSealer(master),
		"a sealer of the master key":      NewSealerFor(master, "idempotency-answers"),
		"another master key's answerer":   NewService(nil, []byte("another-master-key-0123456789abc")).AnswerSealer(),
		"the client RSA keys' own sealer": a.keySealer,
	} {
		if _, err := other.Open(answer, []byte("key-1")); err == nil {
			t.Errorf("%s opens kept answers", name)
		}
	}
	for _, bad := range [][]byte{nil, {sealVersion}, append([]byte{sealVersion + 1}, answer[1:]...)} {
		if _, err := a.AnswerSealer().Open(bad, []byte("key-1")); err == nil {
			t.Errorf("Open(%x) accepted", bad)
		}
	}
}

var (
	testKeyOnce sync.Once
	testKeys    [2]*rsa.PrivateKey
)

// rsaKeys are two 2048-bit keys made once for the whole binary: making one takes a while.
func rsaKeys(t *testing.T) (*rsa.PrivateKey, *rsa.PrivateKey) {
	t.Helper()
	testKeyOnce.Do(func() {
		for i := range testKeys {
			k, err := GenerateRSAKey()
			if err != nil {
				panic(err)
			}
			testKeys[i] = k
		}
	})
	return testKeys[0], testKeys[1]
}

// encrypt writes plain the way a client does: RSA-OAEP under h, in blocks as long as the
// key allows, concatenated and Base64-encoded.
func encrypt(t *testing.T, pub *rsa.PublicKey, h func() hash.Hash, plain []byte) []byte {
	t.Helper()
	block := pub.Size() - 2*h().Size() - 2
	var out []byte
	for len(plain) > 0 {
		n := min(block, len(plain))
		c, err := rsa.EncryptOAEP(h(), rand.Reader, pub, plain[:n], nil)
		if err != nil {
			t.Fatal(err)
		}
		out, plain = append(out, c...), plain[n:]
	}
	return out
}

// DecryptParameters opens what the official client sends (RSA-OAEP with SHA-1, Node's
// default) and SHA-256, in one block or several, in either Base64 alphabet, and refuses with
// a CredentialError the caller can act on.
func TestDecryptParameters(t *testing.T) {
	t.Parallel()
	k, other := rsaKeys(t)
	obj := `{"user":"user-ok","password":"password-ok"}`
	long := `{"user":"` + strings.Repeat("u", 600) + `","password":"p"}`
	std := base64.StdEncoding.EncodeToString
	sha1Block := encrypt(t, &k.PublicKey, sha1.New, []byte(obj))
	mixed := append(encrypt(t, &k.PublicKey, sha1.New, []byte(long[:200])), encrypt(t, &k.PublicKey, sha256.New, []byte(long[200:400]))...)
	wrapped := std(sha1Block)
	wrapped = wrapped[:100] + "\r\n" + wrapped[100:200] + " \t" + wrapped[200:]
	cases := []struct {
		name, in string
		want     string // the object read; "" for a refusal
		says     string
	}{
		{"SHA-1, standard Base64", std(sha1Block), obj, ""},
		{"SHA-256", std(encrypt(t, &k.PublicKey, sha256.New, []byte(obj))), obj, ""},
		{"SHA-1 in three blocks", std(encrypt(t, &k.PublicKey, sha1.New, []byte(long))), long, ""},
		{"SHA-256 in three blocks", std(encrypt(t, &k.PublicKey, sha256.New, []byte(long))), long, ""},
		{"URL-safe alphabet without padding", base64.RawURLEncoding.EncodeToString(sha1Block), obj, ""},
		{"with line breaks and spaces", wrapped, obj, ""},
		{"under another application's key", std(encrypt(t, &other.PublicKey, sha1.New, []byte(obj))), "", "could not be decrypted"},
		{"blocks under two hashes", std(mixed), "", "could not be decrypted"},
		{"one byte short", std(sha1Block[:len(sha1Block)-1]), "", "length does not match"},
		{"a block and a half", std(append(bytes.Clone(sha1Block), sha1Block[:100]...)), "", "length does not match"},
		{"not Base64", "this is not base64!", "", "not valid Base64"},
		{"empty", "", "", "not valid Base64"},
		{"a JSON array", std(encrypt(t, &k.PublicKey, sha1.New, []byte(`["user-ok"]`))), "", "not a JSON object"},
		{"JSON null", std(encrypt(t, &k.PublicKey, sha1.New, []byte(`null`))), "", "not a JSON object"},
		{"not JSON", std(encrypt(t, &k.PublicKey, sha1.New, []byte(`user=ok`))), "", "not a JSON object"},
	}
	for _, tc := range cases {
		got, err := DecryptParameters(k, tc.in)
		if tc.want == "" {
			var ce *CredentialError
			if !errors.As(err, &ce) || !strings.Contains(ce.Error(), tc.says) || got != nil {
				t.Errorf("%s: got %v, %v; want a CredentialError saying %q", tc.name, got, err, tc.says)
			}
			continue
		}
		var want map[string]any
		if err := json.Unmarshal([]byte(tc.want), &want); err != nil {
			t.Fatal(err)
		}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v, %v", tc.name, got, err)
		}
	}
}

// A client's key survives its storage form, and its public half is a PEM PKIX key.
func TestRSAKeyForms(t *testing.T) {
	t.Parallel()
	k, _ := rsaKeys(t)
	back, err := ParsePrivateKey(MarshalPrivateKey(k))
	if err != nil || !back.Equal(k) {
		t.Fatalf("ParsePrivateKey(MarshalPrivateKey(k)) = %v", err)
	}
	block, rest := pem.Decode([]byte(PublicKeyPEM(&k.PublicKey)))
	if block == nil || block.Type != "PUBLIC KEY" || len(bytes.TrimSpace(rest)) != 0 {
		t.Fatalf("PublicKeyPEM is not one PUBLIC KEY block: %v", block)
	}
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil || !k.PublicKey.Equal(pub) {
		t.Fatalf("the PEM key is not the key's public half: %v", err)
	}
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecDER, err := x509.MarshalPKCS8PrivateKey(ec)
	if err != nil {
		t.Fatal(err)
	}
	for name, der := range map[string][]byte{"an EC key": ecDER, "garbage": []byte("not a key"), "nothing": nil} {
		if got, err := ParsePrivateKey(der); err == nil {
			t.Errorf("%s parsed as %v", name, got)
		}
	}
}

// A fingerprint is the same for the same credentials (whatever surrounds a string value
// in spaces, whatever else the parameters hold) and different when any listed thing differs.
func TestFingerprint(t *testing.T) {
	t.Parallel()
	key := DeriveKey([]byte(rulesMaster), "fingerprint")
	names := []string{"user", "branch"}
	base := Fingerprint(key, 1, map[string]any{"user": "123.456.789-00", "branch": 42.0}, names)
	if b, err := hex.DecodeString(base); err != nil || len(b) != sha256.Size {
		t.Fatalf("fingerprint %q is not a hex SHA-256 HMAC", base)
	}
	same := map[string]map[string]any{
		"spaces around a string": {"user": "  123.456.789-00\n", "branch": 42.0},
		"an unlisted parameter":  {"user": "123.456.789-00", "branch": 42.0, "password": "secret"},
	}
	for name, p := range same {
		if got := Fingerprint(key, 1, p, names); got != base {
			t.Errorf("%s changes the fingerprint", name)
		}
	}
	differ := []struct {
		name  string
		key   []byte
		conn  int
		p     map[string]any
		names []string
	}{
		{"another connector", key, 2, map[string]any{"user": "123.456.789-00", "branch": 42.0}, names},
		{"another user", key, 1, map[string]any{"user": "123.456.789-01", "branch": 42.0}, names},
		{"another number", key, 1, map[string]any{"user": "123.456.789-00", "branch": 42.5}, names},
		{"a missing value", key, 1, map[string]any{"user": "123.456.789-00"}, names},
		{"names in another order", key, 1, map[string]any{"user": "123.456.789-00", "branch": 42.0}, []string{"branch", "user"}},
		{"a value moved across names", key, 1, map[string]any{"user": "123.456.789-00\x00branch\x0042", "branch": nil}, names},
		{"another key", DeriveKey([]byte(rulesMaster), "other"), 1, map[string]any{"user": "123.456.789-00", "branch": 42.0}, names},
		{"an object value", key, 1, map[string]any{"user": "123.456.789-00", "branch": map[string]any{"n": 42.0}}, names},
	}
	for _, tc := range differ {
		if Fingerprint(tc.key, tc.conn, tc.p, tc.names) == base {
			t.Errorf("%s gives the same fingerprint", tc.name)
		}
	}
}

// A sealed cursor opens to itself, and any change of one character is refused.
func TestCursorProperty(t *testing.T) {
	t.Parallel()
	s := NewService(nil, []byte(rulesMaster))
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ \n"
	rapid.Check(t, func(r *rapid.T) {
		payload := rapid.SliceOfN(rapid.Byte(), 0, 200).Draw(r, "payload")
		c := s.SignCursor(payload)
		got, err := s.OpenCursor(c)
		if err != nil || !bytes.Equal(got, payload) {
			r.Fatalf("OpenCursor(SignCursor(%x)) = %x, %v", payload, got, err)
		}
		if strings.ContainsAny(c, "+/=\n ") {
			r.Fatalf("cursor %q is not URL-safe", c)
		}
		i := rapid.IntRange(0, len(c)-1).Draw(r, "at")
		ch := alphabet[rapid.IntRange(0, len(alphabet)-1).Draw(r, "char")]
		if ch == c[i] {
			return
		}
		tampered := c[:i] + string(ch) + c[i+1:]
		if _, err := s.OpenCursor(tampered); !errors.Is(err, ErrBadCursor) {
			r.Fatalf("%q (character %d changed) opened: %v", tampered, i, err)
		}
	})
}

func TestLimitAndSecrets(t *testing.T) {
	t.Parallel()
	def := NewLimiter(nil)
	for group, want := range map[string]int{"auth": 360, "transactions": 360, "item-update": 20, "accounts": 0, "": 0} {
		if got := def.Limit(group); got != want {
			t.Errorf("default Limit(%q) = %d, want %d", group, got, want)
		}
	}
	if got := NewLimiter(map[string]int{"x": 3}).Limit("auth"); got != 0 {
		t.Errorf("a limiter with its own limits has auth's default %d", got)
	}
	seen := map[string]bool{}
	for range 20 {
		s := NewSecret()
		if b, err := hex.DecodeString(s); err != nil || len(b) != 32 || seen[s] {
			t.Fatalf("NewSecret() = %q: not 256 fresh random bits in hex", s)
		}
		seen[s] = true
	}
	if (&Principal{Kind: KindAPIKey}).IsConnectToken() || !(&Principal{Kind: KindConnectToken}).IsConnectToken() {
		t.Error("IsConnectToken does not tell the credentials apart")
	}
}
