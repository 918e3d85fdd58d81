package itemsync_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/model"
	"ponte/testsupport"
)

func waitsForInput(it *model.Item) bool { return it.Status == model.ItemWaitingUserInput }

// MFA: the item asks for one named parameter; the answer must name it, be new, and be
// right for the execution to go on.
func TestMFA(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := newApp(t, env, "mfa")
	it := a.create(t, 1, params("user-ok"))
	waiting := a.await(t, it.ID, "the MFA question", waitsForInput)
	if waiting.Parameter == nil || waiting.Parameter.Name != "token" || waiting.Parameter.ExpiresAt == nil {
		t.Fatalf("the question: %+v", waiting.Parameter)
	}
	if got := a.events(t, it.ID); !slices.Contains(got, "item/waiting_user_input") {
		t.Fatalf("events while waiting: %v", got)
	}
	_, err := env.Sync.SubmitMFA(a.ctx, it.ID, map[string]any{"code": "123456"})
	wantCode(t, "an answer to another question", err, model.CodeMFAMismatch)
	_, err = env.Sync.SubmitMFA(a.ctx, it.ID, map[string]any{"token": "123456", "code": "1"})
	wantCode(t, "an answer with more than asked", err, model.CodeMFAMismatch)
	_, err = env.Sync.SubmitMFA(a.ctx, it.ID, map[string]any{"token": true})
	wantCode(t, "an answer that is no string", err, model.CodeMFAMismatch)
	_, err = env.Sync.SubmitMFA(a.ctx, uuid.New(), map[string]any{"token": "123456"})
	wantCode(t, "an unknown item", err, model.CodeItemNotFound)
	if _, err := env.Sync.SubmitMFA(a.ctx, it.ID, map[string]any{"token": "123456"}); err != nil {
		t.Fatal(err)
	}
	if done := a.settle(t, it.ID); done.Status != model.ItemUpdated || done.Parameter != nil {
		t.Fatalf("after the right answer: %+v", done)
	}
	_, err = env.Sync.SubmitMFA(a.ctx, it.ID, map[string]any{"token": "123456"})
	wantCode(t, "an answer nothing waits for", err, model.CodeMFANotFound)

	// An update must bring a new code with it (items rule 4): none, last time's, or one of
	// the wrong form is refused before anything runs; a new wrong one fails the login.
	before := a.settle(t, it.ID)
	for _, in := range []*model.UpdateItemInput{nil, {Parameters: map[string]any{}}, {Parameters: map[string]any{"password": "password-ok"}}} {
		_, err = env.Sync.Update(a.ctx, it.ID, in)
		wantCode(t, "an update without a code", err, model.CodeConnectorRequiredParameter)
	}
	_, err = env.Sync.Update(a.ctx, it.ID, &model.UpdateItemInput{Parameters: map[string]any{"token": "123456"}})
	wantCode(t, "last execution's value up front", err, model.CodeMFAAlreadyUsed)
	_, err = env.Sync.Update(a.ctx, it.ID, &model.UpdateItemInput{Parameters: map[string]any{"token": "12"}})
	wantCode(t, "a code of the wrong form", err, model.CodeConnectorValidation)
	if still := a.settle(t, it.ID); still.Status != model.ItemUpdated || !still.UpdatedAt.Equal(before.UpdatedAt.Time) {
		t.Fatalf("refused updates ran: %+v", still)
	}
	if _, err := env.Sync.Update(a.ctx, it.ID, &model.UpdateItemInput{Parameters: map[string]any{"token": "111111"}}); err != nil {
		t.Fatal(err)
	}
	if done := a.settle(t, it.ID); done.Status != model.ItemLoginError || done.ExecutionStatus != model.ExecInvalidCredentialsMFA {
		t.Fatalf("after a wrong code: %s %s", done.Status, done.ExecutionStatus)
	}
	if _, err := env.Sync.Update(a.ctx, it.ID, &model.UpdateItemInput{Parameters: map[string]any{"token": "222222"}}); err != nil {
		t.Fatal(err)
	}
	if done := a.settle(t, it.ID); done.Status != model.ItemUpdated {
		t.Fatalf("after a new right code: %s %s", done.Status, done.ExecutionStatus)
	}

	// Sent with the credentials, the value spares the question.
	upfront := a.create(t, 1, map[string]any{"user": "user-ok-two-checking-accounts", "password": "password-ok", "token": "123456"})
	if done := a.settle(t, upfront.ID); done.Status != model.ItemUpdated {
		t.Fatalf("MFA sent up front: %s %s", done.Status, done.ExecutionStatus)
	}
}

// A question or an action nobody answers ends the execution when its window closes, and a
// late answer is told so.
func TestInputTimeouts(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t, func(s *testsupport.Setup) { s.Sync.InputTimeout = 300 * time.Millisecond })
	a := newApp(t, env, "timeouts")
	mfa := a.create(t, 1, params("user-ok"))
	action := a.create(t, 0, params("user-ok-auth-pending"))
	done := a.await(t, mfa.ID, "the question to time out", func(it *model.Item) bool { return it.Error != nil })
	if done.ExecutionStatus != model.ExecUserInputTimeout {
		t.Fatalf("an unanswered question ended %s", done.ExecutionStatus)
	}
	_, err := env.Sync.SubmitMFA(a.ctx, mfa.ID, map[string]any{"token": "123456"})
	wantCode(t, "a late answer", err, model.CodeMFAExpired)
	ended := a.await(t, action.ID, "the action to time out", func(it *model.Item) bool { return it.Error != nil })
	if ended.ExecutionStatus != model.ExecUserAuthPending || ended.UserAction != nil {
		t.Fatalf("an unanswered authorization ended %s", ended.ExecutionStatus)
	}
}

// The sandbox institution's authorization page: read by the id in its link alone, decided
// once, approve or deny.
func TestSandboxAuthorization(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := newApp(t, env, "authorization")
	none := context.Background()
	redirect := "https://app.example.com/back"
	it, err := env.Sync.Create(a.ctx, model.CreateItemInput{ConnectorID: 0, Parameters: params("user-ok-auth-pending"), OAuthRedirectURI: &redirect})
	if err != nil {
		t.Fatal(err)
	}
	id := executionOf(t, a.settle(t, it.ID))
	got, err := env.Sync.SandboxAuthorization(none, id)
	if err != nil || got == nil || got.ID != id || got.ConnectorName == "" || got.Action.Type != "authorize-access" || *got.RedirectURI != redirect {
		t.Fatalf("the page's authorization: %+v (%v)", got, err)
	}
	if got, err := env.Sync.SandboxAuthorization(none, uuid.New()); err != nil || got != nil {
		t.Fatalf("an unknown id: %+v (%v)", got, err)
	}
	_, err = env.Sync.DecideSandboxAuthorization(none, id, "maybe")
	wantCode(t, "neither approve nor deny", err, model.CodeInvalidParameter)
	decided, err := env.Sync.DecideSandboxAuthorization(none, id, "approve")
	if err != nil || decided.ID != id || *decided.RedirectURI != redirect || decided.Action.Instructions != got.Action.Instructions {
		t.Fatalf("approve: %+v (%v)", decided, err)
	}
	_, err = env.Sync.DecideSandboxAuthorization(none, id, "deny")
	wantCode(t, "a second decision", err, model.CodeMFANotFound)
	if done := a.settle(t, it.ID); done.Status != model.ItemUpdated {
		t.Fatalf("after approval: %s %s", done.Status, done.ExecutionStatus)
	}
	if got, err := env.Sync.SandboxAuthorization(none, id); err != nil || got != nil {
		t.Fatalf("a decided authorization is still shown: %+v (%v)", got, err)
	}

	denied := a.create(t, 0, params("user-ok-qr"))
	qr := a.settle(t, denied.ID)
	link, _ := qr.UserAction.Attributes["qr"].(string)
	qid, err := uuid.Parse(link[len(link)-36:])
	if err != nil {
		t.Fatalf("qr link %q", link)
	}
	if _, err := env.Sync.DecideSandboxAuthorization(none, qid, "deny"); err != nil {
		t.Fatal(err)
	}
	if done := a.settle(t, denied.ID); done.Status != model.ItemLoginError || done.ExecutionStatus != model.ExecUserAuthNotGranted {
		t.Fatalf("after denial: %s %s", done.Status, done.ExecutionStatus)
	}
	_, err = env.Sync.DecideSandboxAuthorization(none, uuid.New(), "approve")
	wantCode(t, "an unknown id", err, model.CodeMFANotFound)
}

// An Open Finance item lists the resources its consent covers.
func TestOpenFinanceResources(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := newApp(t, env, "resources")
	for _, c := range []struct {
		cpf     string
		pending bool
	}{{"52998224725", false}, {"99911122233", true}} {
		it := a.create(t, 5, map[string]any{"cpf": c.cpf})
		if _, err := env.Sync.DecideSandboxAuthorization(context.Background(), executionOf(t, a.settle(t, it.ID)), "approve"); err != nil {
			t.Fatal(err)
		}
		done := a.settle(t, it.ID)
		if done.HasResourcesPendingAuthorization == nil || *done.HasResourcesPendingAuthorization != c.pending || done.ConsentExpiresAt == nil {
			t.Fatalf("cpf %s: %+v", c.cpf, done)
		}
		all, err := env.Sync.Resources(a.ctx, it.ID, nil)
		if err != nil || all.Total == 0 || all.Total != len(all.Results) || all.Page != 1 || all.TotalPages != 1 {
			t.Fatalf("cpf %s: resources %+v (%v)", c.cpf, all, err)
		}
		pending, err := env.Sync.Resources(a.ctx, it.ID, ptr("PENDING_AUTHORISATION"))
		if err != nil || (pending.Total > 0) != c.pending || pending.Results == nil {
			t.Fatalf("cpf %s: pending resources %+v (%v)", c.cpf, pending, err)
		}
		_, err = env.Sync.Resources(a.ctx, it.ID, ptr("MAYBE"))
		wantCode(t, "an unknown status", err, model.CodeInvalidParameter)
	}
	direct := a.create(t, 0, params("user-ok"))
	_, err := env.Sync.Resources(a.ctx, direct.ID, nil)
	wantCode(t, "a direct connector's item", err, model.CodeItemNotOpenFinance)
	_, err = env.Sync.Resources(a.ctx, uuid.New(), nil)
	wantCode(t, "an unknown item", err, model.CodeItemNotFound)
}

// An automatic sync runs when due, triggered by SYNC; the sweeper finds nothing stalled
// in a healthy queue.
func TestAutoSyncAndSweep(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := newApp(t, env, "auto sync")
	it := a.create(t, 0, params("user-ok"))
	first := a.settle(t, it.ID)
	if err := env.Sync.SyncNow(context.Background(), it.ID); err != nil {
		t.Fatal(err)
	}
	testsupport.Eventually(t, "the automatic sync to end", 30*time.Second, func() bool {
		list, err := env.Webhooks.Events(a.ctx, &it.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range list {
			if e.Event == "item/updated" && e.Payload["triggeredBy"] == "SYNC" {
				return true
			}
		}
		return false
	})
	if done := a.settle(t, it.ID); !done.LastUpdatedAt.After(first.LastUpdatedAt.Time) {
		t.Fatalf("the automatic sync left lastUpdatedAt at %v", done.LastUpdatedAt)
	}
	if n, err := env.Sync.Sweep(context.Background()); err != nil || n != 0 {
		t.Fatalf("sweep: %d (%v)", n, err)
	}
}
