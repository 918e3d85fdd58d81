package itemsync

import (
	"context"
	"math"
	"strings"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// Sandbox control of data: transactions a developer adds to, changes on or
// removes from a sandbox item. They are recorded as the item's changes; the institution
// gets them in Session.TransactionChanges and lays them on what it delivers, so the next
// execution collects them through the ordinary ingest, which fires transactions/created,
// /updated and /deleted. Every later execution gets them again (they stay collected).

// Transaction change operations.
const (
	opAdd    = "ADD"
	opChange = "CHANGE"
	opRemove = "REMOVE"
)

// maxAddedTransactions bounds one POST /sandbox/items/{id}/transactions.
const maxAddedTransactions = 100

// AddTransactions records transactions to add to a sandbox item's accounts.
func (e *Engine) AddTransactions(ctx context.Context, id uuid.UUID, in []model.SandboxTransactionInput) ([]model.SandboxTransactionChange, error) {
	build := func(i int, t model.SandboxTransactionInput) (model.SandboxTransactionChange, error) {
		return addedChange(id, i, t)
	}
	return addChanges(e, ctx, txQueue, id, in, build, itemAdmits(id), func(ctx context.Context, tx *db.Tx, i int, c *model.SandboxTransactionChange) error {
		ok, err := tx.ItemHasAccount(ctx, id, c.AccountID)
		if err == nil && !ok {
			err = model.Fail(model.CodeInvalidParameter, "transactions[%d].accountId: item %s has no account %s (GET /accounts?itemId= lists them).", i, id, c.AccountID)
		}
		return err
	})
}

// addedChange checks one transaction to add and gives it its id.
func addedChange(itemID uuid.UUID, i int, t model.SandboxTransactionInput) (model.SandboxTransactionChange, error) {
	fail := func(field, format string, args ...any) (model.SandboxTransactionChange, error) {
		return model.SandboxTransactionChange{}, model.Fail(model.CodeInvalidParameter, "transactions[%d].%s: "+format, append([]any{i, field}, args...)...)
	}
	if t.AccountID == uuid.Nil {
		return fail("accountId", "required.")
	}
	if t.Date.IsZero() {
		return fail("date", "required.")
	}
	desc := strings.TrimSpace(t.Description)
	if desc == "" || len(desc) > 500 {
		return fail("description", "1 to 500 characters.")
	}
	if err := checkAmount(t.Amount); err != nil {
		return fail("amount", "%s", err.Error())
	}
	if t.Type != "DEBIT" && t.Type != "CREDIT" {
		return fail("type", "DEBIT or CREDIT (got %.40q).", t.Type)
	}
	status := "POSTED"
	if t.Status != nil {
		status = *t.Status
	}
	if status != "POSTED" && status != "PENDING" {
		return fail("status", "POSTED or PENDING (got %.40q).", status)
	}
	if t.Category != nil && (*t.Category == "" || len(*t.Category) > 20 || strings.Trim(*t.Category, "0123456789") != "") {
		return fail("category", "a category id of GET /categories, digits (got %.40q).", *t.Category)
	}
	amount, date := t.Amount, t.Date
	return model.SandboxTransactionChange{TransactionID: uuid.New(), ItemID: itemID, AccountID: t.AccountID, Operation: opAdd,
		Date: &date, Description: &desc, Amount: &amount, Type: &t.Type, Status: &status, Category: t.Category}, nil
}

type amountError string

func (e amountError) Error() string { return string(e) }

// checkAmount takes amounts a transaction can show: not zero, whole centavos, below a
// trillion reais.
func checkAmount(a float64) error {
	if math.IsNaN(a) || math.IsInf(a, 0) || a == 0 || math.Abs(a) >= 1e12 {
		return amountError("a non-zero amount in reais below 1,000,000,000,000.")
	}
	if c := a * 100; math.Abs(c-math.Round(c)) > 1e-6 {
		return amountError("at most two decimals (whole centavos).")
	}
	return nil
}

// ChangeTransaction records a change to a transaction of a sandbox item: one collected, or
// one added and not removed.
func (e *Engine) ChangeTransaction(ctx context.Context, id, transactionID uuid.UUID, in model.SandboxTransactionPatch) (*model.SandboxTransactionChange, error) {
	check := func() error {
		if in.Description == nil && in.Amount == nil && in.Status == nil {
			return model.Fail(model.CodeInvalidParameter, "Give description, amount or status to change.")
		}
		if in.Description != nil {
			d := strings.TrimSpace(*in.Description)
			if d == "" || len(d) > 500 {
				return model.Fail(model.CodeInvalidParameter, "description: 1 to 500 characters.")
			}
			in.Description = &d
		}
		if err := checkGiven("amount", in.Amount, checkAmount); err != nil {
			return err
		}
		if in.Status != nil && *in.Status != "POSTED" && *in.Status != "PENDING" {
			return model.Fail(model.CodeInvalidParameter, "status: POSTED or PENDING (got %.40q).", *in.Status)
		}
		return nil
	}
	return updateChange(e, ctx, txQueue, id, check, controlledTransaction(id, transactionID), func(ch *model.SandboxTransactionChange) error {
		overlay(&ch.Description, in.Description)
		overlay(&ch.Amount, in.Amount)
		overlay(&ch.Status, in.Status)
		return nil
	})
}

// RemoveTransaction records that a transaction of a sandbox item is gone.
func (e *Engine) RemoveTransaction(ctx context.Context, id, transactionID uuid.UUID) (*model.SandboxTransactionChange, error) {
	return removeChange(e, ctx, txQueue, id, controlledTransaction(id, transactionID), func(ch *model.SandboxTransactionChange) *model.SandboxTransactionChange {
		return &model.SandboxTransactionChange{TransactionID: transactionID, ItemID: id, AccountID: ch.AccountID, Operation: opRemove}
	})
}

// controlledTransaction finds the change row to build on for a transaction of the caller's
// sandbox item: the pending one, or a new CHANGE of a collected transaction. A transaction
// the item does not have, or one already removed, is 404.
func controlledTransaction(id, transactionID uuid.UUID) func(context.Context, *db.Tx, *auth.Principal) (*model.SandboxTransactionChange, error) {
	return func(ctx context.Context, tx *db.Tx, p *auth.Principal) (*model.SandboxTransactionChange, error) {
		if _, _, err := controlledItem(ctx, tx, p, id, false); err != nil {
			return nil, err
		}
		pending, err := db.TransactionQueue.Locked(ctx, tx, id, transactionID)
		notFound := model.Fail(model.CodeTransactionNotFound, "Item %s has no transaction %s.", id, transactionID)
		return latestChange(pending, err, func(ch *model.SandboxTransactionChange) bool { return ch.Operation == opRemove }, notFound,
			func() (*model.SandboxTransactionChange, error) {
				acc, found, err := tx.ItemTransactionAccount(ctx, id, transactionID)
				if err != nil || !found {
					return nil, err
				}
				return &model.SandboxTransactionChange{TransactionID: transactionID, ItemID: id, AccountID: acc, Operation: opChange}, nil
			})
	}
}

// TransactionChanges lists a sandbox item's transaction changes, oldest first: each with
// when it was asked for and when an execution collected it (null while pending).
func (e *Engine) TransactionChanges(ctx context.Context, id uuid.UUID) ([]model.SandboxTransactionChange, error) {
	return listChanges(e, ctx, txQueue, id)
}
