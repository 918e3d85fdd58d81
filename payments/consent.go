package payments

import (
	"context"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/model"
)

// What a payer consents to is frozen when they start paying: the request's amount and
// schedule cannot change once an attempt is under way (only a CREATED request changes),
// and its recipient, a record the application may edit at any time, is copied into the
// request and into the attempt. From then on the consent page, the PIX code, the answers
// and the payment all use the copy. A request held by a bulk payment waiting for approval
// is frozen the same way, and cannot change at all until the bulk payment ends.

// recipientReader is the pool or a transaction: a copy taken inside a transaction reads
// there, on the connection that holds the request's lock.
type recipientReader interface {
	PaymentRecipient(ctx context.Context, clientID, id uuid.UUID, withDeleted bool) (*model.PaymentRecipient, bool, error)
}

// partyReader is what a request's rules read about the application's parties and prices:
// the pool, or the transaction that holds the request's lock (a read on the pool from
// there can wait for a connection that requests queued on the same lock hold).
type partyReader interface {
	recipientReader
	DefaultPaymentRecipient(ctx context.Context, clientID uuid.UUID) (*model.PaymentRecipient, bool, error)
	PaymentCustomer(ctx context.Context, clientID, id uuid.UUID, withDeleted bool) (*model.PaymentCustomer, bool, error)
	ClientPaymentPricing(ctx context.Context, clientID uuid.UUID) (map[string]db.PaymentPrice, error)
}

// recipientNow is a copy of the request's recipient record as it is now; nil for a request
// paid to a PIX code, a boleto or a smart account.
func recipientNow(ctx context.Context, q recipientReader, p *db.PaymentRequestRow) (*model.PaymentRecipient, error) {
	if p.RecipientID == nil {
		return nil, nil
	}
	r, _, err := q.PaymentRecipient(ctx, p.ClientID, *p.RecipientID, true)
	return r, err
}

// freezeTerms copies what the payer is about to consent to into the request and the
// attempt.
func (e *Engine) freezeTerms(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow, n *db.PaymentIntentRow) error {
	r, err := recipientNow(ctx, tx, p)
	if err != nil {
		return err
	}
	p.ConsentedRecipient = r
	n.Terms = &db.ConsentedTerms{Amount: p.Amount, Recipient: r, Schedule: p.Schedule}
	return nil
}

// payee is the recipient a request pays: the consented copy once there is one.
func (e *Engine) payee(ctx context.Context, p *db.PaymentRequestRow) (*model.PaymentRecipient, error) {
	if p.ConsentedRecipient != nil {
		return p.ConsentedRecipient, nil
	}
	return recipientNow(ctx, e.db, p)
}
