package graph

import (
	"bytes"
	"context"
	"io"
	"math/bits"
	"strconv"
	"sync"

	"github.com/99designs/gqlgen/graphql"
)

// A projected list (project.go) is most of its answer: a 500-row page of every field is
// over half a megabyte. Written into gqlgen's response buffer, those bytes were copied
// twice more, each time into a buffer grown by doubling (gqlgen's, then writeResponse's),
// about 3 MB allocated and cleared per page, which cost an every-field page as much as
// reading its documents. Instead the list is held aside and a marker takes its place in
// gqlgen's answer; writeResponse sends the answer with each marker replaced by its list.
//
// A marker is a NUL byte, the list's number in decimal, and a NUL byte. No JSON the
// service writes contains a raw NUL: JSON forbids control characters in strings, encoding/json
// and gqlgen escape them, and the stored documents were written by encoding/json. Only a
// request served by httpTransport holds lists aside (its context carries the splices);
// anywhere else the list is written in place.

type splicesKey struct{}

// splices are the lists an operation held aside, by number. A list may be held in
// pieces (a long page is projected in parts at once, see projector.list), sent in order.
type splices struct {
	mu    sync.Mutex
	parts [][][]byte
}

// withSplices lets the operation of ctx hold its projected lists aside.
func withSplices(ctx context.Context) (context.Context, *splices) {
	s := &splices{}
	return context.WithValue(ctx, splicesKey{}, s), s
}

// spliced returns the marshaler that writes the pieces of out, in order, in the answer: a
// marker when the request holds lists aside, the bytes themselves otherwise.
func spliced(ctx context.Context, out ...[]byte) graphql.Marshaler {
	s, _ := ctx.Value(splicesKey{}).(*splices)
	if s == nil {
		return graphql.WriterFunc(func(w io.Writer) {
			for _, piece := range out {
				_, _ = w.Write(piece)
			}
		})
	}
	s.mu.Lock()
	n := len(s.parts)
	s.parts = append(s.parts, out)
	s.mu.Unlock()
	marker := strconv.AppendInt([]byte{0}, int64(n), 10)
	marker = append(marker, 0)
	return graphql.WriterFunc(func(w io.Writer) { _, _ = w.Write(marker) })
}

// A projected list is about as long as its page, half a megabyte for 500 rows of every
// field, and was allocated afresh for each answer (a fifth of the bytes a page allocated
// besides its documents). Once writeAnswer has sent them, the lists go back to listBuffers
// for the next answer's lists; a list longer than listBufferKept goes to the collector, so
// one huge page does not stay held.
var listBuffers sync.Pool // of *[]byte

const listBufferKept = 2 << 20

// listBuffer is an empty buffer of at least size bytes for a list. A new one is made a
// power of two long: a list's size follows its rows' lengths, and sized exactly, the next
// page of the same shape could need a few bytes more than the buffer kept for it, and
// allocated its own.
func listBuffer(size int) []byte {
	if p, _ := listBuffers.Get().(*[]byte); p != nil {
		if cap(*p) >= size {
			return (*p)[:0]
		}
		listBuffers.Put(p) // for a shorter list
	}
	return make([]byte, 0, listCap(size))
}

// listCap is the capacity of a new list buffer for size bytes: the next power of two.
func listCap(size int) int { return 1 << bits.Len(uint(max(size-1, 0))) }

// growList returns b with room for n more bytes: b itself, or its bytes in a list buffer
// long enough, b going back to listBuffers.
func growList(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	grown := append(listBuffer(len(b)+n), b...)
	keepList(b)
	return grown
}

// keepList gives a list's buffer back to listBuffers once nothing refers to it; a buffer
// longer than listBufferKept goes to the collector.
func keepList(b []byte) {
	if cap(b) > 0 && cap(b) <= listBufferKept {
		b = b[:0]
		listBuffers.Put(&b)
	}
}

// release gives the lists back once the answer holding them is sent: nothing refers to
// them any longer.
func (s *splices) release() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, pieces := range s.parts {
		for _, b := range pieces {
			keepList(b)
		}
		s.parts[i] = nil
	}
}

// segments cuts an answer at its markers: the answer's bytes between markers, and the
// lists in their places, in order. A list whose field became null (an error below a
// non-null field) left no marker and is not sent.
func (s *splices) segments(answer []byte) [][]byte {
	if s == nil || len(s.parts) == 0 {
		return [][]byte{answer}
	}
	size := 1 // the answer's bytes after the last marker
	for _, pieces := range s.parts {
		size += 1 + len(pieces) // the bytes before the marker, and the list's pieces
	}
	out := make([][]byte, 0, size)
	for {
		i := bytes.IndexByte(answer, 0)
		if i < 0 {
			return append(out, answer)
		}
		end := bytes.IndexByte(answer[i+1:], 0)
		n, err := strconv.Atoi(string(answer[i+1 : i+1+max(end, 0)]))
		if end < 0 || err != nil || n < 0 || n >= len(s.parts) {
			// Not a marker (it cannot happen; see above): sent as it is.
			return append(out, answer)
		}
		out = append(append(out, answer[:i]), s.parts[n]...)
		answer = answer[i+end+2:]
	}
}
