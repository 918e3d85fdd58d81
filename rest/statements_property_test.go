package rest_test

import (
	"flag"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"ponte/testsupport"
)

// TestStatementUploadInvariants uploads random windows of one account's history (OFX with
// FITIDs, or CSV without ids, whose lines repeat within a day) in random order, with files
// that cannot be read in between, and after every upload holds the service to what an
// application relies on: every line of every file uploaded is stored exactly once, and no
// other; transactions/created announced each exactly once and nothing was deleted; the
// balance is the one of the latest period uploaded; a refused file changed nothing. rapid
// keeps a failing sequence under testdata/rapid, replayed first by every later run.
func TestStatementUploadInvariants(t *testing.T) {
	t.Parallel()
	// Each upload is an execution (a second or less): CI runs a few sequences; ask for
	// more with -rapid.checks.
	if f := flag.Lookup("rapid.checks"); f != nil && !flagGiven("rapid.checks") {
		old := f.Value.String()
		_ = f.Value.Set("5")
		defer func() { _ = f.Value.Set(old) }()
	}
	env := testsupport.New(t)
	key := env.NewClient(t, "statement property").APIKey
	mapping := map[string]any{"delimiter": ";", "columns": map[string]any{"date": "Data", "description": "Histórico", "amount": "Valor",
		"balance": "Saldo"}, "dateFormat": "DD/MM/YYYY", "decimal": "comma"}
	env.Do(t, "PUT", "/connectors/901/settings", key, mapping).Want(200)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rapid.Check(t, func(r *rapid.T) {
		csv := rapid.Bool().Draw(r, "csv")
		// The history: 40 days, up to three lines a day, some of them identical.
		type line struct {
			day     int
			amount  int64 // centavos
			desc    string
			fitid   string
			balance int64 // after the line
		}
		var history []line
		balance := int64(100000)
		for day := range 40 {
			for n := range rapid.IntRange(0, 3).Draw(r, fmt.Sprintf("lines of day %d", day)) {
				amount := rapid.SampledFrom([]int64{-1250, -1250, 500000, -8990, 15000}).Draw(r, "amount")
				desc := map[int64]string{-1250: "PADARIA PAO QUENTE", 500000: "SALARIO ACME", -8990: "NETFLIX.COM", 15000: "PIX RECEBIDO"}[amount]
				balance += amount
				history = append(history, line{day, amount, desc, fmt.Sprintf("F%02d-%d", day, n), balance})
			}
		}
		files := map[bool]int{false: 900, true: 901}
		it := createItem(t, env, key, files[csv], map[string]any{})
		id := it.ID.String()
		env.WaitItem(t, key, id, testsupport.Settled)
		uploaded := map[int]bool{} // index in history
		latest, latestBalance := -1, int64(0)
		money := func(c int64, comma bool) string {
			s := fmt.Sprintf("%d.%02d", c/100, abs(c)%100)
			if c < 0 && c > -100 {
				s = "-" + s
			}
			if comma {
				s = strings.Replace(s, ".", ",", 1)
			}
			return s
		}
		render := func(from, to int) (string, int64, bool) {
			var b strings.Builder
			closing, any := int64(0), false
			if csv {
				b.WriteString("Data;Histórico;Valor;Saldo\n")
			}
			for _, l := range history {
				if l.day < from || l.day > to {
					continue
				}
				closing, any = l.balance, true
				date := start.AddDate(0, 0, l.day)
				if csv {
					fmt.Fprintf(&b, "%s;%s;%s;%s\n", date.Format("02/01/2006"), l.desc, money(l.amount, true), money(l.balance, true))
				} else {
					fmt.Fprintf(&b, "<STMTTRN>\n<TRNTYPE>OTHER\n<DTPOSTED>%s\n<TRNAMT>%s\n<FITID>%s\n<MEMO>%s\n</STMTTRN>\n", date.Format("20060102"), money(l.amount, false), l.fitid, l.desc)
				}
			}
			if csv {
				return b.String(), closing, any
			}
			head := "OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL<BANKACCTFROM><BANKID>0260<BRANCHID>0001" +
				"<ACCTID>777-1<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST>\n"
			tail := fmt.Sprintf("</BANKTRANLIST><LEDGERBAL><BALAMT>%s<DTASOF>%s</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n",
				money(closing, false), start.AddDate(0, 0, to).Format("20060102"))
			return head + b.String() + tail, closing, any
		}
		for step := range rapid.IntRange(1, 5).Draw(r, "uploads") {
			if rapid.IntRange(0, 4).Draw(r, fmt.Sprintf("refused %d", step)) == 0 {
				before := createdCount(t, env, key, id)
				upload(t, env, key, id, "Data;Valor\nontem;dez\n<OFX><STMTTRN>").WantError(400, "STATEMENT_FILE_INVALID")
				if createdCount(t, env, key, id) != before {
					r.Fatalf("a refused file announced transactions")
				}
				continue
			}
			from := rapid.IntRange(0, 39).Draw(r, fmt.Sprintf("from %d", step))
			to := rapid.IntRange(from, 39).Draw(r, fmt.Sprintf("to %d", step))
			file, closing, any := render(from, to)
			if !any {
				continue // a file without a line: CSV refuses it, OFX has nothing to add
			}
			uploadAndWait(t, env, key, id, file)
			for i, l := range history {
				if l.day >= from && l.day <= to {
					uploaded[i] = true
				}
			}
			if to >= latest {
				latest, latestBalance = to, closing
			}

			accounts := accountsOf(t, env, key, id)
			if len(accounts) != 1 {
				r.Fatalf("%d accounts, want the file's one", len(accounts))
			}
			txs := readAll(t, env, key, "/v2/transactions?accountId="+accounts[0].ID.String(), nil)
			var got, want []string
			for _, tx := range txs {
				got = append(got, fmt.Sprintf("%s %.2f %s", tx.Date.In(time.UTC).Format("2006-01-02"), tx.Amount, tx.Description))
			}
			for i, l := range history {
				if uploaded[i] {
					want = append(want, fmt.Sprintf("%s %.2f %s", start.AddDate(0, 0, l.day).Format("2006-01-02"), float64(l.amount)/100, l.desc))
				}
			}
			sort.Strings(got)
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				r.Fatalf("after uploading days %d to %d, stored:\n%s\nwant:\n%s", from, to, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if n := createdCount(t, env, key, id); n != len(want) {
				r.Fatalf("transactions/created announced %d, want %d", n, len(want))
			}
			for _, ev := range env.Events(t, key, id) {
				if ev["event"] == "transactions/deleted" {
					r.Fatalf("an upload deleted transactions")
				}
			}
			if b := accounts[0].Balance; b == nil || *b != float64(latestBalance)/100 {
				r.Fatalf("balance %v, want %.2f (the latest period uploaded ends on day %d)", b, float64(latestBalance)/100, latest)
			}
			if accounts[0].Type != "BANK" || accounts[0].CurrencyCode != "BRL" {
				r.Fatalf("account %+v", accounts[0])
			}
		}
		env.Do(t, "DELETE", "/items/"+id, key, nil).Want(200)
	})
}

func abs(c int64) int64 {
	if c < 0 {
		return -c
	}
	return c
}
