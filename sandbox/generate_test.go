package sandbox

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/brdocs"
	"ponte/model"
)

var testNow = time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)

func byID(list []model.Transaction) map[uuid.UUID]model.Transaction {
	m := make(map[uuid.UUID]model.Transaction, len(list))
	for _, t := range list {
		m[t.ID] = t
	}
	return m
}

func accountsBySubtype(s *Snapshot) map[string][]uuid.UUID {
	m := map[string][]uuid.UUID{}
	for _, a := range s.Accounts {
		m[a.Subtype] = append(m[a.Subtype], a.ID)
	}
	return m
}

// stored is a transaction as itemsync compares it: timestamps live in their own columns.
func stored(t model.Transaction) model.Transaction {
	t.CreatedAt, t.UpdatedAt = model.Time{}, model.Time{}
	return t
}

func TestGenerateIsDeterministic(t *testing.T) {
	item := uuid.New()
	a := Generate(item, 0, "user-ok", 1, testNow)
	b := Generate(item, 0, "user-ok", 1, testNow)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two runs of the same execution differ")
	}
	if len(byID(a.Transactions)) != len(a.Transactions) {
		t.Fatal("duplicate transaction ids")
	}
	// Another item with the same credentials sees the same data under other ids.
	c := Generate(uuid.New(), 0, "user-ok", 1, testNow)
	if len(c.Transactions) != len(a.Transactions) {
		t.Fatalf("same credentials, %d and %d transactions", len(a.Transactions), len(c.Transactions))
	}
	for i := range a.Transactions {
		x, y := a.Transactions[i], c.Transactions[i]
		if x.ID == y.ID || x.Description != y.Description || x.Amount != y.Amount || !x.Date.Equal(y.Date.Time) {
			t.Fatalf("row %d differs in shape: %+v / %+v", i, x, y)
		}
	}
	// Other credentials, other data.
	d := Generate(item, 0, "user-ok-account-warning", 1, testNow)
	if d.Identity.FullName == a.Identity.FullName && len(d.Transactions) == len(a.Transactions) {
		t.Fatal("different usernames produced the same data")
	}
}

// diff compares two snapshots' transactions the way ingestion does.
func diff(a, b []model.Transaction) (created, updated, deleted []model.Transaction) {
	old, cur := byID(a), byID(b)
	for _, t := range b {
		o, ok := old[t.ID]
		switch {
		case !ok:
			created = append(created, t)
		case !reflect.DeepEqual(stored(o), stored(t)):
			updated = append(updated, t)
		}
	}
	for _, t := range a {
		if _, ok := cur[t.ID]; !ok {
			deleted = append(deleted, t)
		}
	}
	return
}

func TestExecutionsCreateUpdateAndDelete(t *testing.T) {
	item := uuid.New()
	snaps := []*Snapshot{nil}
	for n := 1; n <= 4; n++ {
		snaps = append(snaps, Generate(item, 0, "user-ok", n, testNow.Add(time.Duration(n)*time.Minute)))
	}
	checking := accountsBySubtype(snaps[1])["CHECKING_ACCOUNT"][0]
	// First execution: the latest five checking rows are pending, the rest posted.
	var rows []model.Transaction
	for _, tx := range snaps[1].Transactions {
		if tx.AccountID == checking {
			rows = append(rows, tx)
		}
	}
	for i, tx := range rows {
		if want := i >= len(rows)-5; (tx.Status == "PENDING") != want {
			t.Fatalf("row %d of %d: status %s", i, len(rows), tx.Status)
		}
	}
	for n := 2; n <= 4; n++ {
		prev, cur := snaps[n-1], snaps[n]
		created, updated, deleted := diff(prev.Transactions, cur.Transactions)
		if len(created) == 0 || len(updated) == 0 || len(deleted) == 0 {
			t.Fatalf("%d→%d: created %d, updated %d, deleted %d", n-1, n, len(created), len(updated), len(deleted))
		}
		if len(deleted) > 2 {
			t.Fatalf("%d→%d: %d deleted, want one or two", n-1, n, len(deleted))
		}
		old := byID(prev.Transactions)
		for _, d := range deleted {
			if d.Status != "PENDING" {
				t.Fatalf("%d→%d: deleted a %s row", n-1, n, d.Status)
			}
		}
		for _, u := range updated {
			o := old[u.ID]
			if o.Status != "PENDING" || u.Status != "POSTED" {
				t.Fatalf("%d→%d: updated %s→%s: %s", n-1, n, o.Status, u.Status, u.Description)
			}
		}
		// New rows come after everything already seen (future installments aside).
		latest := map[uuid.UUID]time.Time{}
		for _, o := range prev.Transactions {
			if !o.Date.After(testNow.Add(time.Hour)) && o.Date.After(latest[o.AccountID]) {
				latest[o.AccountID] = o.Date.Time
			}
		}
		for _, c := range created {
			if c.Status != "PENDING" || !c.Date.After(latest[c.AccountID]) {
				t.Fatalf("%d→%d: created %s %s at %s, before %s", n-1, n, c.Status, c.Description, c.Date, latest[c.AccountID])
			}
		}
		// Rows of previous days never change.
		for _, c := range cur.Transactions {
			if o, ok := old[c.ID]; ok && c.Date.Before(testNow.Truncate(24*time.Hour)) && !reflect.DeepEqual(stored(o), stored(c)) {
				t.Fatalf("%d→%d: history row changed: %+v", n-1, n, c)
			}
		}
	}
	// Repeating an execution changes nothing.
	again := Generate(item, 0, "user-ok", 3, testNow.Add(3*time.Minute))
	if c, u, d := diff(snaps[3].Transactions, again.Transactions); len(c)+len(u)+len(d) != 0 {
		t.Fatalf("repeated execution: created %d updated %d deleted %d", len(c), len(u), len(d))
	}
}

// A day later the window has moved by a day: the rows both windows hold are identical,
// balances included, except card rows whose bill has just closed.
func TestMovingWindowKeepsRows(t *testing.T) {
	item := uuid.New()
	for _, day := range []time.Time{testNow, time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC), time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)} {
		a := Generate(item, 0, "user-ok", 7, day)
		b := Generate(item, 0, "user-ok", 8, day.AddDate(0, 0, 1))
		card := accountsBySubtype(a)["CREDIT_CARD"][0]
		today := day.Truncate(24 * time.Hour)
		old := byID(a.Transactions)
		same := 0
		for _, tx := range b.Transactions {
			o, ok := old[tx.ID]
			if !ok || !o.Date.Before(today) || (tx.AccountID == card && o.Status != tx.Status) {
				continue
			}
			if !reflect.DeepEqual(stored(o), stored(tx)) {
				t.Fatalf("%s: row changed when the window moved:\n%+v\n%+v", day, o, tx)
			}
			same++
		}
		if same < 300 {
			t.Fatalf("%s: only %d rows kept", day, same)
		}
	}
}

func validDoc(d *model.Document) bool {
	switch d.Type {
	case "CPF":
		return brdocs.ValidCPF(d.Value)
	case "CNPJ":
		return brdocs.ValidCNPJ(d.Value)
	}
	return false
}

func TestGeneratedDataIsRealistic(t *testing.T) {
	s := Generate(uuid.New(), 0, "user-ok", 1, testNow)
	kinds := accountsBySubtype(s)
	if len(kinds["CHECKING_ACCOUNT"]) != 1 || len(kinds["SAVINGS_ACCOUNT"]) != 1 || len(kinds["CREDIT_CARD"]) != 1 {
		t.Fatalf("accounts %v", kinds)
	}
	for _, a := range s.Accounts {
		switch a.Type {
		case "BANK":
			bd := a.BankData
			if bd == nil || bd.TransferNumber == nil || !strings.Contains(*bd.TransferNumber, "/") || !strings.Contains(*bd.TransferNumber, "-") ||
				bd.ClosingBalance == nil || bd.AutomaticallyInvestedBalance == nil || a.CreditData != nil || a.Balance == nil {
				t.Fatalf("bank account: %+v %+v", a, bd)
			}
			if a.Subtype == "CHECKING_ACCOUNT" && (bd.OverdraftContractedLimit == nil || bd.OverdraftUsedLimit == nil || bd.UnarrangedOverdraftAmount == nil) {
				t.Fatalf("checking account without overdraft data: %+v", bd)
			}
		case "CREDIT":
			cd := a.CreditData
			if cd == nil || a.BankData != nil || cd.Level == nil || cd.Brand == nil || cd.BalanceCloseDate == nil || cd.BalanceDueDate == nil ||
				cd.AvailableCreditLimit == nil || cd.CreditLimit == nil || cd.MinimumPayment == nil || cd.IsLimitFlexible == nil ||
				cd.Status == nil || cd.HolderType == nil || len(cd.DisaggregatedCreditLimits) == 0 || len(cd.AdditionalCards) == 0 {
				t.Fatalf("card without full credit data: %+v", cd)
			}
		}
	}
	checking := map[uuid.UUID]bool{kinds["CHECKING_ACCOUNT"][0]: true}
	card := kinds["CREDIT_CARD"][0]
	year, cardRows := 0, 0
	var pix, ted, boleto, installments, merchants, mcc, salary, fee int
	for _, tx := range s.Transactions {
		if checking[tx.AccountID] && tx.Date.After(testNow.AddDate(-1, 0, 0)) {
			year++
		}
		if tx.AccountID == card {
			cardRows++
			if (tx.Amount > 0) != (tx.Type == "DEBIT") {
				t.Fatalf("card sign and type disagree: %+v", tx)
			}
		} else if (tx.Amount < 0) != (tx.Type == "DEBIT") {
			t.Fatalf("bank sign and type disagree: %+v", tx)
		}
		if tx.Category != nil || tx.CategoryID != nil {
			t.Fatalf("category set by the generator: %+v", tx)
		}
		if tx.Status != "PENDING" && tx.Status != "POSTED" {
			t.Fatalf("status %q", tx.Status)
		}
		if pd := tx.PaymentData; pd != nil {
			for _, p := range []*model.PaymentParticipant{pd.Payer, pd.Receiver} {
				if p == nil || p.DocumentNumber == nil || !validDoc(p.DocumentNumber) {
					t.Fatalf("payment participant %+v of %s", p, tx.Description)
				}
			}
			switch *pd.PaymentMethod {
			case "PIX":
				pix++
				if pd.ReferenceNumber == nil || len(*pd.ReferenceNumber) != 32 || pd.Payer.BranchNumber == nil || pd.Receiver.AccountNumber == nil || pd.Receiver.RoutingNumber == nil {
					t.Fatalf("PIX without bank data: %+v", pd)
				}
			case "TED":
				ted++
			case "BOLETO":
				boleto++
				if pd.BoletoMetadata != nil && !validBoleto(pd.BoletoMetadata) {
					t.Fatalf("invalid boleto barcode %s", *pd.BoletoMetadata.Barcode)
				}
			}
		}
		if m := tx.Merchant; m != nil {
			merchants++
			if !brdocs.ValidCNPJ(m.CNPJ) || m.Name == "" || m.BusinessName == "" || m.CNAE == nil || m.Category == nil {
				t.Fatalf("merchant %+v", m)
			}
		}
		if c := tx.CreditCardMetadata; c != nil {
			if c.PayeeMCC != nil {
				mcc++
			}
			if c.TotalInstallments != nil && *c.TotalInstallments > 1 {
				installments++
			}
		}
		if strings.HasPrefix(tx.Description, "SALARIO ") {
			salary++
		}
		if strings.HasPrefix(tx.Description, "TARIFA ") {
			fee++
		}
	}
	if year < 200 || cardRows < 100 || pix == 0 || ted == 0 || boleto == 0 || installments == 0 || merchants == 0 || mcc == 0 || salary < 12 || fee < 12 {
		t.Fatalf("checking last year %d, card %d, pix %d, ted %d, boleto %d, installments %d, merchants %d, mcc %d, salary %d, fee %d",
			year, cardRows, pix, ted, boleto, installments, merchants, mcc, salary, fee)
	}
	t.Logf("checking rows in the last year: %d; card rows: %d", year, cardRows)
	if len(s.Investments) < 4 || len(s.InvestmentTransactions) < 4 || s.Identity == nil || len(s.Loans) == 0 || len(s.Bills) != 12 || len(s.Statements) != 24 {
		t.Fatalf("products: %d investments, %d investment transactions, %d loans, %d bills, %d statements",
			len(s.Investments), len(s.InvestmentTransactions), len(s.Loans), len(s.Bills), len(s.Statements))
	}
	invs := map[uuid.UUID]bool{}
	for _, inv := range s.Investments {
		invs[inv.ID] = true
	}
	for _, it := range s.InvestmentTransactions {
		if !invs[it.InvestmentID] {
			t.Fatalf("investment transaction of an unknown investment: %+v", it)
		}
	}
	id := s.Identity
	if !brdocs.ValidCPF(*id.TaxNumber) || *id.Document != *id.TaxNumber || id.BirthDate == nil || len(id.Addresses) == 0 || len(id.PhoneNumbers) == 0 ||
		len(id.Emails) == 0 || id.FinancialRelationships == nil || id.Qualifications == nil || !brdocs.ValidCNPJ(id.Qualifications.CompanyCNPJ) {
		t.Fatalf("identity %+v", id)
	}
	for _, r := range id.Relations {
		if !brdocs.ValidCPF(*r.Document) {
			t.Fatalf("relation %+v", r)
		}
	}
}

// Running balances add up, and order counts the rows of each day.
func TestBalancesAndOrder(t *testing.T) {
	for _, user := range []string{"user-ok", "user-ok-perf-3", "user-ok-two-checking-accounts"} {
		s := Generate(uuid.New(), 0, user, 2, testNow)
		for _, a := range s.Accounts {
			var prev *model.Transaction
			for i := range s.Transactions {
				tx := &s.Transactions[i]
				if tx.AccountID != a.ID {
					continue
				}
				if prev != nil && tx.Date.Before(prev.Date.Time) {
					t.Fatalf("%s: rows out of date order", user)
				}
				sameDay := prev != nil && tx.Date.Truncate(24*time.Hour).Equal(prev.Date.Truncate(24*time.Hour))
				if (sameDay && tx.Order != prev.Order+1) || (!sameDay && tx.Order != 1) {
					t.Fatalf("%s: order %d after %+v", user, tx.Order, prev)
				}
				if a.Type == "BANK" {
					if tx.Balance == nil {
						t.Fatalf("%s: bank row without balance", user)
					}
					if prev != nil && math.Abs(*prev.Balance+tx.Amount-*tx.Balance) > 0.005 {
						t.Fatalf("%s: balance %.2f + %.2f != %.2f", user, *prev.Balance, tx.Amount, *tx.Balance)
					}
				}
				prev = tx
			}
			if a.Type == "BANK" && (prev == nil || *a.Balance != *prev.Balance) {
				t.Fatalf("%s: %s balance %v, last row %+v", user, a.Subtype, *a.Balance, prev)
			}
		}
	}
}

// Every bill's total is the sum of the card rows pointing at it, and the checking account
// pays it on the due date.
func TestBillsMatchTransactions(t *testing.T) {
	s := Generate(uuid.New(), 0, "user-ok", 1, testNow)
	sums := map[string]float64{}
	for _, tx := range s.Transactions {
		if c := tx.CreditCardMetadata; c != nil && c.BillID != nil {
			v := tx.Amount
			if tx.AmountInAccountCurrency != nil {
				v = *tx.AmountInAccountCurrency
			}
			sums[*c.BillID] += v
			if tx.Status != "POSTED" {
				t.Fatalf("billed row pending: %+v", tx)
			}
		}
	}
	payments := map[string]float64{}
	for _, tx := range s.Transactions {
		if tx.Description == "PAGAMENTO FATURA CARTAO MASTERCARD" {
			payments[tx.Date.Format("2006-01-02")] = -tx.Amount
		}
	}
	card := accountsBySubtype(s)["CREDIT_CARD"][0]
	for _, b := range s.Bills {
		if b.AccountID != card || b.TotalAmount <= 0 {
			t.Fatalf("bill %+v", b)
		}
		if math.Abs(sums[b.ID.String()]-b.TotalAmount) > 0.005 {
			t.Fatalf("bill due %s: total %.2f, rows sum %.2f", b.DueDate.Format("2006-01-02"), b.TotalAmount, sums[b.ID.String()])
		}
		if b.DueDate.Before(testNow) {
			if got := payments[b.DueDate.Format("2006-01-02")]; math.Abs(got-b.TotalAmount) > 0.005 || len(b.Payments) != 1 {
				t.Fatalf("bill due %s of %.2f paid %.2f", b.DueDate.Format("2006-01-02"), b.TotalAmount, got)
			}
		}
	}
}

func TestUsernames(t *testing.T) {
	two := Generate(uuid.New(), 0, "user-ok-two-checking-accounts", 1, testNow)
	if n := len(accountsBySubtype(two)["CHECKING_ACCOUNT"]); n != 2 || len(two.Accounts) != 4 {
		t.Fatalf("two checking accounts: %d checking of %d accounts", n, len(two.Accounts))
	}
	perCount := map[uuid.UUID]int{}
	for _, tx := range two.Transactions {
		perCount[tx.AccountID]++
	}
	for _, id := range accountsBySubtype(two)["CHECKING_ACCOUNT"] {
		if perCount[id] < 200 {
			t.Fatalf("checking account with %d rows", perCount[id])
		}
	}
	const cpf = "52998224725"
	doc := Generate(uuid.New(), 5, "user-ok:"+cpf, 1, testNow)
	if *doc.Identity.TaxNumber != cpf || *doc.Accounts[0].TaxNumber != cpf {
		t.Fatalf("CPF login collected %s", *doc.Identity.TaxNumber)
	}
	for _, tx := range doc.Transactions {
		if tx.ProviderID == nil {
			t.Fatal("Open Finance connector without providerId")
		}
	}
	if s := Generate(uuid.New(), 0, "user-ok", 1, testNow); s.Transactions[0].ProviderID != nil {
		t.Fatal("providerId outside Open Finance")
	}
}

func TestPerfMultiplier(t *testing.T) {
	one := Generate(uuid.New(), 0, "user-ok-perf-1", 1, testNow)
	ten := Generate(uuid.New(), 0, "user-ok-perf-10", 1, testNow)
	checking := accountsBySubtype(one)["CHECKING_ACCOUNT"][0]
	history := 0
	for _, tx := range one.Transactions {
		if tx.AccountID == checking && tx.Date.Before(testNow.Truncate(24*time.Hour)) && !strings.HasSuffix(tx.Description, " CDB DI") {
			history++
		}
	}
	if d := len(ten.Transactions) - len(one.Transactions); d != 9*history {
		t.Fatalf("perf-10 adds %d transactions over perf-1, want 9×%d", d, history)
	}
	if len(byID(ten.Transactions)) != len(ten.Transactions) {
		t.Fatal("duplicate ids in perf copies")
	}
	if history*maxPerf < 1_000_000 {
		t.Fatalf("perf-%d would hold only %d rows", maxPerf, history*maxPerf)
	}
	if perfMultiplier("user-ok-perf-x") != 1 || perfMultiplier("user-ok-perf-99999") != maxPerf || perfMultiplier("user-ok") != 1 {
		t.Fatal("perfMultiplier")
	}
}

func jsonKeys(t *testing.T, v any) []string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// The JSON of each product carries exactly the official client's fields (types in
// /tmp/sdk/package/dist/types/*.d.ts) plus the listed additions from the spec or ours.
func TestJSONFieldNames(t *testing.T) {
	s := Generate(uuid.New(), 0, "user-ok", 1, testNow)
	var pix, card model.Transaction
	for _, tx := range s.Transactions {
		if tx.PaymentData != nil && *tx.PaymentData.PaymentMethod == "PIX" && pix.PaymentData == nil {
			pix = tx
		}
		if tx.Merchant != nil && tx.CreditCardMetadata != nil && tx.CreditCardMetadata.TotalInstallments != nil && tx.CreditCardMetadata.BillID != nil {
			card = tx
		}
	}
	cases := []struct {
		name     string
		value    any
		dts      string // fields of the official client's type, always written
		extra    string // fields it lacks, from the spec or ours
		optional string // fields of the official client's type written only when known
	}{
		{"Transaction", pix, "id accountId date description descriptionRaw type amount amountInAccountCurrency balance currencyCode category " +
			"status providerCode paymentData creditCardMetadata merchant categoryId operationType operationTypeAdditionalInfo providerId createdAt updatedAt", "order", ""},
		{"Transaction (card)", card, "id accountId date description descriptionRaw type amount amountInAccountCurrency balance currencyCode category " +
			"status providerCode paymentData creditCardMetadata merchant categoryId operationType operationTypeAdditionalInfo providerId createdAt updatedAt", "order", ""},
		{"TransactionPaymentData", pix.PaymentData, "payer receiver paymentMethod referenceNumber boletoMetadata", "", "reason receiverReferenceId"},
		{"TransactionPaymentParticipant", pix.PaymentData.Payer, "documentNumber name accountNumber branchNumber routingNumber routingNumberISPB", "", ""},
		{"TransactionPaymentParticipantDocument", pix.PaymentData.Payer.DocumentNumber, "type value", "", ""},
		{"CreditCardMetadata", card.CreditCardMetadata, "installmentNumber totalInstallments totalAmount payeeMCC purchaseDate billId cardNumber", "",
			"feeType feeTypeAdditionalInfo otherCreditsType otherCreditsAdditionalInfo billForecastDate"},
		{"TransactionMerchantData", card.Merchant, "name businessName cnpj cnae category", "", ""},
		{"Account", s.Accounts[0], "id itemId type subtype number balance name marketingName owner taxNumber currencyCode bankData creditData", "createdAt updatedAt", ""},
		{"BankData", s.Accounts[0].BankData, "transferNumber closingBalance automaticallyInvestedBalance overdraftContractedLimit overdraftUsedLimit " +
			"unarrangedOverdraftAmount hasReservedBalance reservedBalances", "", ""},
		{"CreditData", s.Accounts[2].CreditData, "level brand balanceCloseDate balanceDueDate availableCreditLimit balanceForeignCurrency minimumPayment " +
			"creditLimit isLimitFlexible status holderType disaggregatedCreditLimits", "additionalCards", ""},
		{"Investment", s.Investments[0], "id code issuerCNPJ number isin itemId type subtype name currencyCode date value quantity taxes taxes2 balance " +
			"amount amountWithdrawal amountProfit amountOriginal dueDate issuer issueDate purchaseDate rate rateType fixedAnnualRate lastMonthRate " +
			"annualRate lastTwelveMonthsRate status transactions metadata owner institution", "createdAt updatedAt", ""},
		{"InvestmentTransaction", s.InvestmentTransactions[0], "id type description investmentId quantity value amount date tradeDate " +
			"brokerageNumber netAmount expenses movementType agreedRate", "indexerPercentage priceFactor createdAt updatedAt", ""},
		{"Expenses", s.InvestmentTransactions[0].Expenses, "serviceTax brokerageFee incomeTax other tradingAssetsNoticeFee maintenanceFee " +
			"settlementFee clearingFee stockExchangeFee custodyFee operatingFee", "iof iofProvision", ""},
		{"IdentityResponse", s.Identity, "id itemId birthDate taxNumber document documentType jobTitle companyName fullName phoneNumbers emails " +
			"addresses relations investorProfile establishmentName establishmentCode financialRelationships qualifications socialName sex " +
			"maritalStatus nationality otherDocuments passport incorporationDate parties businessOtherDocuments companiesCnpj createdAt updatedAt", "", ""},
		{"Address", s.Identity.Addresses[0], "fullAddress primaryAddress city postalCode state country type additionalInfo district ibgeTownCode " +
			"countryCode geographicCoordinates", "", ""},
		{"Loan", s.Loans[0], "id itemId contractNumber ipocCode productName type kind date contractDate disbursementDates settlementDate " +
			"contractAmount currencyCode dueDate installmentPeriodicity installmentPeriodicityAdditionalInfo firstInstallmentDueDate CET " +
			"amortizationScheduled amortizationScheduledAdditionalInfo cnpjConsignee interestRates contractedFees contractedFinanceCharges " +
			"warranties installments payments", "createdAt updatedAt", ""},
		{"LoanInstallments", s.Loans[0].Installments, "typeNumberOfInstallments totalNumberOfInstallments typeContractRemaining " +
			"contractRemainingNumber paidInstallments dueInstallments pastDueInstallments balloonPayments", "", ""},
		{"CreditCardBills", s.Bills[0], "id dueDate billClosingDate totalAmount totalAmountCurrencyCode minimumPaymentAmount allowsInstallments " +
			"financeCharges payments createdAt updatedAt", "accountId", ""},
		{"CreditCardBillPayment", s.Bills[0].Payments[0], "id valueType paymentDate paymentMode amount currencyCode", "", ""},
		{"AccountStatement", s.Statements[0], "id monthYear url", "accountId", ""},
	}
	for _, c := range cases {
		want := strings.Fields(c.dts + " " + c.extra)
		sort.Strings(want)
		var got []string
		for _, k := range jsonKeys(t, c.value) {
			if !slices.Contains(strings.Fields(c.optional), k) {
				got = append(got, k)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s JSON fields\n got %v\nwant %v", c.name, got, want)
		}
	}
}

// validBoleto reports whether a generated boleto's barcode and line are one valid code of
// either kind, a bank boleto or a utility bill.
func validBoleto(m *model.BoletoMetadata) bool {
	if m.Barcode == nil || m.DigitableLine == nil {
		return false
	}
	if strings.HasPrefix(*m.Barcode, "8") {
		u, err := brdocs.ParseUtilityLine(*m.DigitableLine)
		return err == nil && u.Barcode() == *m.Barcode && u.Line() == *m.DigitableLine
	}
	c, err := brdocs.ParseBoletoLine(*m.DigitableLine)
	return err == nil && c.Barcode() == *m.Barcode && c.Line() == *m.DigitableLine
}

// The sandbox's boletos carry what it means them to: the bank, due date and amount of a
// bank boleto, the segment, amount and biller of a utility bill (the arithmetic is
// brdocs', tested there).
func TestBoletos(t *testing.T) {
	due := time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC)
	bc, line := bankBoleto("341", due, centavos(1234.56), "1234567890123456789012345")
	c, err := brdocs.ParseBoletoLine(line)
	if err != nil || c.Barcode() != bc || c.Bank != "341" || c.Cents != 123456 || !brdocs.FactorDate(c.Factor, due).Equal(due) || c.FreeField != "1234567890123456789012345" {
		t.Fatalf("bank boleto %s %s: %+v %v", bc, line, c, err)
	}
	ubc, uline := utilityBoleto('3', centavos(150.5), "0048", "1234567890123456789012345")
	u, err := brdocs.ParseUtilityLine(uline)
	if err != nil || u.Barcode() != ubc || u.Segment != '3' || u.ValueID != '6' || u.Value != 15050 || u.Company != "0048" {
		t.Fatalf("utility bill %s %s: %+v %v", ubc, uline, u, err)
	}
	for reais, cents := range map[float64]int64{0.29: 29, 1.15: 115, 4.35: 435, 1234.56: 123456, 0.01: 1, 99999.99: 9999999} {
		if got := centavos(reais); got != cents {
			t.Errorf("centavos(%v) = %d, want %d", reais, got, cents)
		}
	}
}

func BenchmarkGenerate(b *testing.B) {
	item := uuid.New()
	for b.Loop() {
		Generate(item, 0, "user-ok", 1, testNow)
	}
}

func BenchmarkGeneratePerf5000(b *testing.B) {
	for b.Loop() {
		s := Generate(uuid.New(), 0, "user-ok-perf-5000", 1, testNow)
		b.ReportMetric(float64(len(s.Transactions)), "transactions")
	}
}
