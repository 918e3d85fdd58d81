// Package statements reads the statement files banks let their customers export (OFX and
// CSV) into one shape: the accounts a file covers, their balances, and their lines. It
// knows nothing of items or the database; the statement-file institution turns what it
// reads into accounts and transactions.
package statements

import (
	"fmt"
	"time"

	"ponte/model"
)

// MaxFileBytes is the largest statement file read: the largest an item takes.
const MaxFileBytes = model.MaxStatementFileBytes

// File is everything one statement file says.
type File struct {
	Statements []Statement
}

// Statement is one account's part of a file.
type Statement struct {
	Account Account
	// Currency is the ISO 4217 code (BRL when the file names none).
	Currency string
	// Start and End bound the period the file covers, when it says so.
	Start, End *time.Time
	// Balance is the ledger balance at its date; Available the available one. Nil when
	// the file has none.
	Balance, Available *Balance
	Lines              []Line
}

// AccountKind says whether a statement is of a bank account or of a credit card.
type AccountKind string

const (
	KindBank       AccountKind = "BANK"
	KindCreditCard AccountKind = "CREDIT_CARD"
)

// Account identifies the account a statement is of, as the file names it.
type Account struct {
	Kind AccountKind
	// BankID is the institution's code as the file gives it (COMPE or ISPB), or "".
	BankID string
	Branch string
	// Number is the account or card number as written in the file.
	Number string
	// Type is the OFX ACCTTYPE (CHECKING, SAVINGS, MONEYMRKT, CREDITLINE) or "" for cards
	// and CSV files.
	Type string
}

// Balance is an amount at a date.
type Balance struct {
	Amount int64 // centavos
	Date   time.Time
}

// Line is one transaction of a statement.
type Line struct {
	// FITID is the institution's id of the transaction, "" when the file has none.
	FITID string
	// Date is the posting date, in the zone the file gives (São Paulo when none).
	Date time.Time
	// Amount is in centavos, signed as the file signs it: credits positive, debits
	// negative (on a card statement, purchases negative, payments positive).
	Amount int64
	// Description is the line's text: OFX NAME and MEMO joined, or the CSV column.
	Description string
	// Type is the OFX TRNTYPE (DEBIT, CREDIT, PAYMENT, XFER, …) or "".
	Type string
	// CheckNum and RefNum are the document numbers the file gives, or "".
	CheckNum, RefNum string
}

// Error is a file this package refuses: what is wrong, and the line (1-based) it stopped
// at, 0 when the fault is the file as a whole (its size, its encoding).
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

func fail(line int, format string, args ...any) *Error {
	return &Error{Line: line, Msg: fmt.Sprintf(format, args...)}
}
