package payments

import (
	"context"
	"net/mail"
	"regexp"
	"slices"
	"strings"

	"github.com/google/uuid"

	"ponte/brdocs"
	"ponte/db"
	"ponte/model"
)

// ---- institutions

// Institutions lists payment institutions, optionally by part of their name. They belong
// to no application, but reading them is part of managing payments.
func (e *Engine) Institutions(ctx context.Context, page, pageSize *int, name *string) (*model.PaymentInstitutionPage, error) {
	if _, err := caller(ctx); err != nil {
		return nil, err
	}
	n, err := readPage(page, pageSize, func(limit, offset int) ([]*model.PaymentInstitution, int, error) {
		q := ""
		if name != nil {
			q = strings.TrimSpace(*name)
		}
		return e.db.PaymentInstitutions(ctx, q, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return &model.PaymentInstitutionPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

// Institution reads one institution.
func (e *Engine) Institution(ctx context.Context, id uuid.UUID) (*model.PaymentInstitution, error) {
	if _, err := caller(ctx); err != nil {
		return nil, err
	}
	return e.institution(ctx, id)
}

func (e *Engine) institution(ctx context.Context, id uuid.UUID) (*model.PaymentInstitution, error) {
	i, found, err := e.db.PaymentInstitution(ctx, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodePaymentInstitutionNotFound, "Payment institution %s not found.", id)
	}
	return i, nil
}

// ---- customers

var customerTypes = []string{"INDIVIDUAL", "BUSINESS"}

// checkCustomer validates a customer after a create or change was applied to it.
func checkCustomer(c *model.PaymentCustomer) error {
	if !slices.Contains(customerTypes, c.Type) {
		return bad("type must be INDIVIDUAL or BUSINESS (got %q).", c.Type)
	}
	if strings.TrimSpace(c.Name) == "" {
		return bad("name is required.")
	}
	if len(c.Name) > 200 {
		return bad("name is longer than 200 characters.")
	}
	if c.Email != nil {
		if a, err := mail.ParseAddress(*c.Email); err != nil || a.Address != *c.Email {
			return bad("email %q is not an e-mail address.", *c.Email)
		}
	}
	if c.Cpf != nil {
		d, err := checkCPF("cpf", *c.Cpf)
		if err != nil {
			return err
		}
		c.Cpf = &d
	}
	if c.Cnpj != nil {
		d, err := checkCNPJ("cnpj", *c.Cnpj)
		if err != nil {
			return err
		}
		c.Cnpj = &d
	}
	if c.Type == "INDIVIDUAL" && c.Cpf == nil {
		return bad("cpf is required for an INDIVIDUAL customer.")
	}
	if c.Type == "BUSINESS" && c.Cnpj == nil {
		return bad("cnpj is required for a BUSINESS customer.")
	}
	return nil
}

// emptyAsNil treats "" as absent: the official client's types make cpf and cnpj
// required strings, so callers send "" for the one that does not apply.
func emptyAsNil(p *string) *string {
	if p == nil || strings.TrimSpace(*p) == "" {
		return nil
	}
	return p
}

// CreateCustomer adds a customer.
func (e *Engine) CreateCustomer(ctx context.Context, in model.PaymentCustomerInput) (*model.PaymentCustomer, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	now := model.NewTime(e.now(ctx))
	c := &model.PaymentCustomer{ID: model.NewID(), Email: emptyAsNil(in.Email), Cpf: emptyAsNil(in.Cpf), Cnpj: emptyAsNil(in.Cnpj), CreatedAt: now, UpdatedAt: now}
	if in.Type != nil {
		c.Type = *in.Type
	}
	if in.Name != nil {
		c.Name = strings.TrimSpace(*in.Name)
	}
	if err := checkCustomer(c); err != nil {
		return nil, err
	}
	return c, e.db.InsertPaymentCustomer(ctx, clientID, c)
}

// Customer reads a customer.
func (e *Engine) Customer(ctx context.Context, id uuid.UUID) (*model.PaymentCustomer, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	return customerOf(ctx, e.db, clientID, id)
}

func customerOf(ctx context.Context, q partyReader, clientID, id uuid.UUID) (*model.PaymentCustomer, error) {
	c, found, err := q.PaymentCustomer(ctx, clientID, id, false)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodePaymentCustomerNotFound, "Payment customer %s not found.", id)
	}
	return c, nil
}

// Customers lists customers.
func (e *Engine) Customers(ctx context.Context, page, pageSize *int) (*model.PaymentCustomerPage, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	n, err := readPage(page, pageSize, func(limit, offset int) ([]*model.PaymentCustomer, int, error) {
		return e.db.PaymentCustomers(ctx, clientID, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return &model.PaymentCustomerPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

// UpdateCustomer changes the fields given.
func (e *Engine) UpdateCustomer(ctx context.Context, id uuid.UUID, in model.PaymentCustomerInput) (*model.PaymentCustomer, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	c, err := customerOf(ctx, e.db, clientID, id)
	if err != nil {
		return nil, err
	}
	if in.Type != nil {
		c.Type = *in.Type
	}
	if in.Name != nil {
		c.Name = strings.TrimSpace(*in.Name)
	}
	if in.Email != nil {
		c.Email = emptyAsNil(in.Email)
	}
	if in.Cpf != nil {
		c.Cpf = emptyAsNil(in.Cpf)
	}
	if in.Cnpj != nil {
		c.Cnpj = emptyAsNil(in.Cnpj)
	}
	if err := checkCustomer(c); err != nil {
		return nil, err
	}
	c.UpdatedAt = model.NewTime(e.now(ctx))
	return c, e.db.UpdatePaymentCustomer(ctx, clientID, c)
}

// DeleteCustomer removes a customer from lists; requests that name it keep it.
func (e *Engine) DeleteCustomer(ctx context.Context, id uuid.UUID) (*model.PaymentCustomer, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	c, err := customerOf(ctx, e.db, clientID, id)
	if err != nil {
		return nil, err
	}
	return c, e.db.DeletePaymentCustomer(ctx, clientID, id, e.now(ctx))
}

// ---- recipients

var accountTypes = []string{"CHECKING_ACCOUNT", "SAVINGS_ACCOUNT", "GUARANTEED_ACCOUNT", "PAYMENT_ACCOUNT"}

var (
	branchRE  = regexp.MustCompile(`^[0-9]{1,4}$`)
	accountRE = regexp.MustCompile(`^[0-9]{1,19}(-[0-9Xx])?$`)
	phoneRE   = regexp.MustCompile(`^\+55[1-9][0-9]{9,10}$`)
)

func checkAccount(a *model.PaymentRecipientAccount) error {
	if a == nil {
		return bad("account {branch, number, type} is required.")
	}
	if !branchRE.MatchString(a.Branch) {
		return bad("account.branch %q must be 1 to 4 digits.", a.Branch)
	}
	if !accountRE.MatchString(a.Number) {
		return bad("account.number %q must be digits, optionally with a check digit after a hyphen.", a.Number)
	}
	if !slices.Contains(accountTypes, a.Type) {
		return bad("account.type must be one of %s (got %q).", strings.Join(accountTypes, ", "), a.Type)
	}
	return nil
}

func checkTaxNumber(v string) (string, error) {
	d := digits(v)
	switch len(d) {
	case 11:
		return checkCPF("taxNumber", v)
	case 14:
		return checkCNPJ("taxNumber", v)
	}
	return "", model.Fail(model.CodeInvalidCPF, "taxNumber %q is neither a CPF (11 digits) nor a CNPJ (14 characters).", v)
}

// pixKeyKind names the kind of a PIX key (CPF, CNPJ, EMAIL, PHONE, EVP) or returns an error
// that says why it is none.
func pixKeyKind(key string) (string, error) {
	switch {
	case len(key) == 11 && brdocs.ValidCPF(key):
		return "CPF", nil
	case len(key) == 14 && brdocs.ValidCNPJ(key):
		return "CNPJ", nil
	case phoneRE.MatchString(key):
		return "PHONE", nil
	case strings.Contains(key, "@"):
		if a, err := mail.ParseAddress(key); err == nil && a.Address == key && len(key) <= 77 {
			return "EMAIL", nil
		}
	default:
		if _, err := uuid.Parse(key); err == nil && len(key) == 36 {
			return "EVP", nil
		}
	}
	return "", model.Fail(model.CodeInvalidPixKey, "pixKey %q is not a PIX key: a CPF or CNPJ (digits only), an e-mail, a phone as +55 and 10 or 11 digits, or a random key (UUID).", key)
}

// lookupPixKey resolves a well-formed key in the directory (the DICT) to the recipient it
// names.
func (e *Engine) lookupPixKey(ctx context.Context, key, kind string) (*model.PaymentRecipient, error) {
	o, err := e.cfg.Directory.ResolvePixKey(ctx, PixKey{Key: key, Kind: kind})
	if err != nil {
		return nil, err
	}
	account := o.Account
	return &model.PaymentRecipient{Type: "BANK_ACCOUNT", Name: o.Name, TaxNumber: o.TaxNumber, PaymentInstitution: o.Institution, Account: &account, PixKey: &key}, nil
}

// CreateRecipient adds a recipient from a bank account or a PIX key.
func (e *Engine) CreateRecipient(ctx context.Context, in model.PaymentRecipientInput) (*model.PaymentRecipient, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	if in.SmartAccountID != nil {
		return nil, model.Fail(model.CodePaymentFeatureNotSupported, "A recipient cannot be made from a smart account; create it from a bank account or a PIX key, and pay into a smart account with a payment request's smartAccountId.")
	}
	var r *model.PaymentRecipient
	if in.PixKey != nil {
		if in.Account != nil || in.PaymentInstitutionID != nil {
			return nil, bad("Send either pixKey or a bank account (paymentInstitutionId and account), not both.")
		}
		kind, err := pixKeyKind(*in.PixKey)
		if err != nil {
			return nil, err
		}
		if r, err = e.lookupPixKey(ctx, *in.PixKey, kind); err != nil {
			return nil, err
		}
		if nonEmpty(in.Name) {
			r.Name = strings.TrimSpace(*in.Name)
		}
	} else {
		if !nonEmpty(in.Name) {
			return nil, bad("name is required (or send a pixKey).")
		}
		if in.TaxNumber == nil {
			return nil, bad("taxNumber is required: the recipient's CPF or CNPJ.")
		}
		tax, err := checkTaxNumber(*in.TaxNumber)
		if err != nil {
			return nil, err
		}
		if in.PaymentInstitutionID == nil {
			return nil, bad("paymentInstitutionId is required (see GET /payments/recipients/institutions).")
		}
		instID, err := parseID("paymentInstitutionId", *in.PaymentInstitutionID)
		if err != nil {
			return nil, err
		}
		inst, err := e.institution(ctx, instID)
		if err != nil {
			return nil, err
		}
		if err := checkAccount(in.Account); err != nil {
			return nil, err
		}
		r = &model.PaymentRecipient{Type: "BANK_ACCOUNT", Name: strings.TrimSpace(*in.Name), TaxNumber: tax, PaymentInstitution: inst, Account: in.Account}
	}
	now := model.NewTime(e.now(ctx))
	r.ID, r.CreatedAt, r.UpdatedAt = model.NewID(), now, now
	r.IsDefault = in.IsDefault != nil && *in.IsDefault
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error { return tx.SavePaymentRecipient(ctx, clientID, r, true) })
	return r, err
}

// Recipient reads a recipient.
func (e *Engine) Recipient(ctx context.Context, id uuid.UUID) (*model.PaymentRecipient, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	return recipientOf(ctx, e.db, clientID, id)
}

func recipientOf(ctx context.Context, q recipientReader, clientID, id uuid.UUID) (*model.PaymentRecipient, error) {
	r, found, err := q.PaymentRecipient(ctx, clientID, id, false)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodePaymentRecipientNotFound, "Payment recipient %s not found.", id)
	}
	return r, nil
}

// Recipients lists recipients.
func (e *Engine) Recipients(ctx context.Context, page, pageSize *int) (*model.PaymentRecipientPage, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	n, err := readPage(page, pageSize, func(limit, offset int) ([]*model.PaymentRecipient, int, error) {
		return e.db.PaymentRecipients(ctx, clientID, limit, offset)
	})
	if err != nil {
		return nil, err
	}
	return &model.PaymentRecipientPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

// UpdateRecipient changes name, taxNumber, isDefault and account.
func (e *Engine) UpdateRecipient(ctx context.Context, id uuid.UUID, in model.PaymentRecipientInput) (*model.PaymentRecipient, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	r, err := recipientOf(ctx, e.db, clientID, id)
	if err != nil {
		return nil, err
	}
	if in.PixKey != nil || in.PaymentInstitutionID != nil || in.SmartAccountID != nil {
		return nil, bad("A recipient's pixKey and institution cannot change; create another recipient.")
	}
	if in.Name != nil {
		if !nonEmpty(in.Name) {
			return nil, bad("name cannot be empty.")
		}
		r.Name = strings.TrimSpace(*in.Name)
	}
	if in.TaxNumber != nil {
		if r.TaxNumber, err = checkTaxNumber(*in.TaxNumber); err != nil {
			return nil, err
		}
	}
	if in.Account != nil {
		if err := checkAccount(in.Account); err != nil {
			return nil, err
		}
		r.Account = in.Account
	}
	if in.IsDefault != nil {
		r.IsDefault = *in.IsDefault
	}
	r.UpdatedAt = model.NewTime(e.now(ctx))
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error { return tx.SavePaymentRecipient(ctx, clientID, r, false) })
	return r, err
}

// DeleteRecipient removes a recipient from lists; requests that name it keep it.
func (e *Engine) DeleteRecipient(ctx context.Context, id uuid.UUID) (*model.PaymentRecipient, error) {
	clientID, err := caller(ctx)
	if err != nil {
		return nil, err
	}
	r, err := recipientOf(ctx, e.db, clientID, id)
	if err != nil {
		return nil, err
	}
	return r, e.db.DeletePaymentRecipient(ctx, clientID, id, e.now(ctx))
}
