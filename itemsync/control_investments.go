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
	p, err := caller(ctx, auth.ControlSandbox, id)
	if err != nil {
		return nil, err
	}
	if len(in) == 0 || len(in) > maxAddedInvestments {
		return nil, model.Fail(model.CodeInvalidParameter, "investments: give 1 to %d investments (got %d).", maxAddedInvestments, len(in))
	}
	out := make([]model.SandboxInvestmentChange, 0, len(in))
	for i, v := range in {
		ch, err := addedInvestment(id, i, v)
		if err != nil {
			return nil, err
		}
		out = append(out, ch)
	}
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		it, _, err := controlledItem(ctx, tx, p, id, false)
		if err != nil {
			return err
		}
		if err := collects(it, model.ProductInvestments); err != nil {
			return err
		}
		for i := range out {
			if err := tx.SaveSandboxInvestmentChange(ctx, &out[i]); err != nil {
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
	p, err := caller(ctx, auth.ControlSandbox, id)
	if err != nil {
		return nil, err
	}
	if in.Name == nil && in.Balance == nil && in.Quantity == nil && in.Value == nil {
		return nil, model.Fail(model.CodeInvalidParameter, "Give name, balance, quantity or value to change.")
	}
	if in.Name != nil {
		if err := checkText(*in.Name, true); err != nil {
			return nil, model.Fail(model.CodeInvalidParameter, "name: %s", err.Error())
		}
	}
	if in.Balance != nil {
		if err := checkBillAmount(*in.Balance); err != nil {
			return nil, model.Fail(model.CodeInvalidParameter, "balance: %s", err.Error())
		}
	}
	for _, f := range []struct {
		name string
		v    *float64
	}{{"quantity", in.Quantity}, {"value", in.Value}} {
		if f.v != nil {
			if err := checkMeasure(*f.v); err != nil {
				return nil, model.Fail(model.CodeInvalidParameter, "%s: %s", f.name, err.Error())
			}
		}
	}
	var out *model.SandboxInvestmentChange
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		ch, err := controlledInvestment(ctx, tx, p, id, investmentID)
		if err != nil {
			return err
		}
		if in.Name != nil {
			ch.Name = in.Name
		}
		if in.Balance != nil {
			ch.Balance = in.Balance
		}
		if in.Quantity != nil {
			ch.Quantity = in.Quantity
		}
		if in.Value != nil {
			ch.Value = in.Value
		}
		out = ch
		return tx.SaveSandboxInvestmentChange(ctx, ch)
	})
	return out, err
}

// RemoveInvestment records that an investment of a sandbox item is gone, with its
// transactions.
func (e *Engine) RemoveInvestment(ctx context.Context, id, investmentID uuid.UUID) (*model.SandboxInvestmentChange, error) {
	p, err := caller(ctx, auth.ControlSandbox, id)
	if err != nil {
		return nil, err
	}
	var out *model.SandboxInvestmentChange
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := controlledInvestment(ctx, tx, p, id, investmentID); err != nil {
			return err
		}
		out = &model.SandboxInvestmentChange{InvestmentID: investmentID, ItemID: id, Operation: opRemove}
		return tx.SaveSandboxInvestmentChange(ctx, out)
	})
	return out, err
}

// controlledInvestment is the change row to build on for an investment of the caller's
// sandbox item: the pending one, or a new CHANGE of a collected investment. One the item
// does not have, or one removed, is 404.
func controlledInvestment(ctx context.Context, tx *db.Tx, p *auth.Principal, id, investmentID uuid.UUID) (*model.SandboxInvestmentChange, error) {
	if _, _, err := controlledItem(ctx, tx, p, id, false); err != nil {
		return nil, err
	}
	ch, err := tx.SandboxInvestmentChange(ctx, id, investmentID)
	if err != nil {
		return nil, err
	}
	notFound := model.Fail(model.CodeInvestmentNotFound, "Item %s has no investment %s.", id, investmentID)
	if ch != nil {
		if ch.Operation == opRemove || ch.TransactionID != nil {
			return nil, notFound
		}
		return ch, nil
	}
	found, err := tx.ItemHasInvestment(ctx, id, investmentID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, notFound
	}
	return &model.SandboxInvestmentChange{InvestmentID: investmentID, ItemID: id, Operation: opChange}, nil
}

// InvestmentChanges lists a sandbox item's investment and investment transaction changes,
// oldest first, each with when it was asked for and when an execution collected it.
func (e *Engine) InvestmentChanges(ctx context.Context, id uuid.UUID) ([]model.SandboxInvestmentChange, error) {
	p, err := caller(ctx, auth.ControlSandbox, id)
	if err != nil {
		return nil, err
	}
	var out []model.SandboxInvestmentChange
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, _, err := controlledItem(ctx, tx, p, id, false); err != nil {
			return err
		}
		out, err = tx.SandboxInvestmentChanges(ctx, id)
		return err
	})
	if out == nil && err == nil {
		out = []model.SandboxInvestmentChange{}
	}
	return out, err
}
