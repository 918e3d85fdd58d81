package payments

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"ponte/db"
	"ponte/model"
)

// ClockAdvanceArgs runs a test clock's advance. It is a job of its own, on a served queue,
// so that an advance survives a restart: a retry goes on from the last job it ran.
type ClockAdvanceArgs struct {
	ClockID uuid.UUID `json:"clockId"`
}

func (ClockAdvanceArgs) Kind() string { return "test_clock_advance" }

type clockAdvanceWorker struct {
	river.WorkerDefaults[ClockAdvanceArgs]
	e *Engine
}

// Timeout lets an advance outlive River's default minute: its runs are bounded by
// MaxClockAdvanceYears and MaxClockRuns instead.
func (w *clockAdvanceWorker) Timeout(*river.Job[ClockAdvanceArgs]) time.Duration {
	return 15 * time.Minute
}

// clockRunner runs one job of a kind in process, as its worker would.
type clockRunner func(ctx context.Context, j *db.ClockJob) error

func runnerOf[T river.JobArgs](w river.Worker[T]) clockRunner {
	return func(ctx context.Context, j *db.ClockJob) error {
		var args T
		if err := json.Unmarshal(j.Args, &args); err != nil {
			return err
		}
		row := &rivertype.JobRow{ID: j.ID, Kind: j.Kind, Attempt: j.Attempt + 1, EncodedArgs: j.Args, Queue: db.TestClockQueue,
			ScheduledAt: j.ScheduledAt, State: rivertype.JobStateRunning}
		return w.Work(ctx, &river.Job[T]{JobRow: row, Args: args})
	}
}

// clockRunners are the payment jobs an advance can run: every kind the engine queues
// under a clock.
func (e *Engine) clockRunners() map[string]clockRunner {
	return map[string]clockRunner{
		StepArgs{}.Kind():              runnerOf[StepArgs](&stepWorker{e: e}),
		TimeoutArgs{}.Kind():           runnerOf[TimeoutArgs](&timeoutWorker{e: e}),
		ScheduledArgs{}.Kind():         runnerOf[ScheduledArgs](&scheduledWorker{e: e}),
		AutoPixArgs{}.Kind():           runnerOf[AutoPixArgs](&autoPixWorker{e: e}),
		BoletoStepArgs{}.Kind():        runnerOf[BoletoStepArgs](&boletoStepWorker{e: e}),
		RefundStepArgs{}.Kind():        runnerOf[RefundStepArgs](&refundWorker{e: e}),
		ExpiryArgs{}.Kind():            runnerOf[ExpiryArgs](&expiryWorker{e: e}),
		SmartTransferStepArgs{}.Kind(): runnerOf[SmartTransferStepArgs](&smartTransferWorker{e: e}),
		BulkStepArgs{}.Kind():          runnerOf[BulkStepArgs](&bulkWorker{e: e}),
	}
}

// ClockWork is due work another package keeps on test clocks (the items' automatic sync).
// An advance runs it in time order with the clock's own jobs through this hook, so that
// payments need not import that package.
type ClockWork interface {
	// NextClockDue is the clock time of the clock's earliest such work due at or before
	// until, if any.
	NextClockDue(ctx context.Context, tx *db.Tx, clockID uuid.UUID, until time.Time) (time.Time, bool, error)
	// RunClockDue runs the clock's work due at the clock time ctx carries; it must leave
	// that work no longer due, or the advance would run it again.
	RunClockDue(ctx context.Context, clockID uuid.UUID) error
}

// ClockJobRunner is a ClockWork whose due work also waits as jobs on the clock's queue
// (inserted with the clock's id in their metadata, scheduled in clock time): the advance
// runs the jobs of its kinds in time order with the clock's own.
type ClockJobRunner interface {
	ClockJobKinds() []string
	RunClockJob(ctx context.Context, kind string, args []byte) error
}

// AddClockWork makes advances run w's due work too; it is set up before the engine serves.
func (e *Engine) AddClockWork(w ClockWork) { e.clockWork = append(e.clockWork, w) }

// Work takes the clock's earliest due work by the target time (a job, the boleto sweep or
// another package's ClockWork), sets the clock to its time, runs it with that time in ctx,
// and records a job done, until none is due (jobs the runs queue before the target are
// taken in turn); then the clock stands at the target, ready. The daily boleto sweep of the
// clock's boletos runs, in its turn, on each day a date of one of them passes
// (nextClockSweep).
func (w *clockAdvanceWorker) Work(ctx context.Context, job *river.Job[ClockAdvanceArgs]) error {
	e := w.e
	runners := e.clockRunners()
	for _, cw := range e.clockWork {
		if r, ok := cw.(ClockJobRunner); ok {
			for _, kind := range r.ClockJobKinds() {
				runners[kind] = func(ctx context.Context, j *db.ClockJob) error { return r.RunClockJob(ctx, j.Kind, j.Args) }
			}
		}
	}
	for runs := 0; ; runs++ {
		var next *db.ClockJob
		var clock model.Clock
		var other ClockWork
		done, sweep := false, false
		err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
			c, found, err := tx.TestClock(ctx, uuid.Nil, job.Args.ClockID, true)
			if err != nil || !found || c.Status != ClockAdvancing || c.TargetTime == nil {
				done = true // deleted, or finished by an earlier attempt
				return err
			}
			j, found, err := tx.NextClockJob(ctx, c.ID, *c.TargetTime)
			if err != nil {
				return err
			}
			sweepAt, sweepDue, err := e.nextClockSweep(ctx, tx, c, *c.TargetTime)
			if err != nil {
				return err
			}
			var at time.Time
			if found {
				next, at = j, j.ScheduledAt
			}
			if sweepDue && (next == nil && other == nil || !sweepAt.After(at)) {
				next, sweep, at = nil, true, sweepAt
			}
			for _, cw := range e.clockWork {
				due, ok, err := cw.NextClockDue(ctx, tx, c.ID, *c.TargetTime)
				if err != nil {
					return err
				}
				if ok && (next == nil && !sweep && other == nil || due.Before(at)) {
					next, sweep, other, at = nil, false, cw, due
				}
			}
			if (next == nil && !sweep && other == nil) || runs >= MaxClockRuns {
				if next == nil && !sweep && other == nil {
					c.FrozenTime = *c.TargetTime
				}
				c.Status, c.TargetTime, done = ClockReady, nil, true
				return tx.SaveTestClock(ctx, c)
			}
			if at.After(c.FrozenTime) {
				c.FrozenTime = at
				if err := tx.SaveTestClock(ctx, c); err != nil {
					return err
				}
			}
			clock = model.Clock{ID: c.ID, Now: c.FrozenTime}
			return nil
		})
		if err != nil || done {
			return err
		}
		if sweep || other != nil {
			// A sweep or another package's work that fails is the advance's failure: River
			// tries the advance again, from the time the clock reached.
			if sweep {
				_, err = e.sweepBoletos(model.WithClock(ctx, clock), clock.ID)
			} else {
				err = other.RunClockDue(model.WithClock(ctx, clock), clock.ID)
			}
			if err != nil {
				return err
			}
			continue
		}
		failed := ""
		if run, ok := runners[next.Kind]; !ok {
			failed = fmt.Sprintf("no runner for job kind %s under a test clock", next.Kind)
		} else if err := run(model.WithClock(ctx, clock), next); err != nil {
			failed = err.Error()
			e.log.Warn("test clock job failed", "clock", clock.ID, "job", next.ID, "kind", next.Kind, "error", err)
		}
		if err := e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error { return tx.FinishClockJob(ctx, next, failed, 25) }); err != nil {
			return err
		}
	}
}
