package webhooks

import (
	"context"
	"sync"
	"time"
)

// batcher runs the calls its callers make at about the same time as one: while flushes
// run (at most flushers at once) calls gather, and the next flush takes up to size of
// them. A lone call goes at once, so batching adds no wait when the queue is quiet; under
// load the deliveries' reads and attempt logs cost one statement per batch instead of
// one each.
type batcher[In, Out any] struct {
	run      func(ctx context.Context, in []In) ([]Out, []error)
	size     int
	flushers int
	timeout  time.Duration

	mu      sync.Mutex
	pending []*batchCall[In, Out]
	running int
}

type batchCall[In, Out any] struct {
	in   In
	out  Out
	err  error
	done chan struct{}
}

func newBatcher[In, Out any](size, flushers int, timeout time.Duration, run func(context.Context, []In) ([]Out, []error)) *batcher[In, Out] {
	return &batcher[In, Out]{run: run, size: size, flushers: flushers, timeout: timeout}
}

// do runs in with the calls gathered around it. A call whose ctx ends first returns its
// error, though its batch may still run.
func (b *batcher[In, Out]) do(ctx context.Context, in In) (Out, error) {
	c := &batchCall[In, Out]{in: in, done: make(chan struct{})}
	b.mu.Lock()
	b.pending = append(b.pending, c)
	if b.running < b.flushers {
		b.running++
		go b.flush()
	}
	b.mu.Unlock()
	select {
	case <-c.done:
		return c.out, c.err
	case <-ctx.Done():
		var zero Out
		return zero, ctx.Err()
	}
}

// flush runs batches until none are waiting. Its context is its own: one caller's ending
// must not fail the others' calls.
func (b *batcher[In, Out]) flush() {
	for {
		b.mu.Lock()
		n := min(len(b.pending), b.size)
		if n == 0 {
			b.running--
			b.mu.Unlock()
			return
		}
		calls := b.pending[:n:n]
		b.pending = b.pending[n:]
		b.mu.Unlock()
		in := make([]In, n)
		for i, c := range calls {
			in[i] = c.in
		}
		ctx, cancel := context.WithTimeout(context.Background(), b.timeout)
		out, errs := b.run(ctx, in)
		cancel()
		for i, c := range calls {
			c.out, c.err = out[i], errs[i]
			close(c.done)
		}
	}
}
