package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ponte/testsupport"
)

// `ponte merchants import DIR` against a database: one Estabelecimentos line in the
// published layout (Latin-1, quoted, ';'), loaded, then skipped on the second run; wrong
// calls are usage errors.
func TestMerchantsImportCommand(t *testing.T) {
	t.Parallel()
	bin := build(t)
	dbURL := testsupport.NewDatabase(t)
	dir := t.TempDir()
	line := `"11444777";"0001";"61";"1";"PADARIA S` + "\xc3" + `O JOS` + "\xc9" + `";"02";"20200115";"00";"";"";"20200115";"1091102";"";` +
		`"RUA";"A";"1";"";"CENTRO";"01001000";"SP";"7107";"11";"30000000";"";"";"";"";"";"";""` + "\r\n"
	if err := os.WriteFile(filepath.Join(dir, "K3241.K03200Y0.D50510.ESTABELE"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "DATABASE_URL="+dbURL, "PONTE_DATA_DIR="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	if out, code := run("merchants", "import"); code != 2 || !strings.Contains(out, "usage: ponte merchants import DIR") {
		t.Errorf("no DIR: exit %d, %s", code, out)
	}
	if out, code := run("merchants"); code != 2 || !strings.Contains(out, "import") {
		t.Errorf("no subcommand: exit %d, %s", code, out)
	}
	if out, code := run("merchants", "import", filepath.Join(dir, "missing")); code != 1 {
		t.Errorf("a missing folder: exit %d, %s", code, out)
	}
	out, code := run("merchants", "import", dir)
	if code != 0 || !strings.Contains(out, "[1/1] K3241.K03200Y0.D50510.ESTABELE: 100.0%  1 rows") || !strings.Contains(out, "loaded 1 files (1 rows), skipped 0") {
		t.Fatalf("import: exit %d\n%s", code, out)
	}
	out, code = run("merchants", "import", dir)
	if code != 0 || !strings.Contains(out, "loaded before, skipped") || !strings.Contains(out, "loaded 0 files (0 rows), skipped 1") {
		t.Fatalf("second import: exit %d\n%s", code, out)
	}
}
