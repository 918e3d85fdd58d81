package auth

import (
	"context"
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"golang.org/x/crypto/argon2"
)

func TestSecretHashes(t *testing.T) {
	t.Parallel()
	fresh := HashSecret("s3cret-s3cret-s3cret")
	if !strings.HasPrefix(fresh, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("HashSecret made %q", fresh)
	}
	if fresh == HashSecret("s3cret-s3cret-s3cret") {
		t.Fatal("two hashes of one secret are equal: the salt is not random")
	}
	salt := []byte("0123456789abcdef")
	key, _ := pbkdf2.Key(sha256.New, "s3cret-s3cret-s3cret", salt, 60_000, 32)
	legacy := fmt.Sprintf("pbkdf2-sha256$60000$%s$%s", base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
	saltB64, keyB64 := base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(make([]byte, 32))

	cases := []struct {
		name, secret, stored string
		ok, rehash           bool
	}{
		{"argon2id, right secret", "s3cret-s3cret-s3cret", fresh, true, false},
		{"argon2id, wrong secret", "s3cret-s3cret-s3creT", fresh, false, false},
		{"argon2id, empty secret", "", fresh, false, false},
		{"pbkdf2, right secret", "s3cret-s3cret-s3cret", legacy, true, true},
		{"pbkdf2, wrong secret", "other", legacy, false, true},
		{"weaker argon2id parameters", "x", "$argon2id$v=19$m=4096,t=1,p=1$" + saltB64 + "$" + keyB64, false, true},
		{"empty", "x", "", false, true},
		{"unknown scheme", "x", "$bcrypt$10$abc", false, true},
		{"argon2i, not id", "x", "$argon2i$v=19$m=19456,t=2,p=1$" + saltB64 + "$" + keyB64, false, true},
		{"another version", "x", "$argon2id$v=16$m=19456,t=2,p=1$" + saltB64 + "$" + keyB64, false, true},
		{"memory beyond the limit", "x", "$argon2id$v=19$m=4194304,t=2,p=1$" + saltB64 + "$" + keyB64, false, true},
		{"time beyond the limit", "x", "$argon2id$v=19$m=19456,t=1000,p=1$" + saltB64 + "$" + keyB64, false, true},
		{"no threads", "x", "$argon2id$v=19$m=19456,t=2,p=0$" + saltB64 + "$" + keyB64, false, true},
		{"bad salt", "x", "$argon2id$v=19$m=19456,t=2,p=1$!!$" + keyB64, false, true},
		{"short key", "x", "$argon2id$v=19$m=19456,t=2,p=1$" + saltB64 + "$AAAA", false, true},
		{"extra field", "x", fresh + "$x", false, true},
		{"pbkdf2 rounds beyond the limit", "x", "pbkdf2-sha256$900000000$" + saltB64 + "$" + keyB64, false, true},
		{"pbkdf2 without a key", "x", "pbkdf2-sha256$1000$" + saltB64 + "$", false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ok, err := CheckSecret(context.Background(), c.secret, c.stored)
			if err != nil || ok != c.ok {
				t.Fatalf("CheckSecret = %v, %v; want %v", ok, err, c.ok)
			}
			if got := NeedsRehash(c.stored); got != c.rehash {
				t.Fatalf("NeedsRehash = %v, want %v", got, c.rehash)
			}
		})
	}
	// The stand-in for unknown clients costs what a real client's hash costs.
	if NeedsRehash(dummyHash) {
		t.Fatalf("dummyHash %q does not have today's parameters", dummyHash)
	}
}

// A caller that gives up while every hashing slot is busy is answered at once.
func TestCheckSecretWaitsForASlot(t *testing.T) {
	for range cap(hashSlots) {
		hashSlots <- struct{}{}
	}
	defer func() {
		for range cap(hashSlots) {
			<-hashSlots
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if ok, err := CheckSecret(ctx, "x", dummyHash); ok || err == nil {
		t.Fatalf("CheckSecret with every slot busy and a cancelled context = %v, %v", ok, err)
	}
}

// A value read before an invalidation is never stored after it, nothing is trusted while
// no listener runs, and a flag read alone never hides a login's whole row.
func TestClientCache(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	c := newClientCache()
	_, _, gen := c.get(id)
	c.put(id, clientEntry{enabled: true}, gen)
	if _, ok, _ := c.get(id); ok {
		t.Fatal("the cache answered without a listener")
	}
	c.setLive(true)
	_, ok, gen := c.get(id)
	if ok {
		t.Fatal("a new listener inherited entries")
	}
	c.forget(id) // a change arrives between the database read and the store
	c.put(id, clientEntry{enabled: true}, gen)
	if _, ok, _ := c.get(id); ok {
		t.Fatal("a value read before an invalidation was stored after it")
	}
	_, _, gen = c.get(id)
	c.put(id, clientEntry{enabled: false}, gen)
	if e, ok, _ := c.get(id); !ok || e.enabled {
		t.Fatalf("get = %+v, %v; want disabled, true", e, ok)
	}
	c.put(id, clientEntry{enabled: true, hash: "h"}, gen)
	c.put(id, clientEntry{enabled: true}, gen) // a flag read beside the login's row
	if e, ok, _ := c.get(id); !ok || e.hash != "h" {
		t.Fatalf("get = %+v, %v; want the row with its hash", e, ok)
	}
	c.forget(id)
	if _, ok, _ := c.get(id); ok {
		t.Fatal("forget kept the entry")
	}
	c.put(id, clientEntry{enabled: true}, gen+1)
	c.setLive(false)
	if _, ok, _ := c.get(id); ok {
		t.Fatal("the cache answered after its listener stopped")
	}
}

// TestVerifiedSecrets holds every hashing slot, so an answer that needed a hash fails on
// its deadline and one given from memory does not: which answers skip the hash is seen
// directly. Not parallel: it starves the package's other hashes while it runs.
func TestVerifiedSecrets(t *testing.T) {
	const secret = "s3cret-s3cret-s3cret"
	stored, other := HashSecret(secret), HashSecret(secret)
	salt := []byte("0123456789abcdef")
	weak := argonString(salt, argon2.IDKey([]byte(secret), salt, 1, 4096, 1, 32), 1, 4096, 1)
	v := newVerifiedSecrets()
	for _, s := range []string{stored, weak} {
		if ok, err := v.check(context.Background(), secret, s); !ok || err != nil {
			t.Fatalf("first check of the right secret = %v, %v", ok, err)
		}
	}
	if ok, _ := v.check(context.Background(), "wrong", stored); ok {
		t.Fatal("a wrong secret matched")
	}

	for range cap(hashSlots) {
		hashSlots <- struct{}{}
	}
	defer func() {
		for range cap(hashSlots) {
			<-hashSlots
		}
	}()
	cases := []struct {
		name, secret, stored string
		fromMemory           bool
	}{
		{"the secret that matched", secret, stored, true},
		{"a wrong secret", secret + "x", stored, false},
		{"a prefix of the secret", secret[:5], stored, false},
		{"the same secret under another hash (changed or another client)", secret, other, false},
		{"a hash due for rehashing is not remembered", secret, weak, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
			defer cancel()
			ok, err := v.check(ctx, c.secret, c.stored)
			if c.fromMemory && (!ok || err != nil) {
				t.Fatalf("check = %v, %v; want true from memory", ok, err)
			}
			if !c.fromMemory && (ok || err == nil) {
				t.Fatalf("check = %v, %v; want a hash, which waits for a slot and fails", ok, err)
			}
		})
	}
}
