package collected

import (
	"context"

	"github.com/google/uuid"
	lru "github.com/hashicorp/golang-lru/v2"
)

// owners remembers which application owns an item or an account, and an account's item,
// once a statement has checked it, so the most frequent reads skip the check: reading the
// owner on every request, or joining it into the read, was a third of PostgreSQL's work
// for a dashboard query under load. It decides only whether the check runs; the read is
// the same either way. Ownership never changes (an item is made for one application, and
// its accounts' ids are derived from the item's), nor does an account's item, so an entry
// never goes stale. A deleted resource's rows are gone with it, and a read that finds no
// rows after a skipped check checks again, so a deleted item or account still answers as
// unknown. Bounded: each entry is about a hundred bytes.
//
// The item is what lets a read of an account's transactions name its partition
// (migration 0065) as a parameter: PostgreSQL then plans the one partition, not sixteen.
type owners struct {
	cache *lru.Cache[ownerKey, owner]
}

type ownerKey struct {
	kind byte // 'i' item, 'a' account
	id   uuid.UUID
}

// owner is a resource's application, and its item (an item's is itself).
type owner struct{ client, item uuid.UUID }

const ownersKept = 100_000

func newOwners() owners {
	c, _ := lru.New[ownerKey, owner](ownersKept) // errors only for a size below 1
	return owners{c}
}

// known reports whether the owner of the resource is known, whether it is client, and
// the resource's item.
func (o owners) known(kind byte, id, client uuid.UUID) (known, owned bool, item uuid.UUID) {
	// Peek, not Get: Get reorders the list under the cache's one exclusive lock, and under
	// load every request queued on it (see auth's claimsOf); eviction is then by age.
	w, ok := o.cache.Peek(ownerKey{kind, id})
	return ok, ok && w.client == client, w.item
}

// remember keeps what a check found. An entry without its item is not kept: a read given
// no item would find no rows.
func (o owners) remember(kind byte, id, client, item uuid.UUID) {
	if item != uuid.Nil {
		o.cache.Add(ownerKey{kind, id}, owner{client, item})
	}
}

// ownerCheck reads a resource's owner and item; found is false when the resource does not
// exist.
type ownerCheck func(ctx context.Context, id uuid.UUID) (client, item uuid.UUID, found bool, err error)

// checked runs read, a read of the resource id (of kind 'i' or 'a') given its item that
// reports how many rows it found, once the resource is known to be client's: ours is
// false when it is not (another application's resource is as unknown as one that does not
// exist). The check runs unless owners knows its answer, and again when read finds nothing
// after it was skipped: the resource may be gone.
func (e *Engine) checked(ctx context.Context, kind byte, id, client uuid.UUID, check ownerCheck, read func(item uuid.UUID) (int, error)) (ours bool, err error) {
	known, mine, item := e.owners.known(kind, id, client)
	if known && !mine {
		return false, nil
	}
	verify := func() (bool, error) {
		owner, it, found, err := check(ctx, id)
		if err != nil || !found {
			return false, err
		}
		e.owners.remember(kind, id, owner, it)
		item = it
		return owner == client, nil
	}
	if !known {
		if ours, err := verify(); err != nil || !ours {
			return false, err
		}
	}
	n, err := read(item)
	if err != nil {
		return false, err
	}
	if n == 0 && known {
		return verify()
	}
	return true, nil
}

// itemOwner and accountOwner are the checks of items and accounts.
func (e *Engine) itemOwner(ctx context.Context, id uuid.UUID) (uuid.UUID, uuid.UUID, bool, error) {
	client, found, err := e.db.ItemOwner(ctx, id)
	return client, id, found, err
}

func (e *Engine) accountOwner(ctx context.Context, id uuid.UUID) (uuid.UUID, uuid.UUID, bool, error) {
	return e.db.AccountOwner(ctx, id)
}
