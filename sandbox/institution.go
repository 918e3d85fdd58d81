package sandbox

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"ponte/itemsync"
	"ponte/model"
)

// Provider is the name the sandbox's connectors give as their provider.
const Provider = "sandbox"

// Institution is the sandbox behind its connectors: the scenario the credentials choose
// decides every answer, and Generate makes the data.
type Institution struct {
	// Users finds the applications' custom sandbox users (users.go); nil: only the seeded
	// scenarios answer.
	Users UserLookup
}

var _ itemsync.Institution = Institution{}

// Connectors is the sandbox's catalogue, served at publicURL.
func (Institution) Connectors(publicURL string) []model.Connector { return ServedAt(publicURL) }

// Login answers as the scenario of the item's credentials says.
func (i Institution) Login(ctx context.Context, s *itemsync.Session) (itemsync.Step, error) {
	if u, err := i.customUser(ctx, s); err != nil || u != nil {
		if err != nil {
			return itemsync.Step{}, err
		}
		return u.login(s), nil
	}
	sc := Choose(s.Connector, s.Params)
	switch {
	case sc.LoginError != nil:
		return itemsync.Step{Error: sc.LoginError}, nil
	case sc.MFA != nil:
		return itemsync.Step{MFA: sc.MFA}, nil
	case sc.Action != nil:
		return itemsync.Step{Action: authorizeAt(s, *sc.Action), ActionTimeout: sc.ActionTimeoutError}, nil
	}
	return itemsync.Step{}, nil
}

// authorizeAt points the action at the page that stands in for the institution's app.
func authorizeAt(s *itemsync.Session, action model.UserAction) *model.UserAction {
	url := fmt.Sprintf("%s/sandbox/authorize/%s", s.BaseURL, s.ExecutionID)
	action.Attributes = map[string]any{}
	switch action.Type {
	case "qr":
		action.Attributes["qr"] = url
	default:
		action.Attributes["url"] = url
	}
	if s.Connector.OAuth {
		action.Attributes["oauthUrl"] = url
	}
	return &action
}

// Answer takes the user's decision on the authorization page, or the MFA value (see
// rightMFA).
func (i Institution) Answer(ctx context.Context, s *itemsync.Session, reply map[string]string) (itemsync.Step, error) {
	if u, err := i.customUser(ctx, s); err != nil || u != nil {
		if err != nil {
			return itemsync.Step{}, err
		}
		return u.answer(reply), nil
	}
	sc := Choose(s.Connector, s.Params)
	if sc.Action != nil {
		if reply["action"] != "approve" {
			return itemsync.Step{Error: execErr(model.ExecUserAuthNotGranted, "The user did not grant access at the institution.")}, nil
		}
		return itemsync.Step{}, nil
	}
	var value string
	for _, v := range reply {
		value = v
	}
	if !rightMFA(value) {
		return itemsync.Step{Error: execErr(model.ExecInvalidCredentialsMFA, "The MFA value is not valid.")}, nil
	}
	return itemsync.Step{}, nil
}

// Collect delivers one product of the execution's snapshot, made once per run.
func (i Institution) Collect(ctx context.Context, s *itemsync.Session, p model.Product, page func(*itemsync.Page) error) (itemsync.Outcome, error) {
	u, err := i.customUser(ctx, s)
	if err != nil {
		return itemsync.Outcome{}, err
	}
	sc := Choose(s.Connector, s.Params)
	if u != nil {
		sc = &Scenario{Username: u.Username}
		if err := u.collectError(s, p); err != nil {
			return itemsync.Outcome{}, err
		}
	}
	if sc.CollectError != nil {
		return itemsync.Outcome{}, &itemsync.Failure{ExecutionError: *sc.CollectError}
	}
	if p == model.ProductCreditInfo {
		return itemsync.Outcome{}, page(&itemsync.Page{CreditInfo: SCRReport(s.ItemID, s.Params["document"], s.Now)})
	}
	var out itemsync.Outcome
	if slices.Contains(sc.FailedProducts, p) {
		return itemsync.Outcome{Unavailable: true}, nil
	}
	if slices.Contains(sc.WarnProducts, p) {
		out.Warnings = []model.ProductWarning{{Code: "001", Message: "Some data of this product could not be read and was left out.",
			ProviderMessage: str("Não foi possível carregar todos os dados desta conta.")}}
	}
	snap, ok := s.State.(*Snapshot)
	if !ok {
		var since time.Time
		if s.Since != nil {
			since = *s.Since
		}
		if u != nil {
			snap = u.Snapshot(s.ItemID, s.Now)
		} else {
			snap = GenerateSince(s.ItemID, s.Connector.ID, sc.Username, s.Execution, s.Now, since)
		}
		snap.Transactions = inWindow(applyTransactionChanges(snap.Transactions, s.TransactionChanges, model.NewTime(s.Now)), since)
		snap.Bills = applyBillChanges(snap.Bills, s.BillChanges, model.NewTime(s.Now))
		snap.Investments, snap.InvestmentTransactions = applyInvestmentChanges(snap.Investments, snap.InvestmentTransactions, s.InvestmentChanges, model.NewTime(s.Now))
		s.State = snap
	}
	cards := func(card bool) []model.Account {
		var list []model.Account
		for _, a := range snap.Accounts {
			if (a.Type == "CREDIT") == card {
				list = append(list, a)
			}
		}
		return list
	}
	var pg itemsync.Page
	switch p {
	case model.ProductAccounts:
		pg.Accounts, pg.Statements = cards(false), snap.Statements
		if s.Connector.IsOpenFinance {
			covered := pg.Accounts
			if slices.Contains(s.Products, model.ProductCreditCards) && !slices.Contains(sc.FailedProducts, model.ProductCreditCards) {
				covered = append(cards(true), covered...)
			}
			pg.Resources, pg.Consent = openFinanceConsent(s, covered)
		}
	case model.ProductCreditCards:
		pg.Accounts, pg.Bills = cards(true), snap.Bills
	case model.ProductTransactions:
		pg.Transactions = snap.Transactions
		// Like a bank's or an Open Finance transmitter's API, the sandbox answers for a
		// window: what the engine asked for.
		out.Since = s.Since
	case model.ProductInvestments:
		pg.Investments = snap.Investments
	case model.ProductInvestmentsTransactions:
		pg.InvestmentTransactions = snap.InvestmentTransactions
	case model.ProductIdentity:
		pg.Identity = snap.Identity
	case model.ProductLoans:
		pg.Loans = snap.Loans
	default:
		return out, nil
	}
	return out, page(&pg)
}

// openFinanceConsent is the consent an Open Finance item holds and what it covers: the
// collected accounts, and, for CPFs starting with 999 (the documented sandbox switch), one
// account still pending the user's authorisation at the institution.
func openFinanceConsent(s *itemsync.Session, accounts []model.Account) ([]model.ItemResource, map[string]any) {
	t := model.NewTime(s.Now)
	var out []model.ItemResource
	for _, a := range accounts {
		typ := "ACCOUNT"
		if a.Type == "CREDIT" {
			typ = "CREDIT_CARD_ACCOUNT"
		}
		out = append(out, model.ItemResource{ID: uuid.NewSHA1(s.ItemID, []byte("resource:"+a.ID.String())), ItemID: s.ItemID,
			Type: typ, Status: "AVAILABLE", Name: a.Name, CreatedAt: t, UpdatedAt: t})
	}
	if len(s.Params["cpf"]) >= 3 && s.Params["cpf"][:3] == "999" {
		out = append(out, model.ItemResource{ID: uuid.NewSHA1(s.ItemID, []byte("resource:pending")), ItemID: s.ItemID,
			Type: "ACCOUNT", Status: "PENDING_AUTHORISATION", Name: "Conta conjunta", CreatedAt: t, UpdatedAt: t})
	}
	cid := uuid.NewSHA1(s.ItemID, []byte("consent"))
	consent := map[string]any{
		"id": cid, "itemId": s.ItemID, "products": s.Products,
		"openFinancePermissionsGranted": []string{"ACCOUNTS_READ", "ACCOUNTS_BALANCES_READ", "RESOURCES_READ",
			"CREDIT_CARDS_ACCOUNTS_READ", "CREDIT_CARDS_ACCOUNTS_TRANSACTIONS_READ", "CUSTOMERS_PERSONAL_IDENTIFICATIONS_READ"},
		"expiresAt": model.NewTime(s.Now.AddDate(1, 0, 0)), "revokedAt": nil}
	return out, consent
}

// inWindow keeps the transactions dated at or after since (zero: all): an incremental read
// delivers no added transaction dated before its window, as a bank's would not.
func inWindow(txs []model.Transaction, since time.Time) []model.Transaction {
	if since.IsZero() {
		return txs
	}
	return slices.DeleteFunc(txs, func(t model.Transaction) bool { return t.Date.Before(since) })
}
