package payments

import (
	"context"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"ponte/auth"
	"ponte/db"
	"ponte/model"
)

// Test clock rules (docs/test-clocks.md).
const (
	// MaxTestClocks is how many clocks one application may keep.
	MaxTestClocks = 10
	// maxClockNameLen bounds a clock's name, in characters.
	maxClockNameLen = 100
	// MaxClockAdvance is the longest one advance may move a clock: ten years over a daily
	// schedule would run for minutes, two years over one takes seconds.
	MaxClockAdvanceYears = 2
	// MaxClockRuns bounds the due jobs one advance runs; past it the clock stops at the
	// time it reached (ready), and the next advance goes on from there.
	MaxClockRuns = 20000
)

// Test clock statuses.
const (
	ClockReady     = "ready"
	ClockAdvancing = "advancing"
)

func clockView(c *db.TestClockRow) *model.TestClock {
	return &model.TestClock{ID: c.ID, Name: c.Name, FrozenTime: model.NewTime(c.FrozenTime), Status: c.Status, CreatedAt: model.NewTime(c.CreatedAt)}
}

func controller(ctx context.Context) (uuid.UUID, error) {
	p, err := auth.Require(ctx, auth.ControlSandbox)
	if err != nil {
		return uuid.Nil, err
	}
	return p.ClientID, nil
}

func clockNotFound(id uuid.UUID) error {
	return model.Fail(model.CodeTestClockNotFound, "Test clock %s not found.", id)
}

// CreateTestClock makes a clock frozen at the time given.
func (e *Engine) CreateTestClock(ctx context.Context, in model.TestClockInput) (*model.TestClock, error) {
	clientID, err := controller(ctx)
	if err != nil {
		return nil, err
	}
	if in.Name == nil || strings.TrimSpace(*in.Name) == "" || utf8.RuneCountInString(*in.Name) > maxClockNameLen {
		return nil, model.Fail(model.CodeTestClockInvalid, "name is required: 1 to %d characters.", maxClockNameLen)
	}
	if in.FrozenTime == nil || in.FrozenTime.IsZero() {
		return nil, model.Fail(model.CodeTestClockInvalid, "frozenTime is required: the clock's starting time (RFC 3339).")
	}
	c := &db.TestClockRow{ID: model.NewID(), ClientID: clientID, Name: strings.TrimSpace(*in.Name), FrozenTime: in.FrozenTime.Time,
		Status: ClockReady, CreatedAt: time.Now()}
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := tx.LockClientClocks(ctx, clientID); err != nil {
			return err
		}
		n, err := tx.CountTestClocks(ctx, clientID)
		if err != nil {
			return err
		}
		if n >= MaxTestClocks {
			return model.Fail(model.CodeTestClockInvalid, "This application has %d test clocks, the most it may keep; delete one first.", n)
		}
		return tx.InsertTestClock(ctx, c)
	})
	if err != nil {
		return nil, err
	}
	return clockView(c), nil
}

// TestClocks lists the application's clocks, newest first.
func (e *Engine) TestClocks(ctx context.Context, page, pageSize *int) (*model.TestClockPage, error) {
	clientID, err := controller(ctx)
	if err != nil {
		return nil, err
	}
	n, err := readPage(page, pageSize, func(limit, offset int) ([]*model.TestClock, int, error) {
		rows, total, err := e.db.TestClocks(ctx, clientID, limit, offset)
		out := make([]*model.TestClock, len(rows))
		for i, c := range rows {
			out[i] = clockView(c)
		}
		return out, total, err
	})
	if err != nil {
		return nil, err
	}
	return &model.TestClockPage{Total: n.total, TotalPages: n.pages, Page: n.page, Results: n.results}, nil
}

// TestClock reads one of the application's clocks.
func (e *Engine) TestClock(ctx context.Context, id uuid.UUID) (*model.TestClock, error) {
	clientID, err := controller(ctx)
	if err != nil {
		return nil, err
	}
	c, found, err := e.db.TestClock(ctx, clientID, id, false)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, clockNotFound(id)
	}
	return clockView(c), nil
}

// AdvanceTestClock moves a clock forward: the clock is advancing until a job has run, in
// time order, everything due on it up to the new time (clockAdvanceWorker).
func (e *Engine) AdvanceTestClock(ctx context.Context, id uuid.UUID, in model.TestClockAdvanceInput) (*model.TestClock, error) {
	clientID, err := controller(ctx)
	if err != nil {
		return nil, err
	}
	if in.FrozenTime == nil || in.FrozenTime.IsZero() {
		return nil, model.Fail(model.CodeTestClockInvalid, "frozenTime is required: the time to advance the clock to (RFC 3339).")
	}
	to := in.FrozenTime.Time
	var c *db.TestClockRow
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var found bool
		if c, found, err = tx.TestClock(ctx, clientID, id, true); err != nil {
			return err
		} else if !found {
			return clockNotFound(id)
		}
		if c.Status == ClockAdvancing {
			return model.Fail(model.CodeTestClockAdvancing, "Test clock %s is still advancing to %s; wait until its status is ready.", id, c.TargetTime.UTC().Format(time.RFC3339))
		}
		if to.Before(c.FrozenTime) {
			return model.Fail(model.CodeTestClockBackwards, "frozenTime %s is before the clock's %s: a test clock only moves forward.",
				to.UTC().Format(time.RFC3339), c.FrozenTime.UTC().Format(time.RFC3339))
		}
		if to.After(c.FrozenTime.AddDate(MaxClockAdvanceYears, 0, 0)) {
			return model.Fail(model.CodeTestClockTooFar, "frozenTime %s is more than %d years after the clock's %s; advance in steps of at most %d years.",
				to.UTC().Format(time.RFC3339), MaxClockAdvanceYears, c.FrozenTime.UTC().Format(time.RFC3339), MaxClockAdvanceYears)
		}
		c.Status, c.TargetTime = ClockAdvancing, &to
		if err := tx.SaveTestClock(ctx, c); err != nil {
			return err
		}
		_, err := e.jobs.InsertTx(ctx, tx.PGX, ClockAdvanceArgs{ClockID: c.ID}, &river.InsertOpts{Queue: Queue})
		return err
	})
	if err != nil {
		return nil, err
	}
	return clockView(c), nil
}

// DeleteTestClock removes a clock; the work still due on it is dropped and its objects
// stay as they are.
func (e *Engine) DeleteTestClock(ctx context.Context, id uuid.UUID) (*model.TestClock, error) {
	clientID, err := controller(ctx)
	if err != nil {
		return nil, err
	}
	var c *db.TestClockRow
	err = e.db.InTx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var found bool
		if c, found, err = tx.TestClock(ctx, clientID, id, true); err != nil {
			return err
		} else if !found {
			return clockNotFound(id)
		}
		if c.Status == ClockAdvancing {
			return model.Fail(model.CodeTestClockAdvancing, "Test clock %s is advancing; delete it once its status is ready.", id)
		}
		return tx.DeleteTestClock(ctx, id)
	})
	if err != nil {
		return nil, err
	}
	return clockView(c), nil
}

// attachClock puts a new request on the clock its input names: a sandbox request of the
// caller's, whose times are then the clock's. ctx comes back carrying the clock.
func (e *Engine) attachClock(ctx context.Context, p *db.PaymentRequestRow, testClockID *string) (context.Context, error) {
	if testClockID == nil {
		return ctx, nil
	}
	id, err := parseID("testClockId", *testClockID)
	if err != nil {
		return ctx, err
	}
	if !p.IsSandbox {
		return ctx, model.Fail(model.CodeSandboxOnly, "testClockId is for sandbox payment requests only (isSandbox true).")
	}
	c, err := e.callersClock(ctx, p.ClientID, id)
	if err != nil {
		return ctx, err
	}
	p.TestClockID = &c.ID
	p.CreatedAt, p.UpdatedAt = c.Now, c.Now
	return model.WithClock(ctx, c), nil
}

// callersClock is the caller's clock id names, at its current time: another application's
// clock, or none, is TEST_CLOCK_NOT_FOUND.
func (e *Engine) callersClock(ctx context.Context, clientID, id uuid.UUID) (model.Clock, error) {
	c, found, err := e.db.TestClock(ctx, clientID, id, false)
	if err != nil {
		return model.Clock{}, err
	}
	if !found {
		return model.Clock{}, clockNotFound(id)
	}
	return model.Clock{ID: c.ID, Now: c.FrozenTime}, nil
}

// onClock makes work on a request that lives on a test clock run in the clock's time;
// other requests, and work already on the clock (an advance), keep ctx.
func (e *Engine) onClock(ctx context.Context, tx *db.Tx, p *db.PaymentRequestRow) (context.Context, error) {
	return onTestClock(ctx, tx, p.TestClockID)
}

// onTestClock is ctx in the time of the clock an object lives on (clockID nil: real time);
// ctx already on that clock (an advance) is kept as it is.
func onTestClock(ctx context.Context, tx *db.Tx, clockID *uuid.UUID) (context.Context, error) {
	if clockID == nil {
		return ctx, nil
	}
	if c, ok := model.ClockOf(ctx); ok && c.ID == *clockID {
		return ctx, nil
	}
	c, found, err := tx.TestClock(ctx, uuid.Nil, *clockID, false)
	if err != nil || !found {
		return ctx, err
	}
	return model.WithClock(ctx, model.Clock{ID: c.ID, Now: c.FrozenTime}), nil
}

// insertJob queues a continuation. Under a test clock it waits in the queue no worker
// serves, scheduled in clock time and named by the clock, so that real time never runs it
// and the clock's advance does.
func (e *Engine) insertJob(ctx context.Context, tx *db.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	if c, ok := model.ClockOf(ctx); ok {
		o := river.InsertOpts{}
		if opts != nil {
			o = *opts
		}
		o.Queue = db.TestClockQueue
		if o.ScheduledAt.IsZero() {
			o.ScheduledAt = c.Now
		}
		meta, err := json.Marshal(map[string]string{"testClockId": c.ID.String()})
		if err != nil {
			return nil, err
		}
		o.Metadata = meta
		opts = &o
	}
	return e.jobs.InsertTx(ctx, tx.PGX, args, opts)
}
