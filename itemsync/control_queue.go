package itemsync

import (
	"context"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// The data controls of a sandbox item (transactions, bills, investments and their
// transactions) are one pending-change queue: the latest change of each resource, kept as
// a row an execution collects. Adding, changing, removing and listing go the same way for
// every kind; each kind gives its checks and its rows' store (a changeQueue).

// changeQueue is one kind of change: its store, and the bound of one add.
type changeQueue[C any] struct {
	// noun names the kind in the count error of an add ("transactions", "bills").
	noun  string
	max   int
	store *db.ChangeQueue[C]
}

var (
	txQueue    = changeQueue[model.SandboxTransactionChange]{noun: "transactions", max: maxAddedTransactions, store: db.TransactionQueue}
	billQueue  = changeQueue[model.SandboxBillChange]{noun: "bills", max: maxAddedBills, store: db.BillQueue}
	invQueue   = changeQueue[model.SandboxInvestmentChange]{noun: "investments", max: maxAddedInvestments, store: db.InvestmentQueue}
	invTxQueue = changeQueue[model.SandboxInvestmentChange]{noun: "transactions", max: maxAddedInvestmentTransactions, store: db.InvestmentQueue}
)

// addChanges records the changes build makes of in, all or none. Each is checked on its
// own before the transaction; admit checks the item (and what the changes go on) in it,
// and fits, when given, checks one change against what the item has before it is saved.
func addChanges[In, C any](e *Engine, ctx context.Context, q changeQueue[C], id uuid.UUID, in []In,
	build func(i int, v In) (C, error),
	admit func(ctx context.Context, tx *db.Tx, p *auth.Principal) error,
	fits func(ctx context.Context, tx *db.Tx, i int, c *C) error) ([]C, error) {
	p, err := caller(ctx, auth.ControlSandbox, id)
	if err != nil {
		return nil, err
	}
	if len(in) == 0 || len(in) > q.max {
		return nil, model.Fail(model.CodeInvalidParameter, "%s: give 1 to %d %s (got %d).", q.noun, q.max, q.noun, len(in))
	}
	out := make([]C, 0, len(in))
	for i, v := range in {
		ch, err := build(i, v)
		if err != nil {
			return nil, err
		}
		out = append(out, ch)
	}
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := admit(ctx, tx, p); err != nil {
			return err
		}
		for i := range out {
			if fits != nil {
				if err := fits(ctx, tx, i, &out[i]); err != nil {
					return err
				}
			}
			if err := q.store.Save(ctx, tx, &out[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// itemAdmits is the admit of a kind that only needs the caller's sandbox item.
func itemAdmits(id uuid.UUID) func(context.Context, *db.Tx, *auth.Principal) error {
	return func(ctx context.Context, tx *db.Tx, p *auth.Principal) error {
		_, _, err := controlledItem(ctx, tx, p, id, false)
		return err
	}
}

// updateChange records a change built on the resource's row (control: the pending change,
// or a new one of a collected resource). check runs on the input first, after the
// caller's right; apply lays the input on the row and may refuse what it makes.
func updateChange[C any](e *Engine, ctx context.Context, q changeQueue[C], id uuid.UUID, check func() error,
	control func(ctx context.Context, tx *db.Tx, p *auth.Principal) (*C, error), apply func(*C) error) (*C, error) {
	p, err := caller(ctx, auth.ControlSandbox, id)
	if err != nil {
		return nil, err
	}
	if err := check(); err != nil {
		return nil, err
	}
	var out *C
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		ch, err := control(ctx, tx, p)
		if err != nil {
			return err
		}
		if err := apply(ch); err != nil {
			return err
		}
		out = ch
		return q.store.Save(ctx, tx, ch)
	})
	return out, err
}

// removeChange records that a resource is gone: removal makes the REMOVE change of the
// row control finds.
func removeChange[C any](e *Engine, ctx context.Context, q changeQueue[C], id uuid.UUID,
	control func(ctx context.Context, tx *db.Tx, p *auth.Principal) (*C, error), removal func(*C) *C) (*C, error) {
	return updateChange(e, ctx, q, id, func() error { return nil }, control, func(ch *C) error {
		*ch = *removal(ch)
		return nil
	})
}

// latestChange is the change row to build on: the pending one (gone: it removed the
// resource, or is of another resource, 404), else collected's new CHANGE of a resource
// the item has (nil: it has none, 404).
func latestChange[C any](pending *C, err error, gone func(*C) bool, notFound error, collected func() (*C, error)) (*C, error) {
	if err != nil {
		return nil, err
	}
	if pending != nil {
		if gone(pending) {
			return nil, notFound
		}
		return pending, nil
	}
	ch, err := collected()
	if err != nil {
		return nil, err
	}
	if ch == nil {
		return nil, notFound
	}
	return ch, nil
}

// listChanges lists a sandbox item's changes of one kind, oldest first: each with when it
// was asked for and when an execution collected it (null while pending).
func listChanges[C any](e *Engine, ctx context.Context, q changeQueue[C], id uuid.UUID) ([]C, error) {
	p, err := caller(ctx, auth.ControlSandbox, id)
	if err != nil {
		return nil, err
	}
	var out []C
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, _, err := controlledItem(ctx, tx, p, id, false); err != nil {
			return err
		}
		out, err = q.store.List(ctx, tx, id)
		return err
	})
	if out == nil && err == nil {
		out = []C{}
	}
	return out, err
}

// overlay lays what a patch gives (v, nil: left as it is) on a change's field.
func overlay[T any](field **T, v *T) {
	if v != nil {
		*field = v
	}
}

// checkGiven runs check on what a patch gives for field name (nil: nothing to check),
// its refusal an INVALID_PARAMETER naming the field.
func checkGiven[T any](name string, v *T, check func(T) error) error {
	if v == nil {
		return nil
	}
	if err := check(*v); err != nil {
		return model.Fail(model.CodeInvalidParameter, "%s: %s", name, err.Error())
	}
	return nil
}
