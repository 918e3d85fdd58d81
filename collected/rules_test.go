package collected

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// The pure rules of the reads, table by table; their HTTP behaviour is tested in rest/.

// ok is the want of a case without error.
var ok model.Code

func wantCode(t *testing.T, err error, code model.Code) {
	t.Helper()
	var e *model.Error
	if code == ok {
		if err != nil {
			t.Fatalf("unexpected error %v", err)
		}
		return
	}
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("error %v, want %s", err, code)
	}
}

func TestTransactionCursorBinding(t *testing.T) {
	t.Parallel()
	e := New(nil, auth.NewService(nil, []byte("test-master-key-0123456789abcdef")), nil, nil)
	day := func(d int) *time.Time { v := time.Date(2024, 3, d, 0, 0, 0, 0, time.UTC); return &v }
	acct, other := uuid.New(), uuid.New()
	base := model.TransactionFilter{AccountID: acct, IDs: []uuid.UUID{uuid.Nil}, DateFrom: day(1), DateTo: day(9), CreatedAtFrom: day(2)}
	key := db.TransactionKey{Date: time.Date(2024, 3, 4, 10, 30, 0, 123456789, time.UTC), ID: uuid.New()}
	cursor := e.TransactionCursor(base, key)
	with := func(change func(*model.TransactionFilter)) model.TransactionFilter {
		f := base
		change(&f)
		return f
	}
	cases := []struct {
		name   string
		cursor string
		filter model.TransactionFilter
		want   model.Code
	}{
		{"same list", cursor, base, ok},
		{"another account", cursor, with(func(f *model.TransactionFilter) { f.AccountID = other }), model.CodeInvalidCursor},
		{"other ids", cursor, with(func(f *model.TransactionFilter) { f.IDs = nil }), model.CodeInvalidCursor},
		{"other dateFrom", cursor, with(func(f *model.TransactionFilter) { f.DateFrom = day(2) }), model.CodeInvalidCursor},
		{"no dateTo", cursor, with(func(f *model.TransactionFilter) { f.DateTo = nil }), model.CodeInvalidCursor},
		{"other createdAtFrom", cursor, with(func(f *model.TransactionFilter) { f.CreatedAtFrom = day(3) }), model.CodeInvalidCursor},
		{"altered", altered(cursor), base, model.CodeInvalidCursor},
		{"not a cursor", "page-2", base, model.CodeInvalidCursor},
		{"signed, not a position", e.auth.SignCursor([]byte(`"x"`)), base, model.CodeInvalidCursor},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := e.openTxCursor(c.cursor, c.filter)
			wantCode(t, err, c.want)
			if c.want == ok && (!got.Date.Equal(key.Date) || got.ID != key.ID) {
				t.Fatalf("opened to %+v, want %+v", got, key)
			}
		})
	}
}

// altered changes a cursor's last character.
func altered(s string) string {
	last := byte('A')
	if s[len(s)-1] == last {
		last = 'B'
	}
	return s[:len(s)-1] + string(last)
}

func TestTransactionFilterOf(t *testing.T) {
	t.Parallel()
	acct, id := uuid.New(), uuid.New()
	at := func(s string) *model.Time { v, _ := time.Parse(time.RFC3339, s); return &model.Time{Time: v} }
	cases := []struct {
		name string
		in   *model.TransactionFilterInput
		want string
	}{
		{"no filter", nil, fmt.Sprint(acct, " [] <nil> <nil> <nil>")},
		{"empty filter", &model.TransactionFilterInput{}, fmt.Sprint(acct, " [] <nil> <nil> <nil>")},
		{"every field", &model.TransactionFilterInput{IDs: []uuid.UUID{id}, DateFrom: at("2024-01-01T00:00:00Z"),
			DateTo: &model.UpTo{Time: at("2024-02-01T00:00:00Z").Time}, CreatedAtFrom: at("2024-01-15T12:00:00Z")},
			fmt.Sprint(acct, " [", id, "] 2024-01-01 2024-02-01 2024-01-15T12:00")},
	}
	show := func(t *time.Time) string {
		if t == nil {
			return "<nil>"
		}
		if t.Hour() == 0 {
			return t.Format("2006-01-02")
		}
		return t.Format("2006-01-02T15:04")
	}
	for _, c := range cases {
		f := TransactionFilterOf(acct, c.in)
		if got := fmt.Sprint(f.AccountID, " ", f.IDs, " ", show(f.DateFrom), " ", show(f.DateTo), " ", show(f.CreatedAtFrom)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

func TestCheckTransactionFilter(t *testing.T) {
	t.Parallel()
	day := func(d int) *time.Time { v := time.Date(2024, 3, d, 0, 0, 0, 0, time.UTC); return &v }
	cases := []struct {
		from, to *time.Time
		want     model.Code
	}{
		{nil, nil, ok},
		{day(1), nil, ok},
		{nil, day(1), ok},
		{day(1), day(1), ok},
		{day(1), day(2), ok},
		{day(2), day(1), model.CodeInvalidParameter},
	}
	for _, c := range cases {
		wantCode(t, CheckTransactionFilter(model.TransactionFilter{DateFrom: c.from, DateTo: c.to}), c.want)
	}
}

func TestFirst(t *testing.T) {
	t.Parallel()
	n := func(v int) *int { return &v }
	cases := []struct {
		first *int
		want  int
		code  model.Code
	}{
		{nil, 20, ok}, {n(1), 1, ok}, {n(MaxFirst), MaxFirst, ok},
		{n(0), 0, model.CodeInvalidParameter}, {n(-1), 0, model.CodeInvalidParameter}, {n(MaxFirst + 1), 0, model.CodeInvalidParameter},
	}
	for _, c := range cases {
		got, err := First(c.first, 20)
		wantCode(t, err, c.code)
		if got != c.want {
			t.Errorf("First(%v) = %d, want %d", c.first, got, c.want)
		}
	}
}

// TestReduce lays a fully filled account over the reduced view: the fields that say which
// account it is stay, everything a Connect Token may not show is null.
func TestReduce(t *testing.T) {
	t.Parallel()
	s, f, b := func(v string) *string { return &v }, func(v float64) *float64 { return &v }, true
	now := model.NewTime(time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC))
	full := &model.Account{ID: uuid.New(), ItemID: uuid.New(), Type: "CREDIT", Subtype: "CREDIT_CARD", Number: "1234",
		Balance: f(10.5), Name: "Card", MarketingName: s("Gold"), Owner: s("Ana"), TaxNumber: s("12345678909"),
		CurrencyCode: "BRL", BankData: &model.BankData{TransferNumber: s("0001/1234-5")},
		CreditData: &model.CreditData{Level: s("GOLD"), IsLimitFlexible: &b}, CreatedAt: now, UpdatedAt: now}
	shown := map[string]bool{"id": true, "itemId": true, "type": true, "subtype": true, "number": true, "name": true,
		"marketingName": true, "currencyCode": true, "createdAt": true, "updatedAt": true}
	var before, after map[string]any
	for v, out := range map[*model.Account]*map[string]any{full: &before, Reduce(full): &after} {
		raw, _ := json.Marshal(v)
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatal(err)
		}
	}
	for k, v := range before {
		switch {
		case v == nil:
			t.Fatalf("the full account leaves %s empty: fill it so the test covers it", k)
		case shown[k] && fmt.Sprint(after[k]) != fmt.Sprint(v):
			t.Errorf("%s: reduced %v, want %v", k, after[k], v)
		case !shown[k] && after[k] != nil:
			t.Errorf("%s shown to a Connect Token: %v", k, after[k])
		}
	}
	if p := (&auth.Principal{Kind: auth.KindAPIKey}); reduceFor(p, []*model.Account{full})[0] != full {
		t.Error("an API key's accounts were reduced")
	}
	if p := (&auth.Principal{Kind: auth.KindConnectToken}); reduceFor(p, []*model.Account{full})[0].Balance != nil {
		t.Error("a Connect Token's accounts were not reduced")
	}
}

func TestMaskParameters(t *testing.T) {
	t.Parallel()
	in := map[string]any{"user": "user-ok", "password": "password-ok", "token": int64(123456), "cpf": 12345678909.0,
		"empty": "", "null": nil, "object": map[string]any{"inner": "secret"}, "list": []any{"secret"}}
	want := map[string]any{"user": CredentialMask, "password": CredentialMask, "token": CredentialMask, "cpf": CredentialMask,
		"empty": "", "null": "", "object": CredentialMask, "list": CredentialMask}
	got := MaskParameters(in)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("masked %v, want %v", got, want)
	}
	raw, _ := json.Marshal(got)
	for _, secret := range []string{"user-ok", "password-ok", "123456", "12345678909", "secret"} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("%q shown in %s", secret, raw)
		}
	}
}

func TestHealthDetailsOf(t *testing.T) {
	t.Parallel()
	rate := func(p *float64) string {
		if p == nil {
			return "null"
		}
		return fmt.Sprintf("%g", *p)
	}
	cases := []struct {
		status model.HealthStatus
		stats  [2]int
		want   string
	}{
		{model.HealthOnline, [2]int{0, 0}, "0 null null false"},
		{model.HealthOnline, [2]int{4, 1}, "4 75 25 false"},
		{model.HealthUnstable, [2]int{2, 2}, "2 0 100 false"},
		{model.HealthOffline, [2]int{0, 0}, "0 null null true"},
	}
	for _, c := range cases {
		d := healthDetailsOf(c.status, c.stats)
		if got := fmt.Sprint(d.ConnectionsLast6Hours, " ", rate(d.ConnectionRateLast6Hours), " ", rate(d.ErrorRateLast6Hours), " ", d.Error != nil); got != c.want {
			t.Errorf("%s %v: %s, want %s", c.status, c.stats, got, c.want)
		}
	}
}

func TestSpendingOrder(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	rows := []db.SpendingRow{
		{ByMonth: true, Key: s("2024-03"), Spent: 1},
		{Key: s("05000000"), Category: s("Housing"), Spent: 10},
		{ByMonth: true, Key: s("2024-01"), Spent: 2},
		{Key: s("09000000"), Category: s("Food"), Spent: 30},
		{Key: nil, Spent: 10},
		{Key: s("01000000"), Category: s("Income"), Spent: 0, Received: 100},
		{Key: s("03000000"), Category: s("Shopping"), Spent: 10},
	}
	out := spendingOf(rows)
	var cats, months []string
	for _, c := range out.ByCategory {
		cats = append(cats, deref(c.CategoryID))
	}
	for _, m := range out.ByMonth {
		months = append(months, m.Month)
	}
	if got, want := fmt.Sprint(cats), "[09000000  03000000 05000000 01000000]"; got != want {
		t.Errorf("categories %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(months), "[2024-01 2024-03]"; got != want {
		t.Errorf("months %s, want %s", got, want)
	}
	if empty := spendingOf(nil); empty.ByCategory == nil || empty.ByMonth == nil {
		t.Error("an empty aggregate must list [] rather than null")
	}
}

func TestLegacyCounts(t *testing.T) {
	t.Parallel()
	var c legacyCounts
	v1, v2 := time.Unix(1, 0), time.Unix(2, 0)
	if _, ok := c.get("a", v1); ok {
		t.Fatal("hit in an empty cache")
	}
	c.put("a", v1, 7)
	if n, ok := c.get("a", v1); !ok || n != 7 {
		t.Fatalf("get = %d, %v", n, ok)
	}
	if _, ok := c.get("a", v2); ok {
		t.Fatal("a count survived a change of the account's data")
	}
	for i := 0; i <= legacyCountLimit+1; i++ {
		c.put(fmt.Sprint(i), v1, i)
	}
	if len(c.m) > legacyCountLimit+1 {
		t.Fatalf("cache grew to %d entries", len(c.m))
	}
}
