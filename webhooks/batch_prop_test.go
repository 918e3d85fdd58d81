package webhooks

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// Whatever the calls and however they gather, each caller gets its own input's result and
// error, no batch is larger than the size, and no more flushes run at once than allowed.
func TestBatcherGivesEachCallItsOwnResult(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		size := rapid.IntRange(1, 8).Draw(t, "size")
		flushers := rapid.IntRange(1, 3).Draw(t, "flushers")
		inputs := rapid.SliceOfN(rapid.IntRange(-50, 50), 1, 60).Draw(t, "inputs")
		var running, most, biggest atomic.Int64
		failOdd := errors.New("odd")
		b := newBatcher(size, flushers, time.Second, func(_ context.Context, in []int) ([]int, []error) {
			if n := running.Add(1); n > most.Load() {
				most.Store(n)
			}
			defer running.Add(-1)
			if int64(len(in)) > biggest.Load() {
				biggest.Store(int64(len(in)))
			}
			out, errs := make([]int, len(in)), make([]error, len(in))
			for i, v := range in {
				out[i] = v * 3
				if v%2 != 0 {
					errs[i] = failOdd
				}
			}
			return out, errs
		})
		var wg sync.WaitGroup
		got, gotErr := make([]int, len(inputs)), make([]error, len(inputs))
		for i, v := range inputs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], gotErr[i] = b.do(context.Background(), v)
			}()
		}
		wg.Wait()
		for i, v := range inputs {
			if got[i] != v*3 || (v%2 != 0) != (gotErr[i] != nil) {
				t.Fatalf("call %d with %d got %d, %v", i, v, got[i], gotErr[i])
			}
		}
		if biggest.Load() > int64(size) || most.Load() > int64(flushers) {
			t.Fatalf("a batch of %d (size %d), %d flushes at once (allowed %d)", biggest.Load(), size, most.Load(), flushers)
		}
	})
}
