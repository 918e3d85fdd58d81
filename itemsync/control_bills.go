package itemsync

import (
	"context"
	"math"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// Sandbox control of bills: credit card bills a developer adds to, changes on or removes
// from a sandbox item's cards, recorded as the item's changes like the transactions'
// (control_data.go). The institution lays them on the bills it delivers
// (Session.BillChanges); the next execution collects them through the ordinary ingest.
// The interface documents no bill event, so none fires. The execution that first
// collects a change marks it (appliedAt; the store keeps the execution's id too): the item's history of data actions.

// maxAddedBills bounds one POST /sandbox/items/{id}/bills.
const maxAddedBills = 24

// AddBills records bills to add to a sandbox item's credit cards.
func (e *Engine) AddBills(ctx context.Context, id uuid.UUID, in []model.SandboxBillInput) ([]model.SandboxBillChange, error) {
	build := func(i int, b model.SandboxBillInput) (model.SandboxBillChange, error) { return addedBill(id, i, b) }
	return addChanges(e, ctx, billQueue, id, in, build, itemAdmits(id), func(ctx context.Context, tx *db.Tx, i int, c *model.SandboxBillChange) error {
		ok, err := tx.ItemHasCardAccount(ctx, id, c.AccountID)
		if err == nil && !ok {
			err = model.Fail(model.CodeInvalidParameter, "bills[%d].accountId: item %s has no credit card account %s (GET /accounts?itemId=&type=CREDIT lists them).", i, id, c.AccountID)
		}
		return err
	})
}

// addedBill checks one bill to add and gives it its id.
func addedBill(itemID uuid.UUID, i int, b model.SandboxBillInput) (model.SandboxBillChange, error) {
	fail := func(field, format string, args ...any) (model.SandboxBillChange, error) {
		return model.SandboxBillChange{}, model.Fail(model.CodeInvalidParameter, "bills[%d].%s: "+format, append([]any{i, field}, args...)...)
	}
	if b.AccountID == uuid.Nil {
		return fail("accountId", "required.")
	}
	if b.DueDate.IsZero() {
		return fail("dueDate", "required.")
	}
	if b.BillClosingDate != nil && b.BillClosingDate.After(b.DueDate.Time) {
		return fail("billClosingDate", "on or before dueDate.")
	}
	if err := checkBillAmount(b.TotalAmount); err != nil {
		return fail("totalAmount", "%s", err.Error())
	}
	if b.MinimumPaymentAmount != nil {
		if err := checkBillAmount(*b.MinimumPaymentAmount); err != nil {
			return fail("minimumPaymentAmount", "%s", err.Error())
		}
		if *b.MinimumPaymentAmount > b.TotalAmount {
			return fail("minimumPaymentAmount", "at most totalAmount.")
		}
	}
	total, due := b.TotalAmount, b.DueDate
	return model.SandboxBillChange{BillID: model.NewID(), ItemID: itemID, AccountID: b.AccountID, Operation: opAdd, DueDate: &due,
		BillClosingDate: b.BillClosingDate, TotalAmount: &total, MinimumPaymentAmount: b.MinimumPaymentAmount}, nil
}

// checkBillAmount takes what a bill can owe: zero or more, whole centavos, below a
// trillion reais.
func checkBillAmount(a float64) error {
	if math.IsNaN(a) || math.IsInf(a, 0) || a < 0 || a >= 1e12 {
		return amountError("an amount in reais from 0 to below 1,000,000,000,000.")
	}
	if c := a * 100; math.Abs(c-math.Round(c)) > 1e-6 {
		return amountError("at most two decimals (whole centavos).")
	}
	return nil
}

// ChangeBill records a change to a bill of a sandbox item: one collected, or one added and
// not removed.
func (e *Engine) ChangeBill(ctx context.Context, id, billID uuid.UUID, in model.SandboxBillPatch) (*model.SandboxBillChange, error) {
	check := func() error {
		if in.DueDate == nil && in.TotalAmount == nil && in.MinimumPaymentAmount == nil {
			return model.Fail(model.CodeInvalidParameter, "Give dueDate, totalAmount or minimumPaymentAmount to change.")
		}
		if in.DueDate != nil && in.DueDate.IsZero() {
			return model.Fail(model.CodeInvalidParameter, "dueDate: a date-time.")
		}
		if err := checkGiven("totalAmount", in.TotalAmount, checkBillAmount); err != nil {
			return err
		}
		return checkGiven("minimumPaymentAmount", in.MinimumPaymentAmount, checkBillAmount)
	}
	return updateChange(e, ctx, billQueue, id, check, controlledBill(id, billID), func(ch *model.SandboxBillChange) error {
		overlay(&ch.DueDate, in.DueDate)
		overlay(&ch.TotalAmount, in.TotalAmount)
		overlay(&ch.MinimumPaymentAmount, in.MinimumPaymentAmount)
		// Checked on what the bill will be where both are known (an added bill, or a
		// change naming both).
		if ch.TotalAmount != nil && ch.MinimumPaymentAmount != nil && *ch.MinimumPaymentAmount > *ch.TotalAmount {
			return model.Fail(model.CodeInvalidParameter, "minimumPaymentAmount: at most totalAmount.")
		}
		if ch.DueDate != nil && ch.BillClosingDate != nil && ch.BillClosingDate.After(ch.DueDate.Time) {
			return model.Fail(model.CodeInvalidParameter, "dueDate: on or after the bill's billClosingDate.")
		}
		return nil
	})
}

// RemoveBill records that a bill of a sandbox item is gone.
func (e *Engine) RemoveBill(ctx context.Context, id, billID uuid.UUID) (*model.SandboxBillChange, error) {
	return removeChange(e, ctx, billQueue, id, controlledBill(id, billID), func(ch *model.SandboxBillChange) *model.SandboxBillChange {
		return &model.SandboxBillChange{BillID: billID, ItemID: id, AccountID: ch.AccountID, Operation: opRemove}
	})
}

// controlledBill finds the change row to build on for a bill of the caller's sandbox
// item: the pending one, or a new CHANGE of a collected bill. A bill the item does not
// have, or one already removed, is 404.
func controlledBill(id, billID uuid.UUID) func(context.Context, *db.Tx, *auth.Principal) (*model.SandboxBillChange, error) {
	return func(ctx context.Context, tx *db.Tx, p *auth.Principal) (*model.SandboxBillChange, error) {
		if _, _, err := controlledItem(ctx, tx, p, id, false); err != nil {
			return nil, err
		}
		pending, err := db.BillQueue.Locked(ctx, tx, id, billID)
		notFound := model.Fail(model.CodeBillNotFound, "Item %s has no bill %s.", id, billID)
		return latestChange(pending, err, func(ch *model.SandboxBillChange) bool { return ch.Operation == opRemove }, notFound,
			func() (*model.SandboxBillChange, error) {
				acc, found, err := tx.ItemBillAccount(ctx, id, billID)
				if err != nil || !found {
					return nil, err
				}
				return &model.SandboxBillChange{BillID: billID, ItemID: id, AccountID: acc, Operation: opChange}, nil
			})
	}
}

// BillChanges lists a sandbox item's bill changes, oldest first: each with when it was
// asked for and when an execution collected it (null while pending).
func (e *Engine) BillChanges(ctx context.Context, id uuid.UUID) ([]model.SandboxBillChange, error) {
	return listChanges(e, ctx, billQueue, id)
}
