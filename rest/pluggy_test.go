package rest_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"ponte/testsupport"
)

// runPluggy runs testdata/pluggy/<script> with the official Node client (pluggy-sdk@0.90.0,
// installed from npm by the test) against a real server, as a new application named app;
// extra are more NAME=value settings of the script. It gives the script's standard output,
// and fails the test with its standard error when it fails.
func runPluggy(t *testing.T, app, script string, timeout time.Duration, extra ...string) []byte {
	t.Helper()
	dir := filepath.Join("testdata", "pluggy")
	testsupport.NPMInstall(t, dir)
	env := testsupport.New(t)
	c := env.NewClient(t, app)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "PLUGGY_API_URL="+env.URL, "PONTE_CLIENT_ID="+c.ID, "PONTE_CLIENT_SECRET="+c.Secret), extra...)
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("%s failed: %v\n%s\n%s", script, err, out, ee.Stderr)
		}
		t.Fatal(err)
	}
	return out
}

// TestPluggySDK drives the official Node client against a real server: the compatibility
// reference wherever the spec is silent.
func TestPluggySDK(t *testing.T) {
	t.Parallel()
	t.Logf("%s", runPluggy(t, "pluggy-sdk", "compat.js", 2*time.Minute))
}
