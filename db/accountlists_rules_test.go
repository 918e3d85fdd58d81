package db

import (
	"strconv"
	"testing"

	"github.com/google/uuid"
	"pgregory.net/rapid"

	"ponte/model"
)

// TestAccountListsRules drives the cache's rules alone through random interleavings of
// what happens around it: reads (each a miss's generation, a snapshot of the stored
// version, and a put later), this process's transactions (begin, commit, end, or a
// rollback), other processes' commits, and notices delivered in commit order. A list the
// cache answers must be the stored version, unless another process's change has not had
// its notice yet.
func TestAccountListsRules(t *testing.T) {
	t.Parallel()
	items := []uuid.UUID{uuid.New(), uuid.New()}
	rapid.Check(t, func(rt *rapid.T) {
		c := newAccountLists()
		c.setLive(true)
		version := map[uuid.UUID]int{}
		type read struct {
			item     uuid.UUID
			gen      uint64
			snapshot int
		}
		type tx struct {
			item      uuid.UUID
			committed bool
		}
		var reads []read
		var txs []*tx
		type notice struct {
			item      uuid.UUID
			elsewhere bool // another process's change
		}
		var notices []notice           // committed changes' notices, not yet delivered
		unheard := map[uuid.UUID]int{} // other processes' changes not yet delivered, by item
		list := func(v int) []model.JSONDocument {
			return []model.JSONDocument{model.JSONDocument(strconv.Itoa(v))}
		}
		for range rapid.IntRange(1, 200).Draw(rt, "steps") {
			// Mostly the first item: what goes wrong takes several steps on one item.
			item := items[rapid.IntRange(0, 3).Draw(rt, "item")/3]
			switch rapid.IntRange(0, 6).Draw(rt, "what") {
			case 0: // a read: a hit answers at once, a miss reads the database
				if docs, ok, gen := c.get(item, ""); ok {
					if got := string(docs[0]); got != strconv.Itoa(version[item]) && unheard[item] == 0 {
						rt.Fatalf("the cache answered version %s of an item at version %d", got, version[item])
					}
				} else {
					reads = append(reads, read{item, gen, version[item]})
				}
			case 1: // a read that missed puts what it read
				if len(reads) > 0 {
					i := rapid.IntRange(0, len(reads)-1).Draw(rt, "read")
					r := reads[i]
					reads = append(reads[:i], reads[i+1:]...)
					c.put(r.item, "", list(r.snapshot), r.gen)
				}
			case 2: // this process begins a change; two at most, or an item is rarely free
				if len(txs) < 2 {
					c.begin(item)
					txs = append(txs, &tx{item: item})
				}
			case 3: // it commits one
				for _, x := range txs {
					if !x.committed {
						x.committed = true
						version[x.item]++
						notices = append(notices, notice{x.item, false})
						break
					}
				}
			case 4: // a change ends, committed or rolled back
				if len(txs) > 0 {
					i := rapid.IntRange(0, len(txs)-1).Draw(rt, "tx")
					c.end([]uuid.UUID{txs[i].item})
					txs = append(txs[:i], txs[i+1:]...)
				}
			case 5: // another process commits a change
				version[item]++
				unheard[item]++
				notices = append(notices, notice{item, true})
			case 6: // the oldest notice arrives
				if len(notices) > 0 {
					c.forget(notices[0].item)
					if notices[0].elsewhere {
						unheard[notices[0].item]--
					}
					notices = notices[1:]
				}
			}
		}
	})
}
