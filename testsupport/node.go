package testsupport

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

var npmMu sync.Mutex

// NPMInstall installs the exact packages of dir's package-lock.json (npm ci). A stamp of
// the lock file's hash inside node_modules lets later runs skip the install.
func NPMInstall(t testing.TB, dir string) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is not installed: the client compatibility tests need Node.js 18+ and npm")
	}
	npmMu.Lock()
	defer npmMu.Unlock()
	lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(lock)
	stamp := filepath.Join(dir, "node_modules", ".ponte-lock-sha256")
	if have, err := os.ReadFile(stamp); err == nil && string(have) == hex.EncodeToString(sum[:]) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
	if err := os.WriteFile(stamp, []byte(hex.EncodeToString(sum[:])), 0o644); err != nil {
		t.Fatal(err)
	}
}
