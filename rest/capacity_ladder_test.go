package rest_test

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"ponte/testsupport"
)

// capacityResolution is how close the capacity benchmark brings a knee: the lowest rate
// that failed is at most this factor above the highest that held. The target compares
// knees at 0.9, so the ladder must read finer than a tenth; its coarse steps above
// 2,000/s are an eighth to a fifth.
const capacityResolution = 1.05

// capacityLadder is one side's climb: the coarse rates in order until one fails, then a
// geometric bisection between the highest rate held and the lowest that failed, until the
// two are within capacityResolution. The bisection costs two or three steps per side where
// a finer grid all the way up would cost dozens.
type capacityLadder struct {
	rates  []int
	i      int // the next coarse rate's index
	knee   int // the highest rate held
	failed int // the lowest rate that failed; 0 while climbing
	held   map[int]testsupport.CPUSpent
}

func newCapacityLadder(rates []int) *capacityLadder {
	return &capacityLadder{rates: rates, held: map[int]testsupport.CPUSpent{}}
}

// next is the rate to try next, or 0 when the knee is known.
func (l *capacityLadder) next() int {
	if l.failed == 0 {
		if l.i < len(l.rates) {
			return l.rates[l.i]
		}
		return 0
	}
	if l.knee == 0 || float64(l.failed) <= capacityResolution*float64(l.knee) {
		return 0
	}
	mid := math.Sqrt(float64(l.knee) * float64(l.failed))
	if mid >= 1000 {
		mid = math.Round(mid/10) * 10 // figures that read at a glance
	}
	if m := int(math.Round(mid)); m > l.knee && m < l.failed { // rates a unit apart cannot be split
		return m
	}
	return 0
}

// record notes a step's outcome and, for a step held, what it cost.
func (l *capacityLadder) record(rate int, ok bool, cpu testsupport.CPUSpent) {
	if !ok {
		l.failed = rate
		return
	}
	l.knee = rate
	l.held[rate] = cpu
	if l.failed == 0 {
		l.i++
	}
}

// capacityCosts is what each side spent per request at the highest rate both held.
func capacityCosts(a, b *capacityLadder) [2]testsupport.CPUSpent {
	best := 0
	for rate := range a.held {
		if _, ok := b.held[rate]; ok && rate > best {
			best = rate
		}
	}
	return [2]testsupport.CPUSpent{a.held[best], b.held[best]}
}

// median is the middle of the knees (the lower middle of an even count).
func median(knees []int) int {
	if len(knees) == 0 {
		return 0
	}
	s := slices.Clone(knees)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

// medianCost is the cost whose total (server and PostgreSQL) is the middle one.
func medianCost(costs []testsupport.CPUSpent) testsupport.CPUSpent {
	if len(costs) == 0 {
		return testsupport.CPUSpent{}
	}
	s := slices.Clone(costs)
	slices.SortFunc(s, func(a, b testsupport.CPUSpent) int { return cmp.Compare(a.Server+a.Database, b.Server+b.Database) })
	return s[(len(s)-1)/2]
}

func TestCapacityLadder(t *testing.T) {
	t.Parallel()
	rates := []int{10, 100, 1000, 2000, 4000, 4800, 5600, 6400}
	for _, c := range []struct {
		name  string
		limit int // the highest rate the server holds
		tried []int
		knee  int
	}{
		{"bisects the last coarse step", 5300, []int{10, 100, 1000, 2000, 4000, 4800, 5600, 5180, 5390}, 5180},
		{"at a coarse rate", 4800, []int{10, 100, 1000, 2000, 4000, 4800, 5600, 5180, 4990}, 4800},
		{"above every rate", 9000, rates, 6400},
		{"below every rate", 5, []int{10}, 0},
		{"steps too close to split", 12, []int{10, 100, 32, 18, 13, 11, 12}, 12},
	} {
		l := newCapacityLadder(rates)
		var tried []int
		for rate := l.next(); rate > 0; rate = l.next() {
			if len(tried) > 20 {
				t.Fatalf("%s: no end after %v", c.name, tried)
			}
			tried = append(tried, rate)
			l.record(rate, rate <= c.limit, testsupport.CPUSpent{Server: 1})
		}
		if !slices.Equal(tried, c.tried) || l.knee != c.knee {
			t.Errorf("%s: tried %v, knee %d; want %v, knee %d", c.name, tried, l.knee, c.tried, c.knee)
		}
		if l.failed != 0 && l.knee != 0 && l.failed > l.knee+1 && float64(l.failed) > capacityResolution*float64(l.knee) {
			t.Errorf("%s: stopped between %d and %d, wider than the resolution", c.name, l.knee, l.failed)
		}
	}
	a, b := newCapacityLadder(rates), newCapacityLadder(rates)
	a.record(10, true, testsupport.CPUSpent{Server: 1})
	a.record(100, true, testsupport.CPUSpent{Server: 2})
	a.record(1000, true, testsupport.CPUSpent{Server: 3})
	b.record(10, true, testsupport.CPUSpent{Server: 4})
	b.record(100, true, testsupport.CPUSpent{Server: 5})
	b.record(1000, false, testsupport.CPUSpent{Server: 6})
	b.record(320, true, testsupport.CPUSpent{Server: 7})
	if got := capacityCosts(a, b); got[0].Server != 2 || got[1].Server != 5 {
		t.Errorf("costs at the highest rate both held: %v, want 2 and 5", got)
	}
	if m := median([]int{7200, 4000, 8000}); m != 7200 {
		t.Errorf("median of 7200, 4000 and 8000 is %d", m)
	}
	if m := medianCost([]testsupport.CPUSpent{{Server: 5, Database: 5}, {Server: 1, Database: 1}, {Server: 2, Database: 9}}); m.Server != 5 {
		t.Errorf("median cost %v, want the one totalling 10", m)
	}
}
