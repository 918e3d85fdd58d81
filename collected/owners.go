package collected

import (
	"context"

	"github.com/google/uuid"
	lru "github.com/hashicorp/golang-lru/v2"
)

// owners remembers which application owns an item or an account once a statement has
// checked it, so the most frequent reads skip the check: reading the owner on every
// request, or joining it into the read, was a third of PostgreSQL's work for a dashboard
// query under load. It decides only whether the check runs; the read is the same either
// way. Ownership never changes (an item is made for one application, and its accounts'
// ids are derived from the item's), so an entry never goes stale. A deleted resource's rows
// are gone with it, and a read that finds no rows after a skipped check checks again, so a
// deleted item or account still answers as unknown. Bounded: each entry is about a hundred
// bytes.
type owners struct {
	cache *lru.Cache[ownerKey, uuid.UUID]
}

type ownerKey struct {
	kind byte // 'i' item, 'a' account
	id   uuid.UUID
}

const ownersKept = 100_000

func newOwners() owners {
	c, _ := lru.New[ownerKey, uuid.UUID](ownersKept) // errors only for a size below 1
	return owners{c}
}

// known reports whether the owner of the resource is known, and whether it is client.
func (o owners) known(kind byte, id, client uuid.UUID) (known, owned bool) {
	// Peek, not Get: Get reorders the list under the cache's one exclusive lock, and under
	// load every request queued on it (see auth's claimsOf); eviction is then by age.
	owner, ok := o.cache.Peek(ownerKey{kind, id})
	return ok, ok && owner == client
}

func (o owners) remember(kind byte, id, client uuid.UUID) { o.cache.Add(ownerKey{kind, id}, client) }

// ownerCheck reads a resource's owner; found is false when the resource does not exist.
type ownerCheck func(ctx context.Context, id uuid.UUID) (owner uuid.UUID, found bool, err error)

// checked runs read, a read of the resource id (of kind 'i' or 'a') that reports how many
// rows it found, once the resource is known to be client's: ours is false when it is not
// (another application's resource is as unknown as one that does not exist). The check
// runs unless owners knows its answer, and again when read finds nothing after it was
// skipped: the resource may be gone.
func (e *Engine) checked(ctx context.Context, kind byte, id, client uuid.UUID, check ownerCheck, read func() (int, error)) (ours bool, err error) {
	known, mine := e.owners.known(kind, id, client)
	if known && !mine {
		return false, nil
	}
	verify := func() (bool, error) {
		owner, found, err := check(ctx, id)
		if err != nil || !found {
			return false, err
		}
		e.owners.remember(kind, id, owner)
		return owner == client, nil
	}
	if !known {
		if ours, err := verify(); err != nil || !ours {
			return false, err
		}
	}
	n, err := read()
	if err != nil {
		return false, err
	}
	if n == 0 && known {
		return verify()
	}
	return true, nil
}

// itemOwner and accountOwner are the checks of items and accounts.
func (e *Engine) itemOwner(ctx context.Context, id uuid.UUID) (uuid.UUID, bool, error) {
	return e.db.ItemOwner(ctx, id)
}

func (e *Engine) accountOwner(ctx context.Context, id uuid.UUID) (uuid.UUID, bool, error) {
	client, _, found, err := e.db.AccountOwner(ctx, id)
	return client, found, err
}
