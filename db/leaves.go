package db

import (
	"regexp"

	"github.com/google/uuid"
	lru "github.com/hashicorp/golang-lru/v2"
)

// An item's transactions all live in one leaf partition of transactions (a hash of item_id,
// migration 0065), so a read of one item's rows can name that leaf instead of the parent.
// Named, the leaf is all that PostgreSQL plans and locks, whatever the plan. A generic
// plan on the parent (genericplan.go) locks every partition as it starts, before it
// prunes them: it would wait behind DDL on any partition, and every page after it would
// queue behind that DDL's lock request (TestTransactionStatementsReadOnePartition).
//
// The leaf is learned once per item and process, from a read of the item's rows, and kept:
// the layout is fixed, and an item's rows never move. A migration that changed the layout
// would have to run with every instance of the service stopped.
var itemLeaves, _ = lru.New[uuid.UUID, string](1 << 17)

// leafName is what a learned leaf's name must look like to be written into a statement.
var leafName = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// leafOf is the leaf holding item's transactions, or "" until a read has learned it.
func leafOf(item uuid.UUID) string {
	leaf, _ := itemLeaves.Get(item)
	return leaf
}

// leafColumn is what a read of the parent selects beside each row to learn the item's leaf
// from it (learnLeaf), so that learning costs no statement: the statements a GraphQL query
// runs stay a matter of its shape (prefetch.go).
const leafColumn = `t.tableoid::regclass::text`

// learnLeaf records leaf, read with leafColumn, as item's.
func learnLeaf(item uuid.UUID, leaf string) {
	if leafName.MatchString(leaf) {
		itemLeaves.Add(item, leaf)
	}
}
