package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// lockDataDir makes this process the data folder's one service. Its private cluster belongs
// to one ponte at a time: a second one used to wait, silently, for the first one's
// PostgreSQL to go away. The lock is an flock, so the kernel drops it when the process ends,
// however it ends; the file keeps the holder's pid only to name it. Operator commands do
// not take it: they use the running service's server.
func lockDataDir(dir string) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "ponte.lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("lock the data folder %s: %w", dir, err)
		}
		holder := "another process"
		if b, rerr := os.ReadFile(path); rerr == nil {
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil {
				holder = "process " + strconv.Itoa(pid)
			}
		}
		abs, _ := filepath.Abs(dir)
		return nil, fmt.Errorf("the data folder %s is in use by %s (another ponte): stop it, or give this one its own folder (PONTE_DATA_DIR or --data-dir)", abs, holder)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() { f.Close() }, nil
}
