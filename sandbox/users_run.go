package sandbox

// How the sandbox institution answers for a custom user (users.go): the description,
// read through the injected lookup at each call, decides the login, the MFA, the error and
// its step, and the data collected.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"ponte/itemsync"
	"ponte/model"
)

// UserLookup finds the description an application registered under username: its JSON
// as stored, and whether there is one. cmd/ponte and the tests back it with the store.
type UserLookup func(ctx context.Context, clientID uuid.UUID, username string) ([]byte, bool, error)

// customUser is the custom user the item's credentials name, or nil when they name a
// seeded scenario (or nothing the application registered). Only the isSandbox connectors
// that log in with a user parameter (0 and 1) look one up, by it: the others' items are an
// application's real resources (sandbox control refuses them, the clean slate stops at
// them), so a custom user, which exists to be acted on, never connects there, and they
// keep their generated data whatever the application registered.
func (i Institution) customUser(ctx context.Context, s *itemsync.Session) (*User, error) {
	name, ok := s.Params["user"]
	hasUser := slices.ContainsFunc(s.Connector.Credentials, func(p model.CredentialParameter) bool { return p.Name == "user" })
	if !s.Connector.IsSandbox || !hasUser || !ok || i.Users == nil || IsSeeded(name) || !usernamePattern.MatchString(name) {
		return nil, nil
	}
	raw, found, err := i.Users(ctx, s.ClientID, name)
	if err != nil || !found {
		return nil, err
	}
	u, err := ParseUser(raw)
	if err != nil {
		// Stored descriptions were checked when registered: one that no longer reads is
		// the service's own fault, and the execution is retried.
		return nil, fmt.Errorf("stored sandbox user %q: %w", name, err)
	}
	return u, nil
}

func (u *User) failsAt(step string) *model.ExecutionError {
	if u.Error == nil || u.Error.Step != step {
		return nil
	}
	return execErr(model.ExecutionStatus(u.Error.Code), fmt.Sprintf("The sandbox user %s ends in %s at %s, as its description says.", u.Username, u.Error.Code, step))
}

func (u *User) login(s *itemsync.Session) itemsync.Step {
	if u.Password != nil && s.Params["password"] != *u.Password {
		return itemsync.Step{Error: execErr(model.ExecInvalidCredentials, "Invalid credentials: check the user and password.")}
	}
	if e := u.failsAt(StepLogin); e != nil {
		return itemsync.Step{Error: e}
	}
	switch u.MFA {
	case "TOKEN":
		for _, cred := range s.Connector.Credentials {
			if cred.MFA {
				p := cred
				return itemsync.Step{MFA: &p}
			}
		}
		return itemsync.Step{MFA: &model.CredentialParameter{Name: "token", Label: "Token", Type: model.CredentialNumber, MFA: true,
			Validation: str(`^\d{6}$`), ValidationMessage: str("O token tem 6 dígitos")}}
	case "SMS":
		return itemsync.Step{MFA: &model.CredentialParameter{Name: "phone", Label: "Código enviado por SMS", Type: model.CredentialNumber, MFA: true,
			AssistiveText: str("Enviado para (11) *****-1234"), Validation: str(`^\d{6}$`), ValidationMessage: str("O código tem 6 dígitos")}}
	case "QR_CODE":
		return itemsync.Step{Action: authorizeAt(s, model.UserAction{Type: "qr",
			Instructions: "Escaneie o QR code com o aplicativo do banco para entrar."}), ActionTimeout: model.ExecUserInputTimeout}
	case "APP":
		return itemsync.Step{Action: authorizeAt(s, model.UserAction{Type: "authorize-access",
			Instructions: "Abra o aplicativo do banco e autorize o novo acesso."}), ActionTimeout: model.ExecUserAuthPending}
	}
	return itemsync.Step{}
}

func (u *User) answer(reply map[string]string) itemsync.Step {
	if u.MFA == "QR_CODE" || u.MFA == "APP" {
		if reply["action"] != "approve" {
			return itemsync.Step{Error: execErr(model.ExecUserAuthNotGranted, "The user did not grant access at the institution.")}
		}
	} else {
		var value string
		for _, v := range reply {
			value = v
		}
		if !rightMFA(value) {
			return itemsync.Step{Error: execErr(model.ExecInvalidCredentialsMFA, "The MFA value is not valid.")}
		}
	}
	return itemsync.Step{Error: u.failsAt(StepMFA)}
}

// collectError is the error collecting p ends in, if the description puts it there.
func (u *User) collectError(s *itemsync.Session, p model.Product) error {
	e := u.failsAt(StepCollect)
	if e == nil {
		return nil
	}
	at := model.Product(u.Error.Product)
	if at == "" && len(s.Products) > 0 {
		at = s.Products[0]
	}
	if at != "" && at != p && slices.Contains(s.Products, at) {
		return nil
	}
	return &itemsync.Failure{ExecutionError: *e}
}

// Snapshot is what the user's executions collect; ids derive from the item and the
// description's keys (account number, row index), so executions agree on them.
func (u *User) Snapshot(item uuid.UUID, now time.Time) *Snapshot {
	ts := model.NewTime(now)
	id := func(key string) uuid.UUID { return uuid.NewSHA1(item, []byte("custom:"+key)) }
	snap := &Snapshot{}
	for _, a := range u.Accounts {
		currency := a.Currency
		if currency == "" {
			currency = "BRL"
		}
		name := a.Name
		if name == "" {
			name = a.Subtype
		}
		acc := model.Account{ID: id("account:" + a.Number), ItemID: item, Type: a.Type, Subtype: a.Subtype, Number: a.Number,
			Name: name, Balance: fp(toReais(a.Balance)), CurrencyCode: currency, CreatedAt: ts, UpdatedAt: ts}
		if a.Type == "CREDIT" {
			acc.CreditData = a.creditData()
			snap.Bills = append(snap.Bills, a.bills(acc.ID, currency, ts, id)...)
		} else {
			acc.BankData = &model.BankData{TransferNumber: sp(a.Number)}
		}
		if u.Identity != nil {
			acc.Owner = sp(u.Identity.FullName)
		}
		snap.Accounts = append(snap.Accounts, acc)
		rows := a.Transactions
		if a.Generate != nil {
			rows = generateRows(a.Generate, a.Number, a.Type == "CREDIT", now)
		}
		for j, t := range rows {
			d, _ := day(t.Date)
			amount := toReais(t.Amount)
			typ := "CREDIT"
			if (a.Type == "CREDIT") == (amount > 0) {
				typ = "DEBIT"
			}
			status := t.Status
			if status == "" {
				status = "POSTED"
			}
			snap.Transactions = append(snap.Transactions, model.Transaction{ID: id(fmt.Sprintf("tx:%s:%d", a.Number, j)),
				AccountID: acc.ID, Date: model.NewTime(d), Description: t.Description, DescriptionRaw: sp(t.Description),
				Amount: amount, CurrencyCode: currency, Status: status, Type: typ, CreatedAt: ts, UpdatedAt: ts})
		}
	}
	if i := u.Identity; i != nil {
		ident := &model.Identity{ID: id("identity"), ItemID: item, FullName: sp(i.FullName), CreatedAt: ts, UpdatedAt: ts}
		if i.Document != "" {
			kind := "CPF"
			if len(i.Document) == 14 {
				kind = "CNPJ"
			}
			ident.Document, ident.TaxNumber, ident.DocumentType = sp(i.Document), sp(i.Document), sp(kind)
		}
		if d, err := day(i.BirthDate); err == nil {
			ident.BirthDate = tp(d)
		}
		for _, e := range i.Emails {
			ident.Emails = append(ident.Emails, model.Email{Type: sp("Personal"), Value: e})
		}
		for _, p := range i.Phones {
			ident.PhoneNumbers = append(ident.PhoneNumbers, model.Phone{Type: sp("Personal"), Value: p})
		}
		snap.Identity = ident
	}
	for j, inv := range u.Investments {
		key := fmt.Sprintf("investment:%d", j)
		snap.Investments = append(snap.Investments, model.Investment{ID: id(key), ItemID: item,
			Type: inv.Type, Name: inv.Name, Balance: toReais(inv.Balance), CurrencyCode: "BRL", CreatedAt: ts, UpdatedAt: ts})
		snap.InvestmentTransactions = append(snap.InvestmentTransactions, inv.investmentTransactions(id(key), key, ts, id)...)
	}
	for j, l := range u.Loans {
		loan := model.Loan{ID: id(fmt.Sprintf("loan:%d", j)), ItemID: item, ProductName: l.ProductName, Kind: "LOAN",
			ContractAmount: fp(toReais(l.ContractAmount)), CurrencyCode: "BRL", CreatedAt: ts, UpdatedAt: ts}
		if l.ContractNumber != "" {
			loan.ContractNumber = sp(l.ContractNumber)
		}
		snap.Loans = append(snap.Loans, loan)
	}
	return snap
}

// generated are the descriptions generated rows take, with a typical amount in centavos.
var generated = []struct {
	desc  string
	cents int64
}{{"PIX RECEBIDO", 25000}, {"SUPERMERCADO", -18000}, {"PADARIA", -2500}, {"UBER *TRIP", -3200},
	{"FARMACIA", -6400}, {"PIX ENVIADO", -12000}, {"RESTAURANTE", -8900}, {"POSTO COMBUSTIVEL", -21000}}

// generateRows makes g.Size rows over the last 90 days from g.Seed: the same seed and
// account number give the same rows. On a card purchases are positive.
func generateRows(g *UserGenerator, number string, card bool, now time.Time) []UserTransaction {
	rng := rand.New(rand.NewPCG(uint64(g.Seed), seedOf(number)))
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	out := make([]UserTransaction, g.Size)
	for i := range out {
		k := generated[rng.IntN(len(generated))]
		cents := k.cents/2 + rng.Int64N(abs(k.cents))*sign(k.cents)
		if cents == 0 {
			cents = sign(k.cents)
		}
		if card {
			cents = -cents
		}
		out[i] = UserTransaction{Date: today.AddDate(0, 0, -rng.IntN(90)).Format(time.DateOnly), Description: k.desc,
			Amount: centsNumber(cents)}
	}
	slices.SortStableFunc(out, func(a, b UserTransaction) int { return strings.Compare(a.Date, b.Date) })
	return out
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func sign(v int64) int64 {
	if v < 0 {
		return -1
	}
	return 1
}

func centsNumber(c int64) Reais {
	s := fmt.Sprintf("%d.%02d", abs(c)/100, abs(c)%100)
	if c < 0 {
		s = "-" + s
	}
	return Reais(s)
}

// toReais is the model's float (the interface's JSON number) of a checked amount.
func toReais(n Reais) float64 {
	c, _ := reais(n, "", true)
	return float64(c) / 100
}
