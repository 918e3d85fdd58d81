package itemsync

import (
	"context"
	"crypto/rsa"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/db"
	"ponte/model"
)

// The page standing in for an institution's app authorization (/sandbox/authorize/{id}).
// It needs no credential: the execution id in its link is the capability, known only to
// the user the application sent there.

// SandboxAuthorization reads the user action an execution waits for; nil when it waits
// for none (answered, expired, or never asked).
func (e *Engine) SandboxAuthorization(ctx context.Context, executionID uuid.UUID) (*model.SandboxAuthorization, error) {
	st, err := e.load(ctx, executionID)
	if err != nil || st == nil || st.it.UserAction == nil || st.it.Status != model.ItemWaitingUserAction {
		return nil, err
	}
	return &model.SandboxAuthorization{ID: executionID, ConnectorName: st.c.Name, Action: *st.it.UserAction, RedirectURI: st.it.OAuthRedirectURI}, nil
}

// DecideSandboxAuthorization records the user's answer, "approve" or "deny", resumes the
// execution, and returns the authorization as it stood (where the page sends the user).
func (e *Engine) DecideSandboxAuthorization(ctx context.Context, executionID uuid.UUID, decision string) (*model.SandboxAuthorization, error) {
	if decision != "approve" && decision != "deny" {
		return nil, model.Fail(model.CodeInvalidParameter, "decision must be approve or deny (got %.40q).", decision)
	}
	var out *model.SandboxAuthorization
	err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		ex, found, err := tx.LockExecution(ctx, executionID)
		if err != nil {
			return err
		}
		if !found || ex.Status != string(model.ExecWaitingUserAction) {
			return model.Fail(model.CodeMFANotFound, "Nothing waits for an authorization here; it may have expired or been answered.")
		}
		it, found, err := tx.LockItem(ctx, uuid.Nil, ex.ItemID)
		if err != nil || !found {
			return fmt.Errorf("item of execution %s: %v", executionID, err)
		}
		if it.UserAction != nil && it.UserAction.ExpiresAt != nil && e.now().After(it.UserAction.ExpiresAt.Time) {
			return model.Fail(model.CodeMFAExpired, "This authorization request expired.")
		}
		c, _, err := tx.Connector(ctx, it.ConnectorID)
		if err != nil {
			return err
		}
		out = &model.SandboxAuthorization{ID: executionID, ConnectorName: c.Name, RedirectURI: it.OAuthRedirectURI}
		if it.UserAction != nil {
			out.Action = *it.UserAction
		}
		ex.MFAAnswer = e.sealParams(ex.ID, map[string]string{"action": decision})
		ex.Status = string(model.ExecLoginMFAInProgress)
		if err := tx.SaveExecution(ctx, ex); err != nil {
			return err
		}
		it.Status, it.ExecutionStatus, it.UserAction = model.ItemUpdating, model.ExecLoginMFAInProgress, nil
		if err := tx.SaveItem(ctx, it); err != nil {
			return err
		}
		return e.enqueue(ctx, tx, ExecutionArgs{ExecutionID: ex.ID}, nil)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

type autoSyncWorker struct {
	river.WorkerDefaults[AutoSyncArgs]
	e *Engine
}

// Work starts executions of the items whose automatic sync is due, a bounded batch at a
// time; the periodic job comes back for the rest.
func (w *autoSyncWorker) Work(ctx context.Context, job *river.Job[AutoSyncArgs]) error {
	return w.e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		due, err := tx.LockDueAutoSyncs(ctx, w.e.now(), 200)
		if err != nil {
			return err
		}
		for _, it := range due {
			if err := w.e.startExecution(ctx, tx, it, "SYNC", nil, nil); err != nil {
				return err
			}
		}
		return nil
	})
}

// SyncNow makes an item's automatic sync due at once (operator command and tests). An item
// on a test clock is left to the clock: only an advance runs its automatic sync.
func (e *Engine) SyncNow(ctx context.Context, itemID uuid.UUID) error {
	if err := e.db.SetNextAutoSync(ctx, itemID, e.now().Add(-time.Second)); err != nil {
		return err
	}
	_, err := e.jobs.Insert(ctx, AutoSyncArgs{}, nil)
	return err
}

// clientKey returns the client application's RSA key, creating it on first use.
func (e *Engine) clientKey(ctx context.Context, clientID uuid.UUID) (*rsa.PrivateKey, error) {
	return e.auth.ClientKey(ctx, clientID)
}
