package itemsync

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// Sandbox control of items (POST /sandbox/items/{id}/...): a developer puts a sandbox item
// in the states a real institution produces only now and then. Each action leaves an
// execution in the item's history (executions.control names the action) and the events
// an execution ending so would send, triggeredBy as the interface says for its cause:
// CLIENT for the API key's actions, SYNC for the automatic sync run now.

// Control action names, as the executions they cause or shape record them.
const (
	controlResetLogin = "reset-login"
	controlStatus     = "status"
	controlNext       = "next-execution"
	controlSync       = "sync"
)

// controlledItem locks one of the caller's items for a control action: another
// application's item (or none) is 404 as everywhere, an item off the sandbox connectors is
// 403 SANDBOX_RESOURCE_REQUIRED, and, when idle is asked, a running item is 400
// ITEM_ALREADY_UPDATING (the execution would overwrite what the action set).
func controlledItem(ctx context.Context, tx *db.Tx, p *auth.Principal, id uuid.UUID, idle bool) (*db.ItemRow, *model.Connector, error) {
	it, found, err := tx.LockItem(ctx, p.ClientID, id)
	if err != nil {
		return nil, nil, err
	}
	if !found {
		return nil, nil, model.Fail(model.CodeItemNotFound, "Item %s not found.", id)
	}
	c, _, err := tx.Connector(ctx, it.ConnectorID)
	if err != nil {
		return nil, nil, err
	}
	if !c.IsSandbox {
		return nil, nil, model.Fail(model.CodeSandboxOnly, "Item %s is on connector %d (%s), whose isSandbox is false: control actions reach items of sandbox connectors only.", id, c.ID, c.Name)
	}
	if idle && isRunning(it.Status) {
		return nil, nil, model.Fail(model.CodeItemAlreadyUpdating, "Item %s is updating (%s); wait for the execution to finish.", it.ID, it.ExecutionStatus)
	}
	return it, c, nil
}

// onItemClock is ctx on the item's test clock, if it has one: a control action on an item
// that lives on a clock is dated by the clock, as everything else the item does.
func onItemClock(ctx context.Context, tx *db.Tx, it *db.ItemRow) (context.Context, error) {
	clock, err := itemClock(ctx, tx, it)
	if err != nil || clock == nil {
		return ctx, err
	}
	return model.WithClock(ctx, *clock), nil
}

// recordControl adds to the item's history the execution a control action stands for: it
// starts and ends now, with the outcome the action set, and the item shows it.
func (e *Engine) recordControl(ctx context.Context, tx *db.Tx, it *db.ItemRow, action string, status model.ExecutionStatus) error {
	now := e.nowIn(ctx)
	it.Executions++
	ex := &db.ExecutionRow{ID: model.NewID(), ItemID: it.ID, ConnectorID: it.ConnectorID, Number: it.Executions,
		TriggeredBy: "CLIENT", Status: string(status), Steps: []string{}, StartedAt: now, FinishedAt: &now, Control: ptr(action)}
	if err := tx.InsertExecution(ctx, ex); err != nil {
		return err
	}
	it.ExecutionID = &ex.ID
	return nil
}

// controlError is an execution error a control action caused; its attributes name the
// action, where the interface lets an error carry key-values.
func controlError(code model.ExecutionStatus, message *string, action string) *model.ExecutionError {
	msg := defaultMessages[code]
	if message != nil && *message != "" {
		msg = *message
	}
	if msg == "" {
		msg = "The execution failed."
	}
	return &model.ExecutionError{Code: code, Message: msg, Attributes: map[string]any{"sandboxControl": action}}
}

// defaultMessages are the messages of errors a control action sets without one.
var defaultMessages = map[model.ExecutionStatus]string{
	model.ExecInvalidCredentials:      "The institution does not accept these credentials.",
	model.ExecAlreadyLoggedIn:         "The user is logged in elsewhere; the institution allows one session.",
	model.ExecInvalidCredentialsMFA:   "The MFA value is not valid.",
	model.ExecAccountLocked:           "The institution locked the account.",
	model.ExecAccountCredentialsReset: "The institution requires the user to reset the credentials.",
	model.ExecAccountNeedsAction:      "The user must act on the institution's site or app.",
	model.ExecUserAuthPending:         "The access is still pending authorization by the user at the institution.",
	model.ExecUserAuthNotGranted:      "The user did not grant access at the institution.",
	model.ExecUserNotSupported:        "The institution does not serve this kind of user.",
	model.ExecUserInputTimeout:        "The user did not provide the requested information in time.",
	model.ExecSiteNotAvailable:        "The institution's site is unavailable.",
	model.ExecConnectionError:         "The connection to the institution failed.",
	model.ExecUnexpectedError:         "The execution failed unexpectedly at the institution.",
	model.ExecMergeError:              "Merging the collected data failed.",
	model.ExecError:                   "The execution failed.",
}

// ResetItemLogin makes a sandbox item's credentials stop working, as when the user changes
// the password at the bank: the item is LOGIN_ERROR (INVALID_CREDENTIALS) at once, an
// update without parameters is refused (LAST_EXECUTION_HAD_LOGIN_ERROR), and every
// execution that still runs on the stored credentials (an automatic sync, POST
// /sandbox/items/{id}/sync) ends in LOGIN_ERROR, until an update sends credentials again.
func (e *Engine) ResetItemLogin(ctx context.Context, id uuid.UUID) (*model.Item, error) {
	p, err := caller(ctx, auth.ControlSandbox, id)
	if err != nil {
		return nil, err
	}
	var item *db.ItemRow
	var c *model.Connector
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		item, c, err = controlledItem(ctx, tx, p, id, true)
		if err != nil {
			return err
		}
		if ctx, err = onItemClock(ctx, tx, item); err != nil {
			return err
		}
		if len(c.Credentials) == 0 {
			return model.Fail(model.CodeInvalidParameter, "Item %s logs in with no credentials (connector %d), so there is no login to reset.", id, c.ID)
		}
		ctl, err := tx.LockItemControl(ctx, id)
		if err != nil {
			return err
		}
		ctl.LoginReset = db.CredentialsHash(item.Credentials)
		if err := tx.SaveItemControl(ctx, id, ctl); err != nil {
			return err
		}
		return e.endByControl(ctx, tx, item, controlResetLogin, resetLoginError())
	})
	if err != nil {
		return nil, err
	}
	item.Connector = c
	return &item.Item, nil
}

func resetLoginError() *model.ExecutionError {
	msg := "The institution no longer accepts the stored credentials: update the item with its credentials again."
	return controlError(model.ExecInvalidCredentials, &msg, controlResetLogin)
}

// endByControl records a control action's execution ending in xe and shows it on the
// item, with the item/error event an execution ending so sends.
func (e *Engine) endByControl(ctx context.Context, tx *db.Tx, it *db.ItemRow, action string, xe *model.ExecutionError) error {
	if err := e.recordControl(ctx, tx, it, action, xe.Code); err != nil {
		return err
	}
	e.endInError(it, xe, "CLIENT", e.nowIn(ctx))
	if err := tx.SaveItem(ctx, it); err != nil {
		return err
	}
	return itemEvent(ctx, tx, it, "item/error", "CLIENT", map[string]any{
		"error": map[string]any{"code": xe.Code, "message": xe.Message, "parameter": nil}})
}

// SetItemStatus puts a sandbox item at once in the state an execution ends in: UPDATED
// (SUCCESS or PARTIAL_SUCCESS), LOGIN_ERROR (a login error) or OUTDATED (another error),
// with the error code, message and statusDetail asked for. The collected data stays as it
// is. The states of a running execution (UPDATING, WAITING_USER_INPUT, WAITING_USER_ACTION,
// MERGING) need a running execution, which the scenario users give.
func (e *Engine) SetItemStatus(ctx context.Context, id uuid.UUID, in model.SandboxItemStatusInput) (*model.Item, error) {
	p, err := caller(ctx, auth.ControlSandbox, id)
	if err != nil {
		return nil, err
	}
	code, err := statusOutcome(in)
	if err != nil {
		return nil, err
	}
	var item *db.ItemRow
	var c *model.Connector
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		item, c, err = controlledItem(ctx, tx, p, id, true)
		if err != nil {
			return err
		}
		if ctx, err = onItemClock(ctx, tx, item); err != nil {
			return err
		}
		detail := in.StatusDetail
		if detail != nil {
			detail = normalDetail(detail)
		}
		if code == model.ExecPartialSuccess && detail == nil {
			left, err := unavailable(item.Products, nil)
			if err != nil {
				return err
			}
			detail = partialDetail(item.Products, left, model.NewTime(e.nowIn(ctx)))
		}
		if code != model.ExecSuccess && code != model.ExecPartialSuccess {
			if err := e.endByControl(ctx, tx, item, controlStatus, controlError(code, in.Message, controlStatus)); err != nil {
				return err
			}
			// An error shows the statusDetail asked for (a product's warnings); the event
			// went out with the item as it ends, which statusDetail is no part of.
			item.StatusDetail = detail
			return tx.SaveItem(ctx, item)
		}
		if err := e.recordControl(ctx, tx, item, controlStatus, code); err != nil {
			return err
		}
		now := model.NewTime(e.nowIn(ctx))
		first := item.LastUpdatedAt == nil
		item.Status, item.ExecutionStatus, item.StatusDetail = model.ItemUpdated, code, detail
		item.Error, item.Parameter, item.UserAction = nil, nil, nil
		item.LastUpdatedAt = &now
		item.ConsecutiveFailedLoginAttempts, item.ConsecutiveErrors, item.AutoSyncFailures = 0, 0, 0
		item.NextAutoSyncAt = ptr(model.NewTime(now.Add(e.cfg.AutoSyncEvery)))
		if err := tx.SaveItem(ctx, item); err != nil {
			return err
		}
		name := "item/updated"
		if first {
			name = "item/created"
		}
		return itemEvent(ctx, tx, item, name, "CLIENT", nil)
	})
	if err != nil {
		return nil, err
	}
	item.Connector = c
	return &item.Item, nil
}

// statusOutcome checks a status asked for and the outcome that goes with it (the default
// outcome when none is named).
func statusOutcome(in model.SandboxItemStatusInput) (model.ExecutionStatus, error) {
	var code model.ExecutionStatus
	if in.ExecutionStatus != nil {
		code = *in.ExecutionStatus
	}
	switch in.Status {
	case model.ItemUpdated:
		if code == "" {
			code = model.ExecSuccess
		}
		if code != model.ExecSuccess && code != model.ExecPartialSuccess {
			return "", model.Fail(model.CodeInvalidParameter, "executionStatus: an UPDATED item's last execution ended in SUCCESS or PARTIAL_SUCCESS (got %.40q).", code)
		}
	case model.ItemLoginError:
		if code == "" {
			code = model.ExecInvalidCredentials
		}
		if !code.IsLoginError() {
			return "", model.Fail(model.CodeInvalidParameter, "executionStatus: a LOGIN_ERROR item's last execution ended in a login error, one of %s (got %.40q).", loginErrors, code)
		}
	case model.ItemOutdated:
		if code == "" {
			code = model.ExecUnexpectedError
		}
		if !slices.Contains(outdatedErrors, code) {
			return "", model.Fail(model.CodeInvalidParameter, "executionStatus: an OUTDATED item's last execution ended in one of %s (got %.40q).", outdatedErrors, code)
		}
	case model.ItemUpdating, model.ItemWaitingUserInput, model.ItemWaitingUserAction, model.ItemMerging:
		return "", model.Fail(model.CodeInvalidParameter, "status: %s is the state of a running execution, which a control action cannot fake; the sandbox users of docs/sandbox.md reach it (an MFA user, an app authorization).", in.Status)
	default:
		return "", model.Fail(model.CodeInvalidParameter, "status must be UPDATED, LOGIN_ERROR or OUTDATED (got %.40q).", in.Status)
	}
	return code, nil
}

// The errors an execution ends in, by the item state they leave.
var (
	loginErrors = []model.ExecutionStatus{model.ExecInvalidCredentials, model.ExecAlreadyLoggedIn, model.ExecInvalidCredentialsMFA,
		model.ExecAccountLocked, model.ExecAccountCredentialsReset, model.ExecAccountNeedsAction, model.ExecUserAuthPending,
		model.ExecUserAuthNotGranted, model.ExecUserNotSupported, model.ExecUserInputTimeout}
	outdatedErrors = []model.ExecutionStatus{model.ExecUnexpectedError, model.ExecSiteNotAvailable, model.ExecConnectionError,
		model.ExecMergeError, model.ExecError}
)

// normalDetail fills both spellings of the investment transactions key (see
// model.StatusDetail) from whichever was given.
func normalDetail(d *model.StatusDetail) *model.StatusDetail {
	out := *d
	if out.InvestmentsTransactions == nil {
		out.InvestmentsTransactions = out.InvestmentTransactions
	}
	out.InvestmentTransactions = out.InvestmentsTransactions
	return &out
}

// unavailable checks the products a PARTIAL_SUCCESS leaves out: the item's own, never
// ACCOUNTS (the other products hang on its accounts); none asked means the first the
// item collects, in collection order.
func unavailable(products, asked []model.Product) ([]model.Product, error) {
	for _, p := range asked {
		if p == model.ProductAccounts {
			return nil, model.Fail(model.CodeInvalidParameter, "unavailableProducts: ACCOUNTS cannot be left out; the other products hang on its accounts.")
		}
		if !slices.Contains(products, p) {
			return nil, model.Fail(model.CodeInvalidParameter, "unavailableProducts: the item does not collect %.40q; it collects %v.", p, products)
		}
	}
	if len(asked) > 0 {
		return slices.Clone(asked), nil
	}
	for _, s := range productSteps(products) {
		if s.product != model.ProductAccounts {
			return []model.Product{s.product}, nil
		}
	}
	return nil, model.Fail(model.CodeInvalidParameter, "The item collects only ACCOUNTS, which PARTIAL_SUCCESS cannot leave out.")
}

// partialDetail is the statusDetail of a PARTIAL_SUCCESS that left out the given products.
func partialDetail(products, left []model.Product, now model.Time) *model.StatusDetail {
	d := &model.StatusDetail{}
	for _, p := range products {
		ps := &model.ProductState{IsUpdated: true, LastUpdatedAt: &now}
		if slices.Contains(left, p) {
			ps = &model.ProductState{IsUpdated: false}
		}
		setDetail(d, p, ps)
	}
	return d
}

// SetNextExecution chooses the outcome a sandbox item's next execution ends in, whatever
// starts it (an update, an automatic sync, POST /sandbox/items/{id}/sync): a login error
// ends it at login, SITE_NOT_AVAILABLE and CONNECTION_ERROR before login, the other errors
// after login, and PARTIAL_SUCCESS collects all but the products left out. SUCCESS clears
// an earlier choice. The execution records that it was told so (executions.forced_outcome).
func (e *Engine) SetNextExecution(ctx context.Context, id uuid.UUID, in model.SandboxNextExecutionInput) (*model.SandboxNextExecution, error) {
	p, err := caller(ctx, auth.ControlSandbox, id)
	if err != nil {
		return nil, err
	}
	code := in.ExecutionStatus
	if code != model.ExecSuccess && code != model.ExecPartialSuccess && !code.IsLoginError() && !slices.Contains(outdatedErrors, code) {
		return nil, model.Fail(model.CodeInvalidParameter, "executionStatus must be an outcome an execution ends in: SUCCESS, PARTIAL_SUCCESS, a login error (%s) or another error (%s); got %.40q.",
			loginErrors, outdatedErrors, code)
	}
	if code != model.ExecPartialSuccess && len(in.UnavailableProducts) > 0 {
		return nil, model.Fail(model.CodeInvalidParameter, "unavailableProducts goes with PARTIAL_SUCCESS only.")
	}
	out := &model.SandboxNextExecution{ItemID: id, ExecutionStatus: code, UnavailableProducts: []model.Product{}}
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		it, _, err := controlledItem(ctx, tx, p, id, false)
		if err != nil {
			return err
		}
		ctl, err := tx.LockItemControl(ctx, id)
		if err != nil {
			return err
		}
		switch code {
		case model.ExecSuccess:
			ctl.NextOutcome = nil
		case model.ExecPartialSuccess:
			if out.UnavailableProducts, err = unavailable(it.Products, in.UnavailableProducts); err != nil {
				return err
			}
			ctl.NextOutcome = out
		default:
			out.Message = ptr(controlError(code, in.Message, controlNext).Message)
			ctl.NextOutcome = out
		}
		return tx.SaveItemControl(ctx, id, ctl)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SyncItemNow runs a sandbox item's automatic sync at once, as its schedule would: an
// execution triggeredBy SYNC, whose events say so.
func (e *Engine) SyncItemNow(ctx context.Context, id uuid.UUID) (*model.Item, error) {
	p, err := caller(ctx, auth.ControlSandbox, id)
	if err != nil {
		return nil, err
	}
	var item *db.ItemRow
	var c *model.Connector
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		item, c, err = controlledItem(ctx, tx, p, id, true)
		if err != nil {
			return err
		}
		if ctx, err = onItemClock(ctx, tx, item); err != nil {
			return err
		}
		if c.Health.Status == model.HealthOffline {
			return model.Fail(model.CodeConnectorOffline, "Connector %d (%s) is offline at the moment; try again later.", c.ID, c.Name)
		}
		if err := e.startExecution(ctx, tx, item, "SYNC", nil, nil); err != nil {
			return err
		}
		if item.ExecutionID == nil {
			return fmt.Errorf("item %s: no execution after starting one", id)
		}
		return tx.SetExecutionControl(ctx, *item.ExecutionID, controlSync)
	})
	if err != nil {
		return nil, err
	}
	item.Connector = c
	return &item.Item, nil
}
