package auth_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"ponte/model"
)

// model/codes.go: API_KEY_INVALID is "X-API-KEY is not a credential this service issued, or
// its application no longer exists"; CLIENT_DISABLED is "The client application is disabled".
// An API key of a client the database does not hold (its row deleted, or a deployment
// sharing the master key) must be API_KEY_INVALID, not CLIENT_DISABLED.
func TestKeyOfAnAbsentClient(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a, _ := newService(t)
	b, _ := newService(t)
	id, secret := uuid.NewString(), "shared-secret-0123456789"
	if _, err := a.EnsureClient(ctx, id, secret); err != nil {
		t.Fatal(err)
	}
	key := apiKey(t, a, uuid.MustParse(id), secret)
	_, err := b.Verify(ctx, key)
	wantCode(t, "an API key of a client this database lacks", err, model.CodeAPIKeyInvalid)
}
