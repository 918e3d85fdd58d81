package merchants_test

import (
	"archive/zip"
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ponte/brdocs"
	"ponte/merchants"
	"ponte/model"
	"ponte/testsupport"
)

func TestMain(m *testing.M) { testsupport.Main(m) }

// latin1 encodes s (code points up to U+00FF) as ISO-8859-1, as the Receita publishes.
func latin1(t testing.TB, s string) []byte {
	var b bytes.Buffer
	for _, r := range s {
		if r > 0xff {
			t.Fatalf("%q is not Latin-1", r)
		}
		b.WriteByte(byte(r))
	}
	return b.Bytes()
}

// line writes fields in the published layout: each quoted, separated by ';', CRLF ended.
func line(fields ...string) string {
	return "\"" + strings.Join(fields, "\";\"") + "\"\r\n"
}

// company is an Empresas line: the 7 fields of the layout.
func company(root, name string) string {
	return line(root, name, "2062", "49", "10000,00", "01", "")
}

// establishment is an Estabelecimentos line: the 30 fields of the layout.
func establishment(t testing.TB, root, order, tradeName, cnae string) string {
	dv, err := brdocs.CNPJCheckDigits(root + order)
	if err != nil {
		t.Fatal(err)
	}
	return line(root, order, dv, "1", tradeName, "02", "20200115", "00", "", "", "20200115", cnae, "4721102,5611203",
		"RUA", "DAS FLORES", "100", "LOJA 2", "CENTRO", "01001000", "SP", "7107", "11", "30000000", "", "", "", "", "contato@example.com", "", "")
}

func writeZip(t testing.TB, path, member string, body []byte) {
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	w, err := z.Create(member)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(body)
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func lookup(t *testing.T, env *testsupport.Env, key string, cnpjs ...string) model.MerchantLookup {
	t.Helper()
	var got model.MerchantLookup
	env.Do(t, "GET", "/merchants?cnpjs="+url.QueryEscape(strings.Join(cnpjs, ",")), key, nil).Want(200).JSON(&got)
	return got
}

// TestImportReceitaFiles loads a directory in the Receita Federal's layout (a zipped
// Empresas file, a plain Estabelecimentos file, an unrelated Socios file) and reads the
// merchants back through GET /merchants; a second run skips what the first loaded, and a
// run stopped by a bad file resumes with that file alone.
func TestImportReceitaFiles(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t)
	key := env.NewClient(t, "import").APIKey
	ctx := context.Background()
	dir := t.TempDir()

	writeZip(t, filepath.Join(dir, "Empresas0.zip"), "K3241.K03200Y0.D50510.EMPRECSV", latin1(t,
		company("12345678", "PANIFICAÇÃO SÃO JOÃO LTDA")+company("A1B2C3D4", "CAFÉ \"DO PORTO\" S.A.")+company("87654321", "SEM LOJA LTDA")))
	places := establishment(t, "12345678", "0001", "PADARIA SÃO JOÃO", "1091102") +
		establishment(t, "12345678", "0002", "", "4721102") + // no trade name: the registered name shows
		establishment(t, "A1B2C3D4", "0001", "CAFÉ DO PORTO", "5611203") + // an alphanumeric CNPJ (2026)
		establishment(t, "A1B2C3D4", "0001", "CAFÉ DO PORTO CENTRO", "5611203") // repeated: the later row wins
	if err := os.WriteFile(filepath.Join(dir, "K3241.K03200Y0.D50510.ESTABELE"), latin1(t, places), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "Socios0.zip"), []byte("not read"), 0o644)

	var progress bytes.Buffer
	res, err := merchants.Import(ctx, env.DB, dir, &progress)
	if err != nil {
		t.Fatal(err)
	}
	if res.Loaded != 2 || res.Skipped != 0 || res.Rows != 7 {
		t.Errorf("first run %+v, want 2 files and 7 rows", res)
	}
	if !strings.Contains(progress.String(), "[1/2] Empresas0.zip: 100.0%  3 rows") || !strings.Contains(progress.String(), "4 rows") {
		t.Errorf("progress:\n%s", progress.String())
	}

	dv1, _ := brdocs.CNPJCheckDigits("123456780001")
	dv2, _ := brdocs.CNPJCheckDigits("123456780002")
	dv3, _ := brdocs.CNPJCheckDigits("A1B2C3D40001")
	bakery, branch, cafe := "123456780001"+dv1, "123456780002"+dv2, "A1B2C3D40001"+dv3
	got := lookup(t, env, key, bakery, branch, strings.ToLower(cafe))
	if len(got.FoundMerchants) != 3 {
		t.Fatalf("found %+v, want the three establishments", got)
	}
	want := []struct{ name, business, cnae, category string }{
		{"PADARIA SÃO JOÃO", "PANIFICAÇÃO SÃO JOÃO LTDA", "1091102", "Padaria"},
		{"PANIFICAÇÃO SÃO JOÃO LTDA", "PANIFICAÇÃO SÃO JOÃO LTDA", "4721102", "Padaria"},
		{"CAFÉ DO PORTO CENTRO", "CAFÉ \"DO PORTO\" S.A.", "5611203", "Lanchonetes e cafeterias"},
	}
	for i, w := range want {
		m := got.FoundMerchants[i]
		if m.Name != w.name || m.BusinessName != w.business || *m.CNAE != w.cnae || m.Category == nil || *m.Category != w.category {
			t.Errorf("merchant %d: %+v (cnae %v, category %v), want %+v", i, m, *m.CNAE, m.Category, w)
		}
	}

	// Run again: both files are recorded, nothing is read.
	res, err = merchants.Import(ctx, env.DB, dir, &progress)
	if err != nil || res.Loaded != 0 || res.Skipped != 2 {
		t.Errorf("second run %+v, %v: want both files skipped", res, err)
	}

	// A file of another layout stops the run and leaves nothing of itself; fixed, the next
	// run loads it alone. A sandbox merchant stays.
	bad := filepath.Join(dir, "Estabelecimentos1.zip")
	writeZip(t, bad, "K3241.K03200Y0.D50510.ESTABELE", latin1(t, establishment(t, "87654321", "0001", "LOJA NOVA", "4781400")+line("87654321", "0002")))
	if _, err := merchants.Import(ctx, env.DB, dir, &progress); err == nil || !strings.Contains(err.Error(), "line 2 has 2 fields") {
		t.Fatalf("a short line: %v", err)
	}
	dv4, _ := brdocs.CNPJCheckDigits("876543210001")
	store := "876543210001" + dv4
	if got := lookup(t, env, key, store); len(got.FoundMerchants) != 0 {
		t.Fatalf("a failed file left %+v", got.FoundMerchants)
	}
	writeZip(t, bad, "K3241.K03200Y0.D50510.ESTABELE", latin1(t, establishment(t, "87654321", "0001", "LOJA NOVA", "4781400")))
	res, err = merchants.Import(ctx, env.DB, dir, &progress)
	if err != nil || res.Loaded != 1 || res.Skipped != 2 || res.Rows != 1 {
		t.Errorf("resumed run %+v, %v: want the fixed file alone", res, err)
	}
	got = lookup(t, env, key, store, "07665418000167")
	if len(got.FoundMerchants) != 2 || got.FoundMerchants[0].Name != "LOJA NOVA" || *got.FoundMerchants[0].Category != "Vestuário" {
		t.Errorf("after resuming: %+v", got)
	}
}

func TestCNAECategories(t *testing.T) {
	for cnae, want := range map[string]string{"4711-3/01": "09030000", "4713004": "08010000", "4713002": "08110000",
		"5611201": "09010000", "6110803": "07010000", "0111301": ""} {
		c, ok := merchants.CategoryOf(cnae)
		if c.CategoryID != want || ok != (want != "") {
			t.Errorf("CNAE %s: %+v, want %q", cnae, c, want)
		}
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{"07.665.418/0001-67": "07665418000167", "p2.n9g.29x/0001-02": "P2N9G29X000102",
		"07665418000168": "", "0766541800016700": "", "": "", "00000000000000": "", "P2N9G29X0001AB": ""} {
		got, ok := merchants.Normalize(in)
		if ok != (want != "") || (ok && got != want) {
			t.Errorf("Normalize(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// TestCNAETableDocumented keeps docs/merchants.md's table the one cnae.go holds.
func TestCNAETableDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/merchants.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, l := range strings.Split(string(doc), "\n") {
		var prefix, label, id string
		f := strings.Split(l, "|")
		if len(f) != 5 || !strings.HasPrefix(strings.TrimSpace(f[1]), "`") {
			continue
		}
		prefix, label, id = strings.Trim(strings.TrimSpace(f[1]), "`"), strings.TrimSpace(f[2]), strings.Trim(strings.TrimSpace(f[3]), "`")
		rows++
		if c, ok := merchants.CategoryOf(prefix); !ok || c.Label != label || c.CategoryID != id {
			t.Errorf("docs: CNAE %s is %s (%s); cnae.go says %+v", prefix, label, id, c)
		}
	}
	if rows != merchants.TableSize() {
		t.Errorf("docs/merchants.md has %d CNAE rows; cnae.go has %d", rows, merchants.TableSize())
	}
}
