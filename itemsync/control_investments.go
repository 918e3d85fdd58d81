package itemsync

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// Sandbox control of investments and their transactions, recorded as the item's changes
// like the bills' (control_bills.go). The institution lays them on what it delivers
// (Session.InvestmentChanges); the next execution collects them through the ordinary
// ingest. The interface documents no investment event, so none fires. The execution that
// first collects a change marks it (appliedAt).

// Bounds of one POST.
const (
	maxAddedInvestments            = 50
	maxAddedInvestmentTransactions = 100
	maxInvestmentText              = 200
)

// InvestmentTypes are the investment types the sandbox shows.
var InvestmentTypes = []string{"FIXED_INCOME", "MUTUAL_FUND", "SECURITY", "EQUITY", "COE", "ETF", "OTHER"}

// investmentTxTypes are the investment transaction types, with the movement each implies
// ("": the caller says).
var investmentTxTypes = map[string]string{"BUY": "CREDIT", "SELL": "DEBIT", "TAX": "DEBIT", "TRANSFER": ""}

// AddInvestments records investments to add to a sandbox item.
func (e *Engine) AddInvestments(ctx context.Context, id uuid.UUID, in []model.SandboxInvestmentInput) ([]model.SandboxInvestmentChange, error) {
	build := func(i int, v model.SandboxInvestmentInput) (model.SandboxInvestmentChange, error) {
		return addedInvestment(id, i, v)
	}
	return addChanges(e, ctx, invQueue, id, in, build, collectingItem(id, model.ProductInvestments), nil)
}

// collectingItem is the admit of an add to a product: the caller's sandbox item, which
// must collect it.
func collectingItem(id uuid.UUID, product model.Product) func(context.Context, *db.Tx, *auth.Principal) error {
	return func(ctx context.Context, tx *db.Tx, p *auth.Principal) error {
		it, _, err := controlledItem(ctx, tx, p, id, false)
		if err != nil {
			return err
		}
		return collects(it, product)
	}
}

// addedInvestment checks one investment to add and gives it its id.
func addedInvestment(itemID uuid.UUID, i int, v model.SandboxInvestmentInput) (model.SandboxInvestmentChange, error) {
	fail := func(field, format string, args ...any) (model.SandboxInvestmentChange, error) {
		return model.SandboxInvestmentChange{}, model.Fail(model.CodeInvalidParameter, "investments[%d].%s: "+format, append([]any{i, field}, args...)...)
	}
	if err := checkText(v.Name, true); err != nil {
		return fail("name", "%s", err.Error())
	}
	if !slices.Contains(InvestmentTypes, v.Type) {
		return fail("type", "one of %s.", strings.Join(InvestmentTypes, ", "))
	}
	if v.Subtype != nil {
		if err := checkText(*v.Subtype, true); err != nil {
			return fail("subtype", "%s", err.Error())
		}
	}
	if err := checkBillAmount(v.Balance); err != nil {
		return fail("balance", "%s", err.Error())
	}
	for _, f := range []struct {
		name string
		v    *float64
	}{{"quantity", v.Quantity}, {"value", v.Value}} {
		if f.v != nil {
			if err := checkMeasure(*f.v); err != nil {
				return fail(f.name, "%s", err.Error())
			}
		}
	}
	if v.DueDate != nil && v.DueDate.IsZero() {
		return fail("dueDate", "a date-time.")
	}
	name, typ, bal := v.Name, v.Type, v.Balance
	return model.SandboxInvestmentChange{InvestmentID: model.NewID(), ItemID: itemID, Operation: opAdd, Name: &name, Type: &typ,
		Subtype: v.Subtype, Balance: &bal, Quantity: v.Quantity, Value: v.Value, DueDate: v.DueDate}, nil
}

// collects refuses a change no execution of the item would ever collect: the item was
// created without the product.
func collects(it *db.ItemRow, p model.Product) error {
	if !slices.Contains(it.Products, p) {
		return model.Fail(model.CodeInvalidParameter, "Item %s does not collect %s (its products: %v); its executions would never take this change.", it.ID, p, it.Products)
	}
	return nil
}

// checkText takes a name or description: not blank when required, at most
// maxInvestmentText characters, no control characters.
func checkText(s string, required bool) error {
	if required && strings.TrimSpace(s) == "" {
		return amountError("required, not blank.")
	}
	if len([]rune(s)) > maxInvestmentText {
		return amountError("at most 200 characters.")
	}
	if strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return amountError("no control characters.")
	}
	return nil
}

// checkMeasure takes a quantity or unit value: zero or more, finite, below a trillion.
func checkMeasure(a float64) error {
	if math.IsNaN(a) || math.IsInf(a, 0) || a < 0 || a >= 1e12 {
		return amountError("a number from 0 to below 1,000,000,000,000.")
	}
	return nil
}

// ChangeInvestment records a change to an investment of a sandbox item: one collected, or
// one added and not removed.
func (e *Engine) ChangeInvestment(ctx context.Context, id, investmentID uuid.UUID, in model.SandboxInvestmentPatch) (*model.SandboxInvestmentChange, error) {
	check := func() error {
		if in.Name == nil && in.Balance == nil && in.Quantity == nil && in.Value == nil {
			return model.Fail(model.CodeInvalidParameter, "Give name, balance, quantity or value to change.")
		}
		name := func(s string) error { return checkText(s, true) }
		for _, err := range []error{checkGiven("name", in.Name, name), checkGiven("balance", in.Balance, checkBillAmount),
			checkGiven("quantity", in.Quantity, checkMeasure), checkGiven("value", in.Value, checkMeasure)} {
			if err != nil {
				return err
			}
		}
		return nil
	}
	return updateChange(e, ctx, invQueue, id, check, controlledInvestment(id, investmentID), func(ch *model.SandboxInvestmentChange) error {
		overlay(&ch.Name, in.Name)
		overlay(&ch.Balance, in.Balance)
		overlay(&ch.Quantity, in.Quantity)
		overlay(&ch.Value, in.Value)
		return nil
	})
}

// RemoveInvestment records that an investment of a sandbox item is gone, with its
// transactions.
func (e *Engine) RemoveInvestment(ctx context.Context, id, investmentID uuid.UUID) (*model.SandboxInvestmentChange, error) {
	return removeChange(e, ctx, invQueue, id, controlledInvestment(id, investmentID), func(*model.SandboxInvestmentChange) *model.SandboxInvestmentChange {
		return &model.SandboxInvestmentChange{InvestmentID: investmentID, ItemID: id, Operation: opRemove}
	})
}

// controlledInvestment finds the change row to build on for an investment of the caller's
// sandbox item: the pending one, or a new CHANGE of a collected investment. One the item
// does not have, or one removed, is 404.
func controlledInvestment(id, investmentID uuid.UUID) func(context.Context, *db.Tx, *auth.Principal) (*model.SandboxInvestmentChange, error) {
	return func(ctx context.Context, tx *db.Tx, p *auth.Principal) (*model.SandboxInvestmentChange, error) {
		if _, _, err := controlledItem(ctx, tx, p, id, false); err != nil {
			return nil, err
		}
		pending, err := db.InvestmentQueue.Locked(ctx, tx, id, investmentID)
		notFound := model.Fail(model.CodeInvestmentNotFound, "Item %s has no investment %s.", id, investmentID)
		gone := func(ch *model.SandboxInvestmentChange) bool {
			return ch.Operation == opRemove || ch.TransactionID != nil
		}
		return latestChange(pending, err, gone, notFound, func() (*model.SandboxInvestmentChange, error) {
			found, err := tx.ItemHasInvestment(ctx, id, investmentID)
			if err != nil || !found {
				return nil, err
			}
			return &model.SandboxInvestmentChange{InvestmentID: investmentID, ItemID: id, Operation: opChange}, nil
		})
	}
}

// InvestmentChanges lists a sandbox item's investment and investment transaction changes,
// oldest first, each with when it was asked for and when an execution collected it.
func (e *Engine) InvestmentChanges(ctx context.Context, id uuid.UUID) ([]model.SandboxInvestmentChange, error) {
	return listChanges(e, ctx, invQueue, id)
}
