package graph

import (
	"bytes"
	"context"
	"testing"
)

// TestSplices checks that an answer's markers are replaced by the lists held aside, in the
// markers' order (not the order the lists were held), that a list whose marker never made it
// into the answer is left out, that a list held in pieces is sent whole, and that without
// splices a list is written in place.
func TestSplices(t *testing.T) {
	t.Parallel()
	ctx, held := withSplices(context.Background())
	var answer bytes.Buffer
	answer.WriteString(`{"a":`)
	first := spliced(ctx, []byte(`[1`), []byte(`,2]`))
	second := spliced(ctx, []byte(`[3]`))
	spliced(ctx, []byte(`["dropped"]`)) // its field became null: no marker in the answer
	second.MarshalGQL(&answer)
	answer.WriteString(`,"b":`)
	first.MarshalGQL(&answer)
	answer.WriteString(`,"c":"x"}`)
	if got := bytes.Join(held.segments(answer.Bytes()), nil); string(got) != `{"a":[3],"b":[1,2],"c":"x"}` {
		t.Fatalf("spliced %q", got)
	}
	// Nothing held: the answer is one segment, as it is.
	var none *splices
	if got := none.segments([]byte(`{"a":1}`)); len(got) != 1 || string(got[0]) != `{"a":1}` {
		t.Fatalf("without splices %q", got)
	}
	var inPlace bytes.Buffer
	spliced(context.Background(), []byte(`[4`), []byte(`,5]`)).MarshalGQL(&inPlace)
	if inPlace.String() != `[4,5]` {
		t.Fatalf("in place %q", inPlace.String())
	}
}

// TestSpliceRelease checks that an answer's lists are let go once it is sent, and that a
// list's buffer, new or used before, starts empty.
func TestSpliceRelease(t *testing.T) {
	t.Parallel()
	ctx, held := withSplices(context.Background())
	list := append(listBuffer(8), "[1,2,3]"...)
	spliced(ctx, list)
	held.release()
	if len(held.parts) != 1 || held.parts[0] != nil {
		t.Fatalf("after release the answer still holds %q", held.parts)
	}
	for range 3 {
		if b := listBuffer(64); len(b) != 0 || cap(b) < 64 {
			t.Fatalf("a list buffer of %d bytes, capacity %d", len(b), cap(b))
		}
	}
	var none *splices
	none.release()
}

// TestGrowList checks that a list grown keeps its bytes and has the room asked for, and
// that new buffers come in powers of two, so lists of one shape can reuse each other's.
func TestGrowList(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 5, 1000, 300_000} {
		b := append(listBuffer(4), "[1,2"...)
		g := growList(b, n)
		if string(g) != "[1,2" || cap(g)-len(g) < n {
			t.Fatalf("grown by %d: %q with capacity %d", n, g, cap(g))
		}
	}
	for size, want := range map[int]int{0: 1, 1: 1, 3: 4, 4: 4, 1000: 1024, 300_000: 1 << 19, 1 << 20: 1 << 20} {
		if got := listCap(size); got != want {
			t.Fatalf("listCap(%d) = %d, want %d", size, got, want)
		}
	}
}
