package rest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"ponte/testsupport"
)

// TestPluggySDK drives the official Node client (pluggy-sdk@0.90.0, installed from npm by
// the test) against a real server: the compatibility reference wherever the spec is silent.
func TestPluggySDK(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "pluggy")
	testsupport.NPMInstall(t, dir)

	env := testsupport.New(t)
	c := env.NewClient(t, "pluggy-sdk")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "compat.js")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PLUGGY_API_URL="+env.URL, "PONTE_CLIENT_ID="+c.ID, "PONTE_CLIENT_SECRET="+c.Secret)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pluggy-sdk compatibility script failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
