package main_test

import (
	"encoding/json"
	"strings"
	"testing"

	"ponte/model"
	"ponte/testsupport"
)

// clocks advance moves a test clock and prints it once ready; a refusal of the service is
// one line and exit 1, a usage mistake exit 2.
func TestClocksAdvanceCommand(t *testing.T) {
	t.Parallel()
	svc := testsupport.New(t)
	a := svc.NewClient(t, "clocks")
	id := svc.Do(t, "POST", "/sandbox/test-clocks", a.APIKey, map[string]any{"name": "cli", "frozenTime": "2031-01-01T00:00:00Z"}).Want(200).String("id")
	env := append(controlEnv(), "PONTE_URL="+svc.URL, "PONTE_CLIENT_ID="+a.ID, "PONTE_CLIENT_SECRET="+a.Secret)

	exit, out, errOut := runControl(t, env, "clocks", "advance", id, "2031-02-01")
	if exit != 0 {
		t.Fatalf("clocks advance: exit %d: %s%s", exit, out, errOut)
	}
	var c model.TestClock
	if err := json.Unmarshal([]byte(out), &c); err != nil || c.Status != "ready" || c.FrozenTime.Format("2006-01-02T15:04:05Z") != "2031-02-01T00:00:00Z" {
		t.Fatalf("clocks advance printed %q (%v)", out, err)
	}
	exit, out, errOut = runControl(t, env, "clocks", "advance", id, "2031-01-15T00:00:00Z")
	if exit != 1 || out != "" || !strings.Contains(errOut, "TEST_CLOCK_BACKWARDS") || strings.Count(strings.TrimSuffix(errOut, "\n"), "\n") > 0 {
		t.Errorf("advancing back: exit %d, stdout %q, stderr %q", exit, out, errOut)
	}
	for _, args := range [][]string{{"clocks", "advance", id}, {"clocks", "advance", id, "next tuesday"}} {
		if exit, out, errOut := runControl(t, env, args...); exit != 2 || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, exit, out, errOut)
		}
	}
}
