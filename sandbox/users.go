package sandbox

// Custom sandbox users: a client application describes a user in JSON (its accounts and
// their transactions, a card's details and bills, identity, investments and their
// movements, loans, the MFA it is asked, the error it ends in and where) and connects it
// by its username on the isSandbox connectors that take a user parameter (customUser). The
// description is checked here, once, when it is registered; the store keeps it as given
// and the institution reads it again at each execution through a lookup cmd/ponte injects
// (the sandbox never reaches the store itself).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"ponte/model"
)

// Limits of a description, so one application cannot make an execution or a row huge.
const (
	MaxUserBytes           = 256 << 10
	MaxUsersPerApplication = 100
	MaxUserAccounts        = 20
	MaxUserTransactions    = 1000 // per account, explicit or generated
	MaxUserInvestments     = 50
	MaxUserLoans           = 20
)

// User is a custom sandbox user as its application describes it.
type User struct {
	Username string `json:"username"`
	// Password, when set, is the only one accepted; absent, any password logs in.
	Password    *string          `json:"password,omitempty"`
	Accounts    []UserAccount    `json:"accounts"`
	Identity    *UserIdentity    `json:"identity,omitempty"`
	Investments []UserInvestment `json:"investments,omitempty"`
	Loans       []UserLoan       `json:"loans,omitempty"`
	// MFA is NONE (default), TOKEN, SMS, QR_CODE or APP, as the seeded scenarios ask.
	MFA   string     `json:"mfa,omitempty"`
	Error *UserError `json:"error,omitempty"`
}

// UserAccount is one account; its transactions are given or generated, not both.
type UserAccount struct {
	Type         string            `json:"type"`
	Subtype      string            `json:"subtype"`
	Number       string            `json:"number"`
	Name         string            `json:"name,omitempty"`
	Balance      Reais             `json:"balance"`
	Currency     string            `json:"currency,omitempty"`
	Transactions []UserTransaction `json:"transactions,omitempty"`
	Generate     *UserGenerator    `json:"generate,omitempty"`
	// CreditData and Bills: a CREDIT account's only (users_more.go).
	CreditData *UserCreditData `json:"creditData,omitempty"`
	Bills      []UserBill      `json:"bills,omitempty"`
}

// UserTransaction is one transaction; amount in reais, debits negative on bank accounts
// (purchases positive on a card, as the official client shows them).
type UserTransaction struct {
	Date        string `json:"date"`
	Description string `json:"description"`
	Amount      Reais  `json:"amount"`
	Status      string `json:"status,omitempty"`
}

// UserGenerator makes Size transactions from Seed: the same seed, the same rows.
type UserGenerator struct {
	Seed int64 `json:"seed"`
	Size int   `json:"size"`
}

// UserIdentity is the holder as the institution registers it.
type UserIdentity struct {
	FullName  string   `json:"fullName"`
	Document  string   `json:"document,omitempty"`
	BirthDate string   `json:"birthDate,omitempty"`
	Emails    []string `json:"emails,omitempty"`
	Phones    []string `json:"phones,omitempty"`
}

// UserInvestment is one investment.
type UserInvestment struct {
	Name         string                      `json:"name"`
	Type         string                      `json:"type"`
	Balance      Reais                       `json:"balance"`
	Transactions []UserInvestmentTransaction `json:"transactions,omitempty"`
}

// UserLoan is one loan contract.
type UserLoan struct {
	ProductName    string `json:"productName"`
	ContractNumber string `json:"contractNumber,omitempty"`
	ContractAmount Reais  `json:"contractAmount"`
}

// UserError is the error the user's executions end in, and at which step: LOGIN (the
// credentials are refused), MFA (after the MFA answer; needs an MFA) or COLLECT (while
// collecting Product, or the first product when Product is empty).
type UserError struct {
	Code    string `json:"code"`
	Step    string `json:"step"`
	Product string `json:"product,omitempty"`
}

// Step names of UserError.
const (
	StepLogin   = "LOGIN"
	StepMFA     = "MFA"
	StepCollect = "COLLECT"
)

var (
	usernamePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{2,63}$`)
	mfaKinds        = map[string]bool{"": true, "NONE": true, "TOKEN": true, "SMS": true, "QR_CODE": true, "APP": true}
	accountKinds    = map[string][]string{"BANK": {"CHECKING_ACCOUNT", "SAVINGS_ACCOUNT"}, "CREDIT": {"CREDIT_CARD"}}
	investmentTypes = map[string]bool{"FIXED_INCOME": true, "MUTUAL_FUND": true, "SECURITY": true, "EQUITY": true,
		"COE": true, "ETF": true, "OTHER": true}
	// errorCodes are the execution errors an institution can end in.
	errorCodes = map[model.ExecutionStatus]bool{model.ExecInvalidCredentials: true, model.ExecAlreadyLoggedIn: true,
		model.ExecUnexpectedError: true, model.ExecInvalidCredentialsMFA: true, model.ExecSiteNotAvailable: true,
		model.ExecAccountLocked: true, model.ExecAccountCredentialsReset: true, model.ExecConnectionError: true,
		model.ExecAccountNeedsAction: true, model.ExecUserAuthPending: true, model.ExecUserAuthNotGranted: true,
		model.ExecUserNotSupported: true}
	documentPattern = regexp.MustCompile(`^[0-9]{11}$|^[0-9]{14}$`)
	phonePattern    = regexp.MustCompile(`^\+?[0-9 ()-]{8,20}$`)
	amountPattern   = regexp.MustCompile(`^-?(0|[1-9][0-9]{0,11})(\.[0-9]{1,2})?$`)
)

// IsSeeded says whether username belongs to a seeded scenario (docs/sandbox.md), which a
// custom user may not take.
func IsSeeded(username string) bool {
	return strings.HasPrefix(username, "user-")
}

func invalid(format string, args ...any) error {
	return model.Fail(model.CodeSandboxUserInvalid, format, args...)
}

// ParseUser reads and checks a description: every refusal is a SANDBOX_USER_INVALID
// naming the field.
func ParseUser(raw []byte) (*User, error) {
	if len(raw) > MaxUserBytes {
		return nil, invalid("The description has %d bytes; at most %d are accepted.", len(raw), MaxUserBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	var u User
	if err := dec.Decode(&u); err != nil {
		return nil, invalid("The description is not a valid user: %s.", describeJSONError(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, invalid("The description must be one JSON object, with nothing after it.")
	}
	return &u, u.check()
}

// Reais is an amount as written in the description: a JSON number, never a string (the
// decimals written are part of what is checked).
type Reais string

// UnmarshalJSON keeps a number's text and refuses anything else.
func (r *Reais) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || !(b[0] == '-' || (b[0] >= '0' && b[0] <= '9')) {
		return &json.UnmarshalTypeError{Value: "non-number", Type: reflect.TypeOf(0.0)}
	}
	*r = Reais(b)
	return nil
}

// MarshalJSON writes the number as it was given.
func (r Reais) MarshalJSON() ([]byte, error) { return []byte(r), nil }

func describeJSONError(err error) string {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		kind := map[reflect.Kind]string{reflect.String: "a string", reflect.Float64: "a number", reflect.Int: "an integer", reflect.Int64: "an integer",
			reflect.Slice: "an array", reflect.Struct: "an object", reflect.Ptr: "an object"}[typ.Type.Kind()]
		if kind == "" {
			kind = typ.Type.String()
		}
		return fmt.Sprintf("field %s must be %s", typ.Field, kind)
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	return msg
}

func (u *User) check() error {
	switch {
	case !usernamePattern.MatchString(u.Username):
		return invalid("username: 3 to 64 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit.")
	case IsSeeded(u.Username):
		return invalid("username: %q starts with \"user-\", the seeded scenarios' names (docs/sandbox.md); choose another.", u.Username)
	case u.Password != nil && (len(*u.Password) == 0 || len(*u.Password) > 128):
		return invalid("password: 1 to 128 characters, or absent to accept any password.")
	case !mfaKinds[u.MFA]:
		return invalid("mfa: %q is not one of NONE, TOKEN, SMS, QR_CODE, APP.", u.MFA)
	case len(u.Accounts) == 0:
		return invalid("accounts: at least one account.")
	case len(u.Accounts) > MaxUserAccounts:
		return invalid("accounts: %d accounts; at most %d.", len(u.Accounts), MaxUserAccounts)
	case len(u.Investments) > MaxUserInvestments:
		return invalid("investments: %d investments; at most %d.", len(u.Investments), MaxUserInvestments)
	case len(u.Loans) > MaxUserLoans:
		return invalid("loans: %d loans; at most %d.", len(u.Loans), MaxUserLoans)
	}
	numbers := map[string]bool{}
	for i, a := range u.Accounts {
		if err := a.check(fmt.Sprintf("accounts[%d]", i)); err != nil {
			return err
		}
		if numbers[a.Number] {
			return invalid("accounts[%d].number: %q is already the number of another account.", i, a.Number)
		}
		numbers[a.Number] = true
	}
	if err := u.Identity.check(); err != nil {
		return err
	}
	for i, inv := range u.Investments {
		f := fmt.Sprintf("investments[%d]", i)
		switch {
		case text(inv.Name, 1, 120) != nil:
			return invalid("%s.name: 1 to 120 characters.", f)
		case !investmentTypes[inv.Type]:
			return invalid("%s.type: %q is not one of FIXED_INCOME, MUTUAL_FUND, SECURITY, EQUITY, COE, ETF, OTHER.", f, inv.Type)
		}
		if _, err := reais(inv.Balance, f+".balance", false); err != nil {
			return err
		}
		if err := inv.checkTransactions(f); err != nil {
			return err
		}
	}
	for i, l := range u.Loans {
		f := fmt.Sprintf("loans[%d]", i)
		if text(l.ProductName, 1, 120) != nil {
			return invalid("%s.productName: 1 to 120 characters.", f)
		}
		if text(l.ContractNumber, 0, 40) != nil {
			return invalid("%s.contractNumber: at most 40 characters.", f)
		}
		if _, err := reais(l.ContractAmount, f+".contractAmount", false); err != nil {
			return err
		}
	}
	return u.Error.check(u.MFA)
}

func (a *UserAccount) check(f string) error {
	subtypes, ok := accountKinds[a.Type]
	switch {
	case !ok:
		return invalid("%s.type: %q is not BANK or CREDIT.", f, a.Type)
	case !slices.Contains(subtypes, a.Subtype):
		return invalid("%s.subtype: %q is not one of %s for type %s.", f, a.Subtype, strings.Join(subtypes, ", "), a.Type)
	case text(a.Number, 1, 40) != nil:
		return invalid("%s.number: 1 to 40 characters.", f)
	case text(a.Name, 0, 120) != nil:
		return invalid("%s.name: at most 120 characters.", f)
	case a.Currency != "" && a.Currency != "BRL" && a.Currency != "USD" && a.Currency != "EUR":
		return invalid("%s.currency: %q is not BRL, USD or EUR.", f, a.Currency)
	case a.Generate != nil && len(a.Transactions) > 0:
		return invalid("%s: give transactions or generate, not both.", f)
	case len(a.Transactions) > MaxUserTransactions:
		return invalid("%s.transactions: %d transactions; at most %d per account.", f, len(a.Transactions), MaxUserTransactions)
	case a.Generate != nil && (a.Generate.Size < 1 || a.Generate.Size > MaxUserTransactions):
		return invalid("%s.generate.size: 1 to %d transactions per account.", f, MaxUserTransactions)
	}
	if _, err := reais(a.Balance, f+".balance", true); err != nil {
		return err
	}
	if err := a.checkCard(f); err != nil {
		return err
	}
	for i, t := range a.Transactions {
		tf := fmt.Sprintf("%s.transactions[%d]", f, i)
		if _, err := day(t.Date); err != nil {
			return invalid("%s.date: %q is not a date YYYY-MM-DD.", tf, t.Date)
		}
		if text(t.Description, 1, 200) != nil {
			return invalid("%s.description: 1 to 200 characters.", tf)
		}
		if t.Status != "" && t.Status != "POSTED" && t.Status != "PENDING" {
			return invalid("%s.status: %q is not POSTED or PENDING.", tf, t.Status)
		}
		amount, err := reais(t.Amount, tf+".amount", true)
		if err != nil {
			return err
		}
		if amount == 0 {
			return invalid("%s.amount: a transaction moves money; zero is refused.", tf)
		}
	}
	return nil
}

func (id *UserIdentity) check() error {
	if id == nil {
		return nil
	}
	switch {
	case text(id.FullName, 1, 120) != nil:
		return invalid("identity.fullName: 1 to 120 characters.")
	case id.Document != "" && !documentPattern.MatchString(id.Document):
		return invalid("identity.document: a CPF (11 digits) or CNPJ (14 digits), digits only.")
	case len(id.Emails) > 5 || len(id.Phones) > 5:
		return invalid("identity: at most 5 emails and 5 phones.")
	}
	if id.BirthDate != "" {
		if _, err := day(id.BirthDate); err != nil {
			return invalid("identity.birthDate: %q is not a date YYYY-MM-DD.", id.BirthDate)
		}
	}
	for i, e := range id.Emails {
		if text(e, 3, 120) != nil || !strings.Contains(e, "@") {
			return invalid("identity.emails[%d]: %q is not an e-mail address.", i, e)
		}
	}
	for i, p := range id.Phones {
		if !phonePattern.MatchString(p) {
			return invalid("identity.phones[%d]: %q is not a phone number.", i, p)
		}
	}
	return nil
}

func (e *UserError) check(mfa string) error {
	if e == nil {
		return nil
	}
	if !errorCodes[model.ExecutionStatus(e.Code)] {
		codes := make([]string, 0, len(errorCodes))
		for c := range errorCodes {
			codes = append(codes, string(c))
		}
		slices.Sort(codes)
		return invalid("error.code: %q is not an execution error an institution ends in (%s).", e.Code, strings.Join(codes, ", "))
	}
	switch e.Step {
	case StepLogin:
	case StepMFA:
		if mfa == "" || mfa == "NONE" {
			return invalid("error.step: MFA needs an mfa other than NONE.")
		}
	case StepCollect:
		if e.Product != "" && !slices.Contains(collectable, e.Product) {
			return invalid("error.product: %q is not one of %s.", e.Product, strings.Join(collectable, ", "))
		}
		return nil
	default:
		return invalid("error.step: %q is not LOGIN, MFA or COLLECT.", e.Step)
	}
	if e.Product != "" {
		return invalid("error.product: only with step COLLECT.")
	}
	return nil
}

var collectable = []string{string(model.ProductAccounts), string(model.ProductCreditCards), string(model.ProductTransactions),
	string(model.ProductInvestments), string(model.ProductIdentity), string(model.ProductLoans)}

// reais reads an amount in reais with at most two decimals, as centavos.
func reais(n Reais, field string, signed bool) (int64, error) {
	s := string(n)
	if s == "" {
		return 0, invalid("%s: required, an amount in reais with at most two decimals.", field)
	}
	if !amountPattern.MatchString(s) || (!signed && strings.HasPrefix(s, "-")) {
		return 0, invalid("%s: %q is not an amount in reais with at most two decimals%s.", field, s, map[bool]string{false: ", zero or more", true: ""}[signed])
	}
	whole, frac, _ := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	frac = (frac + "00")[:2]
	c, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil {
		return 0, invalid("%s: %q is too large.", field, s)
	}
	if strings.HasPrefix(s, "-") {
		c = -c
	}
	return c, nil
}

func day(s string) (time.Time, error) { return time.Parse(time.DateOnly, s) }

func text(s string, lo, hi int) error {
	n := len([]rune(s))
	if n < lo || n > hi || strings.ContainsAny(s, "\x00") {
		return errors.New("length")
	}
	return nil
}

// UserRules are the rules of custom users as the service's resolvers take them (they do
// not import the sandbox: cmd/ponte and the tests give them this).
type UserRules struct{}

// CheckUser reads and checks a description (ParseUser) and answers its username.
func (UserRules) CheckUser(raw []byte) (string, error) {
	u, err := ParseUser(raw)
	if err != nil {
		return "", err
	}
	return u.Username, nil
}

// MaxUsersPerApplication is MaxUsersPerApplication.
func (UserRules) MaxUsersPerApplication() int { return MaxUsersPerApplication }
