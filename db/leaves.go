package db

import (
	"context"
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
// The leaf is learned once per item and process, from where the item's rows are, and kept:
// the layout is fixed, and an item's rows never move. A migration that changed the layout
// would have to run with every instance of the service stopped.
var itemLeaves, _ = lru.New[uuid.UUID, string](1 << 17)

// leafName is what a learned leaf's name must look like to be written into a statement.
var leafName = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// transactionsOf is the relation to read item's transactions from, and whether it is the
// item's leaf: the parent until the leaf is learned (learnLeaf).
func transactionsOf(item uuid.UUID) (string, bool) {
	if leaf, ok := itemLeaves.Get(item); ok {
		return leaf, true
	}
	return "transactions", false
}

// learnLeaf records the leaf holding item's rows, if it has any. A read that fails leaves
// it to the next page: the page read before it stands.
func (c *conn) learnLeaf(ctx context.Context, item uuid.UUID) {
	var leaf string
	err := c.pg.QueryRow(ctx, `SELECT tableoid::regclass::text FROM transactions WHERE item_id = $1 LIMIT 1`, item).Scan(&leaf)
	if err == nil && leafName.MatchString(leaf) {
		itemLeaves.Add(item, leaf)
	}
}
