package itemsync_test

import (
	"slices"
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

// The rules of the sandbox item controls, through the engine: where a forced outcome ends
// an execution, what defaults fill in, and who is refused.
func TestSandboxControlRules(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a := newApp(t, env, "control-rules")
	it := a.settle(t, a.create(t, 0, params("user-ok")).ID)

	// SITE_NOT_AVAILABLE ends the execution before it logs in.
	if _, err := env.Sync.SetNextExecution(a.ctx, it.ID, model.SandboxNextExecutionInput{ExecutionStatus: model.ExecSiteNotAvailable}); err != nil {
		t.Fatal(err)
	}
	n := len(a.events(t, it.ID))
	if _, err := env.Sync.SyncItemNow(a.ctx, it.ID); err != nil {
		t.Fatal(err)
	}
	got := a.settle(t, it.ID)
	if got.Status != model.ItemOutdated || got.ExecutionStatus != model.ExecSiteNotAvailable || got.Error.Message == "" {
		t.Fatalf("after a forced SITE_NOT_AVAILABLE: %s/%s %+v", got.Status, got.ExecutionStatus, got.Error)
	}
	if evs := a.events(t, it.ID)[n:]; slices.Contains(evs, "item/login_succeeded") || !slices.Contains(evs, "item/error") {
		t.Fatalf("events %v", evs)
	}

	// PARTIAL_SUCCESS without products leaves out the first the item collects.
	next, err := env.Sync.SetNextExecution(a.ctx, it.ID, model.SandboxNextExecutionInput{ExecutionStatus: model.ExecPartialSuccess})
	if err != nil || !slices.Equal(next.UnavailableProducts, []model.Product{model.ProductCreditCards}) || next.Message != nil {
		t.Fatalf("next %+v (%v)", next, err)
	}
	if _, err := env.Sync.Update(a.ctx, it.ID, nil); err != nil {
		t.Fatal(err)
	}
	got = a.settle(t, it.ID)
	if got.ExecutionStatus != model.ExecPartialSuccess || got.StatusDetail.CreditCards.IsUpdated || !got.StatusDetail.Transactions.IsUpdated {
		t.Fatalf("after a forced PARTIAL_SUCCESS: %s %+v", got.ExecutionStatus, got.StatusDetail)
	}

	// One spelling of the investment transactions key fills both.
	detail := &model.StatusDetail{InvestmentTransactions: &model.ProductState{IsUpdated: false}}
	set, err := env.Sync.SetItemStatus(a.ctx, it.ID, model.SandboxItemStatusInput{Status: model.ItemUpdated, StatusDetail: detail})
	if err != nil || set.ExecutionStatus != model.ExecSuccess || set.StatusDetail.InvestmentsTransactions == nil || set.StatusDetail.InvestmentTransactions == nil {
		t.Fatalf("status with a detail: %+v (%v)", set, err)
	}

	// An MFA connector's forced login error comes before the token is used.
	mfa := a.create(t, 1, params("user-ok"))
	if w := a.settle(t, mfa.ID); w.Status != model.ItemWaitingUserInput {
		t.Fatalf("MFA item %s", w.Status)
	}
	if _, err := env.Sync.SubmitMFA(a.ctx, mfa.ID, map[string]any{"token": "123456"}); err != nil {
		t.Fatal(err)
	}
	if w := a.settle(t, mfa.ID); w.Status != model.ItemUpdated {
		t.Fatalf("MFA item after its token: %s/%s", w.Status, w.ExecutionStatus)
	}
	if _, err := env.Sync.SetNextExecution(a.ctx, mfa.ID, model.SandboxNextExecutionInput{ExecutionStatus: model.ExecAccountLocked}); err != nil {
		t.Fatal(err)
	}
	n = len(a.events(t, mfa.ID))
	if _, err := env.Sync.Update(a.ctx, mfa.ID, &model.UpdateItemInput{Parameters: map[string]any{"token": "222222"}}); err != nil {
		t.Fatal(err)
	}
	locked := a.settle(t, mfa.ID)
	if locked.Status != model.ItemLoginError || locked.ExecutionStatus != model.ExecAccountLocked || locked.Parameter != nil || locked.ConsecutiveFailedLoginAttempts != 1 {
		t.Fatalf("MFA item %s/%s, parameter %+v, %d failed logins", locked.Status, locked.ExecutionStatus, locked.Parameter, locked.ConsecutiveFailedLoginAttempts)
	}
	if evs := a.events(t, mfa.ID)[n:]; !slices.Equal(evs, []string{"item/error"}) {
		t.Fatalf("events %v", evs)
	}

	// Refusals: a Connect Token, and the clean slate's confirm.
	tok := a.token(t, &it.ID, nil)
	_, err = env.Sync.SyncItemNow(tok, it.ID)
	wantCode(t, "a Connect Token", err, model.CodeForbidden)
	_, err = env.Sync.DeleteClientData(a.ctx, "")
	wantCode(t, "no confirm", err, model.CodeInvalidParameter)
	_, err = env.Sync.DeleteClientData(tok, a.id.String())
	wantCode(t, "a Connect Token's clean slate", err, model.CodeForbidden)

	// A smart account outside the sandbox holds the clean slate back.
	a.env.Exec(t, `INSERT INTO smart_accounts (id, client_id, name, tax_number, email, phone_number, agency, number, verifying_digit, is_sandbox, created_at)
		VALUES (gen_random_uuid(), $1, 'Real', '11144477735', 'r@example.com', '+5511999990000', '0001', '1', '0', false, now())`, a.id)
	_, err = env.Sync.DeleteClientData(a.ctx, a.id.String())
	wantCode(t, "a real smart account", err, model.CodeSandboxOnly)
	if _, err := env.Sync.Get(a.ctx, it.ID); err != nil {
		t.Fatalf("the refused clean slate deleted the item: %v", err)
	}
	a.env.Exec(t, `DELETE FROM smart_accounts WHERE client_id = $1`, a.id)
	out, err := env.Sync.DeleteClientData(a.ctx, " "+a.id.String()+" ")
	if err != nil || out.Items != 2 || out.ClientID != a.id {
		t.Fatalf("clean slate %+v (%v)", out, err)
	}
}
