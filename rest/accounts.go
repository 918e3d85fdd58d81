package rest

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"ponte/model"
)

// listAccounts is GET /accounts?itemId=.
func (s *Server) listAccounts() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		q := in.query("itemId", "type")
		itemID, typ := q.requiredUUID("itemId"), q.str("type")
		return func(ctx context.Context) (any, error) {
			buf := rawBuffer()
			docs, err := s.res.Collected.AccountDocs(ctx, buf, *itemID, typ)
			if err != nil {
				releaseRawBuffer(buf)
				return nil, err
			}
			return rawListPage{docs: docs, buf: buf}, nil
		}
	})
}

// getAccount is GET /accounts/{id}.
func (s *Server) getAccount() http.HandlerFunc {
	return s.byID("Account id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.query.Account(ctx, id) })
}

// listTransactionsV2 is GET /v2/transactions, the cursor list (section 4.4). Its pages
// are finished JSON from the store, copied as they are.
func (s *Server) listTransactionsV2() http.HandlerFunc {
	return s.handle(func(in *input) resolve {
		q := in.query("accountId", "ids", "dateFrom", "dateTo", "createdAtFrom", "after")
		accountID := q.requiredUUID("accountId")
		f := model.TransactionFilter{IDs: q.uuids("ids"), DateFrom: q.date("dateFrom"), DateTo: q.upTo("dateTo"), CreatedAtFrom: q.date("createdAtFrom")}
		after := q.str("after")
		return func(ctx context.Context) (any, error) {
			f.AccountID = *accountID
			page, err := s.res.Collected.TransactionsV2(ctx, f, after)
			if err != nil {
				return nil, err
			}
			out := rawCursorPage{docs: page.Results}
			if page.After != nil {
				// The same query with the cursor: the client appends it to the path unchanged.
				v := in.r.URL.Query()
				v.Set("after", *page.After)
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
		f := model.LegacyTransactionFilter{BillID: q.uuid("billId"), TransactionFilter: model.TransactionFilter{
			IDs: q.uuids("ids"), DateFrom: q.date("from"), DateTo: q.upTo("to"), CreatedAtFrom: q.date("createdAtFrom")}}
		page, pageSize := q.integer("page"), q.integer("pageSize")
		return func(ctx context.Context) (any, error) {
			f.AccountID = *accountID
			return s.res.Collected.LegacyTransactions(ctx, f, page, pageSize)
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
	return s.byID("Transaction id", func(ctx context.Context, id uuid.UUID) (any, error) { return s.res.Collected.Transaction(ctx, id) })
}

// patchTransaction is PATCH /transactions/{id}: the client's category (4.4 rule 2).
func (s *Server) patchTransaction() http.HandlerFunc {
	type body struct {
		CategoryID string `json:"categoryId"` // absent reads as "", which the rule refuses
	}
	return withIDBody(s, "Transaction id", func(ctx context.Context, id uuid.UUID, b body) (any, error) {
		return s.res.Collected.SetTransactionCategory(ctx, id, b.CategoryID)
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
