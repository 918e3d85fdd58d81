package model

import (
	"time"

	"github.com/google/uuid"
)

// Reads of collected data return pages that own their stored documents: REST writes the
// documents as they are, and GraphQL writes the selected fields of each from them
// (graph/project.go), decoding a document only when a field computed by a resolver needs
// the struct.

// DocumentPage is a page-number envelope of stored documents.
type DocumentPage struct {
	Total      int `json:"total"`
	TotalPages int `json:"totalPages"`
	Page       int `json:"page"`
	// Documents are the results as stored, in order.
	Documents []JSONDocument `json:"-"`
}

// Envelope is the page's envelope and documents, whatever the type of its results.
func (p *DocumentPage) Envelope() *DocumentPage { return p }

// NewDocumentPage is page pg of limit documents out of total.
func NewDocumentPage(docs []JSONDocument, total, pg, limit int) DocumentPage {
	if docs == nil {
		docs = []JSONDocument{}
	}
	return DocumentPage{Total: total, TotalPages: TotalPages(total, limit), Page: pg, Documents: docs}
}

// Stored carries the document a resource was decoded from, for the GraphQL field
// storedDocument and for REST, which sends it as stored.
type Stored struct {
	StoredDocument JSONDocument `json:"-"`
}

// Keep records the document the value was decoded from.
func (s *Stored) Keep(doc JSONDocument) { s.StoredDocument = doc }

// Raw is the document the value was decoded from.
func (s *Stored) Raw() JSONDocument { return s.StoredDocument }

// The page-number envelopes of the product lists. Results are decoded from the documents
// when a GraphQL selection needs them.

// InvestmentPage is a page of GET /investments.
type InvestmentPage struct {
	DocumentPage
	Results []*Investment `json:"results"`
}

// InvestmentTransactionPage is a page of GET /investments/{id}/transactions.
type InvestmentTransactionPage struct {
	DocumentPage
	Results []*InvestmentTransaction `json:"results"`
}

// LoanPage is a page of GET /loans.
type LoanPage struct {
	DocumentPage
	Results []*Loan `json:"results"`
}

// CreditCardBillPage is a page of GET /bills.
type CreditCardBillPage struct {
	DocumentPage
	Results []*CreditCardBill `json:"results"`
}

// AccountStatementPage is a page of GET /accounts/{id}/statements.
type AccountStatementPage struct {
	DocumentPage
	Results []*AccountStatement `json:"results"`
}

// ConsentPage is a page of GET /consents.
type ConsentPage struct {
	DocumentPage
	Results []*Consent `json:"results"`
}

// TransactionPage is a page of the deprecated GET /transactions.
type TransactionPage struct {
	DocumentPage
	Results []*Transaction `json:"results"`
}

// TransactionKey is a position in the (date, id) order of an account's transactions.
type TransactionKey struct {
	Date time.Time
	ID   uuid.UUID
}

// DocumentScope selects product documents of one kind: by item, by owner, or one by id.
type DocumentScope struct {
	Kind    string
	ItemID  *uuid.UUID
	OwnerID *uuid.UUID
	ID      *uuid.UUID
	// Type filters on the document's "type" field, when set.
	Type *string
}
