package auth

import (
	"context"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Client secrets may come from an operator's environment and be weak, so they are stored
// as salted argon2id in the PHC string form ($argon2id$v=19$m=…,t=…,p=…$salt$key), which
// carries its parameters so they can grow. The parameters are OWASP's first recommended
// set (m=19 MiB, t=2, p=1): memory-hard enough that a GPU farm gains little, and cheap
// enough (tens of milliseconds here) that POST /auth stays quick.
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
)

// Limits on the parameters a stored hash may ask for: a row altered by hand must not make
// one /auth allocate gigabytes or loop for minutes.
const (
	maxArgonMemoryKiB = 256 * 1024
	maxArgonTime      = 16
	maxPBKDF2Iter     = 2_000_000
)

// hashSlots bounds how many hashes run at once: each argon2id holds argonMemoryKiB, so a
// burst of /auth calls costs at most hashSlots × 19 MiB; the others wait their turn.
var hashSlots = make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))

func acquireSlot(ctx context.Context) error {
	select {
	case hashSlots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func releaseSlot() { <-hashSlots }

// HashSecret returns the storable form of secret.
func HashSecret(secret string) string {
	salt := make([]byte, argonSaltLen)
	_, _ = rand.Read(salt)
	_ = acquireSlot(context.Background())
	defer releaseSlot()
	return argonString(salt, argon2.IDKey([]byte(secret), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen), argonTime, argonMemoryKiB, argonThreads)
}

func argonString(salt, key []byte, t, m uint32, p uint8) string {
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, m, t, p,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// dummyHash is compared against when a clientId is unknown, so a wrong id and a wrong
// secret take the same time: it has the current parameters, like every upgraded hash.
var dummyHash = "$argon2id$v=19$m=19456,t=2,p=1$dW5rbm93bi1jbGllbnQ$" + base64.RawStdEncoding.EncodeToString(make([]byte, argonKeyLen))

// CheckSecret reports whether secret matches the stored hash. It waits for a hashing slot
// like every other verification; a cancelled ctx while waiting reports false with the error.
func CheckSecret(ctx context.Context, secret, stored string) (bool, error) {
	if err := acquireSlot(ctx); err != nil {
		return false, err
	}
	defer releaseSlot()
	return checkSecret(secret, stored), nil
}

func checkSecret(secret, stored string) bool {
	if strings.HasPrefix(stored, "$argon2id$") {
		return checkArgon(secret, stored)
	}
	return checkPBKDF2(secret, stored)
}

// parseArgon reads a PHC argon2id string, refusing parameters outside the limits.
func parseArgon(stored string) (salt, key []byte, t, m uint32, p uint8, ok bool) {
	parts := strings.Split(stored, "$")
	// "", "argon2id", "v=19", "m=…,t=…,p=…", salt, key
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return nil, nil, 0, 0, 0, false
	}
	var pp uint32
	if n, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &pp); err != nil || n != 3 ||
		m < 8 || m > maxArgonMemoryKiB || t < 1 || t > maxArgonTime || pp < 1 || pp > 16 {
		return nil, nil, 0, 0, 0, false
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil || len(salt) < 8 {
		return nil, nil, 0, 0, 0, false
	}
	key, err = base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(key) < 16 || len(key) > 64 {
		return nil, nil, 0, 0, 0, false
	}
	return salt, key, t, m, uint8(pp), true
}

func checkArgon(secret, stored string) bool {
	salt, key, t, m, p, ok := parseArgon(stored)
	if !ok {
		return false
	}
	got := argon2.IDKey([]byte(secret), salt, t, m, p, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1
}

// checkPBKDF2 verifies the form stored before argon2id (pbkdf2-sha256$iter$salt$key), so
// existing clients keep working until their next /auth upgrades them.
func checkPBKDF2(secret, stored string) bool {
	parts := strings.Split(stored, "$")
	if len(parts) != 4 || parts[0] != "pbkdf2-sha256" {
		return false
	}
	iter, err := strconv.Atoi(parts[1])
	if err != nil || iter < 1 || iter > maxPBKDF2Iter {
		return false
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[2])
	if err != nil {
		return false
	}
	want, err := base64.RawStdEncoding.DecodeString(parts[3])
	if err != nil || len(want) == 0 {
		return false
	}
	got, err := pbkdf2.Key(sha256.New, secret, salt, iter, len(want))
	if err != nil {
		return false
	}
	return subtle.ConstantTimeCompare(got, want) == 1
}

// NeedsRehash reports whether a stored hash is of an older scheme or weaker parameters than
// HashSecret makes today.
func NeedsRehash(stored string) bool {
	_, _, t, m, p, ok := parseArgon(stored)
	return !ok || t < argonTime || m < argonMemoryKiB || p != argonThreads
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
