package itemsync_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/itemsync"
	"ponte/model"
	"ponte/testsupport"
)

// scripted is an institution whose answers a test sets: the engine's rules are tested on
// what an institution says, whatever institution says it.
type scripted struct {
	mu      sync.Mutex
	login   itemsync.Step
	answer  itemsync.Step
	outcome map[model.Product]itemsync.Outcome
	fail    error
	pages   map[model.Product]*itemsync.Page
	replies []map[string]string
}

func (s *scripted) Connectors(string) []model.Connector { return nil }

func (s *scripted) Login(context.Context, *itemsync.Session) (itemsync.Step, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.login, nil
}

func (s *scripted) Answer(_ context.Context, _ *itemsync.Session, reply map[string]string) (itemsync.Step, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, reply)
	return s.answer, nil
}

func (s *scripted) Collect(_ context.Context, sess *itemsync.Session, p model.Product, page func(*itemsync.Page) error) (itemsync.Outcome, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return itemsync.Outcome{}, s.fail
	}
	if pg := s.pages[p]; pg != nil {
		// The session's item owns the accounts: the script's ids are per test.
		cp := *pg
		cp.Accounts = slices.Clone(pg.Accounts)
		for i := range cp.Accounts {
			cp.Accounts[i].ItemID = sess.ItemID
		}
		if err := page(&cp); err != nil {
			return itemsync.Outcome{}, err
		}
	}
	return s.outcome[p], nil
}

func (s *scripted) set(f func(s *scripted)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

// withScript runs the sandbox's connectors on a scripted institution.
func withScript(t *testing.T, s *scripted) (*testsupport.Env, *app) {
	env := testsupport.New(t, func(set *testsupport.Setup) {
		set.Sync.Institutions = map[string]itemsync.Institution{"sandbox": s}
		set.Sync.InputTimeout = 2 * time.Second
	})
	return env, newApp(t, env, "scripted")
}

func TestInstitutionOutcomes(t *testing.T) {
	t.Parallel()
	account := model.Account{ID: uuid.New(), Type: "BANK", Subtype: "CHECKING_ACCOUNT", Name: "Conta", CurrencyCode: "BRL"}
	tx := func(desc string, day int) model.Transaction {
		return model.Transaction{ID: uuid.NewSHA1(account.ID, []byte(desc)), AccountID: account.ID, Description: desc, Type: "DEBIT",
			Amount: -1, CurrencyCode: "BRL", Status: "POSTED", Date: model.NewTime(time.Date(2026, 1, day, 12, 0, 0, 0, time.UTC))}
	}
	s := &scripted{pages: map[model.Product]*itemsync.Page{
		model.ProductAccounts:     {Accounts: []model.Account{account}},
		model.ProductTransactions: {Transactions: []model.Transaction{tx("A", 1), tx("B", 2)}},
	}, outcome: map[model.Product]itemsync.Outcome{model.ProductCreditCards: {Unavailable: true},
		model.ProductAccounts: {Warnings: []model.ProductWarning{{Code: "007", Message: "part left out"}}}}}
	env, a := withScript(t, s)
	stored := func() []string {
		var page struct{ Results []model.Transaction }
		env.Do(t, "GET", "/v2/transactions?accountId="+account.ID.String(), a.key, nil).Want(200).JSON(&page)
		var out []string
		for _, t := range page.Results {
			out = append(out, t.Description)
		}
		slices.Sort(out)
		return out
	}

	// An unavailable product makes PARTIAL_SUCCESS; warnings go to statusDetail.
	it := a.create(t, 0, params("anyone"))
	done := a.settle(t, it.ID)
	if done.ExecutionStatus != model.ExecPartialSuccess || done.StatusDetail == nil ||
		done.StatusDetail.CreditCards.IsUpdated || len(done.StatusDetail.Accounts.Warnings) != 1 {
		t.Fatalf("item %+v", done)
	}
	if got := stored(); !slices.Equal(got, []string{"A", "B"}) {
		t.Fatalf("stored %v", got)
	}

	// What a whole present reports replaces what it no longer says within its window; what
	// adds keeps it.
	s.set(func(s *scripted) {
		s.pages[model.ProductTransactions] = &itemsync.Page{Transactions: []model.Transaction{tx("A", 1), tx("C", 3)}}
		s.outcome = map[model.Product]itemsync.Outcome{}
	})
	if _, err := env.Sync.Update(a.ctx, it.ID, nil); err != nil {
		t.Fatal(err)
	}
	a.settle(t, it.ID)
	if got := stored(); !slices.Equal(got, []string{"A", "C"}) {
		t.Fatalf("after a replacing collection %v, want A and C (B is gone from the window)", got)
	}
	s.set(func(s *scripted) {
		s.pages[model.ProductTransactions] = &itemsync.Page{Transactions: []model.Transaction{tx("D", 4)}}
		for _, p := range model.Products {
			s.outcome[p] = itemsync.Outcome{Adds: true}
		}
	})
	if _, err := env.Sync.Update(a.ctx, it.ID, nil); err != nil {
		t.Fatal(err)
	}
	a.settle(t, it.ID)
	if got := stored(); !slices.Equal(got, []string{"A", "C", "D"}) {
		t.Fatalf("after an adding collection %v, want A, C and D", got)
	}

	// A Failure ends the execution with its code; the item keeps its data.
	s.set(func(s *scripted) { s.fail = itemsync.Fail(model.ExecConnectionError, "lost") })
	if _, err := env.Sync.Update(a.ctx, it.ID, nil); err != nil {
		t.Fatal(err)
	}
	done = a.settle(t, it.ID)
	if done.Status != model.ItemOutdated || done.Error == nil || done.Error.Code != model.ExecConnectionError {
		t.Fatalf("item %+v", done)
	}
}

// A user action's time-out ends the execution with the code the institution named at
// login; an MFA answer goes to the institution, and its verdict decides.
func TestInstitutionSteps(t *testing.T) {
	t.Parallel()
	s := &scripted{login: itemsync.Step{Action: &model.UserAction{Type: "authorize-access", Instructions: "Abra o app"},
		ActionTimeout: model.ExecUserAuthPending}}
	env, a := withScript(t, s)
	it := a.create(t, 0, params("anyone"))
	a.await(t, it.ID, "the action", func(i *model.Item) bool { return i.Status == model.ItemWaitingUserAction })
	done := a.await(t, it.ID, "the action's time-out", func(i *model.Item) bool { return i.Status != model.ItemWaitingUserAction })
	if done.ExecutionStatus != model.ExecUserAuthPending {
		t.Fatalf("an action never taken ended %s, want the institution's USER_AUTHORIZATION_PENDING", done.ExecutionStatus)
	}

	mfa := model.CredentialParameter{Name: "token", Label: "Token", Type: model.CredentialNumber, MFA: true}
	s.set(func(s *scripted) {
		s.login = itemsync.Step{MFA: &mfa}
		s.answer = itemsync.Step{Error: &model.ExecutionError{Code: model.ExecInvalidCredentialsMFA, Message: "no"}}
	})
	it = a.create(t, 0, params("someone"))
	a.await(t, it.ID, "the MFA", func(i *model.Item) bool { return i.Status == model.ItemWaitingUserInput })
	if _, err := env.Sync.SubmitMFA(a.ctx, it.ID, map[string]any{"token": "999999"}); err != nil {
		t.Fatal(err)
	}
	done = a.settle(t, it.ID)
	if done.ExecutionStatus != model.ExecInvalidCredentialsMFA {
		t.Fatalf("a refused MFA ended %s", done.ExecutionStatus)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.replies) != 1 || s.replies[0]["token"] != "999999" {
		t.Fatalf("the institution was given %v", s.replies)
	}
}
