package collected

import (
	"github.com/google/uuid"
	lru "github.com/hashicorp/golang-lru/v2"
)

// owners remembers which application owns an item or an account once a statement has
// checked it, so the most frequent reads can leave the owner's join out of their
// statement: under load that join was a third of PostgreSQL's work for a dashboard query.
// Ownership never changes (an item is made for one application, and its accounts' ids are
// derived from the item's), so an entry never goes stale. A deleted resource's rows are
// gone with it, and a read that finds no rows checks the owner again, so a deleted item or
// account still answers as unknown. Bounded: each entry is about a hundred bytes.
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
