package model

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// TestClock is a sandbox clock: the objects created attached to it take "now" from it, and
// only an advance of the clock moves their due work (docs/test-clocks.md).
type TestClock struct {
	ID         uuid.UUID `json:"id"`
	Name       string    `json:"name"`
	FrozenTime Time      `json:"frozenTime"`
	Status     string    `json:"status"`
	CreatedAt  Time      `json:"createdAt"`
}

// TestClockPage is a page of an application's test clocks.
type TestClockPage struct {
	Total      int          `json:"total"`
	TotalPages int          `json:"totalPages"`
	Page       int          `json:"page"`
	Results    []*TestClock `json:"results"`
}

// TestClockInput creates a test clock.
type TestClockInput struct {
	FrozenTime *Time   `json:"frozenTime"`
	Name       *string `json:"name"`
}

// TestClockAdvanceInput moves a test clock forward.
type TestClockAdvanceInput struct {
	FrozenTime *Time `json:"frozenTime"`
}

// Clock is the test clock a piece of work runs under: its id, and its time at that point.
type Clock struct {
	ID  uuid.UUID
	Now time.Time
}

type clockKey struct{}

// WithClock makes ctx run on a test clock: Now(ctx) answers the clock's time, and work the
// engines schedule from ctx waits for the clock, not for real time.
func WithClock(ctx context.Context, c Clock) context.Context {
	return context.WithValue(ctx, clockKey{}, c)
}

// ClockOf is the test clock ctx runs on, if any.
func ClockOf(ctx context.Context) (Clock, bool) {
	c, ok := ctx.Value(clockKey{}).(Clock)
	return c, ok
}

// Now is the time for work done under ctx: a test clock's time when ctx carries one, else
// real time.
func Now(ctx context.Context) time.Time {
	if c, ok := ClockOf(ctx); ok {
		return c.Now
	}
	return time.Now()
}
