package sandbox

// The card details, bills and investment transactions of a custom user's description
// (users.go): checked with the field named, and made into the model's rows.

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/google/uuid"

	"ponte/model"
)

// Limits of the parts below, per card or per investment.
const (
	MaxUserBills                  = 24
	MaxUserFinanceCharges         = 10
	MaxUserInvestmentTransactions = 200
)

// UserCreditData is a card account's creditData; every field may be left out.
type UserCreditData struct {
	Level                string `json:"level,omitempty"`
	Brand                string `json:"brand,omitempty"`
	CreditLimit          Reais  `json:"creditLimit,omitempty"`
	AvailableCreditLimit Reais  `json:"availableCreditLimit,omitempty"`
	MinimumPayment       Reais  `json:"minimumPayment,omitempty"`
	BalanceCloseDate     string `json:"balanceCloseDate,omitempty"`
	BalanceDueDate       string `json:"balanceDueDate,omitempty"`
	IsLimitFlexible      *bool  `json:"isLimitFlexible,omitempty"`
	Status               string `json:"status,omitempty"`
	HolderType           string `json:"holderType,omitempty"`
}

// UserBill is one bill of a card: its totalAmount is reported as given.
type UserBill struct {
	DueDate            string              `json:"dueDate"`
	ClosingDate        string              `json:"closingDate,omitempty"`
	TotalAmount        Reais               `json:"totalAmount"`
	MinimumPayment     Reais               `json:"minimumPayment,omitempty"`
	AllowsInstallments *bool               `json:"allowsInstallments,omitempty"`
	FinanceCharges     []UserFinanceCharge `json:"financeCharges,omitempty"`
}

// UserFinanceCharge is a charge on a bill.
type UserFinanceCharge struct {
	Type           string `json:"type"`
	Amount         Reais  `json:"amount"`
	AdditionalInfo string `json:"additionalInfo,omitempty"`
}

// UserInvestmentTransaction is one movement of an investment; movementType follows the
// type (BUY and TRANSFER credit the position, SELL and TAX debit it).
type UserInvestmentTransaction struct {
	Date        string   `json:"date"`
	Type        string   `json:"type"`
	Amount      Reais    `json:"amount"`
	Quantity    *float64 `json:"quantity,omitempty"`
	Value       Reais    `json:"value,omitempty"`
	Description string   `json:"description,omitempty"`
}

var (
	cardStatuses   = []string{"ACTIVE", "BLOCKED", "CANCELLED"}
	holderTypes    = []string{"MAIN", "ADDITIONAL"}
	chargeTypes    = []string{"LATE_PAYMENT_REMUNERATIVE_INTEREST", "LATE_PAYMENT_FEE", "LATE_PAYMENT_INTEREST", "IOF", "OTHER"}
	investmentMove = map[string]string{"BUY": "CREDIT", "TRANSFER": "CREDIT", "SELL": "DEBIT", "TAX": "DEBIT"}
)

// checkCard checks the card parts of account a, named f; a bank account has none.
func (a *UserAccount) checkCard(f string) error {
	if a.Type != "CREDIT" {
		switch {
		case a.CreditData != nil:
			return invalid("%s.creditData: only on a CREDIT account.", f)
		case len(a.Bills) > 0:
			return invalid("%s.bills: only on a CREDIT account.", f)
		}
		return nil
	}
	if cd := a.CreditData; cd != nil {
		cf := f + ".creditData"
		switch {
		case text(cd.Level, 0, 40) != nil:
			return invalid("%s.level: at most 40 characters.", cf)
		case text(cd.Brand, 0, 40) != nil:
			return invalid("%s.brand: at most 40 characters.", cf)
		case cd.Status != "" && !slices.Contains(cardStatuses, cd.Status):
			return invalid("%s.status: %q is not one of %s.", cf, cd.Status, strings.Join(cardStatuses, ", "))
		case cd.HolderType != "" && !slices.Contains(holderTypes, cd.HolderType):
			return invalid("%s.holderType: %q is not one of %s.", cf, cd.HolderType, strings.Join(holderTypes, ", "))
		}
		for name, v := range map[string]Reais{"creditLimit": cd.CreditLimit, "availableCreditLimit": cd.AvailableCreditLimit, "minimumPayment": cd.MinimumPayment} {
			if err := optionalReais(v, cf+"."+name); err != nil {
				return err
			}
		}
		for name, v := range map[string]string{"balanceCloseDate": cd.BalanceCloseDate, "balanceDueDate": cd.BalanceDueDate} {
			if err := optionalDay(v, cf+"."+name); err != nil {
				return err
			}
		}
		if cd.CreditLimit != "" && cd.AvailableCreditLimit != "" && toReais(cd.AvailableCreditLimit) > toReais(cd.CreditLimit) {
			return invalid("%s.availableCreditLimit: %s is more than the creditLimit %s.", cf, cd.AvailableCreditLimit, cd.CreditLimit)
		}
	}
	if len(a.Bills) > MaxUserBills {
		return invalid("%s.bills: %d bills; at most %d per card.", f, len(a.Bills), MaxUserBills)
	}
	dues := map[string]bool{}
	for i, b := range a.Bills {
		bf := fmt.Sprintf("%s.bills[%d]", f, i)
		due, err := day(b.DueDate)
		if err != nil {
			return invalid("%s.dueDate: %q is not a date YYYY-MM-DD.", bf, b.DueDate)
		}
		if dues[b.DueDate] {
			return invalid("%s.dueDate: another bill of this card is due on %s.", bf, b.DueDate)
		}
		dues[b.DueDate] = true
		if err := optionalDay(b.ClosingDate, bf+".closingDate"); err != nil {
			return err
		}
		if closing, err := day(b.ClosingDate); err == nil && closing.After(due) {
			return invalid("%s.closingDate: %s is after the dueDate %s.", bf, b.ClosingDate, b.DueDate)
		}
		if _, err := reais(b.TotalAmount, bf+".totalAmount", true); err != nil {
			return err
		}
		if err := optionalReais(b.MinimumPayment, bf+".minimumPayment"); err != nil {
			return err
		}
		if len(b.FinanceCharges) > MaxUserFinanceCharges {
			return invalid("%s.financeCharges: %d charges; at most %d per bill.", bf, len(b.FinanceCharges), MaxUserFinanceCharges)
		}
		for j, c := range b.FinanceCharges {
			ff := fmt.Sprintf("%s.financeCharges[%d]", bf, j)
			if !slices.Contains(chargeTypes, c.Type) {
				return invalid("%s.type: %q is not one of %s.", ff, c.Type, strings.Join(chargeTypes, ", "))
			}
			if _, err := reais(c.Amount, ff+".amount", false); err != nil {
				return err
			}
			if text(c.AdditionalInfo, 0, 200) != nil {
				return invalid("%s.additionalInfo: at most 200 characters.", ff)
			}
		}
	}
	return nil
}

// checkTransactions checks the movements of investment inv, named f.
func (inv *UserInvestment) checkTransactions(f string) error {
	if len(inv.Transactions) > MaxUserInvestmentTransactions {
		return invalid("%s.transactions: %d transactions; at most %d per investment.", f, len(inv.Transactions), MaxUserInvestmentTransactions)
	}
	for i, t := range inv.Transactions {
		tf := fmt.Sprintf("%s.transactions[%d]", f, i)
		if _, err := day(t.Date); err != nil {
			return invalid("%s.date: %q is not a date YYYY-MM-DD.", tf, t.Date)
		}
		if investmentMove[t.Type] == "" {
			return invalid("%s.type: %q is not one of BUY, SELL, TAX, TRANSFER.", tf, t.Type)
		}
		amount, err := reais(t.Amount, tf+".amount", false)
		if err != nil {
			return err
		}
		if amount == 0 {
			return invalid("%s.amount: a movement moves money; zero is refused.", tf)
		}
		if q := t.Quantity; q != nil && (*q <= 0 || math.IsInf(*q, 0) || *q > 1e12) {
			return invalid("%s.quantity: a positive number of units.", tf)
		}
		if err := optionalReais(t.Value, tf+".value"); err != nil {
			return err
		}
		if text(t.Description, 0, 200) != nil {
			return invalid("%s.description: at most 200 characters.", tf)
		}
	}
	return nil
}

func optionalReais(v Reais, field string) error {
	if v == "" {
		return nil
	}
	_, err := reais(v, field, false)
	return err
}

func optionalDay(v, field string) error {
	if v == "" {
		return nil
	}
	if _, err := day(v); err != nil {
		return invalid("%s: %q is not a date YYYY-MM-DD.", field, v)
	}
	return nil
}

func optionalAmount(v Reais) *float64 {
	if v == "" {
		return nil
	}
	return fp(toReais(v))
}

func optionalTime(v string) *model.Time {
	d, err := day(v)
	if err != nil {
		return nil
	}
	return tp(d)
}

func optionalText(v string) *string {
	if v == "" {
		return nil
	}
	return sp(v)
}

// creditData is the card's creditData as described (empty when nothing is).
func (a *UserAccount) creditData() *model.CreditData {
	cd := a.CreditData
	if cd == nil {
		return &model.CreditData{}
	}
	return &model.CreditData{Level: optionalText(cd.Level), Brand: optionalText(cd.Brand), CreditLimit: optionalAmount(cd.CreditLimit),
		AvailableCreditLimit: optionalAmount(cd.AvailableCreditLimit), MinimumPayment: optionalAmount(cd.MinimumPayment),
		BalanceCloseDate: optionalTime(cd.BalanceCloseDate), BalanceDueDate: optionalTime(cd.BalanceDueDate),
		IsLimitFlexible: cd.IsLimitFlexible, Status: optionalText(cd.Status), HolderType: optionalText(cd.HolderType)}
}

// bills are the card's bills, ids derived by id from the card number and the due date.
func (a *UserAccount) bills(account uuid.UUID, currency string, ts model.Time, id func(string) uuid.UUID) []model.CreditCardBill {
	var out []model.CreditCardBill
	for _, b := range a.Bills {
		due, _ := day(b.DueDate)
		key := "bill:" + a.Number + ":" + b.DueDate
		bill := model.CreditCardBill{ID: id(key), AccountID: account, DueDate: model.NewTime(due), BillClosingDate: optionalTime(b.ClosingDate),
			TotalAmount: toReais(b.TotalAmount), TotalAmountCurrencyCode: currency, MinimumPaymentAmount: optionalAmount(b.MinimumPayment),
			AllowsInstallments: b.AllowsInstallments, FinanceCharges: []model.CreditCardBillFinanceCharge{}, Payments: []model.CreditCardBillPayment{},
			CreatedAt: ts, UpdatedAt: ts}
		for j, c := range b.FinanceCharges {
			bill.FinanceCharges = append(bill.FinanceCharges, model.CreditCardBillFinanceCharge{ID: id(fmt.Sprintf("%s:charge:%d", key, j)),
				Type: c.Type, Amount: toReais(c.Amount), CurrencyCode: currency, AdditionalInfo: optionalText(c.AdditionalInfo)})
		}
		out = append(out, bill)
	}
	return out
}

// investmentTransactions are inv's movements, ids derived by id from key.
func (inv *UserInvestment) investmentTransactions(investment uuid.UUID, key string, ts model.Time, id func(string) uuid.UUID) []model.InvestmentTransaction {
	var out []model.InvestmentTransaction
	for j, t := range inv.Transactions {
		d, _ := day(t.Date)
		amount := toReais(t.Amount)
		desc := t.Description
		if desc == "" {
			desc = t.Type + " " + inv.Name
		}
		out = append(out, model.InvestmentTransaction{ID: id(fmt.Sprintf("%s:tx:%d", key, j)), InvestmentID: investment, Type: t.Type,
			MovementType: investmentMove[t.Type], Description: sp(desc), Quantity: t.Quantity, Value: optionalAmount(t.Value),
			Amount: fp(amount), NetAmount: fp(amount), Date: model.NewTime(d), TradeDate: tp(d), CreatedAt: ts, UpdatedAt: ts})
	}
	return out
}
