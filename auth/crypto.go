package auth

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
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
	"strconv"
	"strings"
)

// Sealer encrypts secrets at rest (AES-256-GCM). Associated data binds a ciphertext to its
// row, so a sealed value copied to another row does not open.
type Sealer struct{ aead cipher.AEAD }

const sealVersion = 1

// NewSealer derives the sealing key of item credentials from the master key.
func NewSealer(master []byte) *Sealer { return NewSealerFor(master, "item-credentials") }

// NewSealerFor derives a sealing key for one purpose, so secrets of different kinds never
// share a key.
func NewSealerFor(master []byte, purpose string) *Sealer {
	block, err := aes.NewCipher(DeriveKey(master, purpose)[:32])
	if err != nil {
		panic(err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return &Sealer{aead: aead}
}

// Seal encrypts plaintext: version byte, nonce, ciphertext and tag.
func (s *Sealer) Seal(plaintext, associatedData []byte) []byte {
	nonce := make([]byte, s.aead.NonceSize(), 1+s.aead.NonceSize()+len(plaintext)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		panic(err)
	}
	out := append([]byte{sealVersion}, nonce...)
	return s.aead.Seal(out, nonce, plaintext, associatedData)
}

// Open decrypts what Seal produced with the same associated data.
func (s *Sealer) Open(sealed, associatedData []byte) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < 1+n+s.aead.Overhead() || sealed[0] != sealVersion {
		return nil, errors.New("sealed value is malformed")
	}
	return s.aead.Open(nil, sealed[1:1+n], sealed[1+n:], associatedData)
}

// CredentialError is a problem with encrypted parameters the caller can fix; its message
// is meant for them.
type CredentialError struct{ Msg string }

func (e *CredentialError) Error() string { return e.Msg }

// GenerateRSAKey makes a client application's key pair for encrypted parameters.
func GenerateRSAKey() (*rsa.PrivateKey, error) { return rsa.GenerateKey(rand.Reader, 2048) }

// MarshalPrivateKey encodes a key as PKCS#8 DER.
func MarshalPrivateKey(k *rsa.PrivateKey) []byte {
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		panic(err)
	}
	return der
}

// ParsePrivateKey decodes PKCS#8 DER.
func ParsePrivateKey(der []byte) (*rsa.PrivateKey, error) {
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, err
	}
	rk, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("stored key is not an RSA key")
	}
	return rk, nil
}

// PublicKeyPEM renders the public half for the client application.
func PublicKeyPEM(k *rsa.PublicKey) string {
	der, err := x509.MarshalPKIXPublicKey(k)
	if err != nil {
		panic(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

// DecryptParameters opens parameters sent as Base64 RSA-OAEP ciphertext (rule 2 of 4.3).
// Node's publicEncrypt with RSA_PKCS1_OAEP_PADDING uses SHA-1, so SHA-1 is tried first,
// then SHA-256. Payloads longer than one block arrive as concatenated blocks.
func DecryptParameters(k *rsa.PrivateKey, b64 string) (map[string]any, error) {
	clean := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\n', '\r', '\t':
			return -1
		case '-':
			return '+'
		case '_':
			return '/'
		}
		return r
	}, b64)
	clean = strings.TrimRight(clean, "=")
	raw, err := base64.RawStdEncoding.DecodeString(clean)
	if err != nil || len(raw) == 0 {
		return nil, &CredentialError{"parameters is not valid Base64."}
	}
	size := k.Size()
	if len(raw)%size != 0 {
		return nil, &CredentialError{"parameters could not be decrypted with this application's public key (RSA-OAEP, SHA-1 or SHA-256): the ciphertext length does not match the key."}
	}
	var plain []byte
	for _, h := range []func() hash.Hash{sha1.New, sha256.New} {
		plain = plain[:0]
		ok := true
		for off := 0; off < len(raw); off += size {
			p, err := rsa.DecryptOAEP(h(), nil, k, raw[off:off+size], nil)
			if err != nil {
				ok = false
				break
			}
			plain = append(plain, p...)
		}
		if ok {
			var obj map[string]any
			if err := json.Unmarshal(plain, &obj); err != nil || obj == nil {
				return nil, &CredentialError{"The decrypted parameters are not a JSON object."}
			}
			return obj, nil
		}
	}
	return nil, &CredentialError{"parameters could not be decrypted with this application's public key (RSA-OAEP, SHA-1 or SHA-256)."}
}

// Fingerprint identifies a set of credentials without keeping them readable: an HMAC over
// the connector and the listed values, in order.
func Fingerprint(key []byte, connectorID int, params map[string]any, names []string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(strconv.Itoa(connectorID)))
	for _, n := range names {
		m.Write([]byte{0})
		m.Write([]byte(n))
		m.Write([]byte{0})
		switch v := params[n].(type) {
		case string:
			m.Write([]byte(strings.TrimSpace(v)))
		case float64:
			m.Write([]byte(strconv.FormatFloat(v, 'f', -1, 64)))
		case nil:
		default:
			b, _ := json.Marshal(v)
			m.Write(b)
		}
	}
	return hex.EncodeToString(m.Sum(nil))
}
