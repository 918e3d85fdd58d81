package itemsync

import (
	"bytes"
	"context"
	"slices"

	"ponte/db"
	"ponte/model"
)

// How an execution honours what sandbox control actions asked of it (control.go).

// takeControl runs as a sandbox execution logs in, in the transaction of its login step.
// It takes the outcome chosen for the next execution, once, onto the execution (a resumed
// run ends alike), and checks a reset login: the credentials it was reset on fail, new
// ones (an update that sent them sealed them anew) end the reset. It returns the error the
// execution ends in at login; nil logs in.
func (e *Engine) takeControl(ctx context.Context, tx *db.Tx, st *state) (*model.ExecutionError, error) {
	if !st.c.IsSandbox {
		return nil, nil
	}
	ctl, err := tx.LockItemControl(ctx, st.it.ID)
	if err != nil {
		return nil, err
	}
	changed := false
	if ctl.NextOutcome != nil && st.ex.Forced == nil {
		st.ex.Forced, ctl.NextOutcome, changed = ctl.NextOutcome, nil, true
		if err := tx.SaveExecution(ctx, st.ex); err != nil {
			return nil, err
		}
	}
	reset := ctl.LoginReset != nil
	if reset && !bytes.Equal(ctl.LoginReset, db.CredentialsHash(st.it.Credentials)) {
		ctl.LoginReset, reset, changed = nil, false, true
	}
	if changed {
		if err := tx.SaveItemControl(ctx, st.it.ID, ctl); err != nil {
			return nil, err
		}
	}
	if reset {
		return resetLoginError(), nil
	}
	if f := st.ex.Forced; f != nil && (f.ExecutionStatus.IsLoginError() ||
		f.ExecutionStatus == model.ExecSiteNotAvailable || f.ExecutionStatus == model.ExecConnectionError) {
		return forcedError(f), nil
	}
	return nil, nil
}

// forcedAfterLogin is the error a forced outcome ends the execution in once logged in:
// the errors of collecting and merging.
func forcedAfterLogin(f *model.SandboxNextExecution) *model.ExecutionError {
	if f == nil || f.ExecutionStatus.IsLoginError() || f.ExecutionStatus == model.ExecPartialSuccess ||
		f.ExecutionStatus == model.ExecSiteNotAvailable || f.ExecutionStatus == model.ExecConnectionError {
		return nil
	}
	return forcedError(f)
}

// forcedUnavailable reports a product a forced PARTIAL_SUCCESS leaves out.
func forcedUnavailable(f *model.SandboxNextExecution, p model.Product) bool {
	return f != nil && f.ExecutionStatus == model.ExecPartialSuccess && slices.Contains(f.UnavailableProducts, p)
}

func forcedError(f *model.SandboxNextExecution) *model.ExecutionError {
	return controlError(f.ExecutionStatus, f.Message, controlNext)
}
