package itemsync

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// DeleteClientData is the clean slate (DELETE /sandbox/client?confirm=<client id>): it
// removes everything the calling application owns, in one transaction, and leaves the
// application itself (its secret, keys and settings) and every other application as they
// are. confirm must be the caller's own client id, so a stray call cannot wipe anything.
// An application holding anything outside the sandbox (an item on a connector whose
// isSandbox is false, a payment request or smart account with isSandbox false) is refused
// with 403 SANDBOX_RESOURCE_REQUIRED: the clean slate is for sandbox data only.
func (e *Engine) DeleteClientData(ctx context.Context, confirm string) (*model.SandboxCleanSlate, error) {
	p, err := caller(ctx, auth.ControlSandbox)
	if err != nil {
		return nil, err
	}
	if confirm == "" {
		return nil, model.Fail(model.CodeInvalidParameter, "confirm is required: send your application's clientId (the one POST /auth takes) to confirm that everything it owns is deleted.")
	}
	if id, err := uuid.Parse(strings.TrimSpace(confirm)); err != nil || id != p.ClientID {
		return nil, model.Fail(model.CodeInvalidParameter, "confirm must be your application's clientId (the one POST /auth takes); nothing was deleted.")
	}
	var out *model.SandboxCleanSlate
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		// Serialise with item creations of this application (they take the same lock), so
		// none lands half way.
		if err := tx.LockClientItems(ctx, p.ClientID); err != nil {
			return err
		}
		n, err := tx.RealResources(ctx, p.ClientID)
		if err != nil {
			return err
		}
		if n > 0 {
			return model.Fail(model.CodeSandboxOnly, "This application owns %d resources outside the sandbox (items on connectors whose isSandbox is false, payment requests or smart accounts with isSandbox false); delete them one by one first. Nothing was deleted.", n)
		}
		out, err = tx.DeleteClientData(ctx, p.ClientID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
