package itemsync

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"ponte/db"
	"ponte/metrics"
	"ponte/model"
)

type executionWorker struct {
	river.WorkerDefaults[ExecutionArgs]
	e *Engine
}

// Timeout leaves room for the largest sandbox histories; the per-execution lock, not the
// time-out, is what keeps a rescued job from running beside the original.
func (w *executionWorker) Timeout(*river.Job[ExecutionArgs]) time.Duration { return 30 * time.Minute }

func (w *executionWorker) Work(ctx context.Context, job *river.Job[ExecutionArgs]) error {
	return w.e.run(ctx, job.Args.ExecutionID)
}

// run advances one execution as far as it can go: to a wait for the user, or to its end.
func (e *Engine) run(ctx context.Context, executionID uuid.UUID) error {
	// Held while this process works the execution (see db.ClaimExecution).
	release, got, err := e.db.ClaimExecution(ctx, executionID)
	if err != nil {
		return err
	}
	if !got {
		return river.JobSnooze(2 * time.Second)
	}
	defer release()

	st, err := e.load(ctx, executionID)
	if err != nil || st == nil {
		return err
	}
	if st.clock != nil {
		ctx = model.WithClock(ctx, *st.clock)
	}
	switch model.ExecutionStatus(st.ex.Status) {
	case model.ExecCreated, model.ExecLoginInProgress:
		return e.login(ctx, st)
	case model.ExecLoginMFAInProgress:
		return e.afterInput(ctx, st)
	case model.ExecWaitingUserInput, model.ExecWaitingUserAction:
		return nil // the user's answer enqueues the next run
	default:
		if model.ExecutionStatus(st.ex.Status).IsFinal() {
			return nil
		}
		// Killed while collecting: collection is one transaction, so start it over.
		return e.collect(ctx, st)
	}
}

type state struct {
	ex     *db.ExecutionRow
	it     *db.ItemRow
	c      *model.Connector
	params map[string]string
	inst   Institution
	sess   *Session
	// clock is the test clock the item lives on, at its time when the run began; nil in
	// real time.
	clock *model.Clock
}

// load reads the execution and its item; nil when the execution is stale (item deleted or
// a newer execution started).
func (e *Engine) load(ctx context.Context, id uuid.UUID) (*state, error) {
	st := &state{}
	err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		ex, found, err := tx.LockExecution(ctx, id)
		if err != nil || !found {
			return err
		}
		it, found, err := tx.LockItem(ctx, uuid.Nil, ex.ItemID)
		if err != nil || !found {
			return err
		}
		if it.ExecutionID == nil || *it.ExecutionID != ex.ID {
			return nil
		}
		st.ex, st.it = ex, it
		st.clock, err = itemClock(ctx, tx, it)
		return err
	})
	if err != nil || st.ex == nil {
		return nil, err
	}
	c, _, err := e.db.Connector(ctx, st.it.ConnectorID)
	if err != nil {
		return nil, err
	}
	st.c = c
	st.params, err = e.openParams(st.it.ID, st.it.Credentials)
	if err != nil {
		return nil, fmt.Errorf("open credentials of item %s: %w", st.it.ID, err)
	}
	if st.inst, err = e.institution(c); err != nil {
		return nil, err
	}
	st.sess = &Session{ItemID: st.it.ID, ClientID: st.it.ClientID, ExecutionID: st.ex.ID, Execution: st.ex.Number, Connector: c, Params: st.params,
		Products: st.it.Products, Now: e.now(), BaseURL: e.cfg.BaseURL}
	if st.clock != nil {
		st.sess.Now = st.clock.Now
	}
	if st.ex.UploadID != nil {
		if st.sess.Upload, err = e.db.StatementUpload(ctx, *st.ex.UploadID); err != nil {
			return nil, err
		}
	}
	if c.IsSandbox {
		if st.sess.TransactionChanges, err = db.TransactionQueue.List(ctx, e.db, st.it.ID); err != nil {
			return nil, err
		}
		if st.sess.BillChanges, err = db.BillQueue.List(ctx, e.db, st.it.ID); err != nil {
			return nil, err
		}
		if st.sess.InvestmentChanges, err = db.InvestmentQueue.List(ctx, e.db, st.it.ID); err != nil {
			return nil, err
		}
	}
	if st.sess.Settings, err = e.db.ConnectorSettings(ctx, st.it.ClientID, c.ID); err != nil {
		return nil, err
	}
	st.sess.Since = readSince(st)
	return st, nil
}

// step moves the execution to status and shows it on the item, then paces.
func (e *Engine) step(ctx context.Context, st *state, status model.ExecutionStatus, extra func(tx *db.Tx) error) error {
	err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		st.ex.Status = string(status)
		st.ex.Steps = append(st.ex.Steps, string(status))
		if err := tx.SaveExecution(ctx, st.ex); err != nil {
			return err
		}
		st.it.ExecutionStatus = status
		if err := tx.SaveItem(ctx, st.it); err != nil {
			return err
		}
		if extra != nil {
			return extra(tx)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return e.pace(ctx, st)
}

// pace spaces the steps of simulated banks so a client can watch them move; a file is
// read at once.
func (e *Engine) pace(ctx context.Context, st *state) error {
	// A sync the clock's advance runs itself is not paced: no one watches it step by step.
	if _, files := st.inst.(FileTaker); files || e.cfg.StepDelay <= 0 || inline(ctx) {
		return nil
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(e.cfg.StepDelay):
		return nil
	}
}

func (e *Engine) login(ctx context.Context, st *state) error {
	var forced *model.ExecutionError
	err := e.step(ctx, st, model.ExecLoginInProgress, func(tx *db.Tx) (err error) {
		forced, err = e.takeControl(ctx, tx, st)
		return err
	})
	if err != nil {
		return err
	}
	if forced != nil {
		return e.finishError(ctx, st, forced)
	}
	next, err := st.inst.Login(ctx, st.sess)
	if err != nil {
		return err
	}
	upfront, _ := e.mfaAnswer(st)
	if next.MFA != nil && len(upfront) > 0 && upfront[next.MFA.Name] != "" {
		// The MFA value came with the credentials: no need to wait.
		return e.afterInput(ctx, st)
	}
	return e.follow(ctx, st, next)
}

// follow takes the execution where an institution's step leads.
func (e *Engine) follow(ctx context.Context, st *state, next Step) error {
	switch {
	case next.Error != nil:
		return e.finishError(ctx, st, next.Error)
	case next.MFA != nil:
		return e.waitInput(ctx, st, *next.MFA)
	case next.Action != nil:
		return e.waitAction(ctx, st, *next.Action, next.ActionTimeout)
	}
	return e.collect(ctx, st)
}

func (e *Engine) mfaAnswer(st *state) (map[string]string, error) {
	if len(st.ex.MFAAnswer) == 0 {
		return nil, nil
	}
	return e.openParams(st.ex.ID, st.ex.MFAAnswer)
}

func (e *Engine) waitInput(ctx context.Context, st *state, param model.CredentialParameter) error {
	expires := e.nowIn(ctx).Add(e.cfg.InputTimeout)
	param.ExpiresAt = ptr(model.NewTime(expires))
	return e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		st.ex.Status = string(model.ExecWaitingUserInput)
		st.ex.Steps = append(st.ex.Steps, st.ex.Status)
		if err := tx.SaveExecution(ctx, st.ex); err != nil {
			return err
		}
		st.it.Status, st.it.ExecutionStatus, st.it.Parameter = model.ItemWaitingUserInput, model.ExecWaitingUserInput, &param
		if err := tx.SaveItem(ctx, st.it); err != nil {
			return err
		}
		if err := itemEvent(ctx, tx, st.it, "item/waiting_user_input", st.ex.TriggeredBy, nil); err != nil {
			return err
		}
		return e.enqueueTimeout(ctx, tx, st.ex.ID, expires)
	})
}

func (e *Engine) waitAction(ctx context.Context, st *state, action model.UserAction, timeout model.ExecutionStatus) error {
	expires := e.nowIn(ctx).Add(e.cfg.InputTimeout)
	action.ExpiresAt = ptr(model.NewTime(expires))
	if timeout == "" {
		timeout = model.ExecUserInputTimeout
	}
	return e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		st.ex.ActionTimeout = ptr(string(timeout))
		st.ex.Status = string(model.ExecWaitingUserAction)
		st.ex.Steps = append(st.ex.Steps, st.ex.Status)
		if err := tx.SaveExecution(ctx, st.ex); err != nil {
			return err
		}
		st.it.Status, st.it.ExecutionStatus, st.it.UserAction = model.ItemWaitingUserAction, model.ExecWaitingUserAction, &action
		if err := tx.SaveItem(ctx, st.it); err != nil {
			return err
		}
		if err := itemEvent(ctx, tx, st.it, "item/waiting_user_action", st.ex.TriggeredBy, nil); err != nil {
			return err
		}
		return e.enqueueTimeout(ctx, tx, st.ex.ID, expires)
	})
}

// afterInput continues once the user answered the MFA or acted.
func (e *Engine) afterInput(ctx context.Context, st *state) error {
	action := slices.Contains(st.ex.Steps, string(model.ExecWaitingUserAction))
	if !action {
		if err := e.step(ctx, st, model.ExecLoginMFAInProgress, nil); err != nil {
			return err
		}
	}
	answer, err := e.mfaAnswer(st)
	if err != nil {
		return err
	}
	next, err := st.inst.Answer(ctx, st.sess, answer)
	if err != nil {
		return err
	}
	if next.Error == nil && next.MFA == nil && next.Action == nil && !action {
		for _, v := range answer {
			h := mfaHash(st.it.ID, v)
			st.it.LastMFAHash = &h
		}
	}
	return e.follow(ctx, st, next)
}

// collect walks the product steps and commits everything collected in one transaction.
func (e *Engine) collect(ctx context.Context, st *state) error {
	if !slices.Contains(st.ex.Steps, "login_succeeded") {
		// Only a successful login ends a run of failed ones (spec 2.3): new parameters do
		// not, or a client could retry wrong passwords forever without the cooldown.
		st.it.ConsecutiveFailedLoginAttempts = 0
		err := e.step(ctx, st, model.ExecAccountsInProgress, func(tx *db.Tx) error {
			st.ex.Steps = append(st.ex.Steps, "login_succeeded")
			if err := tx.SaveExecution(ctx, st.ex); err != nil {
				return err
			}
			return itemEvent(ctx, tx, st.it, "item/login_succeeded", st.ex.TriggeredBy, nil)
		})
		if err != nil {
			return err
		}
	}
	if xe := forcedAfterLogin(st.ex.Forced); xe != nil {
		return e.finishError(ctx, st, xe)
	}
	got := &collection{outcomes: map[model.Product]Outcome{}}
	for _, s := range productSteps(st.it.Products) {
		if err := e.step(ctx, st, s.status, nil); err != nil {
			return err
		}
		if forcedUnavailable(st.ex.Forced, s.product) {
			got.outcomes[s.product] = Outcome{Unavailable: true}
			continue
		}
		out, err := st.inst.Collect(ctx, st.sess, s.product, got.add)
		var f *Failure
		if errors.As(err, &f) {
			return e.finishError(ctx, st, &f.ExecutionError)
		}
		if err != nil {
			return err
		}
		got.outcomes[s.product] = out
	}
	return e.finishSuccess(ctx, st, got)
}

// productStep is a product and the execution status collecting it shows.
type productStep struct {
	product model.Product
	status  model.ExecutionStatus
}

// productSteps lists the products asked for, in collection order. Accounts come last:
// their step shows as the statements being read, and the transactions collected before
// are kept only for the accounts they deliver.
func productSteps(products []model.Product) []productStep {
	order := []productStep{
		{model.ProductCreditCards, model.ExecCreditCardsInProgress},
		{model.ProductTransactions, model.ExecTransactionsInProgress},
		{model.ProductPaymentData, model.ExecPaymentDataInProgress},
		{model.ProductInvestments, model.ExecInvestmentsInProgress},
		{model.ProductInvestmentsTransactions, model.ExecInvestmentTxInProgress},
		{model.ProductIdentity, model.ExecIdentityInProgress},
		{model.ProductLoans, model.ExecLoansInProgress},
		// The SCR lists credit operations: its step shows as the loans', a status the
		// official client knows.
		{model.ProductCreditInfo, model.ExecLoansInProgress},
		{model.ProductAccounts, model.ExecStatementsInProgress},
	}
	var out []productStep
	for _, o := range order {
		if slices.Contains(products, o.product) {
			out = append(out, o)
		}
	}
	return out
}

func (e *Engine) finishError(ctx context.Context, st *state, xe *model.ExecutionError) error {
	return e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		now := e.nowIn(ctx)
		st.ex.Status = string(xe.Code)
		st.ex.FinishedAt = &now
		st.ex.MFAAnswer = nil
		if err := tx.SaveExecution(ctx, st.ex); err != nil {
			return err
		}
		if st.ex.UploadID != nil {
			if err := tx.ForgetUploadContent(ctx, *st.ex.UploadID); err != nil {
				return err
			}
		}
		tx.AfterCommit(func() { e.logEnd(ctx, st) })
		it := st.it
		e.endInError(it, xe, st.ex.TriggeredBy, now)
		if err := tx.SaveItem(ctx, it); err != nil {
			return err
		}
		if err := itemEvent(ctx, tx, it, "item/error", st.ex.TriggeredBy, map[string]any{
			"error": map[string]any{"code": xe.Code, "message": xe.Message, "parameter": nil}}); err != nil {
			return err
		}
		return e.nextUpload(ctx, tx, st)
	})
}

// endInError shows an execution's error on its item: LOGIN_ERROR with a login attempt
// counted, or OUTDATED with the next automatic retry.
func (e *Engine) endInError(it *db.ItemRow, xe *model.ExecutionError, by string, now time.Time) {
	it.ExecutionStatus, it.Error, it.Parameter, it.UserAction = xe.Code, xe, nil, nil
	it.ConsecutiveErrors++
	if xe.Code.IsLoginError() {
		it.Status = model.ItemLoginError
		it.ConsecutiveFailedLoginAttempts++
		it.LastLoginFailureAt = &now
		it.NextAutoSyncAt = nil
		return
	}
	it.Status = model.ItemOutdated
	if by == "SYNC" {
		it.AutoSyncFailures++
	}
	if it.AutoSyncFailures < e.cfg.AutoSyncRetries {
		// Retry sooner than a day, a bounded number of times.
		it.NextAutoSyncAt = ptr(model.NewTime(now.Add(time.Hour * time.Duration(1<<it.AutoSyncFailures))))
	} else {
		it.NextAutoSyncAt = nil
	}
}

func (e *Engine) finishSuccess(ctx context.Context, st *state, got *collection) error {
	// Read before the transaction: a job holds at most two connections (its lock and its
	// transaction), which is what keeps the pool from deadlocking under many workers.
	if _, err := e.categoryNames(ctx); err != nil {
		return err
	}
	return e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		now := e.nowIn(ctx)
		nowT := model.NewTime(now)
		changes, err := e.ingest(ctx, tx, st, got, now)
		if err != nil {
			return err
		}
		status := model.ExecSuccess
		detail := &model.StatusDetail{}
		anyWarn := false
		for _, p := range st.it.Products {
			ps := &model.ProductState{IsUpdated: true, LastUpdatedAt: &nowT}
			out := got.outcomes[p]
			if out.Unavailable {
				ps = &model.ProductState{IsUpdated: false, LastUpdatedAt: nil}
				status = model.ExecPartialSuccess
			}
			if len(out.Warnings) > 0 {
				anyWarn = true
				ps.Warnings = out.Warnings
			}
			setDetail(detail, p, ps)
		}
		st.ex.Status = string(status)
		st.ex.FinishedAt = &now
		st.ex.MFAAnswer = nil
		if err := tx.SaveExecution(ctx, st.ex); err != nil {
			return err
		}
		if st.ex.UploadID != nil {
			if err := tx.ForgetUploadContent(ctx, *st.ex.UploadID); err != nil {
				return err
			}
		}
		tx.AfterCommit(func() { e.logEnd(ctx, st) })
		it := st.it
		first := it.LastUpdatedAt == nil
		it.Status, it.ExecutionStatus = model.ItemUpdated, status
		it.Error, it.Parameter, it.UserAction = nil, nil, nil
		it.LastUpdatedAt = &nowT
		it.ConsecutiveFailedLoginAttempts, it.ConsecutiveErrors, it.AutoSyncFailures = 0, 0, 0
		it.NextAutoSyncAt = ptr(model.NewTime(now.Add(e.cfg.AutoSyncEvery)))
		if _, files := st.inst.(FileTaker); files {
			// An item fed by files has nothing to fetch on a schedule: a daily sync would
			// only announce an item/updated that changed nothing.
			it.NextAutoSyncAt = nil
		}
		if status == model.ExecPartialSuccess || anyWarn {
			it.StatusDetail = detail
		} else {
			it.StatusDetail = nil
		}
		if st.c.IsOpenFinance {
			it.ConsentExpiresAt = ptr(model.NewTime(now.AddDate(1, 0, 0)))
			it.ResourcesCollectedAt = &nowT
			it.HasResourcesPendingAuthorization = ptr(got.pendingResources())
		}
		if err := tx.SaveItem(ctx, it); err != nil {
			return err
		}
		name := "item/updated"
		if first {
			name = "item/created"
		}
		if err := itemEvent(ctx, tx, it, name, st.ex.TriggeredBy, nil); err != nil {
			return err
		}
		if err := e.transactionEvents(ctx, tx, st, changes, now); err != nil {
			return err
		}
		return e.nextUpload(ctx, tx, st)
	})
}

func setDetail(d *model.StatusDetail, p model.Product, s *model.ProductState) {
	switch p {
	case model.ProductAccounts:
		d.Accounts = s
	case model.ProductCreditCards:
		d.CreditCards = s
	case model.ProductTransactions:
		d.Transactions = s
	case model.ProductInvestments:
		d.Investments = s
	case model.ProductInvestmentsTransactions:
		d.InvestmentsTransactions, d.InvestmentTransactions = s, s
	case model.ProductIdentity:
		d.Identity = s
	case model.ProductPaymentData:
		d.PaymentData = s
	case model.ProductLoans:
		d.Loans = s
	}
}

type inputTimeoutWorker struct {
	river.WorkerDefaults[InputTimeoutArgs]
	e *Engine
}

// Work ends an execution still waiting for the user when its window closes.
func (w *inputTimeoutWorker) Work(ctx context.Context, job *river.Job[InputTimeoutArgs]) error {
	return w.e.inputTimeout(ctx, job.Args.ExecutionID)
}

// inputTimeout ends the execution if it still waits for the user. On a test clock it runs in
// the advance (RunClockJob), at the clock time the wait ended, and dates the end then.
func (e *Engine) inputTimeout(ctx context.Context, executionID uuid.UUID) error {
	st, err := e.load(ctx, executionID)
	if err != nil || st == nil {
		return err
	}
	if st.clock != nil {
		ctx = model.WithClock(ctx, *st.clock)
	}
	switch model.ExecutionStatus(st.ex.Status) {
	case model.ExecWaitingUserInput:
		return e.finishError(ctx, st, &model.ExecutionError{Code: model.ExecUserInputTimeout,
			Message: "The user did not provide the requested information in time."})
	case model.ExecWaitingUserAction:
		code := model.ExecUserInputTimeout
		if st.ex.ActionTimeout != nil {
			code = model.ExecutionStatus(*st.ex.ActionTimeout)
		}
		msg := "The user did not complete the requested action in time."
		if code == model.ExecUserAuthPending {
			msg = "The access is still pending authorization by the user at the institution."
		}
		return e.finishError(ctx, st, &model.ExecutionError{Code: code, Message: msg})
	}
	return nil
}

// logEnd writes the one line an execution leaves in the log when it ends: which item, how,
// and how long it took (ids and codes only: parameters are credentials).
func (e *Engine) logEnd(ctx context.Context, st *state) {
	took := st.ex.FinishedAt.Sub(st.ex.StartedAt)
	metrics.Executions.WithLabelValues(st.ex.Status).Inc()
	metrics.ExecutionSeconds.WithLabelValues(st.ex.Status).Observe(took.Seconds())
	e.log.InfoContext(ctx, "item execution ended", "itemId", st.it.ID, "executionId", st.ex.ID, "connectorId", st.ex.ConnectorID,
		"status", st.ex.Status, "triggeredBy", st.ex.TriggeredBy, "ms", took.Milliseconds())
}
