package auth

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"

	lru "github.com/hashicorp/golang-lru/v2"
)

// verifiedSecrets lets a client that proved its secret prove it again without another
// argon2id. The hash is there to make guessing expensive, and a guess still costs a full
// hash: only a secret that matched, with the very stored hash it matched, is remembered.
// An application's back ends call POST /auth on every start and every two hours per
// process, and each call held a core for 25 ms; a replica that has seen the secret now
// answers in a keyed digest's time.
//
// What is kept is HMAC-SHA256 of the secret under a key made at start and never stored,
// keyed by the stored hash string (its salt makes it unique to one secret of one client).
// A changed secret changes the stored hash, so an old entry can never match again and
// simply ages out. Reading this memory would need the process, which holds the master
// key: a weak secret is no more exposed than it already is.
type verifiedSecrets struct {
	key   []byte
	known *lru.Cache[string, [sha256.Size]byte]
}

// verifiedSecretsSize bounds the memory: about 200 bytes an entry, one per client secret
// in use.
const verifiedSecretsSize = 10_000

func newVerifiedSecrets() *verifiedSecrets {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	return &verifiedSecrets{key: key, known: must(lru.New[string, [sha256.Size]byte](verifiedSecretsSize))}
}

func (v *verifiedSecrets) digest(secret string) (d [sha256.Size]byte) {
	m := hmac.New(sha256.New, v.key)
	m.Write([]byte(secret))
	m.Sum(d[:0])
	return d
}

// check is CheckSecret, answered from memory when this secret already matched stored.
// A miss (an unseen secret, a wrong one, a changed hash) hashes as CheckSecret does; a
// match is remembered unless the hash is due to be replaced by a stronger one.
func (v *verifiedSecrets) check(ctx context.Context, secret, stored string) (bool, error) {
	d := v.digest(secret)
	// Peek takes the read lock (see Service.claimsOf).
	if seen, ok := v.known.Peek(stored); ok && hmac.Equal(seen[:], d[:]) {
		return true, nil
	}
	ok, err := CheckSecret(ctx, secret, stored)
	if ok && !NeedsRehash(stored) {
		v.known.Add(stored, d)
	}
	return ok, err
}
