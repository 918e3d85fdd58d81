package sandbox

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/itemsync"
	"ponte/model"
)

const goodUser = `{"username":"ana","password":"p","mfa":"SMS",
 "accounts":[{"type":"BANK","subtype":"CHECKING_ACCOUNT","number":"1","balance":10.5,
   "transactions":[{"date":"2026-01-05","description":"PADARIA","amount":-1.25}]},
  {"type":"CREDIT","subtype":"CREDIT_CARD","number":"2","balance":0,"generate":{"seed":9,"size":4}}],
 "error":{"code":"ACCOUNT_LOCKED","step":"MFA"}}`

func TestParseUserRules(t *testing.T) {
	u, err := ParseUser([]byte(goodUser))
	if err != nil {
		t.Fatalf("good user refused: %v", err)
	}
	if u.Username != "ana" || len(u.Accounts) != 2 {
		t.Fatalf("parsed %+v", u)
	}
	bad := map[string]string{
		strings.Replace(goodUser, `"ana"`, `"user-ok"`, 1):                    "username",
		strings.Replace(goodUser, `"mfa":"SMS"`, `"mfa":"SMS","x":1`, 1):      "unknown field",
		strings.Replace(goodUser, `10.5`, `10.555`, 1):                        "accounts[0].balance",
		strings.Replace(goodUser, `10.5`, `1e3`, 1):                           "accounts[0].balance",
		strings.Replace(goodUser, `-1.25`, `0`, 1):                            "accounts[0].transactions[0].amount",
		strings.Replace(goodUser, `"size":4`, `"size":1001`, 1):               "accounts[1].generate.size",
		strings.Replace(goodUser, `"number":"2"`, `"number":"1"`, 1):          "accounts[1].number",
		strings.Replace(goodUser, `"mfa":"SMS"`, `"mfa":"NONE"`, 1):           "error.step",
		strings.Replace(goodUser, `"ACCOUNT_LOCKED"`, `"PARTIAL_SUCCESS"`, 1): "error.code",
		goodUser + ` {}`:                   "one JSON object",
		`{"username":"ana","accounts":[]}`: "accounts",
	}
	for in, field := range bad {
		_, err := ParseUser([]byte(in))
		var me *model.Error
		if !errors.As(err, &me) || me.Code != model.CodeSandboxUserInvalid || !strings.Contains(err.Error(), field) {
			t.Errorf("%s: got %v, want SANDBOX_USER_INVALID naming %s", field, err, field)
		}
	}
	if _, err := ParseUser([]byte(`{"username":"ana","x":"` + strings.Repeat("a", MaxUserBytes) + `"}`)); err == nil {
		t.Error("an oversized description was accepted")
	}
}

func TestReais(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "1": 100, "-1.5": -150, "12.34": 1234, "0.01": 1} {
		if got, err := reais(jsonNum(in), "f", true); err != nil || got != want {
			t.Errorf("reais(%s) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"01", "1.", "1.001", "-0.5x", "9999999999999", "NaN"} {
		if _, err := reais(jsonNum(in), "f", true); err == nil {
			t.Errorf("reais(%s) accepted", in)
		}
	}
	if _, err := reais(jsonNum("-1"), "f", false); err == nil {
		t.Error("a negative unsigned amount was accepted")
	}
}

func TestCustomUserSteps(t *testing.T) {
	client := uuid.New()
	inst := Institution{Users: func(_ context.Context, c uuid.UUID, name string) ([]byte, bool, error) {
		if c != client || name != "ana" {
			return nil, false, nil
		}
		return []byte(goodUser), true, nil
	}}
	conn := &ServedAt("http://x")[0]
	sess := func(c uuid.UUID, pw string) *itemsync.Session {
		return &itemsync.Session{ItemID: uuid.New(), ClientID: c, Connector: conn, Params: map[string]string{"user": "ana", "password": pw},
			Products: []model.Product{model.ProductAccounts, model.ProductTransactions}, Now: time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC)}
	}
	ctx := context.Background()
	// Another application's session: the name is unknown there.
	if st, _ := inst.Login(ctx, sess(uuid.New(), "p")); st.Error == nil || st.Error.Code != model.ExecInvalidCredentials {
		t.Fatalf("another application's login: %+v", st)
	}
	if st, _ := inst.Login(ctx, sess(client, "wrong")); st.Error == nil || st.Error.Code != model.ExecInvalidCredentials {
		t.Fatalf("wrong password: %+v", st)
	}
	s := sess(client, "p")
	st, err := inst.Login(ctx, s)
	if err != nil || st.MFA == nil || st.MFA.Name != "phone" {
		t.Fatalf("login: %+v %v, want the SMS parameter", st, err)
	}
	if st, _ := inst.Answer(ctx, s, map[string]string{"phone": WrongMFA}); st.Error == nil || st.Error.Code != model.ExecInvalidCredentialsMFA {
		t.Fatalf("wrong code: %+v", st)
	}
	if st, _ := inst.Answer(ctx, s, map[string]string{"phone": GoodMFA}); st.Error == nil || st.Error.Code != model.ExecAccountLocked {
		t.Fatalf("error at MFA: %+v", st)
	}
	var got itemsync.Page
	if _, err := inst.Collect(ctx, s, model.ProductTransactions, func(p *itemsync.Page) error { got = *p; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got.Transactions) != 5 || got.Transactions[0].Amount != -1.25 || got.Transactions[0].Type != "DEBIT" {
		t.Fatalf("transactions %+v", got.Transactions)
	}
	// The generator: the same seed, the same rows, on another item too.
	u, _ := ParseUser([]byte(goodUser))
	one, two := u.Snapshot(uuid.New(), s.Now), u.Snapshot(uuid.New(), s.Now)
	for i := range one.Transactions {
		if one.Transactions[i].Amount != two.Transactions[i].Amount || one.Transactions[i].Date != two.Transactions[i].Date {
			t.Fatalf("row %d differs: %+v vs %+v", i, one.Transactions[i], two.Transactions[i])
		}
	}
}

func jsonNum(s string) Reais { return Reais(s) }
