package payments

import (
	"context"
	"encoding/json"
	"net/mail"
	"regexp"
	"strings"

	"github.com/google/uuid"

	"ponte/db"
	"ponte/ledger"
	"ponte/model"
)

var phoneDigits = regexp.MustCompile(`^\+?\d{10,13}$`)

// CreateSmartAccount opens a smart account for the application.
func (e *Engine) CreateSmartAccount(ctx context.Context, in model.SmartAccountInput) (*model.SmartAccount, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	a := &model.SmartAccount{ID: model.NewID(), Type: "CHECKING_ACCOUNT", CreatedAt: model.NewTime(e.now(ctx)), IsSandbox: in.IsSandbox != nil && *in.IsSandbox}
	if !nonEmpty(in.Name) || len(*in.Name) > 100 {
		return nil, bad("name is required: the owner's name, at most 100 characters.")
	}
	a.Name = strings.TrimSpace(*in.Name)
	if !nonEmpty(in.TaxNumber) {
		return nil, bad("taxNumber is required: the owner's CPF or CNPJ.")
	}
	doc, err := checkTaxNumber(*in.TaxNumber)
	if err != nil {
		return nil, err
	}
	a.TaxNumber = doc
	if !nonEmpty(in.Email) {
		return nil, bad("email is required.")
	}
	if m, err := mail.ParseAddress(*in.Email); err != nil || m.Address != *in.Email {
		return nil, bad("email %q is not an e-mail address.", *in.Email)
	}
	a.Email = *in.Email
	if !nonEmpty(in.PhoneNumber) || !phoneDigits.MatchString(strings.NewReplacer(" ", "", "-", "", "(", "", ")", "").Replace(*in.PhoneNumber)) {
		return nil, bad("phoneNumber is required: 10 to 13 digits, +55 allowed.")
	}
	a.PhoneNumber = *in.PhoneNumber
	return a, e.db.InsertSmartAccount(ctx, clientID, a)
}

// SmartAccount reads one smart account.
func (e *Engine) SmartAccount(ctx context.Context, id uuid.UUID) (*model.SmartAccount, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	return e.smartAccount(ctx, clientID, id)
}

func (e *Engine) smartAccount(ctx context.Context, clientID, id uuid.UUID) (*model.SmartAccount, error) {
	a, found, err := e.db.SmartAccount(ctx, clientID, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeSmartAccountNotFound, "Smart account %s not found.", id)
	}
	return a, nil
}

// SmartAccounts lists the application's smart accounts.
func (e *Engine) SmartAccounts(ctx context.Context, page, pageSize *int) (*model.SmartAccountPage, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	n, err := readPage(page, pageSize, func(limit, offset int) ([]*model.SmartAccount, int, error) {
		return e.db.SmartAccounts(ctx, clientID, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return &model.SmartAccountPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

// SmartAccountBalance sums the account's ledger entries.
func (e *Engine) SmartAccountBalance(ctx context.Context, id uuid.UUID) (*model.SmartAccountBalance, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	a, err := e.smartAccount(ctx, clientID, id)
	if err != nil {
		return nil, err
	}
	balance, last, err := e.db.Balance(ctx, ledger.SmartAccount(a.ID))
	if err != nil {
		return nil, err
	}
	b := &model.SmartAccountBalance{Balance: float64(balance) / 100, LastUpdatedAt: a.CreatedAt}
	if last != nil {
		b.LastUpdatedAt = model.NewTime(*last)
	}
	return b, nil
}

func (e *Engine) smartAccountOf(ctx context.Context, clientID uuid.UUID, field, v string) (*model.SmartAccount, error) {
	id, err := parseID(field, v)
	if err != nil {
		return nil, err
	}
	return e.smartAccount(ctx, clientID, id)
}

// smartAccountDocument is a request's smart account as its answer shows it.
func (e *Engine) smartAccountDocument(ctx context.Context, p *db.PaymentRequestRow) *model.JSONDocument {
	if p.SmartAccountID == nil {
		return nil
	}
	a, found, err := e.db.SmartAccount(ctx, p.ClientID, *p.SmartAccountID)
	if err != nil || !found {
		return nil
	}
	raw, err := json.Marshal(a)
	if err != nil {
		return nil
	}
	d := model.JSONDocument(raw)
	return &d
}
