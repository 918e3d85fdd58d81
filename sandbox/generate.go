package sandbox

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// Snapshot is everything one execution collects.
type Snapshot struct {
	Accounts               []model.Account
	Transactions           []model.Transaction // AccountID set; per account in date order
	Investments            []model.Investment
	InvestmentTransactions []model.InvestmentTransaction // InvestmentID set
	Identity               *model.Identity
	Loans                  []model.Loan
	Bills                  []model.CreditCardBill // AccountID set
	Statements             []model.AccountStatement
}

// historyDays is how far back an execution reads.
const historyDays = 365

// maxPerf caps the history multiplier of user-ok-perf-N.
const maxPerf = 5000

// Generate makes the snapshot an execution collects. It depends only on its arguments:
// ids derive from the item and a stable key; amounts, people and merchants from the
// connector and username, so two items with the same credentials see the same data with
// different ids, and repeating an execution yields identical rows.
//
// The history is made day by day from per-day seeds, so a given day always holds the same
// rows whichever day the execution runs; balances are anchored to calendar months, so a
// history window moving by a day does not change the rows it keeps. Today's rows come
// in batches, one per execution: execution N's batch is PENDING, earlier batches are
// POSTED and lose one or two rows each (authorisations the institution dropped). So
// executions N-1 and N of the same day differ by created, updated and deleted rows.
//
// Signs follow the official client: on bank accounts debits are negative; on the card,
// purchases are positive DEBITs and payments or refunds negative CREDITs. Category and
// categoryId are left nil for the categorizer.
func Generate(itemID uuid.UUID, connectorID int, username string, execution int, now time.Time) *Snapshot {
	return GenerateSince(itemID, connectorID, username, execution, now, time.Time{})
}

// GenerateSince is Generate with only the transactions dated at or after since (zero: all):
// the rows it keeps are exactly Generate's, balances included, and the others are never
// built, so an incremental read costs in proportion to its window.
func GenerateSince(itemID uuid.UUID, connectorID int, username string, execution int, now, since time.Time) *Snapshot {
	now = now.UTC()
	g := &gen{
		item: itemID, w: newWorld(connectorID, username), now: now, exec: max(execution, 1),
		today: time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC), since: since,
	}
	g.ts = model.NewTime(now)
	g.start = g.today.AddDate(0, 0, -historyDays)
	g.openFinance = connectorInfo()[connectorID].IsOpenFinance
	g.everyValue = username == EveryValueUser
	g.run(perfMultiplier(username), username == "user-ok-two-checking-accounts")
	return &g.snap
}

// perfMultiplier reads N of user-ok-perf-N.
func perfMultiplier(username string) int {
	rest, ok := strings.CutPrefix(username, "user-ok-perf-")
	if !ok {
		return 1
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 1 {
		return 1
	}
	return min(n, maxPerf)
}

var connectorInfo = sync.OnceValue(func() map[int]model.Connector {
	m := map[int]model.Connector{}
	for _, c := range Connectors() {
		m[c.ID] = c
	}
	return m
})

func seedOf(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		_, _ = h.Write([]byte(p))
		_, _ = h.Write([]byte{0})
	}
	return h.Sum64()
}

// mix derives a well-spread value from a seed and small integers (splitmix64 finaliser).
func mix(seed uint64, vals ...uint64) uint64 {
	x := seed
	for _, v := range vals {
		x ^= v + 0x9e3779b97f4a7c15 + (x << 6) + (x >> 2)
		x ^= x >> 30
		x *= 0xbf58476d1ce4e5b9
		x ^= x >> 27
		x *= 0x94d049bb133111eb
		x ^= x >> 31
	}
	return x
}

func rngFor(seed uint64, vals ...uint64) *rand.Rand {
	return rand.New(rand.NewPCG(mix(seed, vals...), mix(seed^0x5bd1e995, vals...)))
}

func sp(s string) *string        { return &s }
func fp(f float64) *float64      { return &f }
func ip(i int) *int              { return &i }
func bp(b bool) *bool            { return &b }
func tp(t time.Time) *model.Time { v := model.NewTime(t); return &v }

func money(f float64) float64 { return math.Round(f*100) / 100 }

// between is a money amount uniformly in [lo, hi).
func between(rng *rand.Rand, lo, hi float64) float64 { return money(lo + rng.Float64()*(hi-lo)) }

var plain = strings.NewReplacer(
	"á", "a", "à", "a", "â", "a", "ã", "a", "é", "e", "ê", "e", "í", "i", "ó", "o", "ô", "o", "õ", "o",
	"ú", "u", "ü", "u", "ç", "c", "Á", "A", "À", "A", "Â", "A", "Ã", "A", "É", "E", "Ê", "E", "Í", "I",
	"Ó", "O", "Ô", "O", "Õ", "O", "Ú", "U", "Ü", "U", "Ç", "C",
)

// upper writes a name as bank statements do: capitals, no accents.
func upper(s string) string { return strings.ToUpper(plain.Replace(s)) }

// gen is one run of Generate: the world it draws from, the clock it reads and the
// snapshot it fills.
type gen struct {
	item        uuid.UUID
	w           *world
	now, today  time.Time
	start       time.Time // first day of the history window
	exec        int
	ts          model.Time
	openFinance bool
	everyValue  bool      // EveryValueUser: the card adds everyValueRows
	since       time.Time // zero, or the earliest date of the transactions kept
	snap        Snapshot
}

func (g *gen) id(kind, key string) uuid.UUID { return uuid.NewSHA1(g.item, []byte(kind+":"+key)) }

// plan is one account being generated.
type plan struct {
	acc     *model.Account
	key     string
	stream  uint64
	primary bool
	perf    int
	opening float64 // bank accounts: balance before the first row
	rows    []baseRow
}

// baseRow is one generated row; history rows are copied perf times, the others once.
// A balancing row takes the amount that brings the balance to target.
type baseRow struct {
	t         model.Transaction
	single    bool
	balancing bool
	target    float64
}

func (g *gen) run(perf int, twoChecking bool) {
	w := g.w
	checking := []*plan{{acc: g.bankAccount("checking-1", "CHECKING_ACCOUNT", "Conta Corrente", w.holder.account), key: "checking-1", stream: 11, primary: true, perf: perf}}
	if twoChecking {
		second := fmt.Sprintf("%d-%d", 10000+int(mix(w.seed, 2)%900000), mix(w.seed, 3)%10)
		checking = append(checking, &plan{acc: g.bankAccount("checking-2", "CHECKING_ACCOUNT", "Conta Corrente Conjunta", second), key: "checking-2", stream: 12, perf: 1})
	}
	savingsNumber := fmt.Sprintf("%d-%d", 500000+int(mix(w.seed, 4)%400000), mix(w.seed, 5)%10)
	savings := &plan{acc: g.bankAccount("savings", "SAVINGS_ACCOUNT", "Poupança", savingsNumber), key: "savings", stream: 13}
	card := &plan{acc: g.cardAccount(), key: "card", stream: 14}

	bills := g.cardHistory(card)
	if g.everyValue {
		g.everyValueCard(card)
	}
	for _, p := range checking {
		g.checkingHistory(p, bills)
	}
	g.savingsHistory(savings)

	all := append(append([]*plan{}, checking...), savings, card)
	total := 0
	for _, p := range all {
		for _, r := range p.rows {
			if r.t.Date.Before(g.since) {
				continue
			}
			if r.single {
				total++
			} else {
				total += max(p.perf, 1)
			}
		}
	}
	g.snap.Transactions = make([]model.Transaction, 0, total)
	for _, p := range all {
		g.expand(p)
	}
	for _, p := range all {
		g.snap.Accounts = append(g.snap.Accounts, *p.acc)
	}
	g.investments()
	g.identity()
	g.loans()
	g.statements(append(checking, savings))
}

// expand appends an account's rows to the snapshot, copying history rows perf times,
// and sets the running balance (bank accounts) and the position within the day.
func (g *gen) expand(p *plan) {
	perf := max(p.perf, 1)
	out := g.snap.Transactions
	bank := p.acc.Type == "BANK"
	var balances []float64
	running := p.opening
	if bank {
		n := 0
		for _, r := range p.rows {
			if r.t.Date.Before(g.since) {
				continue
			}
			if r.single {
				n++
			} else {
				n += perf
			}
		}
		// One backing array holds every balance, instead of an allocation per row.
		balances = make([]float64, 0, n)
	}
	lastDay, order := int64(math.MinInt64), 0
	posted := running
	for i := range p.rows {
		r := &p.rows[i]
		copies := perf
		if r.single {
			copies = 1
		}
		if r.balancing {
			g.balance(&r.t, money(r.target-running))
		}
		if r.t.Date.Before(g.since) {
			// Before the window: only what the kept rows inherit (balance, order) moves.
			if day := r.t.Date.Unix() / 86400; day != lastDay {
				lastDay, order = day, 0
			}
			order += copies
			for c := 0; bank && c < copies; c++ {
				running = money(running + r.t.Amount)
				if r.t.Status == "POSTED" {
					posted = running
				}
			}
			continue
		}
		for c := 0; c < copies; c++ {
			out = append(out, r.t)
			t := &out[len(out)-1]
			if c > 0 {
				t.ID = perfID(r.t.ID, c)
			}
			if day := t.Date.Unix() / 86400; day != lastDay {
				lastDay, order = day, 0
			}
			order++
			t.Order = order
			if bank {
				running = money(running + t.Amount)
				balances = append(balances, running)
				t.Balance = &balances[len(balances)-1]
				if t.Status == "POSTED" {
					posted = running
				}
			}
		}
	}
	g.snap.Transactions = out
	if bank {
		p.acc.Balance = fp(running)
		p.acc.BankData.ClosingBalance = fp(posted)
		if p.acc.Subtype == "CHECKING_ACCOUNT" {
			used := money(math.Max(0, -running))
			p.acc.BankData.OverdraftUsedLimit = fp(math.Min(used, *p.acc.BankData.OverdraftContractedLimit))
			p.acc.BankData.UnarrangedOverdraftAmount = fp(money(math.Max(0, used-*p.acc.BankData.OverdraftContractedLimit)))
		}
	}
}

// balance turns a balancing row into an automatic investment or redemption of amount.
func (g *gen) balance(t *model.Transaction, amount float64) {
	t.Amount = amount
	if amount < 0 {
		t.Type, t.Description = "DEBIT", "APLICACAO AUTOMATICA CDB DI"
	} else {
		t.Type, t.Description = "CREDIT", "RESGATE AUTOMATICO CDB DI"
	}
	t.DescriptionRaw = sp(t.Description)
}

// perfID derives the id of the n-th copy of a row cheaply: a million SHA-1 ids would cost
// more than the sync they feed. Multiplying by an odd constant is a bijection on 32 bits,
// so the copies of one row never collide; the rest of the id still comes from SHA-1.
func perfID(base uuid.UUID, n int) uuid.UUID {
	id := base
	v := binary.BigEndian.Uint32(id[10:14]) ^ uint32(n)*2654435761
	binary.BigEndian.PutUint32(id[10:14], v)
	return id
}
