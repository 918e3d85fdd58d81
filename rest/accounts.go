package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// listAccounts is GET /accounts?itemId=: the stored documents as they are (rawListPage).
func (s *Server) listAccounts() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		q := in.query("itemId", "type")
		itemID, typ := q.requiredUUID("itemId"), q.str("type")
		return func(ctx context.Context) (any, error) {
			page, err := s.query.Accounts(ctx, *itemID, typ)
			if err != nil {
				return nil, err
			}
			return rawListPage{page.Envelope()}, nil
		}
	})
}

// getAccount is GET /accounts/{id}.
func (s *Server) getAccount() http.HandlerFunc {
	return s.byID("Account id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.Account(ctx, id) })
}

// transactionFilter is the GraphQL form of a transaction list's filters.
func transactionFilter(ids []uuid.UUID, from, to, createdFrom *time.Time) *model.TransactionFilterInput {
	f := &model.TransactionFilterInput{IDs: ids}
	if from != nil {
		f.DateFrom = &model.Time{Time: *from}
	}
	if to != nil {
		f.DateTo = &model.UpTo{Time: *to}
	}
	if createdFrom != nil {
		f.CreatedAtFrom = &model.Time{Time: *createdFrom}
	}
	return f
}

// transactionsPageSize is GET /v2/transactions' page: the largest a connection gives.
var transactionsPageSize = model.MaxPageSize

// listTransactionsV2 is GET /v2/transactions, the cursor list (section 4.4). Its pages
// are finished JSON from the store, copied as they are.
func (s *Server) listTransactionsV2() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		q := in.query("accountId", "ids", "dateFrom", "dateTo", "createdAtFrom", "after")
		accountID := q.requiredUUID("accountId")
		f := transactionFilter(q.uuids("ids"), q.date("dateFrom"), q.upTo("dateTo"), q.date("createdAtFrom"))
		after := q.str("after")
		return func(ctx context.Context) (any, error) {
			page, err := s.query.Transactions(ctx, *accountID, &transactionsPageSize, after, f)
			if err != nil {
				return nil, err
			}
			out := rawCursorPage{docs: page.Documents}
			if page.PageInfo.HasNextPage {
				info, err := s.res.TransactionConnection().PageInfo(ctx, page)
				if err != nil {
					return nil, err
				}
				// The same query with the cursor: the client appends it to the path unchanged.
				v := in.r.URL.Query()
				v.Set("after", *info.EndCursor)
				out.next = nextQuery(v)
			}
			return out, nil
		}
	})
}

// listTransactionsLegacy is the deprecated page-number GET /transactions; the deprecated
// middleware says so in its headers.
func (s *Server) listTransactionsLegacy() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		q := in.query("accountId", "pageSize", "page", "from", "to", "ids", "billId", "createdAtFrom")
		accountID := q.requiredUUID("accountId")
		billID := q.uuid("billId")
		f := transactionFilter(q.uuids("ids"), q.date("from"), q.upTo("to"), q.date("createdAtFrom"))
		page, pageSize := q.integer("page"), q.integer("pageSize")
		return func(ctx context.Context) (any, error) {
			return s.query.TransactionsPage(ctx, *accountID, f, billID, page, pageSize)
		}
	})
}

// deprecated marks every answer of a deprecated endpoint, errors included: Deprecation,
// its Sunset and the successor's Link.
func deprecated(sunset, successor string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h.Set("Deprecation", "true")
			h.Set("Sunset", sunset)
			h.Set("Link", "<"+successor+`>; rel="successor-version"`)
			next.ServeHTTP(w, r)
		})
	}
}

// getTransaction is GET /transactions/{id}.
func (s *Server) getTransaction() http.HandlerFunc {
	return s.byID("Transaction id", func(ctx context.Context, id uuid.UUID) (any, error) {
		return storedDocument(s.query.Transaction(ctx, id))
	})
}

// patchTransaction is PATCH /transactions/{id}: the client's category (4.4 rule 2).
func (s *Server) patchTransaction() http.HandlerFunc {
	type body struct {
		CategoryID string `json:"categoryId"` // absent reads as "", which the rule refuses
	}
	return withIDBody(s, "Transaction id", func(ctx context.Context, id uuid.UUID, b body) (any, error) {
		return storedDocument(s.mut.UpdateTransactionCategory(ctx, id, b.CategoryID))
	})
}

// listCategoryFeedback is GET /category_feedback: the application's category corrections.
func (s *Server) listCategoryFeedback() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		in.query()
		return func(ctx context.Context) (any, error) {
			list, err := s.query.CategoryFeedback(ctx)
			return map[string]any{"results": list}, err
		}
	})
}

// storedDocument answers a resource as its stored document, which REST sends as it is.
func storedDocument[T interface{ Raw() model.JSONDocument }](v T, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return v.Raw(), nil
}
