package faults_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/faults"
	"ponte/model"
	"ponte/testsupport"
)

func TestMain(m *testing.M) { testsupport.Main(m) }

func code(err error) string {
	var e *model.Error
	if errors.As(err, &e) {
		return e.Code.String()
	}
	return ""
}

// The engine on the store: only an API key sets or reads rules, each application its own;
// the replica that sets them applies them at once, another once its memory is older than
// its CacheFor; a refused list changes nothing.
func TestEngineRules(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := uuid.MustParse(env.NewClient(t, "engine A").ID), uuid.MustParse(env.NewClient(t, "engine B").ID)
	mine := faults.New(env.DB, faults.Config{CacheFor: time.Hour}, testsupport.Logger())
	theirs := faults.New(env.DB, faults.Config{CacheFor: 100 * time.Millisecond}, testsupport.Logger())
	mine.KnowRoutes([]string{"GET /accounts", "* /graphql"})
	as := func(client uuid.UUID, kind auth.Kind) context.Context {
		return auth.WithResult(context.Background(), &auth.Principal{ClientID: client, Kind: kind}, nil)
	}

	if _, err := mine.Faults(context.Background()); code(err) != "API_KEY_MISSING" {
		t.Fatalf("no credential: %v", err)
	}
	if _, err := mine.SetFaults(as(a, auth.KindConnectToken), nil); code(err) != "FORBIDDEN" {
		t.Fatalf("a Connect Token: %v", err)
	}
	// Both replicas have read the store (nothing) before the rules are set.
	if mine.Active(a) || theirs.Active(a) {
		t.Fatal("active before any rule")
	}
	rules := []*model.SandboxFault{{Route: "GET /accounts", Kind: model.FaultServerError, Probability: 1}}
	stored, err := mine.SetFaults(as(a, auth.KindAPIKey), rules)
	if err != nil || len(stored) != 1 || *stored[0].Status != 500 {
		t.Fatalf("set: %+v %v", stored, err)
	}
	if !mine.Active(a) || mine.Draw(a, "GET /accounts").Status != 500 || mine.Active(b) {
		t.Fatal("the replica that set the rules does not apply them at once, or applies them to B")
	}
	testsupport.Eventually(t, "the other replica reads the rules", 5*time.Second, func() bool {
		return theirs.Active(a) && theirs.Draw(a, "GET /accounts").Status == 500
	})
	if got, err := mine.Faults(as(b, auth.KindAPIKey)); err != nil || len(got) != 0 {
		t.Fatalf("B's rules: %+v %v", got, err)
	}

	bad := []*model.SandboxFault{{Route: "GET /nowhere", Kind: model.FaultServerError, Probability: 1}}
	if _, err := mine.SetFaults(as(a, auth.KindAPIKey), bad); code(err) != "SANDBOX_FAULT_INVALID" {
		t.Fatalf("an unknown route: %v", err)
	}
	if got, err := mine.Faults(as(a, auth.KindAPIKey)); err != nil || len(got) != 1 || got[0].Route != "GET /accounts" {
		t.Fatalf("a refused list changed the rules: %+v %v", got, err)
	}

	if _, err := mine.SetFaults(as(a, auth.KindAPIKey), nil); err != nil {
		t.Fatal(err)
	}
	if mine.Active(a) {
		t.Fatal("rules removed are still applied by the replica that removed them")
	}
	testsupport.Eventually(t, "the other replica drops the rules", 5*time.Second, func() bool { return !theirs.Active(a) })
	if got, err := mine.Faults(as(a, auth.KindAPIKey)); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("after removal: %+v %v", got, err)
	}
}

// Forget drops one application's rules from the replica's memory at once (the clean slate
// deleted them from the store) and leaves every other application's applied.
func TestEngineForget(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	a, b := uuid.MustParse(env.NewClient(t, "forget A").ID), uuid.MustParse(env.NewClient(t, "forget B").ID)
	e := faults.New(env.DB, faults.Config{CacheFor: time.Hour}, testsupport.Logger())
	e.KnowRoutes([]string{"GET /accounts"})
	e.Forget(a) // nothing read yet: nothing to drop, no panic
	as := func(client uuid.UUID) context.Context {
		return auth.WithResult(context.Background(), &auth.Principal{ClientID: client, Kind: auth.KindAPIKey}, nil)
	}
	rules := []*model.SandboxFault{{Route: "GET /accounts", Kind: model.FaultServerError, Probability: 1}}
	for _, c := range []uuid.UUID{a, b} {
		if _, err := e.SetFaults(as(c), rules); err != nil {
			t.Fatal(err)
		}
	}
	if !e.Active(a) || !e.Active(b) {
		t.Fatal("rules not applied")
	}
	e.Forget(a)
	if e.Active(a) || e.Draw(a, "GET /accounts").Status != 0 {
		t.Fatal("forgotten rules still applied")
	}
	if !e.Active(b) || e.Draw(b, "GET /accounts").Status != 500 {
		t.Fatal("forgetting A dropped B's rules")
	}
	e.Forget(a) // twice: still nothing for A, B kept
	if e.Active(a) || !e.Active(b) {
		t.Fatal("a second Forget changed the rules")
	}
}
