package merchants

import (
	"context"
	"fmt"
	"io"
	"time"

	"ponte/db"
)

// ImportResult is what one run of the import did.
type ImportResult struct {
	Loaded, Skipped int   // files
	Rows            int64 // rows copied by this run
}

// Import loads dir's Empresas and Estabelecimentos files into the directory, each file in
// one transaction that also records it, so a run that stops (killed, a bad line) is
// resumed by running it again: recorded files of the same size are skipped, the file it
// was in is loaded again from its start. progress receives a line per file, redrawn as it
// loads (a terminal shows one moving line).
func Import(ctx context.Context, store *db.DB, dir string, progress io.Writer) (ImportResult, error) {
	var res ImportResult
	files, err := Files(dir)
	if err != nil {
		return res, err
	}
	if len(files) == 0 {
		return res, fmt.Errorf("%s holds no Empresas or Estabelecimentos file of the Receita Federal's CNPJ open data", dir)
	}
	for i, f := range files {
		done, err := store.MerchantFileLoaded(ctx, f.Name, f.Size)
		if err != nil {
			return res, err
		}
		prefix := fmt.Sprintf("[%d/%d] %s", i+1, len(files), f.Name)
		if done {
			res.Skipped++
			fmt.Fprintf(progress, "%s: loaded before, skipped\n", prefix)
			continue
		}
		n, err := loadFile(ctx, store, f, prefix, progress)
		if err != nil {
			return res, fmt.Errorf("%s: %w (the files before it stay loaded; run the import again to resume)", f.Name, err)
		}
		res.Loaded++
		res.Rows += n
	}
	return res, nil
}

// loadFile loads one file, redrawing its progress line at most every quarter second.
func loadFile(ctx context.Context, store *db.DB, f File, prefix string, progress io.Writer) (int64, error) {
	r, err := Open(f)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	start, last := time.Now(), time.Time{}
	var rows int64
	draw := func(end string) {
		done, total := r.Progress()
		pct := 100.0
		if total > 0 && done < total {
			pct = 100 * float64(done) / float64(total)
		}
		rate := float64(rows) / max(time.Since(start).Seconds(), 1e-3)
		fmt.Fprintf(progress, "\r%s: %5.1f%%  %d rows  %.0f rows/s%s", prefix, pct, rows, rate, end)
	}
	n, err := store.LoadMerchantFile(ctx, f.Kind, f.Name, f.Size, func() ([]any, bool, error) {
		row, more, err := r.Next()
		if more {
			rows++
			if rows%4096 == 0 && time.Since(last) > 250*time.Millisecond {
				last = time.Now()
				draw("")
			}
		}
		return row, more, err
	})
	if err != nil {
		fmt.Fprintln(progress)
		return 0, err
	}
	draw("\n")
	return n, nil
}
