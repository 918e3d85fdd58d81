// Package ledger is the one record of money the service moves: a double-entry ledger in
// PostgreSQL, after the design Modern Treasury and TigerBeetle describe. Every movement is
// one debit and one credit of the same integer number of centavos, written once under a
// reference that makes a retried step post nothing twice; entries are never changed or
// removed (the table refuses it); a balance is the sum of an account's entries, never a
// counter kept beside them. A smart account is the one kind of account that holds money
// for someone and so may not go below zero: a movement out of it locks the account's row,
// sums its entries and is refused when they do not cover it. The other accounts stand for
// the world outside (payers' and payees' banks, a boleto's issuer, fees) and carry
// whatever has crossed the service's edge.
//
// A refund first holds its amount (out of the account that was credited, into Refunds)
// and then either releases it to whoever paid or returns it: so a smart account's refund
// needs its balance when it is asked, and money on its way back cannot be spent meanwhile.
package ledger

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// The accounts outside the service.
const (
	// Payers is where money paid in comes from: the payers' banks.
	Payers = "payers"
	// Payees is where money paid out goes: the recipients' banks.
	Payees = "payees"
	// Refunds holds a refund's amount between its request and the institution's answer.
	Refunds = "refunds"
	// Fees is what the service charged for payments.
	Fees = "fees"
)

// SmartAccount is a smart account's ledger account.
func SmartAccount(id uuid.UUID) string { return id.String() }

// Boleto is the account of the issuer of a boleto, named by its digitable line's digits:
// what paid that boleto, whichever request did it.
func Boleto(line string) string { return "boleto:" + line }

// Client is an application's account with the service, debited for its fees.
func Client(id uuid.UUID) string { return "client:" + id.String() }

// Kinds of movement, as entries record them.
const (
	KindPayment       = "payment"
	KindPaymentReturn = "payment_return"
	KindRefundHold    = "refund_hold"
	KindRefundRelease = "refund_release"
	KindRefundReturn  = "refund_return"
	KindFee           = "fee"
)

// Movement is one transfer of money between two accounts.
type Movement struct {
	From, To string
	// Cents is the amount in centavos; always positive.
	Cents     int64
	Kind      string
	Reference string
	At        time.Time
}

// ErrPosted is a movement whose reference was posted before: it changed nothing.
var ErrPosted = db.ErrPosted

// Move posts m in tx. A movement out of a smart account locks the account and needs its
// balance to cover it (INSUFFICIENT_SMART_ACCOUNT_BALANCE otherwise, naming both figures).
// A reference posted before is ErrPosted and writes nothing: callers that retry a step
// treat it as done.
func Move(ctx context.Context, tx *db.Tx, m Movement) error {
	if m.Cents <= 0 || m.From == m.To || m.Reference == "" {
		return fmt.Errorf("ledger: movement %q of %d centavos from %q to %q is not a movement", m.Reference, m.Cents, m.From, m.To)
	}
	if id, err := uuid.Parse(m.From); err == nil {
		if found, err := tx.LockSmartAccount(ctx, uuid.Nil, id); err != nil {
			return err
		} else if !found {
			return fmt.Errorf("ledger: no smart account %s", id)
		}
		if posted, err := tx.Posted(ctx, m.Reference); err != nil || posted {
			if err == nil {
				err = ErrPosted
			}
			return err
		}
		have, _, err := tx.Balance(ctx, m.From)
		if err != nil {
			return err
		}
		if have < m.Cents {
			return model.Fail(model.CodeInsufficientSmartAccountBalance, "Smart account %s holds %s; this needs %s.", id, Reais(have), Reais(m.Cents))
		}
	}
	return tx.Post(ctx, m.From, m.To, m.Cents, m.Kind, m.Reference, m.At)
}

// MoveOnce is Move for a step that may run again: a movement posted already is success.
func MoveOnce(ctx context.Context, tx *db.Tx, m Movement) error {
	if err := Move(ctx, tx, m); err != nil && !errors.Is(err, ErrPosted) {
		return err
	}
	return nil
}

// Reais writes centavos as reais with two decimals, as messages show money.
func Reais(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return fmt.Sprintf("%s%d.%02d", sign, cents/100, cents%100)
}
