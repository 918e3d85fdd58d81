package merchants

import (
	"archive/zip"
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"ponte/db"
)

// The Receita Federal publishes the CNPJ register monthly as zip files (Empresas0.zip ...
// Empresas9.zip, Estabelecimentos0.zip ... Estabelecimentos9.zip), each holding one CSV
// named like K3241.K03200Y0.D50510.EMPRECSV or ...ESTABELE: no header line, fields
// separated by ';', every one quoted with '"', text in ISO-8859-1 (Latin-1). Fields used
// (1-based, as the Receita's "Metadados CNPJ" layout numbers them):
//
//	Empresas:         1 CNPJ BÁSICO, 2 RAZÃO SOCIAL (7 fields in all)
//	Estabelecimentos: 1 CNPJ BÁSICO, 2 CNPJ ORDEM, 3 CNPJ DV, 5 NOME FANTASIA,
//	                  6 SITUAÇÃO CADASTRAL, 12 CNAE FISCAL PRINCIPAL (30 fields in all)

// File is one file of a directory to import.
type File struct {
	Path string
	Name string // the base name: the import records files by it
	Size int64
	Kind db.MerchantFileKind
}

// kindOf tells a file's table from its name, as the Receita names them, zipped or not.
func kindOf(name string) (db.MerchantFileKind, bool) {
	up := strings.ToUpper(name)
	switch {
	case strings.HasPrefix(up, "EMPRESAS") || strings.Contains(up, "EMPRECSV"):
		return db.MerchantFileCompanies, true
	case strings.HasPrefix(up, "ESTABELECIMENTOS") || strings.Contains(up, "ESTABELE"):
		return db.MerchantFileEstablishments, true
	}
	return "", false
}

// Files lists dir's Empresas and Estabelecimentos files, companies first, each kind in name
// order; other files (Socios, Simples, the code tables) are left out.
func Files(dir string) ([]File, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var companies, places []File
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		kind, ok := kindOf(e.Name())
		if !ok {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, err
		}
		f := File{Path: filepath.Join(dir, e.Name()), Name: e.Name(), Size: info.Size(), Kind: kind}
		if kind == db.MerchantFileCompanies {
			companies = append(companies, f)
		} else {
			places = append(places, f)
		}
	}
	return append(companies, places...), nil
}

// counter counts the compressed or plain bytes read, for the progress line.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// latin1 turns ISO-8859-1 into UTF-8: each byte is the code point of the same number.
// NUL bytes, which PostgreSQL's text refuses and the register holds in a few names, go.
type latin1 struct {
	r          *bufio.Reader
	out, chunk []byte // out is the UTF-8 not yet read, in a buffer reused like chunk
}

func (l *latin1) Read(p []byte) (int, error) {
	for len(l.out) == 0 {
		if l.chunk == nil {
			l.chunk = make([]byte, 32<<10)
		}
		l.out = l.out[:0]
		n, err := l.r.Read(l.chunk)
		for _, b := range l.chunk[:n] {
			switch {
			case b == 0:
			case b < utf8.RuneSelf:
				l.out = append(l.out, b)
			default:
				l.out = utf8.AppendRune(l.out, rune(b))
			}
		}
		if n == 0 && err != nil {
			return 0, err
		}
	}
	n := copy(p, l.out)
	l.out = l.out[n:]
	return n, nil
}

// Reader yields one file's rows in db.MerchantColumns' order.
type Reader struct {
	kind   db.MerchantFileKind
	csv    *csv.Reader
	count  *counter
	total  int64
	closer io.Closer
	line   int
}

// Open opens a file, unzipping it when it is a zip (its first member is the CSV).
func Open(f File) (*Reader, error) {
	file, err := os.Open(f.Path)
	if err != nil {
		return nil, err
	}
	cnt, total := &counter{r: file}, f.Size
	var closer io.Closer = file
	if strings.EqualFold(filepath.Ext(f.Name), ".zip") {
		file.Close()
		z, err := zip.OpenReader(f.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		if len(z.File) == 0 {
			z.Close()
			return nil, fmt.Errorf("%s: the zip file is empty", f.Name)
		}
		member, err := z.File[0].Open()
		if err != nil {
			z.Close()
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		// Progress is then in the CSV's bytes, which the zip's directory gives.
		cnt, total, closer = &counter{r: member}, int64(z.File[0].UncompressedSize64), multiCloser{member, z}
	}
	r := csv.NewReader(&latin1{r: bufio.NewReaderSize(cnt, 256<<10)})
	r.Comma = ';'
	r.FieldsPerRecord = -1
	r.LazyQuotes = true // the register has names with a stray '"' inside a quoted field
	r.ReuseRecord = true
	return &Reader{kind: f.Kind, csv: r, count: cnt, total: total, closer: closer}, nil
}

type multiCloser []io.Closer

func (m multiCloser) Close() error {
	var errs []error
	for _, c := range m {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// Progress is how many of the CSV's bytes were read, and of how many.
func (r *Reader) Progress() (done, total int64) { return r.count.n, r.total }

// Close closes the file.
func (r *Reader) Close() error { return r.closer.Close() }

// Next yields the next row, false at the end. A row of too few fields is an error naming
// its line: a file of another layout must not load as garbage.
func (r *Reader) Next() ([]any, bool, error) {
	rec, err := r.csv.Read()
	if err == io.EOF {
		return nil, false, nil
	}
	r.line++
	if err != nil {
		return nil, false, fmt.Errorf("line %d: %w", r.line, err)
	}
	switch r.kind {
	case db.MerchantFileCompanies:
		if len(rec) < 7 {
			return nil, false, fmt.Errorf("line %d has %d fields; an Empresas line has 7", r.line, len(rec))
		}
		return []any{strings.ToUpper(strings.TrimSpace(rec[0])), strings.TrimSpace(rec[1])}, true, nil
	default:
		if len(rec) < 30 {
			return nil, false, fmt.Errorf("line %d has %d fields; an Estabelecimentos line has 30", r.line, len(rec))
		}
		cnpj := strings.ToUpper(strings.TrimSpace(rec[0]) + strings.TrimSpace(rec[1]) + strings.TrimSpace(rec[2]))
		return []any{cnpj, strings.TrimSpace(rec[4]), strings.TrimSpace(rec[11]), strings.TrimSpace(rec[5])}, true, nil
	}
}
