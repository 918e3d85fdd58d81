package db

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// The ownership walk of a start meets files that vanish under it, as when a server of a
// killed run removes its lock file while the next start walks the folder: a vanished file
// or folder is no error.
func TestChownTreeWhileFilesVanish(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	name := func(i int) string { return filepath.Join(dir, "f"+strconv.Itoa(i)) }
	stop := make(chan struct{})
	churned := make(chan struct{})
	go func() {
		defer close(churned)
		for {
			select {
			case <-stop:
				return
			default:
			}
			_ = os.Mkdir(sub, 0o700)
			_ = os.WriteFile(filepath.Join(sub, "pid"), nil, 0o600)
			for i := range 200 {
				_ = os.WriteFile(name(i), nil, 0o600)
			}
			_ = os.RemoveAll(sub)
			for i := range 200 {
				_ = os.Remove(name(i))
			}
		}
	}()
	defer func() { close(stop); <-churned }()
	for range 1000 {
		if err := chownTree(dir, os.Getuid(), os.Getgid()); err != nil {
			t.Fatalf("a walk with files vanishing under it: %v", err)
		}
	}
}
