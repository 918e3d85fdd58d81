package payments

// The payer's institution and the PIX directory are outside this package: the engine keeps
// the state machine, the ledger, the jobs and the events, and asks the institution only
// what a bank answers (does it take the attempt, does its app let the payer through, what
// becomes of each settlement step, which account paid, does it give a refund back). The
// sandbox answers for the simulated institutions; a real one answers for its bank.

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// Institution is the payer's institution: where a payment is initiated and followed. Every
// answer is about the one attempt it is given; the engine decides what the answer moves,
// so an institution cannot take a payment anywhere the transition tables do not allow.
type Institution interface {
	// Open is the attempt reaching the institution, before the payer is asked (and, for a
	// smart transfer pre-authorization, when the payer approves it): nil to go on, or why
	// the institution refuses it.
	Open(ctx context.Context, a Attempt) (*model.PaymentErrorDetail, error)
	// Authorize is the payer's authorization on the consent page reaching the institution's
	// app: nil to go on, or why the payer or the app refused it there.
	Authorize(ctx context.Context, a Attempt) (*model.PaymentErrorDetail, error)
	// Settle is one settlement step of an authorized payment, from a.Status
	// (PAYMENT_PENDING, PAYMENT_SETTLEMENT_PROCESSING, PAYMENT_SETTLEMENT_DEBTOR_ACCOUNT).
	Settle(ctx context.Context, a Attempt) (Answer, error)
	// Debtor is the account the payment was debited from, reported once it settles.
	Debtor(ctx context.Context, a Attempt) (*model.PaymentDebtor, error)
	// Refund is the institution's answer to giving back part or all of a paid request: nil
	// when it is given back, or why it refused.
	Refund(ctx context.Context, r Refund) (*model.PaymentErrorDetail, error)
}

// Directory resolves a PIX key to the account it names: the Central Bank's DICT.
type Directory interface {
	ResolvePixKey(ctx context.Context, key PixKey) (*PixKeyOwner, error)
}

// Attempt is what the payer's institution is told about a payment.
type Attempt struct {
	// ID is the payment intent, or the smart transfer payment.
	ID          uuid.UUID
	ConnectorID int
	Payer       Payer
	// Signatures counts the authorizations the payer's side has given so far.
	Signatures int
	// Amount is in centavos.
	Amount int64
	// Recipient is the recipient as the payer consented to it (nil for a payment whose
	// recipient was not frozen, such as a pasted PIX code).
	Recipient *model.PaymentRecipient
	// Status is the step the payment is at.
	Status string
	// Preauthorized says the payer authorized this payment in advance (a smart transfer, a
	// dated or recurring payment): the institution asks nobody anything more.
	Preauthorized bool
}

// Payer is who the payer said they are.
type Payer struct {
	CPF  string
	CNPJ *string
	Name *string
}

// Outcome is what a settlement step comes to.
type Outcome int

const (
	// Proceed takes the payment on to its next settlement step (or to COMPLETED from the
	// last).
	Proceed Outcome = iota
	// AwaitSignature holds the payment for another signer (PAYMENT_PARTIALLY_ACCEPTED);
	// only a payment that is not pre-authorized, at PAYMENT_PENDING, may be held.
	AwaitSignature
	// Reject ends the payment as PAYMENT_REJECTED with Answer.Error.
	Reject
)

func (o Outcome) String() string {
	switch o {
	case Proceed:
		return "proceed"
	case AwaitSignature:
		return "await signature"
	case Reject:
		return "reject"
	}
	return fmt.Sprintf("outcome %d", int(o))
}

// Answer is the institution's answer to a settlement step.
type Answer struct {
	Outcome Outcome
	// Error says why, for Reject, in the model's payment error codes.
	Error *model.PaymentErrorDetail
}

// Refund is a refund the institution is asked to give back.
type Refund struct {
	RequestID, RefundID uuid.UUID
	// Amount is in centavos.
	Amount int64
}

// PixKey is a well-formed PIX key and its kind (CPF, CNPJ, EMAIL, PHONE, EVP).
type PixKey struct {
	Key, Kind string
}

// PixKeyOwner is the account a PIX key names.
type PixKeyOwner struct {
	Name, TaxNumber string
	Institution     *model.PaymentInstitution
	Account         model.PaymentRecipientAccount
}

// attempt is what the institution is told about an intent.
func attempt(p *db.PaymentRequestRow, n *db.PaymentIntentRow) Attempt {
	a := Attempt{ID: n.ID, ConnectorID: n.ConnectorID, Payer: Payer{CPF: n.Payer.Cpf, CNPJ: n.Payer.Cnpj, Name: n.Payer.Name},
		Signatures: n.Payer.Signatures, Amount: cents(p.Amount), Status: n.Status}
	if n.Terms != nil {
		a.Amount, a.Recipient = cents(n.Terms.Amount), n.Terms.Recipient
	}
	return a
}

// settle asks the institution for one settlement step and checks the answer is one the
// step can take: an answer outside them is the institution's fault, and the job retries.
func (e *Engine) settle(ctx context.Context, a Attempt) (Answer, error) {
	ans, err := e.cfg.Institution.Settle(ctx, a)
	if err != nil {
		return ans, err
	}
	switch ans.Outcome {
	case Proceed:
	case AwaitSignature:
		if a.Preauthorized || a.Status != PaymentPending {
			return ans, fmt.Errorf("payer institution: %s at %s of a payment that is %s", ans.Outcome, a.Status, preauthorized(a))
		}
	case Reject:
		if ans.Error == nil {
			return ans, fmt.Errorf("payer institution: rejected %s at %s without saying why", a.ID, a.Status)
		}
	default:
		return ans, fmt.Errorf("payer institution: %s at %s", ans.Outcome, a.Status)
	}
	return ans, nil
}

func preauthorized(a Attempt) string {
	if a.Preauthorized {
		return "pre-authorized"
	}
	return "not pre-authorized"
}

// settleAtOnce runs a pre-authorized payment through every settlement step in one go (a
// dated or recurring payment on its date): nil when it settles, or why the institution
// rejected it.
func (e *Engine) settleAtOnce(ctx context.Context, a Attempt) (*model.PaymentErrorDetail, error) {
	a.Preauthorized = true
	for _, step := range []string{PaymentPending, SettlementProcessing, SettlementDebtorAccount} {
		a.Status = step
		ans, err := e.settle(ctx, a)
		if err != nil {
			return nil, err
		}
		if ans.Outcome == Reject {
			return ans.Error, nil
		}
	}
	return nil, nil
}
