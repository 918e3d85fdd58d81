package auth_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/model"
	"ponte/testsupport"
)

// A Connect Token carries its options and its item, reaches only the Connect flow's
// actions, and only its own item.
func TestConnectToken(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newService(t)
	id, secret := newClient(t, s, "connect")
	owner := verify(t, s, apiKey(t, s, id, secret))
	user, origin, yes := "user-1", "https://app.example.com", true
	opts := model.ConnectTokenOptions{ClientUserID: &user, AvoidDuplicates: &yes, Countries: []string{"BR"},
		Products: []model.Product{model.ProductAccounts, model.ProductTransactions}, TargetOrigin: &origin}
	item, other := uuid.New(), uuid.New()

	free, err := s.IssueConnectToken(ctx, owner, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	bound, err := s.IssueConnectToken(ctx, owner, &item, model.ConnectTokenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pf, pb := verify(t, s, free.AccessToken), verify(t, s, bound.AccessToken)
	if pf.Kind != auth.KindConnectToken || !pf.IsConnectToken() || pf.ClientID != id || pf.TokenID == uuid.Nil || pf.ItemID != nil {
		t.Errorf("a token without an item verified as %+v", pf)
	}
	if !reflect.DeepEqual(pf.Options, opts) {
		t.Errorf("options %+v, want %+v", pf.Options, opts)
	}
	if pb.ItemID == nil || *pb.ItemID != item || pb.TokenID == pf.TokenID {
		t.Errorf("a token of item %s verified as %+v", item, pb)
	}
	if err := pb.RequireItem(item); err != nil {
		t.Errorf("the token refused its own item: %v", err)
	}
	for name, err := range map[string]error{"another item": pb.RequireItem(other), "an item before it has one": pf.RequireItem(item)} {
		wantCode(t, name, err, model.CodeForbidden)
	}
	if err := owner.RequireItem(other); err != nil {
		t.Errorf("the API key is bound to an item: %v", err)
	}
	asToken := auth.WithResult(ctx, pb, nil)
	for _, a := range []auth.Action{auth.ReadConnectors, auth.CreateItem, auth.UpdateItem, auth.ReadItem, auth.ReadAccounts} {
		if _, err := auth.Require(asToken, a); err != nil {
			t.Errorf("the token cannot %s: %v", a, err)
		}
	}
	for _, a := range []auth.Action{auth.IssueConnectToken, auth.ManagePayments, auth.ManageWebhooks, auth.DeleteItem, auth.ReadProductData} {
		_, err := auth.Require(asToken, a)
		wantCode(t, "the token on "+string(a), err, model.CodeForbidden)
	}
}

// A client's RSA key is made once, kept sealed under the master key, the same for every
// process and every racing first use, and its public half encrypts parameters the service
// then reads.
func TestClientKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, store := newService(t)
	id, _ := newClient(t, s, "rsa-a")
	other, _ := newClient(t, s, "rsa-b")

	keys := make([]*rsa.PrivateKey, 4)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			k, err := s.ClientKey(ctx, id)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	for i, k := range keys[1:] {
		if !k.Equal(keys[0]) {
			t.Fatalf("first use %d made another key", i+1)
		}
	}
	restarted := auth.NewService(store, testsupport.MasterKey)
	if k, err := restarted.ClientKey(ctx, id); err != nil || !k.Equal(keys[0]) {
		t.Errorf("after a restart the key is another: %v", err)
	}
	if k, err := s.ClientKey(ctx, other); err != nil || k.Equal(keys[0]) {
		t.Errorf("two clients share a key (%v)", err)
	}
	if _, err := auth.NewService(store, []byte("another-master-key-0123456789abcdef")).ClientKey(ctx, id); err == nil {
		t.Error("a service under another master key read the stored key")
	}
	sealed, err := store.ClientRSAKey(ctx, id)
	if err != nil || bytes.Contains(sealed, keys[0].D.Bytes()) || bytes.Contains(sealed, auth.MarshalPrivateKey(keys[0])) {
		t.Errorf("the private key is stored readable (%v)", err)
	}

	p, err := s.ClientPublicKeyPEM(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode([]byte(p))
	if block == nil {
		t.Fatalf("not PEM: %q", p)
	}
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil || !keys[0].PublicKey.Equal(pub) {
		t.Fatalf("the PEM is not the client's public key: %v", err)
	}
	c, err := rsa.EncryptOAEP(sha1.New(), rand.Reader, pub.(*rsa.PublicKey), []byte(`{"user":"user-ok"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := auth.DecryptParameters(keys[0], base64.StdEncoding.EncodeToString(c)); err != nil || got["user"] != "user-ok" {
		t.Errorf("parameters encrypted with the PEM key read as %v, %v", got, err)
	}
}

// While Listen holds its session, a change made by another process reaches this one before
// that process's command returns: a disable refuses the client's keys here at once, and an
// enable leaves the keys issued before it refused.
func TestListenDropsChangedClients(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a, store := newService(t)
	b := auth.NewService(store, testsupport.MasterKey) // another process on the same database
	id, secret := newClient(t, a, "listened")
	if a.Listening() {
		t.Fatal("listening before Listen")
	}
	lctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { a.Listen(lctx, testsupport.Logger()); close(done) }()
	defer func() { cancel(); <-done }()
	testsupport.Eventually(t, "the listener's session", 10*time.Second, a.Listening)

	key := apiKey(t, a, id, secret) // cached: the secret's hash and the enabled flag
	verify(t, a, key)
	if found, unacked, err := b.SetClientEnabled(ctx, id, false); !found || unacked != 0 || err != nil {
		t.Fatalf("disable from another process: found %v, unacked %d, %v", found, unacked, err)
	}
	_, err := a.Verify(ctx, key)
	wantCode(t, "a cached key after a disable elsewhere", err, model.CodeClientDisabled)
	_, err = a.Authenticate(ctx, id.String(), secret)
	wantCode(t, "a cached login after a disable elsewhere", err, model.CodeClientDisabled)
	if _, unacked, err := b.SetClientEnabled(ctx, id, true); unacked != 0 || err != nil {
		t.Fatalf("enable from another process: unacked %d, %v", unacked, err)
	}
	_, err = a.Verify(ctx, key)
	wantCode(t, "a key issued before the disable", err, model.CodeAPIKeyExpired)
	verify(t, a, apiKey(t, a, id, secret))

	cancel()
	<-done
	if a.Listening() {
		t.Error("still listening after Listen returned")
	}
}

// A Connect Token is valid only with its row: under the same master key and client, a
// database that does not hold the token's row (another deployment, a restored backup)
// refuses it, where an API key, which has no row, passes.
func TestConnectTokenNeedsItsRow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a, _ := newService(t)
	b, _ := newService(t)
	id, secret := uuid.NewString(), "shared-secret-0123456789"
	for _, s := range []*auth.Service{a, b} {
		if _, err := s.EnsureClient(ctx, id, secret); err != nil {
			t.Fatal(err)
		}
	}
	key := apiKey(t, a, uuid.MustParse(id), secret)
	tok, err := a.IssueConnectToken(ctx, verify(t, a, key), nil, model.ConnectTokenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	verify(t, a, tok.AccessToken)
	verify(t, b, key)
	_, err = b.Verify(ctx, tok.AccessToken)
	wantCode(t, "a Connect Token without its row", err, model.CodeAPIKeyInvalid)
}
