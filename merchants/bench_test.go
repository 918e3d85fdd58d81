package merchants_test

// BenchmarkMerchantImport: performance as a ratio to a baseline in the same process, never a
// wall-clock bound (the machine is shared). Run it once:
//
//	go test -run '^$' -bench '^BenchmarkMerchantImport$' -benchtime=1x ./merchants/

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"ponte/brdocs"
	"ponte/db"
	"ponte/merchants"
	"ponte/testsupport"
)

// importRows is the generated file's size: a tenth of one of the Receita's ten
// Estabelecimentos files.
const importRows = 1_000_000

// writeEstablishments writes n Estabelecimentos lines in the published layout (Latin-1,
// quoted, ';'), distinct CNPJs, a trade name with an accented letter.
func writeEstablishments(b *testing.B, path string, n int) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i := 0; i < n; i++ {
		root, order := fmt.Sprintf("%08d", 10_000_000+i), fmt.Sprintf("%04d", 1+i%3)
		dv, _ := brdocs.CNPJCheckDigits(root + order)
		fmt.Fprintf(w, "\"%s\";\"%s\";\"%s\";\"1\";\"PADARIA S\xc3O JO\xc3O %d\";\"02\";\"20200115\";\"00\";\"\";\"\";\"20200115\";\"1091102\";"+
			"\"4721102,5611203\";\"RUA\";\"DAS FLORES\";\"%d\";\"\";\"CENTRO\";\"01001000\";\"SP\";\"7107\";\"11\";\"30000000\";\"\";\"\";\"\";\"\";"+
			"\"contato@example.com\";\"\";\"\"\r\n", root, order, dv, i, i%2000)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
}

// BenchmarkMerchantImport imports a generated million-row Estabelecimentos file with
// `ponte merchants import`'s code (read, decode, COPY to the stage, merge, record) and,
// as the baseline, COPYs the same rows, already decoded in memory, into a bare staging
// table. It reports both rates and their ratio.
func BenchmarkMerchantImport(b *testing.B) {
	env := testsupport.New(b)
	ctx := context.Background()
	dir := b.TempDir()
	path := filepath.Join(dir, "K3241.K03200Y0.D50510.ESTABELE")
	writeEstablishments(b, path, importRows)
	info, _ := os.Stat(path)

	r, err := merchants.Open(merchants.File{Path: path, Name: info.Name(), Size: info.Size(), Kind: db.MerchantFileEstablishments})
	if err != nil {
		b.Fatal(err)
	}
	rows := make([][]any, 0, importRows)
	for {
		row, more, err := r.Next()
		if err != nil {
			b.Fatal(err)
		}
		if !more {
			break
		}
		rows = append(rows, row)
	}
	r.Close()

	b.ResetTimer()
	var importTime, copyTime time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		n, err := env.DB.CopyPlainRows(ctx, db.MerchantFileEstablishments, rows)
		if err != nil || n != importRows {
			b.Fatalf("plain COPY: %d rows, %v", n, err)
		}
		copyTime += time.Since(start)

		env.Exec(b, `DELETE FROM merchant_import_files`)
		start = time.Now()
		res, err := merchants.Import(ctx, env.DB, dir, discard{})
		if err != nil || res.Rows != importRows {
			b.Fatalf("import: %+v, %v", res, err)
		}
		importTime += time.Since(start)
	}
	rate := func(d time.Duration) float64 { return float64(importRows*b.N) / d.Seconds() }
	b.ReportMetric(rate(importTime), "import-rows/s")
	b.ReportMetric(rate(copyTime), "copy-rows/s")
	b.ReportMetric(importTime.Seconds()/copyTime.Seconds(), "import/copy")
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
