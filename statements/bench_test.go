// Benchmarks of statement files. Performance is a ratio to a baseline measured in the same
// process, never a wall-clock bound: the machine they run on is shared.
//
// Run them once each:
//
//	go test -run '^$' -bench '^BenchmarkStatementIngest$' -benchtime=1x ./statements/
//	go test -run '^$' -bench '^BenchmarkHostileRefusal$' -benchtime=1x -benchmem ./statements/
//
// BenchmarkStatementIngest starts its own PostgreSQL cluster (testsupport), as the tests do;
// BenchmarkHostileRefusal touches no database.
package statements_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"ponte/model"
	"ponte/statements"
	"ponte/testsupport"
)

func TestMain(m *testing.M) { testsupport.Main(m) }

// ingestRows is the size of the statement file: a busy business account's year.
const ingestRows = 100_000

// sandboxPerf is the N of user-ok-perf-N whose history is about ingestRows transactions:
// the sandbox makes about 363 rows per unit of N plus some 210 (99,8xx to 100,1xx for 275,
// depending on the day the history ends). The benchmark counts the rows it stored.
const sandboxPerf = 275

// BenchmarkStatementIngest uploads a 100,000-transaction OFX file to a fresh item on the
// OFX connector and waits for its execution to end UPDATED; the baseline, in the same
// process and database, is the sandbox storing a history of about as many rows through
// the same ingest path. Both are timed from the request that starts the execution to the
// item seen settled. The parse alone (ParseOFX of the same file) is reported too, to show
// what share of the upload's time is reading the file.
func BenchmarkStatementIngest(b *testing.B) {
	// A long execution must not be mistaken for the job of a killed process.
	env := testsupport.New(b, func(s *testsupport.Setup) { s.Jobs.JobTimeout, s.Jobs.RescueAfter = 20*time.Minute, 21*time.Minute })
	ctx := context.Background()
	file := ofxFile(b, largeFile(ingestRows))

	// Warm both paths (pools, prepared statements, the categorizer's rules) so neither
	// measured run pays for starting the service.
	warm := env.NewClient(b, "warm").APIKey
	sandboxSync(b, env, warm, "user-ok")
	statementItem(b, env, warm, ofxFile(b, largeFile(100)))

	count := func(itemID string) int {
		var n int
		if err := env.DB.Pool.QueryRow(ctx, `SELECT count(*) FROM transactions WHERE item_id = $1`, itemID).Scan(&n); err != nil {
			b.Fatal(err)
		}
		return n
	}

	b.ResetTimer()
	var sandboxRows, stmtRows int
	var sandboxTime, stmtTime, parseTime time.Duration
	for i := 0; i < b.N; i++ {
		// A client per round: a second sandbox item with the same credentials would be
		// refused as a duplicate.
		key := env.NewClient(b, fmt.Sprintf("round-%d", i)).APIKey

		id, took := sandboxSync(b, env, key, fmt.Sprintf("user-ok-perf-%d", sandboxPerf))
		sandboxTime += took
		sandboxRows += count(id)

		start := time.Now()
		f, err := statements.ParseOFX(file)
		parseTime += time.Since(start)
		if err != nil || len(f.Statements) != 1 || len(f.Statements[0].Lines) != ingestRows {
			b.Fatalf("the file does not read back as %d lines: %v", ingestRows, err)
		}

		id, took = statementItem(b, env, key, file)
		stmtTime += took
		n := count(id)
		if n != ingestRows {
			b.Fatalf("the upload stored %d transactions, want %d", n, ingestRows)
		}
		stmtRows += n
	}
	b.StopTimer()

	stmtRate := float64(stmtRows) / stmtTime.Seconds()
	sandboxRate := float64(sandboxRows) / sandboxTime.Seconds()
	parseRate := float64(b.N*ingestRows) / parseTime.Seconds()
	b.ReportMetric(stmtRate, "rows/s")
	b.ReportMetric(sandboxRate, "sandbox-rows/s")
	b.ReportMetric(stmtRate/sandboxRate, "x-sandbox")
	b.ReportMetric(parseRate, "parse-rows/s")
	b.Logf("file %.1f MB; upload of %d rows %s (%.0f rows/s); sandbox user-ok-perf-%d %d rows %s (%.0f rows/s); ratio %.2f; ParseOFX %s (%.0f rows/s, %.0f%% of the upload)",
		float64(len(file))/1e6, stmtRows/b.N, (stmtTime / time.Duration(b.N)).Round(time.Millisecond), stmtRate,
		sandboxPerf, sandboxRows/b.N, (sandboxTime / time.Duration(b.N)).Round(time.Millisecond), sandboxRate,
		stmtRate/sandboxRate, (parseTime / time.Duration(b.N)).Round(time.Millisecond), parseRate, 100*parseTime.Seconds()/stmtTime.Seconds())
}

// sandboxSync creates a sandbox item for user and waits for its first execution to end
// UPDATED: its id and the time from the request to the item seen settled.
func sandboxSync(b *testing.B, env *testsupport.Env, key, user string) (string, time.Duration) {
	b.Helper()
	var it model.Item
	start := time.Now()
	env.Do(b, "POST", "/items", key, map[string]any{"connectorId": 0, "products": []string{"ACCOUNTS", "TRANSACTIONS"},
		"parameters": map[string]any{"user": user, "password": "password-ok"}}).Want(200).JSON(&it)
	waitUpdated(b, env, key, it.ID.String())
	return it.ID.String(), time.Since(start)
}

// statementItem creates an item on the OFX connector, waits for its creation to settle
// (untimed: it reads no file), then uploads file and waits for that execution to end
// UPDATED: the item's id and the time from the upload request to the item seen settled.
func statementItem(b *testing.B, env *testsupport.Env, key string, file []byte) (string, time.Duration) {
	b.Helper()
	var it model.Item
	env.Do(b, "POST", "/items", key, map[string]any{"connectorId": statements.ConnectorOFX,
		"products": []string{"ACCOUNTS", "TRANSACTIONS"}}).Want(200).JSON(&it)
	id := it.ID.String()
	waitUpdated(b, env, key, id)
	start := time.Now()
	env.DoHeaders(b, "POST", "/items/"+id+"/statements?name=bench.ofx", key, file,
		map[string]string{"Content-Type": "application/x-ofx"}).Want(200)
	waitUpdated(b, env, key, id)
	return id, time.Since(start)
}

// waitUpdated polls the item until its execution has ended, and fails unless it ended
// UPDATED with SUCCESS. The limit only keeps a stuck run from hanging the benchmark.
func waitUpdated(b *testing.B, env *testsupport.Env, key, id string) {
	b.Helper()
	deadline := time.Now().Add(20 * time.Minute)
	for {
		it := env.Item(b, key, id)
		if testsupport.Settled(it) {
			if it.Status != model.ItemUpdated || it.ExecutionStatus != model.ExecSuccess {
				b.Fatalf("item %s ended %s/%s", id, it.Status, it.ExecutionStatus)
			}
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("item %s did not settle within 20 minutes", id)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func ofxFile(b *testing.B, f *statements.File) []byte {
	b.Helper()
	var buf bytes.Buffer
	if err := statements.WriteOFX(&buf, f, true); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// largeFile is a bank statement of n transactions like a real export's (a copy of the
// helper of ofx_test.go, which an external test package cannot reach).
func largeFile(n int) *statements.File {
	start := time.Date(2023, 1, 1, 0, 0, 0, 0, statements.SaoPaulo)
	end := start.AddDate(1, 0, 0)
	st := statements.Statement{
		Account:  statements.Account{Kind: statements.KindBank, BankID: "0341", Branch: "1234", Number: "56789-0", Type: "CHECKING"},
		Currency: "BRL", Start: &start, End: &end,
		Balance: &statements.Balance{Amount: 123456789, Date: end},
		Lines:   make([]statements.Line, n),
	}
	for i := range st.Lines {
		st.Lines[i] = statements.Line{
			FITID:       fmt.Sprintf("2023%08d", i),
			Date:        start.Add(time.Duration(i) * 5 * time.Minute),
			Amount:      int64(i%2000-1000) * 137,
			Description: fmt.Sprintf("PIX ENVIADO - FORNECEDOR %d LTDA", i%977),
			Type:        "XFER",
		}
	}
	return &statements.File{Statements: []statements.Statement{st}}
}

// hostileSize is the size of the large hostile inputs: near the 64 MiB limit, so they are
// read, not refused for their size.
const hostileSize = 60 << 20

// hostile are the inputs issue 37 names, each refused by both parsers.
var hostile = []struct {
	name string
	make func() []byte
}{
	{"10M-empty-lines", func() []byte { return bytes.Repeat([]byte("\n"), 10_000_000) }},
	{"60MB-single-line", func() []byte { return bytes.Repeat([]byte("A"), hostileSize) }},
	{"deeply-nested-SGML", func() []byte {
		head := "OFXHEADER:100\nDATA:OFXSGML\nVERSION:160\nSECURITY:NONE\nENCODING:USASCII\n" +
			"CHARSET:1252\nCOMPRESSION:NONE\nOLDFILEUID:NONE\nNEWFILEUID:NONE\n\n<OFX>\n"
		return fill(head, "<A>\n")
	}},
	{"entity-XML-bomb", func() []byte {
		// The billion laughs: each entity ten of the one before, then a body that names
		// the last one over and over, as far as the size allows.
		var h bytes.Buffer
		h.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<!DOCTYPE OFX [` + "\n" + ` <!ENTITY lol0 "lol">` + "\n")
		for i := 1; i <= 9; i++ {
			fmt.Fprintf(&h, ` <!ENTITY lol%d "%s">`+"\n", i, bytes.Repeat([]byte(fmt.Sprintf("&lol%d;", i-1)), 10))
		}
		h.WriteString("]>\n<OFX>\n")
		return fill(h.String(), "<MEMO>&lol9;</MEMO>\n")
	}},
	{"NUL-after-60MB", func() []byte {
		// The NUL at the end: where it costs most to find, and the line named counts all.
		b := fill("", "<STMTTRN><TRNAMT>-1.00</STMTTRN>\n")
		return append(b[:len(b)-1], 0)
	}},
}

// fill is head followed by unit repeated up to hostileSize bytes.
func fill(head, unit string) []byte {
	b := make([]byte, 0, hostileSize)
	b = append(b, head...)
	for len(b)+len(unit) <= hostileSize {
		b = append(b, unit...)
	}
	return b
}

// BenchmarkHostileRefusal times ParseOFX and ParseCSV refusing the hostile inputs, per MB
// of input, against a scan of the same bytes for newlines (bytes.Count) in the same
// process: the figure that matters is "x-newline-scan", how many newline scans a refusal
// costs. Each parser must refuse each input with a statements.Error.
func BenchmarkHostileRefusal(b *testing.B) {
	csvMapping, ok := statements.ReadyMapping("itau")
	if !ok {
		b.Fatal("no ready mapping itau")
	}
	parsers := []struct {
		name  string
		parse func([]byte) (*statements.File, error)
	}{
		{"OFX", statements.ParseOFX},
		{"CSV", func(in []byte) (*statements.File, error) { return statements.ParseCSV(in, csvMapping) }},
	}
	for _, h := range hostile {
		in := h.make()
		mb := float64(len(in)) / 1e6
		for _, p := range parsers {
			b.Run(p.name+"/"+h.name, func(b *testing.B) {
				b.ReportAllocs()
				var parse, scan time.Duration
				lines := 0
				var refusal *statements.Error
				for i := 0; i < b.N; i++ {
					start := time.Now()
					_, err := p.parse(in)
					parse += time.Since(start)
					if !errors.As(err, &refusal) {
						b.Fatalf("%s of %s: got %v, want a refusal", p.name, h.name, err)
					}
					start = time.Now()
					lines += bytes.Count(in, []byte("\n"))
					scan += time.Since(start)
				}
				b.StopTimer()
				perMB := float64(parse.Nanoseconds()) / float64(b.N) / mb
				scanPerMB := float64(scan.Nanoseconds()) / float64(b.N) / mb
				b.ReportMetric(perMB, "ns/MB")
				b.ReportMetric(scanPerMB, "scan-ns/MB")
				b.ReportMetric(perMB/scanPerMB, "x-newline-scan")
				b.Logf("%.1f MB, %d lines: %v", mb, lines/b.N, refusal)
			})
		}
	}
}
