package itemsync

import (
	"context"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// Sandbox control of one investment's transactions (see control_investments.go).

// AddInvestmentTransactions records transactions to add to an investment of a sandbox
// item: a collected one, or one added and not removed.
func (e *Engine) AddInvestmentTransactions(ctx context.Context, id, investmentID uuid.UUID, in []model.SandboxInvestmentTransactionInput) ([]model.SandboxInvestmentChange, error) {
	build := func(i int, t model.SandboxInvestmentTransactionInput) (model.SandboxInvestmentChange, error) {
		return addedInvestmentTransaction(id, investmentID, i, t)
	}
	admit := func(ctx context.Context, tx *db.Tx, p *auth.Principal) error {
		if _, err := controlledInvestment(id, investmentID)(ctx, tx, p); err != nil {
			return err
		}
		return collectingItem(id, model.ProductInvestmentsTransactions)(ctx, tx, p)
	}
	return addChanges(e, ctx, invTxQueue, id, in, build, admit, nil)
}

// addedInvestmentTransaction checks one transaction to add and gives it its id.
func addedInvestmentTransaction(itemID, investmentID uuid.UUID, i int, t model.SandboxInvestmentTransactionInput) (model.SandboxInvestmentChange, error) {
	fail := func(field, format string, args ...any) (model.SandboxInvestmentChange, error) {
		return model.SandboxInvestmentChange{}, model.Fail(model.CodeInvalidParameter, "transactions[%d].%s: "+format, append([]any{i, field}, args...)...)
	}
	implied, ok := investmentTxTypes[t.Type]
	if !ok {
		return fail("type", "BUY, SELL, TAX or TRANSFER.")
	}
	mov := implied
	if t.MovementType != nil {
		if *t.MovementType != "CREDIT" && *t.MovementType != "DEBIT" {
			return fail("movementType", "CREDIT or DEBIT.")
		}
		mov = *t.MovementType
	}
	if mov == "" {
		return fail("movementType", "required for TRANSFER (CREDIT or DEBIT).")
	}
	if t.Date.IsZero() {
		return fail("date", "required.")
	}
	if err := checkTxAmount(t.Amount); err != nil {
		return fail("amount", "%s", err.Error())
	}
	for _, f := range []struct {
		name string
		v    *float64
	}{{"quantity", t.Quantity}, {"value", t.Value}} {
		if f.v != nil {
			if err := checkMeasure(*f.v); err != nil {
				return fail(f.name, "%s", err.Error())
			}
		}
	}
	if t.Description != nil {
		if err := checkText(*t.Description, false); err != nil {
			return fail("description", "%s", err.Error())
		}
	}
	txID, typ, date, amount := model.NewID(), t.Type, t.Date, t.Amount
	return model.SandboxInvestmentChange{InvestmentID: investmentID, TransactionID: &txID, ItemID: itemID, Operation: opAdd, Type: &typ,
		MovementType: &mov, Date: &date, Amount: &amount, Quantity: t.Quantity, Value: t.Value, Description: t.Description}, nil
}

// checkTxAmount takes an investment transaction's amount: more than zero, whole centavos.
func checkTxAmount(a float64) error {
	if err := checkBillAmount(a); err != nil {
		return err
	}
	if a == 0 {
		return amountError("more than zero.")
	}
	return nil
}

// ChangeInvestmentTransaction records a change to a transaction of an investment of a
// sandbox item.
func (e *Engine) ChangeInvestmentTransaction(ctx context.Context, id, investmentID, transactionID uuid.UUID, in model.SandboxInvestmentTransactionPatch) (*model.SandboxInvestmentChange, error) {
	check := func() error {
		if in.Description == nil && in.Amount == nil && in.Date == nil {
			return model.Fail(model.CodeInvalidParameter, "Give description, amount or date to change.")
		}
		description := func(s string) error { return checkText(s, false) }
		if err := checkGiven("description", in.Description, description); err != nil {
			return err
		}
		if err := checkGiven("amount", in.Amount, checkTxAmount); err != nil {
			return err
		}
		if in.Date != nil && in.Date.IsZero() {
			return model.Fail(model.CodeInvalidParameter, "date: a date-time.")
		}
		return nil
	}
	control := controlledInvestmentTransaction(id, investmentID, transactionID)
	return updateChange(e, ctx, invTxQueue, id, check, control, func(ch *model.SandboxInvestmentChange) error {
		overlay(&ch.Description, in.Description)
		overlay(&ch.Amount, in.Amount)
		overlay(&ch.Date, in.Date)
		return nil
	})
}

// RemoveInvestmentTransaction records that a transaction of an investment is gone.
func (e *Engine) RemoveInvestmentTransaction(ctx context.Context, id, investmentID, transactionID uuid.UUID) (*model.SandboxInvestmentChange, error) {
	control := controlledInvestmentTransaction(id, investmentID, transactionID)
	return removeChange(e, ctx, invTxQueue, id, control, func(*model.SandboxInvestmentChange) *model.SandboxInvestmentChange {
		tid := transactionID
		return &model.SandboxInvestmentChange{InvestmentID: investmentID, TransactionID: &tid, ItemID: id, Operation: opRemove}
	})
}

// controlledInvestmentTransaction finds the change row to build on for a transaction of an
// investment of the caller's sandbox item. The investment must be there (404
// INVESTMENT_NOT_FOUND); a transaction it does not have, or one removed, is 404
// INVESTMENT_TRANSACTION_NOT_FOUND.
func controlledInvestmentTransaction(id, investmentID, transactionID uuid.UUID) func(context.Context, *db.Tx, *auth.Principal) (*model.SandboxInvestmentChange, error) {
	return func(ctx context.Context, tx *db.Tx, p *auth.Principal) (*model.SandboxInvestmentChange, error) {
		if _, err := controlledInvestment(id, investmentID)(ctx, tx, p); err != nil {
			return nil, err
		}
		notFound := model.Fail(model.CodeInvestmentTransactionNotFound, "Investment %s of item %s has no transaction %s.", investmentID, id, transactionID)
		pending, err := db.InvestmentQueue.Locked(ctx, tx, id, transactionID)
		gone := func(ch *model.SandboxInvestmentChange) bool {
			return ch.Operation == opRemove || ch.TransactionID == nil || ch.InvestmentID != investmentID
		}
		return latestChange(pending, err, gone, notFound, func() (*model.SandboxInvestmentChange, error) {
			inv, found, err := tx.ItemInvestmentTransaction(ctx, id, transactionID)
			if err != nil || !found || inv != investmentID {
				return nil, err
			}
			tid := transactionID
			return &model.SandboxInvestmentChange{InvestmentID: investmentID, TransactionID: &tid, ItemID: id, Operation: opChange}, nil
		})
	}
}
