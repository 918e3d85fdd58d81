package itemsync

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// Institution is what an item's connector reaches: a bank's site, an Open Finance
// transmitter, the statement files its user uploads, or the simulated banks of the
// sandbox. The engine keeps everything else (the execution's states and their events, the
// item's rules, what is stored and when): an institution only answers. cmd/ponte wires the
// institutions in; each connector names the one it belongs to (model.Connector.Provider).
type Institution interface {
	// Connectors is the institution's part of the connector catalogue, each entry naming
	// this institution as its provider.
	Connectors(publicURL string) []model.Connector
	// Login opens a session with the item's credentials and says what comes next.
	Login(ctx context.Context, s *Session) (Step, error)
	// Answer gives the user's reply to the MFA parameter or action the last step asked
	// for, and says what comes next.
	Answer(ctx context.Context, s *Session, reply map[string]string) (Step, error)
	// Collect delivers product p, calling page with each part as it is read. An error that
	// is a *Failure ends the execution with its code; any other error is the service's own
	// and the execution is retried. A page and its slices are the engine's once page
	// returns: the engine may keep and change them without copying, so the institution
	// must not reuse them (a later page is a new one) nor read them again.
	Collect(ctx context.Context, s *Session, p model.Product, page func(*Page) error) (Outcome, error)
}

// FileTaker is an institution whose data arrives as files the user uploads (bank
// statements). Check reads a file before it is accepted, so a file the institution cannot
// read is refused with the reason (a *Failure) and changes nothing; the execution the
// upload starts gives the same bytes to Collect in Session.Upload.
type FileTaker interface {
	Check(ctx context.Context, s *Session, file []byte) error
}

// Session is one execution's view of its item, for its institution.
type Session struct {
	ItemID      uuid.UUID
	ExecutionID uuid.UUID
	// ClientID is the item's client application, for institutions that keep what an
	// application registered with them.
	ClientID uuid.UUID
	// Execution counts the item's executions from 1.
	Execution int
	Connector *model.Connector
	// Params are the item's credentials, opened.
	Params map[string]string
	// Products are the products the item asks for.
	Products []model.Product
	// Settings is what the application configured for this connector (a statement file
	// mapping), or nil.
	Settings []byte
	// Upload is the file whose upload started this execution, or nil.
	Upload []byte
	Now    time.Time
	// BaseURL is this service's public URL, for pages standing in for an institution.
	BaseURL string
	// TransactionChanges are the transactions sandbox control added, changed or removed
	// (control_data.go), for the institution to lay on what it delivers; filled for
	// connectors whose isSandbox is true, empty for the others.
	TransactionChanges []model.SandboxTransactionChange
	// BillChanges are the bills sandbox control added, changed or removed
	// (control_bills.go), likewise.
	BillChanges []model.SandboxBillChange
	// InvestmentChanges are the investments and investment transactions sandbox control
	// added, changed or removed (control_investments.go), likewise.
	InvestmentChanges []model.SandboxInvestmentChange
	// Since, when set, is the start of the window the institution may limit the
	// transactions it delivers to: what changed since the item's last read, less
	// IncrementalOverlap. Nil asks for the whole history (the item's first read, a read
	// too long ago, changed credentials or products, or an update that asked for it).
	Since *time.Time
	// State is the institution's own, kept between the calls of one run of the execution
	// (not across a restart, after which Login is not called again).
	State any
}

// Step is what comes after Login or Answer: nothing (collect now), an error, a parameter
// the user must fill in (MFA), or an action the user must take elsewhere.
type Step struct {
	Error  *model.ExecutionError
	MFA    *model.CredentialParameter
	Action *model.UserAction
	// ActionTimeout is the execution's end when the action is never taken
	// (USER_INPUT_TIMEOUT when empty).
	ActionTimeout model.ExecutionStatus
}

// Page is part of one product's data.
type Page struct {
	Accounts               []model.Account
	Transactions           []model.Transaction // AccountID set
	Investments            []model.Investment
	InvestmentTransactions []model.InvestmentTransaction // InvestmentID set
	Identity               *model.Identity
	Loans                  []model.Loan
	CreditInfo             *model.CreditInformation
	Bills                  []model.CreditCardBill   // AccountID set
	Statements             []model.AccountStatement // AccountID set
	// Resources and Consent describe an Open Finance consent and what it covers.
	Resources []model.ItemResource
	Consent   map[string]any
}

// Outcome is how collecting one product went.
type Outcome struct {
	// Unavailable: the institution could not deliver the product (PARTIAL_SUCCESS).
	Unavailable bool
	Warnings    []model.ProductWarning
	// Adds: what was delivered adds to what is stored, and nothing absent from it is
	// removed. Statement files cover a period each; a bank's site shows its whole present.
	Adds bool
	// Since is set when the transactions delivered are only those dated at or after it on
	// the accounts delivered (the institution honoured Session.Since): a stored row in
	// that window and absent is deleted, older ones are kept.
	Since *time.Time
}

// Failure ends an execution with an institution's error.
type Failure struct{ model.ExecutionError }

func (f *Failure) Error() string { return string(f.Code) + ": " + f.Message }

// Fail is a Failure with code and message.
func Fail(code model.ExecutionStatus, msg string) *Failure {
	return &Failure{model.ExecutionError{Code: code, Message: msg}}
}

// institution is the provider behind connector c.
func (e *Engine) institution(c *model.Connector) (Institution, error) {
	inst, ok := e.cfg.Institutions[c.Provider]
	if !ok {
		return nil, fmt.Errorf("connector %d names institution provider %q, which this service does not run", c.ID, c.Provider)
	}
	return inst, nil
}
