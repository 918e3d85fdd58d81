package auth

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// Client secrets may come from an operator's environment and be weak, so they are stored
// as salted PBKDF2-SHA256; the iteration count is part of the stored form so it can grow.
const hashIterations = 60_000

// HashSecret returns the storable form of secret.
func HashSecret(secret string) string {
	salt := make([]byte, 16)
	_, _ = rand.Read(salt)
	return hashWith(secret, salt, hashIterations)
}

func hashWith(secret string, salt []byte, iter int) string {
	key, err := pbkdf2.Key(sha256.New, secret, salt, iter, 32)
	if err != nil {
		panic(err) // only for parameters outside FIPS limits, which these are not
	}
	return fmt.Sprintf("pbkdf2-sha256$%d$%s$%s", iter, base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// dummyHash is compared against when a clientId is unknown, so a wrong id and a wrong
// secret take the same time.
var dummyHash = HashSecret("unknown client")

// CheckSecret reports whether secret matches the stored hash.
func CheckSecret(secret, stored string) bool {
	parts := strings.Split(stored, "$")
	if len(parts) != 4 || parts[0] != "pbkdf2-sha256" {
		return false
	}
	iter, err := strconv.Atoi(parts[1])
	if err != nil || iter < 1 {
		return false
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[2])
	if err != nil {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(hashWith(secret, salt, iter)), []byte(stored)) == 1
}

// NewSecret makes a client secret: 256 random bits, hex-encoded.
func NewSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// DeriveKey derives a purpose-specific key from the master key, so that one leaked derived
// key (say, the JWT signing key) does not reveal the others.
func DeriveKey(master []byte, purpose string) []byte {
	mac := hmac.New(sha256.New, master)
	mac.Write([]byte("ponte/" + purpose))
	return mac.Sum(nil)
}
