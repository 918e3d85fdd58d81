package model

import (
	"fmt"
	"io"

	"github.com/google/uuid"
)

// Relay-style connections of the GraphQL surface. Edges are built only when a query selects
// them, so a page of nodes costs no cursor per row.

// PageInfo tells where a connection's page ends.
type PageInfo struct {
	HasNextPage bool    `json:"hasNextPage"`
	EndCursor   *string `json:"endCursor"`
}

// ItemConnection is a page of Item nodes.
type ItemConnection struct {
	TotalCount int         `json:"totalCount"`
	PageInfo   PageInfo    `json:"pageInfo"`
	Edges      []*ItemEdge `json:"edges"`
	Nodes      []*Item     `json:"nodes"`
}

// ItemEdge is one node of a ItemConnection with its cursor.
type ItemEdge struct {
	Cursor string `json:"cursor"`
	Node   *Item  `json:"node"`
}

// AccountConnection is a page of Account nodes.
type AccountConnection struct {
	TotalCount int            `json:"totalCount"`
	PageInfo   PageInfo       `json:"pageInfo"`
	Edges      []*AccountEdge `json:"edges"`
	Nodes      []*Account     `json:"nodes"`
}

// AccountEdge is one node of a AccountConnection with its cursor.
type AccountEdge struct {
	Cursor string   `json:"cursor"`
	Node   *Account `json:"node"`
}

// TransactionConnection is a page of one account's transactions: the rows as stored, and
// where each sits in the list's order. GraphQL writes Nodes and each edge's node from
// Documents without decoding them (graph/project.go), and signs a cursor only for a query
// that reads one; REST sends Documents as they are. Go code reads Documents: Nodes stays
// empty, and PageInfo.EndCursor and Edges are the field resolvers' to fill.
type TransactionConnection struct {
	// Documents are the page's rows as complete documents.
	Documents []JSONDocument     `json:"documents"`
	PageInfo  PageInfo           `json:"pageInfo"`
	Edges     []*TransactionEdge `json:"edges"`
	Nodes     []*Transaction     `json:"nodes"`
	// Keys are the rows' places in the list, and Filter the list's filters (its account
	// included): what the cursors are signed from.
	Keys   []TransactionKey  `json:"-"`
	Filter TransactionFilter `json:"-"`
}

// TransactionEdge is one node of a TransactionConnection with its cursor.
type TransactionEdge struct {
	Cursor string       `json:"cursor"`
	Node   *Transaction `json:"node"`
}

// InvestmentConnection is a page of Investment nodes.
type InvestmentConnection struct {
	TotalCount int               `json:"totalCount"`
	PageInfo   PageInfo          `json:"pageInfo"`
	Edges      []*InvestmentEdge `json:"edges"`
	Nodes      []*Investment     `json:"nodes"`
}

// InvestmentEdge is one node of a InvestmentConnection with its cursor.
type InvestmentEdge struct {
	Cursor string      `json:"cursor"`
	Node   *Investment `json:"node"`
}

// InvestmentTransactionConnection is a page of InvestmentTransaction nodes.
type InvestmentTransactionConnection struct {
	TotalCount int                          `json:"totalCount"`
	PageInfo   PageInfo                     `json:"pageInfo"`
	Edges      []*InvestmentTransactionEdge `json:"edges"`
	Nodes      []*InvestmentTransaction     `json:"nodes"`
}

// InvestmentTransactionEdge is one node of a InvestmentTransactionConnection with its cursor.
type InvestmentTransactionEdge struct {
	Cursor string                 `json:"cursor"`
	Node   *InvestmentTransaction `json:"node"`
}

// LoanConnection is a page of Loan nodes.
type LoanConnection struct {
	TotalCount int         `json:"totalCount"`
	PageInfo   PageInfo    `json:"pageInfo"`
	Edges      []*LoanEdge `json:"edges"`
	Nodes      []*Loan     `json:"nodes"`
}

// LoanEdge is one node of a LoanConnection with its cursor.
type LoanEdge struct {
	Cursor string `json:"cursor"`
	Node   *Loan  `json:"node"`
}

// CreditCardBillConnection is a page of CreditCardBill nodes.
type CreditCardBillConnection struct {
	TotalCount int                   `json:"totalCount"`
	PageInfo   PageInfo              `json:"pageInfo"`
	Edges      []*CreditCardBillEdge `json:"edges"`
	Nodes      []*CreditCardBill     `json:"nodes"`
}

// CreditCardBillEdge is one node of a CreditCardBillConnection with its cursor.
type CreditCardBillEdge struct {
	Cursor string          `json:"cursor"`
	Node   *CreditCardBill `json:"node"`
}

// AccountStatementConnection is a page of AccountStatement nodes.
type AccountStatementConnection struct {
	TotalCount int                     `json:"totalCount"`
	PageInfo   PageInfo                `json:"pageInfo"`
	Edges      []*AccountStatementEdge `json:"edges"`
	Nodes      []*AccountStatement     `json:"nodes"`
}

// AccountStatementEdge is one node of a AccountStatementConnection with its cursor.
type AccountStatementEdge struct {
	Cursor string            `json:"cursor"`
	Node   *AccountStatement `json:"node"`
}

// ConsentConnection is a page of Consent nodes.
type ConsentConnection struct {
	TotalCount int            `json:"totalCount"`
	PageInfo   PageInfo       `json:"pageInfo"`
	Edges      []*ConsentEdge `json:"edges"`
	Nodes      []*Consent     `json:"nodes"`
}

// ConsentEdge is one node of a ConsentConnection with its cursor.
type ConsentEdge struct {
	Cursor string   `json:"cursor"`
	Node   *Consent `json:"node"`
}

// Spending aggregates an account's or an item's transactions.
type Spending struct {
	ByCategory []*CategorySpending `json:"byCategory"`
	ByMonth    []*MonthSpending    `json:"byMonth"`
}

// CategorySpending is the money spent and received in one category.
type CategorySpending struct {
	CategoryID *string `json:"categoryId"`
	Category   *string `json:"category"`
	Spent      float64 `json:"spent"`
	Received   float64 `json:"received"`
	Count      int     `json:"count"`
}

// MonthSpending is the money spent and received in one calendar month (UTC).
type MonthSpending struct {
	Month    string  `json:"month"`
	Spent    float64 `json:"spent"`
	Received float64 `json:"received"`
	Count    int     `json:"count"`
}

// TransactionFilterInput is the GraphQL form of the GET /v2/transactions filters.
type TransactionFilterInput struct {
	IDs           []uuid.UUID `json:"ids"`
	DateFrom      *Time       `json:"dateFrom"`
	DateTo        *UpTo       `json:"dateTo"` // the last instant covered (ParseUpTo)
	CreatedAtFrom *Time       `json:"createdAtFrom"`
}

// JSONDocument is a resource's complete API document, sent as it is stored: the GraphQL
// shape for copying large lists without resolving every field of every row.
type JSONDocument []byte

// MarshalGQL writes the document unchanged.
func (d JSONDocument) MarshalGQL(w io.Writer) { _, _ = w.Write(d) }

// MarshalJSON writes the document itself in a REST answer (a []byte would be base64).
func (d JSONDocument) MarshalJSON() ([]byte, error) {
	if d == nil {
		return []byte("null"), nil
	}
	return d, nil
}

// UnmarshalJSON keeps a document as it was written (a Go client reading an answer).
func (d *JSONDocument) UnmarshalJSON(b []byte) error {
	*d = append((*d)[:0], b...)
	return nil
}

// UnmarshalGQL refuses input: documents are output only.
func (d *JSONDocument) UnmarshalGQL(any) error {
	return fmt.Errorf("a JSONDocument cannot be an argument")
}
