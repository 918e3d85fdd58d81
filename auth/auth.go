// Package auth issues and checks the two credentials of section 5 (API keys and Connect
// Tokens), and holds the one table that says what a Connect Token may reach.
package auth

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/hashicorp/golang-lru/v2/expirable"

	"ponte/db"
	"ponte/model"
)

// Lifetimes of section 8.
const (
	APIKeyTTL       = 2 * time.Hour
	ConnectTokenTTL = 30 * time.Minute
)

// Kind tells the two credentials apart.
type Kind int

const (
	KindAPIKey Kind = iota + 1
	KindConnectToken
)

// Principal is the caller of a request.
type Principal struct {
	ClientID uuid.UUID
	Kind     Kind
	// Connect tokens only: the token's id, the item it is bound to (given when issued, or
	// the first item created with it), and the options for items it creates.
	TokenID uuid.UUID
	ItemID  *uuid.UUID
	Options model.ConnectTokenOptions
	// generation is the credential's client credential generation, handed on to the
	// Connect Tokens an API key asks for: a token cannot outlive the key that made it.
	generation int64
}

// Action names an operation a credential may be allowed to perform.
type Action string

const (
	ReadConnectors     Action = "connectors:read"
	ValidateParameters Action = "connectors:validate"
	ReadCategories     Action = "categories:read"
	ReadClient         Action = "client:read"
	IssueConnectToken  Action = "connect_token:create"
	ReadItem           Action = "items:read"
	ListItems          Action = "items:list"
	CreateItem         Action = "items:create"
	UpdateItem         Action = "items:update"
	DeleteItem         Action = "items:delete"
	ReadAccounts       Action = "accounts:read"
	ReadProductData    Action = "data:read"
	WriteProductData   Action = "data:write"
	ManageWebhooks     Action = "webhooks:manage"
	ReadEvents         Action = "events:read"
	ManagePayments     Action = "payments:manage"
	ConfigureConnector Action = "connectors:configure"
	ControlSandbox     Action = "sandbox:control"
)

// connectTokenReach is everything a Connect Token may do (section 5): what the Connect
// flow needs to list institutions, create or update its one item, answer MFA and show the
// reduced account view. Every other action is refused with 403. Item-level checks follow
// in RequireItem.
var connectTokenReach = map[Action]bool{
	ReadConnectors:     true,
	ValidateParameters: true,
	ReadItem:           true,
	CreateItem:         true,
	UpdateItem:         true,
	ReadAccounts:       true,
}

// Result is the outcome of checking a request's credential: the principal, or the reason
// it was refused. Endpoints that need no credential ignore both.
type Result struct {
	Principal *Principal
	Err       error
}

// ResultKey is the context key of a request's *Result. It is exported for the HTTP layer,
// which answers it from its one per-request value rather than wrapping the context.
type ResultKey struct{}

// WithResult stores the outcome of checking a request's credential.
func WithResult(ctx context.Context, p *Principal, err error) context.Context {
	return context.WithValue(ctx, ResultKey{}, &Result{p, err})
}

// Require is the gate every resolver passes first: it returns the caller when its
// credential is valid and may perform action, and the documented error otherwise.
func Require(ctx context.Context, action Action) (*Principal, error) {
	var v Result
	if r, _ := ctx.Value(ResultKey{}).(*Result); r != nil {
		v = *r
	}
	if v.Err != nil {
		return nil, v.Err
	}
	if v.Principal == nil {
		return nil, model.Fail(model.CodeAPIKeyMissing, "Missing credential: send an API Key (from POST /auth) or a Connect Token in the X-API-KEY header.")
	}
	if v.Principal.Kind == KindConnectToken && !connectTokenReach[action] {
		return nil, model.Fail(model.CodeForbidden, "A Connect Token cannot perform %s; use an API Key on your server.", action)
	}
	return v.Principal, nil
}

// RequireItem refuses a Connect Token access to any item but its own.
func (p *Principal) RequireItem(itemID uuid.UUID) error {
	if p.Kind != KindConnectToken {
		return nil
	}
	if p.ItemID == nil || *p.ItemID != itemID {
		return model.Fail(model.CodeForbidden, "This Connect Token cannot reach item %s: a token reaches only the item it was issued for or created.", itemID)
	}
	return nil
}

// IsConnectToken reports whether the caller holds a Connect Token.
func (p *Principal) IsConnectToken() bool { return p.Kind == KindConnectToken }

// Service checks client keys and signs and verifies tokens.
type Service struct {
	db     *db.DB
	jwtKey []byte
	now    func() time.Time
	// clients avoids one query per request for the client's enabled flag, and one per
	// POST /auth for its secret hash, while Listen runs.
	clients *clientCache
	// keySealer protects the clients' RSA private keys at rest.
	keySealer *Sealer
	// verified spares a known client's repeated POST /auth the hash.
	verified *verifiedSecrets
	// tokens keeps the claims of credentials whose signature checked out (see claimsOf).
	tokens *lru.Cache[string, claims]
	// origins remembers briefly whether a live Connect Token names an origin (origins.go).
	origins *expirable.LRU[string, bool]
}

// tokensKept bounds the verified credentials remembered: about 500 bytes each.
const tokensKept = 10_000

// NewService makes a Service whose tokens are signed with a key derived from master.
func NewService(store *db.DB, master []byte) *Service {
	return &Service{db: store, jwtKey: DeriveKey(master, "jwt"), now: time.Now, clients: newClientCache(),
		keySealer: NewSealer(DeriveKey(master, "client-rsa-keys")), verified: newVerifiedSecrets(),
		tokens: must(lru.New[string, claims](tokensKept)), origins: newLiveOrigins(liveOriginsTTL)}
}

// WithClock returns a copy of the service that reads time from now: issuing credentials
// "in the past" is how tests and the expiry rules meet without waiting two hours.
func (s *Service) WithClock(now func() time.Time) *Service {
	c := *s
	c.now = now
	return &c
}

// Authenticate exchanges a client's keys for an API key (POST /auth). Every path that
// names a client does one hash of the secret, so timing tells nothing; a disabled client
// gets CLIENT_DISABLED whatever the secret, so the answer does not confirm a guess either.
// Only an enabled client's secret that already matched is answered without the hash
// (verifiedSecrets): its speed confirms what the answer says anyway, where a disabled
// client's would confirm a guess the answer hides.
func (s *Service) Authenticate(ctx context.Context, clientID, clientSecret string) (*model.APIKey, error) {
	if clientID == "" || clientSecret == "" {
		return nil, model.Fail(model.CodeInvalidRequest, "clientId and clientSecret are required.")
	}
	id, err := uuid.Parse(clientID)
	if err != nil {
		_, err := CheckSecret(ctx, clientSecret, dummyHash)
		return nil, cmp.Or(err, badClientKeys())
	}
	c, found, err := s.clientLogin(ctx, id)
	if err != nil {
		return nil, err
	}
	stored, check := dummyHash, CheckSecret
	if found {
		stored = c.hash
		if c.enabled {
			check = s.verified.check
		}
	}
	ok, err := check(ctx, clientSecret, stored)
	if err != nil {
		return nil, err
	}
	if found && !c.enabled {
		return nil, model.Fail(model.CodeClientDisabled, "This client application is disabled.")
	}
	if !found || !ok {
		return nil, badClientKeys()
	}
	if c.rehash {
		// The secret is known right now and only now: store it under today's scheme. A
		// failure leaves the old hash, which still verifies.
		if err := s.db.ReplaceClientSecretHash(ctx, id, c.hash, HashSecret(clientSecret)); err != nil {
			return nil, err
		}
		s.clients.forget(id)
	}
	now := s.now()
	key := sign(s.jwtKey, claims{
		Issuer: issuer, Subject: id.String(), Type: tokenAPIKey, ID: uuid.NewString(),
		IssuedAt: now.Unix(), Expires: now.Add(APIKeyTTL).Unix(), Generation: c.generation,
	})
	return &model.APIKey{APIKey: key}, nil
}

func badClientKeys() error {
	return model.Fail(model.CodeClientKeysBad, "Invalid clientId or clientSecret.")
}

// clientLogin is what POST /auth needs of a client: from the client cache while Listen
// keeps it, else from the database. A login read the row on every call, the one
// statement of a repeated login (whose secret verifiedSecrets answers from memory).
// Measured at 6,400 logins a second, the cache took a login's CPU from about 160 µs
// (PostgreSQL's share 42) to 89 (PostgreSQL's 2, the rate limit's claims). An unknown
// client is not cached, so an id created later is found. A cached client answers a
// wrong secret without the round trip an unknown one makes; against the 25 ms hash both
// pay, that difference is not there to time.
func (s *Service) clientLogin(ctx context.Context, id uuid.UUID) (clientEntry, bool, error) {
	e, ok, gen := s.clients.get(id)
	if ok && e.hash != "" {
		return e, true, nil
	}
	c, found, err := s.db.Client(ctx, id)
	if err != nil || !found {
		return clientEntry{}, false, err
	}
	e = clientEntry{enabled: c.Enabled, generation: c.CredentialGeneration, hash: c.SecretHash, rehash: NeedsRehash(c.SecretHash)}
	s.clients.put(id, e, gen)
	return e, true, nil
}

// IssueConnectToken signs and records a Connect Token for p's client. It checks nothing:
// POST /connect_token's rules (the caller's reach, its item, the options) are itemsync's,
// which calls this with the principal it checked.
//
// When ctx runs on a test clock (a token for an item on one), the token lives in that
// clock's time: issued at its time, expiring ConnectTokenTTL of clock time later, so that
// only an advance of the clock expires it, as it expires everything else of the item.
func (s *Service) IssueConnectToken(ctx context.Context, p *Principal, itemID *uuid.UUID, opts model.ConnectTokenOptions) (*model.ConnectToken, error) {
	now := s.now()
	clock, onClock := model.ClockOf(ctx)
	if onClock {
		now = clock.Now
	}
	row := &db.ConnectTokenRow{
		ID: uuid.New(), ClientID: p.ClientID, ItemID: itemID, Options: opts,
		CreatedAt: now, ExpiresAt: now.Add(ConnectTokenTTL),
	}
	// The origin's expiry is in real time, as the preflights that ask about it are.
	if err := s.db.CreateConnectToken(ctx, row, s.now().Add(ConnectTokenTTL)); err != nil {
		return nil, err
	}
	// Here, for REST and GraphQL alike; other processes hear of it from Listen.
	s.forgetOrigin(opts.TargetOrigin)
	c := claims{
		Issuer: issuer, Subject: p.ClientID.String(), Type: tokenConnect, ID: row.ID.String(),
		IssuedAt: now.Unix(), Expires: row.ExpiresAt.Unix(), Generation: p.generation,
	}
	if itemID != nil {
		c.ItemID = itemID.String()
	}
	if onClock {
		c.Clock = clock.ID.String()
	}
	if opts.TargetOrigin != nil {
		c.Origin = *opts.TargetOrigin
	}
	return &model.ConnectToken{AccessToken: sign(s.jwtKey, c)}, nil
}

// Verify checks a credential from the X-API-KEY header.
func (s *Service) Verify(ctx context.Context, token string) (*Principal, error) {
	c, err := s.claimsOf(token)
	if err != nil {
		return nil, model.Fail(model.CodeAPIKeyInvalid, "The credential in X-API-KEY is not valid.")
	}
	clientID, err := uuid.Parse(c.Subject)
	if err != nil {
		return nil, model.Fail(model.CodeAPIKeyInvalid, "The credential in X-API-KEY is not valid.")
	}
	now, err := s.timeOf(ctx, clientID, c)
	if err != nil {
		return nil, err
	}
	if now.Unix() >= c.Expires {
		return nil, model.Fail(model.CodeAPIKeyExpired, "The credential in X-API-KEY expired at %s; request a new one.", time.Unix(c.Expires, 0).UTC().Format(model.TimeLayout))
	}
	client, err := s.clientState(ctx, clientID)
	if err != nil {
		return nil, err
	}
	if client.gone {
		// Signed with this master key, for an application this database does not hold
		// (deleted, or another deployment's sharing the key): not a credential of ours.
		return nil, model.Fail(model.CodeAPIKeyInvalid, "The credential in X-API-KEY is not valid: its client application no longer exists.")
	}
	if !client.enabled {
		return nil, model.Fail(model.CodeClientDisabled, "This client application is disabled.")
	}
	if c.Generation < client.generation {
		return nil, model.Fail(model.CodeAPIKeyExpired, "The credential in X-API-KEY was revoked: its client application's secret changed or the application was disabled after it was issued; request a new API key from POST /auth.")
	}
	p := &Principal{ClientID: clientID, generation: c.Generation}
	switch c.Type {
	case tokenAPIKey:
		p.Kind = KindAPIKey
		return p, nil
	case tokenConnect:
		id, err := uuid.Parse(c.ID)
		if err != nil {
			return nil, model.Fail(model.CodeAPIKeyInvalid, "The credential in X-API-KEY is not valid.")
		}
		row, found, err := s.db.ConnectToken(ctx, id)
		if err != nil {
			return nil, err
		}
		if !found || row.ClientID != clientID {
			return nil, model.Fail(model.CodeAPIKeyInvalid, "The credential in X-API-KEY is not valid.")
		}
		p.Kind, p.TokenID, p.ItemID, p.Options = KindConnectToken, row.ID, row.ItemID, row.Options
		return p, nil
	default:
		return nil, model.Fail(model.CodeAPIKeyInvalid, "The credential in X-API-KEY is not valid.")
	}
}

// timeOf is the time a credential's expiry is judged by: real time, or for a Connect Token
// of an item on a test clock that clock's current time (one query, for those tokens only).
// A clock deleted since is read as the end of the token's time: its exp is a date of a
// clock that no longer runs, and read in real time it could lie years ahead.
func (s *Service) timeOf(ctx context.Context, clientID uuid.UUID, c claims) (time.Time, error) {
	if c.Clock == "" {
		return s.now(), nil
	}
	id, err := uuid.Parse(c.Clock)
	if err != nil || c.Type != tokenConnect {
		return time.Time{}, model.Fail(model.CodeAPIKeyInvalid, "The credential in X-API-KEY is not valid.")
	}
	k, found, err := s.db.TestClock(ctx, clientID, id, false)
	if err != nil {
		return time.Time{}, fmt.Errorf("read the test clock of a connect token: %w", err)
	}
	if !found {
		return time.Unix(c.Expires, 0), nil
	}
	return k.FrozenTime, nil
}

// claimsOf is parse, remembered for credentials that passed it. A client sends the same
// API key with every request for two hours, and checking its signature and decoding its
// claims again each time was a tenth of the service's own CPU on GET /accounts. parse is a
// pure function of the key and the whole token, so a remembered answer is the same answer;
// everything that can change (expiry, the client's enabled flag, a Connect Token's row) is
// still checked on every request. Refused tokens are not kept, so garbage evicts nothing.
func (s *Service) claimsOf(token string) (claims, error) {
	// Peek takes the cache's read lock; Get, which moves the entry to the front, takes its
	// exclusive lock, and at 8,000 requests a second on two cores requests waited on it
	// (a fifth of the service's lock waits in a mutex profile). Eviction is then by age,
	// which suits credentials that live two hours.
	if c, ok := s.tokens.Peek(token); ok {
		return c, nil
	}
	c, err := parse(s.jwtKey, token)
	if err == nil {
		s.tokens.Add(token, c)
	}
	return c, err
}

// must is for constructors that fail only on constant arguments out of range (an LRU's
// size below one).
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// ForgetClient drops what is cached of the client, after an operator changes it.
func (s *Service) ForgetClient(id uuid.UUID) { s.clients.forget(id) }

// SetClientEnabled is `ponte clients enable|disable`: it returns once every process that
// listens (see Listen) refuses or accepts the client's keys, or after a few seconds with
// the number of processes that did not answer (they stop trusting their cache when their
// session breaks, so a silent one is one that lost its connection). A disable revokes the
// keys issued before it for good: after an enable only keys issued later are accepted.
func (s *Service) SetClientEnabled(ctx context.Context, id uuid.UUID, enabled bool) (found bool, unacked int, err error) {
	found, unacked, err = s.db.SetClientEnabled(ctx, id, enabled, 3*time.Second)
	s.clients.forget(id)
	return found, unacked, err
}

// clientState is what every credential check needs of its client: the enabled flag and the
// credential generation, from the client cache while Listen keeps it.
func (s *Service) clientState(ctx context.Context, id uuid.UUID) (clientEntry, error) {
	e, ok, gen := s.clients.get(id)
	if ok {
		return e, nil
	}
	enabled, found, generation, err := s.db.ClientEnabled(ctx, id)
	if err != nil {
		return clientEntry{}, fmt.Errorf("check client: %w", err)
	}
	e = clientEntry{enabled: enabled, gone: !found, generation: generation}
	s.clients.put(id, e, gen)
	return e, nil
}

// NewClient creates a client application and returns it with its secret, which is shown
// once and stored only hashed.
func (s *Service) NewClient(ctx context.Context, name string) (*model.ClientApplication, string, error) {
	if name == "" {
		return nil, "", errors.New("a client application needs a name")
	}
	secret := NewSecret()
	c := &model.ClientApplication{ID: model.NewID(), Name: name, Enabled: true, SecretHash: HashSecret(secret)}
	if err := s.db.CreateClient(ctx, c); err != nil {
		return nil, "", err
	}
	return c, secret, nil
}

// EnsureClient makes a client with exactly these keys exist (PONTE_CLIENT_ID and
// PONTE_CLIENT_SECRET); running it again changes nothing but, at most, the stored hash of
// the same secret. A different secret replaces the old one and revokes the API keys issued
// under it.
func (s *Service) EnsureClient(ctx context.Context, clientID, secret string) (created bool, err error) {
	id, err := uuid.Parse(clientID)
	if err != nil {
		return false, fmt.Errorf("PONTE_CLIENT_ID must be a UUID: %w", err)
	}
	if len(secret) < 16 {
		return false, errors.New("PONTE_CLIENT_SECRET must be at least 16 characters")
	}
	if c, found, err := s.db.Client(ctx, id); err != nil {
		return false, err
	} else if found {
		if ok, err := CheckSecret(ctx, secret, c.SecretHash); err != nil {
			return false, err
		} else if ok {
			// The same secret: its keys stay valid, at most its hash gets stronger.
			if NeedsRehash(c.SecretHash) {
				err = s.db.ReplaceClientSecretHash(ctx, id, c.SecretHash, HashSecret(secret))
				s.clients.forget(id)
			}
			return false, err
		}
	}
	c := &model.ClientApplication{ID: id, Name: "Configured client", Enabled: true, SecretHash: HashSecret(secret)}
	created, err = s.db.UpsertClient(ctx, c)
	// This process's next login must see the new hash; the others drop theirs when the
	// change's notice reaches them.
	s.clients.forget(id)
	return created, err
}
