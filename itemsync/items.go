package itemsync

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// maxConsecutiveErrors is section 8's "more than 5".
const maxConsecutiveErrors = 5

// createInput is the body of POST /items. Parameters is a key-value object or, when
// encrypted, a Base64 string.
type createInput struct {
	ConnectorID      int
	Parameters       any
	WebhookURL       *string
	ClientUserID     *string
	OAuthRedirectURI *string
	Products         []model.Product
	AvoidDuplicates  *bool
}

// updateInput is the body of PATCH /items/{id}; nil Parameters reuses the stored ones.
type updateInput struct {
	Parameters   any
	WebhookURL   *string
	ClientUserID *string
	Products     []model.Product
	FullSync     bool
}

// parametersOf is an input's parameters: the encrypted string when one is given, else the
// object (nil when neither is).
func parametersOf(params map[string]any, encrypted *string) any {
	if encrypted != nil && *encrypted != "" {
		return *encrypted
	}
	if params == nil {
		return nil
	}
	return params
}

func triggeredBy(p *auth.Principal) string {
	if p.IsConnectToken() {
		return "USER"
	}
	return "CLIENT"
}

func isRunning(s model.ItemStatus) bool {
	return s == model.ItemUpdating || s == model.ItemWaitingUserInput || s == model.ItemWaitingUserAction || s == model.ItemMerging
}

// Create applies the rules of POST /items and starts the first execution.
func (e *Engine) Create(ctx context.Context, body model.CreateItemInput) (*model.Item, error) {
	p, err := caller(ctx, auth.CreateItem)
	if err != nil {
		return nil, err
	}
	in := createInput{ConnectorID: body.ConnectorID, Parameters: parametersOf(body.Parameters, body.EncryptedParameters),
		WebhookURL: body.WebhookURL, ClientUserID: body.ClientUserID, OAuthRedirectURI: body.OAuthRedirectURI,
		Products: body.Products, AvoidDuplicates: body.AvoidDuplicates}
	c, found, err := e.db.Connector(ctx, in.ConnectorID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, model.Fail(model.CodeConnectorNotFound, "Connector %d not found.", in.ConnectorID)
	}
	settings, err := e.db.ClientSettings(ctx, p.ClientID)
	if err != nil {
		return nil, err
	}
	if !p.IsConnectToken() && !settings.APIItemCreationEnabled {
		return nil, model.Fail(model.CodeAPICreationDisabled, "This client application may only create items through the Connect widget (a Connect Token).")
	}
	if p.IsConnectToken() && p.ItemID != nil {
		return nil, model.Fail(model.CodeForbidden, "This Connect Token already connected item %s; request a new Connect Token for a new connection.", *p.ItemID)
	}
	if err := applyTokenOptions(p, &in); err != nil {
		return nil, err
	}
	if err := checkTokenConnector(p, c, &in); err != nil {
		return nil, err
	}
	if err := e.checkWebhookURL("webhookUrl", in.WebhookURL); err != nil {
		return nil, err
	}
	if err := checkURL("oauthRedirectUri", in.OAuthRedirectURI); err != nil {
		return nil, err
	}
	products, err := checkProducts(c, in.Products)
	if err != nil {
		return nil, err
	}
	params, obj, err := e.parameters(ctx, p.ClientID, in.Parameters)
	if err != nil {
		return nil, err
	}
	if len(params) == 0 && len(c.Credentials) > 0 {
		return nil, model.Fail(model.CodeParametersNotProvided, "parameters are required: send the connector's credentials (see GET /connectors/%d).", c.ID)
	}
	if errs := ValidateCredentials(c, obj); len(errs) > 0 {
		return nil, model.Fail(model.CodeConnectorValidation, "The parameters do not pass the connector's validation: %s", errs[0].Message).WithDetails(errs)
	}
	if c.Health.Status == model.HealthOffline {
		return nil, model.Fail(model.CodeConnectorOffline, "Connector %d (%s) is offline at the moment; try again later.", c.ID, c.Name)
	}
	ctx, clockID, err := e.attachItemClock(ctx, p.ClientID, c, body.TestClockID)
	if err != nil {
		return nil, err
	}
	fp := auth.Fingerprint(e.fpKey, c.ID, obj, nonMFA(c))
	if len(c.Credentials) == 0 {
		// Nothing identifies the user at a connector without credentials (statement
		// files): every item is its own, never a duplicate of another.
		fp = uuid.NewString()
	}

	var item *db.ItemRow
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		// Serialise creations of one client so the cap and duplicate checks hold.
		if err := tx.LockClientItems(ctx, p.ClientID); err != nil {
			return err
		}
		if settings.ItemLimit != nil {
			n, err := tx.CountItems(ctx, p.ClientID)
			if err != nil {
				return err
			}
			if n >= *settings.ItemLimit {
				return model.Fail(model.CodeItemCreationLimit, "This client application reached its limit of %d items; delete some or ask for a higher limit.", *settings.ItemLimit)
			}
		}
		dups, err := tx.ItemsWithFingerprint(ctx, p.ClientID, fp)
		if err != nil {
			return err
		}
		if err := e.checkDuplicates(dups, in.AvoidDuplicates != nil && *in.AvoidDuplicates); err != nil {
			return err
		}
		now := model.NewTime(e.nowIn(ctx))
		item = &db.ItemRow{Item: model.Item{
			ID: model.NewID(), ClientID: p.ClientID, ConnectorID: c.ID, Status: model.ItemUpdating,
			ExecutionStatus: model.ExecCreated, WebhookURL: in.WebhookURL, ClientUserID: in.ClientUserID,
			OAuthRedirectURI: in.OAuthRedirectURI, CreatedAt: now, UpdatedAt: now, Products: products, TestClockID: clockID,
		}, Fingerprint: &fp}
		if p.IsConnectToken() {
			item.ConnectTokenID = &p.TokenID
		}
		item.Credentials = e.sealParams(item.ID, withoutMFA(c, params))
		if err := tx.InsertItem(ctx, item); err != nil {
			return err
		}
		if p.IsConnectToken() {
			if err := tx.BindConnectToken(ctx, p.TokenID, item.ID); err != nil {
				return err
			}
		}
		return e.startExecution(ctx, tx, item, triggeredBy(p), mfaValue(c, params), nil)
	})
	if err != nil {
		return nil, err
	}
	item.Connector = c
	return &item.Item, nil
}

func checkProducts(c *model.Connector, asked []model.Product) ([]model.Product, error) {
	if len(asked) == 0 {
		return slices.Clone(c.Products), nil
	}
	for _, p := range asked {
		if !slices.Contains(c.Products, p) {
			return nil, model.Fail(model.CodeInvalidParameter, "products: connector %d does not offer %s; it offers %v.", c.ID, p, c.Products)
		}
	}
	return slices.Clone(asked), nil
}

func (e *Engine) checkDuplicates(dups []*db.ItemRow, avoid bool) error {
	var ids []string
	for _, d := range dups {
		if isRunning(d.Status) {
			return model.Fail(model.CodeItemIsAlreadyUpdating, "Item %s with the same credentials is still executing; wait for it to finish.", d.ID)
		}
		// An item on a test clock is dated in the clock's time, which says nothing of how
		// long ago, in real time, its credentials failed.
		if d.TestClockID == nil && d.Error != nil && (d.Error.Code == model.ExecSiteNotAvailable || d.Error.Code == model.ExecUnexpectedError) &&
			d.LastUpdatedAtOrUpdated().After(e.now().Add(-e.cfg.ErrorCooldown)) {
			return model.Fail(model.CodeItemInErrorCooldown, "These credentials failed at the institution at %s (%s); they can be retried after %s.",
				d.UpdatedAt.Format(model.TimeLayout), d.Error.Code, d.UpdatedAt.Add(e.cfg.ErrorCooldown).UTC().Format(model.TimeLayout))
		}
		ids = append(ids, d.ID.String())
	}
	if avoid && len(ids) > 0 {
		return model.Fail(model.CodeItemUserAlreadyExists, "An item with the same credentials already exists: %s.", ids[0]).
			WithData(map[string]any{"items": ids})
	}
	return nil
}

// startExecution begins a new execution of it inside tx and enqueues its job there too, so
// the item never says UPDATING without work that will move it.
func (e *Engine) startExecution(ctx context.Context, tx *db.Tx, it *db.ItemRow, by string, mfa map[string]string, upload *uuid.UUID) error {
	it.Executions++
	ex := &db.ExecutionRow{ID: model.NewID(), ItemID: it.ID, ConnectorID: it.ConnectorID, Number: it.Executions,
		TriggeredBy: by, Status: string(model.ExecCreated), Steps: []string{}, StartedAt: e.nowIn(ctx), UploadID: upload}
	if len(mfa) > 0 {
		ex.MFAAnswer = e.sealParams(ex.ID, mfa)
	}
	if err := tx.InsertExecution(ctx, ex); err != nil {
		return err
	}
	it.ExecutionID = &ex.ID
	it.Status, it.ExecutionStatus = model.ItemUpdating, model.ExecCreated
	it.Error, it.Parameter, it.UserAction = nil, nil, nil
	if err := tx.SaveItem(ctx, it); err != nil {
		return err
	}
	return e.enqueue(ctx, tx, ExecutionArgs{ExecutionID: ex.ID}, executionOpts(ctx))
}

func (e *Engine) enqueue(ctx context.Context, tx *db.Tx, args river.JobArgs, opts *river.InsertOpts) error {
	if e.jobs == nil {
		return errors.New("item engine has no job queue")
	}
	_, err := e.jobs.InsertTx(ctx, tx.PGX, args, opts)
	return err
}

// Update applies the rules of PATCH /items/{id} and starts a new execution.
func (e *Engine) Update(ctx context.Context, id uuid.UUID, body *model.UpdateItemInput) (*model.Item, error) {
	p, err := caller(ctx, auth.UpdateItem, id)
	if err != nil {
		return nil, err
	}
	var in updateInput
	if body != nil {
		in = updateInput{Parameters: parametersOf(body.Parameters, body.EncryptedParameters),
			WebhookURL: body.WebhookURL, ClientUserID: body.ClientUserID, Products: body.Products,
			FullSync: body.FullSync != nil && *body.FullSync}
	}
	if err := applyTokenUpdateOptions(p, &in); err != nil {
		return nil, err
	}
	if err := e.checkWebhookURL("webhookUrl", in.WebhookURL); err != nil {
		return nil, err
	}
	settings, err := e.db.ClientSettings(ctx, p.ClientID)
	if err != nil {
		return nil, err
	}
	params, _, err := e.parameters(ctx, p.ClientID, in.Parameters)
	if err != nil {
		return nil, err
	}
	var item *db.ItemRow
	var c *model.Connector
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		it, found, err := tx.LockItem(ctx, p.ClientID, id)
		if err != nil {
			return err
		}
		if !found {
			return model.Fail(model.CodeItemNotFound, "Item %s not found.", id)
		}
		item = it
		c, _, err = tx.Connector(ctx, it.ConnectorID)
		if err != nil {
			return err
		}
		if !settings.ItemUpdatesEnabled {
			return model.Fail(model.CodeItemUpdatesDisabled, "Item updates are disabled for this client application.")
		}
		if settings.SandboxUpdatesOnly && !c.IsSandbox {
			return model.Fail(model.CodeSandboxUpdatesOnly, "This client application may only update sandbox items.")
		}
		if isRunning(it.Status) {
			return model.Fail(model.CodeItemAlreadyUpdating, "Item %s is already updating (%s); wait for the execution to finish.", it.ID, it.ExecutionStatus)
		}
		if c.Health.Status == model.HealthOffline {
			return model.Fail(model.CodeConnectorOffline, "Connector %d (%s) is offline at the moment; try again later.", c.ID, c.Name)
		}
		// An item on a test clock measures its cool-downs in the clock's time, as it is dated.
		clock, err := itemClock(ctx, tx, it)
		if err != nil {
			return err
		}
		if clock != nil {
			ctx = model.WithClock(ctx, *clock)
		}
		now := e.nowIn(ctx)
		if h := settings.MinUpdateIntervalHours; h > 0 && !p.IsConnectToken() && it.LastClientUpdateAt != nil &&
			now.Before(it.LastClientUpdateAt.Add(time.Duration(h)*time.Hour)) {
			return model.Fail(model.CodeUpdateTooFrequent, "Client updates on this item are allowed at most every %d hours. The last update was at %s.",
				h, it.LastClientUpdateAt.UTC().Format(model.TimeLayout))
		}
		if it.ConsecutiveFailedLoginAttempts >= e.cfg.LoginFailureLimit && it.LastLoginFailureAt != nil {
			retry := it.LastLoginFailureAt.Add(e.cfg.LoginCooldown)
			if now.Before(retry) {
				return model.Fail(model.CodeTooManyLoginFailures, "Too many consecutive login failures: after %d failed attempts this item waits %s. Last attempt at %s; retry after %s.",
					e.cfg.LoginFailureLimit, e.cfg.LoginCooldown, it.LastLoginFailureAt.UTC().Format(model.TimeLayout), retry.UTC().Format(model.TimeLayout))
			}
		}
		if it.ConsecutiveErrors > maxConsecutiveErrors {
			return model.Fail(model.CodeTooManyErrors, "The last %d synchronizations of this item failed; send new parameters or delete and recreate it.", it.ConsecutiveErrors)
		}
		stored, err := e.openParams(it.ID, it.Credentials)
		if err != nil {
			return fmt.Errorf("open credentials of item %s: %w", it.ID, err)
		}
		// A value the institution set an expiry on lasts until then: past it, the stored one no
		// longer counts and the update must send it again.
		for _, cr := range c.Credentials {
			if cr.ExpiresAt != nil && !now.Before(cr.ExpiresAt.Time) {
				delete(stored, cr.Name)
			}
		}
		if len(params) == 0 && it.Error != nil && it.Error.Code.IsLoginError() && it.Status == model.ItemLoginError {
			return model.Fail(model.CodeLastLoginError, "The last execution of item %s failed at login (%s); send new parameters to update it.", it.ID, it.Error.Code)
		}
		merged := map[string]string{}
		for k, v := range stored {
			merged[k] = v
		}
		for k, v := range params {
			merged[k] = v
		}
		mergedAny := asAny(merged)
		if errs := ValidateCredentials(c, mergedAny); len(errs) > 0 {
			for _, ve := range errs {
				if _, sent := params[ve.Parameter]; !sent {
					return model.Fail(model.CodeConnectorRequiredParameter, "Parameter %s must be sent again for this update: %s", ve.Parameter, ve.Message).WithDetails([]model.ValidationError{ve})
				}
			}
			return model.Fail(model.CodeConnectorValidation, "The parameters do not pass the connector's validation: %s", errs[0].Message).WithDetails(errs)
		}
		if names := nonMFA(c); len(names) > 0 {
			first := names[0]
			if v, ok := params[first]; ok && stored[first] != "" && v != stored[first] {
				return model.Fail(model.CodeDifferentAccount, "The new credentials log in to a different account (%s changed); create a new item for it.", first)
			}
		}
		if err := mfaSentForUpdate(c, params); err != nil {
			return err
		}
		mfa := mfaValue(c, params)
		for _, v := range mfa {
			if it.LastMFAHash != nil && *it.LastMFAHash == mfaHash(it.ID, v) {
				return model.Fail(model.CodeMFAAlreadyUsed, "This MFA value was already used in the last execution; send a new one.")
			}
		}
		if in.ClientUserID != nil {
			it.ClientUserID = in.ClientUserID
		}
		if in.WebhookURL != nil {
			it.WebhookURL = in.WebhookURL
		}
		if len(in.Products) > 0 {
			prods, err := checkProducts(c, in.Products)
			if err != nil {
				return err
			}
			it.Products = prods
		}
		if len(params) > 0 {
			it.Credentials = e.sealParams(it.ID, withoutMFA(c, merged))
			fp := auth.Fingerprint(e.fpKey, c.ID, mergedAny, nonMFA(c))
			it.Fingerprint = &fp
		}
		if !p.IsConnectToken() {
			it.LastClientUpdateAt = &now
		}
		if in.FullSync {
			// Forgetting the last read makes the execution read the whole history.
			it.TransactionsReadAt = nil
		}
		return e.startExecution(ctx, tx, it, triggeredBy(p), mfa, nil)
	})
	if err != nil {
		return nil, err
	}
	item.Connector = c
	return &item.Item, nil
}

// SubmitMFA answers the parameter an item waits for (POST /items/{id}/mfa).
func (e *Engine) SubmitMFA(ctx context.Context, id uuid.UUID, body map[string]any) (*model.Item, error) {
	p, err := caller(ctx, auth.UpdateItem, id)
	if err != nil {
		return nil, err
	}
	var item *db.ItemRow
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		it, found, err := tx.LockItem(ctx, p.ClientID, id)
		if err != nil {
			return err
		}
		if !found {
			return model.Fail(model.CodeItemNotFound, "Item %s not found.", id)
		}
		item = it
		if it.ExecutionStatus == model.ExecLoginMFAInProgress {
			return model.Fail(model.CodeMFAAlreadyProvided, "The MFA of item %s was already provided; the execution is using it.", it.ID)
		}
		if it.Status != model.ItemWaitingUserInput || it.Parameter == nil || it.ExecutionID == nil {
			if it.Error != nil && it.Error.Code == model.ExecUserInputTimeout {
				return model.Fail(model.CodeMFAExpired, "The MFA request of item %s expired; start a new update.", it.ID)
			}
			return model.Fail(model.CodeMFANotFound, "Item %s is not waiting for MFA (status %s).", it.ID, it.Status)
		}
		if it.Parameter.ExpiresAt != nil && e.now().After(it.Parameter.ExpiresAt.Time) {
			return model.Fail(model.CodeMFAExpired, "The MFA request of item %s expired at %s; start a new update.", it.ID, it.Parameter.ExpiresAt.Format(model.TimeLayout))
		}
		name := it.Parameter.Name
		raw, ok := body[name]
		if !ok || len(body) != 1 {
			return model.Fail(model.CodeMFAMismatch, "Item %s expects the parameter %q.", it.ID, name)
		}
		value, ok := credentialString(raw)
		if !ok || value == "" {
			return model.Fail(model.CodeMFAMismatch, "Parameter %q must be a non-empty string.", name)
		}
		if it.LastMFAHash != nil && *it.LastMFAHash == mfaHash(it.ID, value) {
			return model.Fail(model.CodeMFAAlreadyUsed, "This MFA value was already used in the last execution; send a new one.")
		}
		ex, found, err := tx.LockExecution(ctx, *it.ExecutionID)
		if err != nil || !found {
			return fmt.Errorf("execution of item %s: found %v: %w", it.ID, found, err)
		}
		ex.MFAAnswer = e.sealParams(ex.ID, map[string]string{name: value})
		ex.Status = string(model.ExecLoginMFAInProgress)
		if err := tx.SaveExecution(ctx, ex); err != nil {
			return err
		}
		it.Status, it.ExecutionStatus, it.Parameter = model.ItemUpdating, model.ExecLoginMFAInProgress, nil
		if err := tx.SaveItem(ctx, it); err != nil {
			return err
		}
		return e.enqueue(ctx, tx, ExecutionArgs{ExecutionID: ex.ID}, nil)
	})
	if err != nil {
		return nil, err
	}
	return e.withConnector(ctx, item)
}

// Delete removes an item and everything collected for it.
func (e *Engine) Delete(ctx context.Context, id uuid.UUID) (*model.Item, error) {
	p, err := caller(ctx, auth.DeleteItem, id)
	if err != nil {
		return nil, err
	}
	var item *db.ItemRow
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		it, found, err := tx.LockItem(ctx, p.ClientID, id)
		if err != nil {
			return err
		}
		if !found {
			return model.Fail(model.CodeItemNotFound, "Item %s not found.", id)
		}
		item = it
		if err := tx.DeleteItem(ctx, id); err != nil {
			return err
		}
		return itemEvent(ctx, tx, it, "item/deleted", triggeredBy(p), nil)
	})
	if err != nil {
		return nil, err
	}
	return e.withConnector(ctx, item)
}

// ItemsPageSize is the page size of GET /v2/items.
const ItemsPageSize = 100
