package collected

import (
	"testing"

	"github.com/google/uuid"
)

func TestOwners(t *testing.T) {
	t.Parallel()
	o := newOwners()
	a, b, res, item := uuid.New(), uuid.New(), uuid.New(), uuid.New()
	o.remember('a', res, a, item)
	unplaced := uuid.New()
	o.remember('a', unplaced, a, uuid.Nil)
	for _, c := range []struct {
		kind                byte
		id, client          uuid.UUID
		wantKnown, wantMine bool
	}{
		{'a', res, a, true, true},
		{'a', res, b, true, false},
		{'i', res, a, false, false}, // an item is not an account with the same id
		{'a', uuid.New(), a, false, false},
		{'a', unplaced, a, false, false}, // kept only with its item
	} {
		known, owned, it := o.known(c.kind, c.id, c.client)
		if known != c.wantKnown || owned != c.wantMine || known && it != item {
			t.Errorf("%c %s for %s: known %v owned %v item %s", c.kind, c.id, c.client, known, owned, it)
		}
	}
}
