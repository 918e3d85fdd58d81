package main_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"ponte/testsupport"
)

// Every command's help exits 0 and goes to stdout; every mistaken invocation exits 2 with
// one line on stderr saying what is wrong; a read-only command with no data folder exits 1
// saying so; and none of them touches anything: run in an empty folder with the default
// data folder, none creates it.
func TestCommandLine(t *testing.T) {
	t.Parallel()
	bin := build(t)
	cases := []struct {
		args []string
		exit int
		says string
	}{
		{[]string{"--help"}, 0, "COMMANDS:"},
		{[]string{"-h"}, 0, "PONTE_DATA_DIR"},
		{[]string{"help"}, 0, "migrate"},
		{[]string{"serve", "--help"}, 0, "--data-dir"},
		{[]string{"migrate", "--help"}, 0, "--database-url"},
		{[]string{"clients", "--help"}, 0, "public-key"},
		{[]string{"clients", "create", "--help"}, 0, "--name"},
		{[]string{"clients", "set", "--help"}, 0, "minUpdateIntervalHours"},
		{[]string{"clients", "pricing", "-h"}, 0, "PIX=0.50+1.2%"},
		{[]string{"connectors", "--help"}, 0, "set-status"},
		{[]string{"connectors", "set-status", "--help"}, 0, "ONLINE|UNSTABLE|OFFLINE"},
		{[]string{"version"}, 0, "ponte "},
		{[]string{"--version"}, 0, "ponte version"},
		{[]string{"doctor"}, 0, "a private cluster will be initialised"},
		{[]string{"doctor", "--help"}, 0, "exits 1 if anything fails"},
		{[]string{"doctor", "extra"}, 2, "takes no arguments"},
		{[]string{"clients", "list", "--help"}, 0, "list client applications"},
		{[]string{"clients", "disable", "--help"}, 0, "stop working at once"},
		{[]string{"clients", "enable", "--help"}, 0, "enable a client application"},
		{[]string{"clients", "public-key", "--help"}, 0, "RSA public key"},
		{[]string{"version", "--help"}, 0, "print the version"},
		{[]string{"--help"}, 0, "PONTE_REDIS_URL"},
		{[]string{"clients", "list"}, 1, "no data folder at "},
		{[]string{"clients", "public-key", "2f0c4b7e-2f6e-4a53-9d7c-1f6c2b0a9e11"}, 1, "no data folder at "},
		{[]string{"clients", "list", "--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"serve", "--nope=1"}, 2, "flag provided but not defined: -nope"},
		{[]string{"connectors", "set-status", "--x", "1", "ONLINE"}, 2, "flag provided but not defined: -x"},
		{[]string{"doctor", "--verbose"}, 2, "flag provided but not defined: -verbose"},

		{[]string{"bogus"}, 2, `unknown command "bogus"`},
		{[]string{"--nope"}, 2, "nope"},
		{[]string{"serve", "extra"}, 2, "takes no arguments"},
		{[]string{"migrate", "extra"}, 2, "takes no arguments"},
		{[]string{"version", "extra"}, 2, "takes no arguments"},
		{[]string{"clients"}, 2, "needs a subcommand: [create list disable enable public-key set pricing]"},
		{[]string{"clients", "bogus"}, 2, `no subcommand "bogus"`},
		{[]string{"clients", "create"}, 2, "--name"},
		{[]string{"clients", "list", "extra"}, 2, "takes no arguments"},
		{[]string{"clients", "enable"}, 2, "usage: ponte clients enable ID"},
		{[]string{"clients", "disable", "not-a-uuid"}, 2, "not a UUID"},
		{[]string{"clients", "public-key", "2f0c4b7e-2f6e-4a53-9d7c-1f6c2b0a9e11", "extra"}, 2, "usage"},
		{[]string{"clients", "set", "2f0c4b7e-2f6e-4a53-9d7c-1f6c2b0a9e11", "colour=blue"}, 2, `unknown setting "colour"`},
		{[]string{"clients", "set", "2f0c4b7e-2f6e-4a53-9d7c-1f6c2b0a9e11", "itemLimit=-1"}, 2, "itemLimit"},
		{[]string{"clients", "pricing", "2f0c4b7e-2f6e-4a53-9d7c-1f6c2b0a9e11", "TED=1"}, 2, "PIX=... or BOLETO=..."},
		{[]string{"connectors"}, 2, "needs a subcommand"},
		{[]string{"connectors", "set-status", "1"}, 2, "usage"},
		{[]string{"connectors", "set-status", "x", "ONLINE"}, 2, "must be a number"},
		{[]string{"connectors", "set-status", "1", "BROKEN"}, 2, "ONLINE, UNSTABLE or OFFLINE"},
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PONTE_") && !strings.HasPrefix(kv, "DATABASE_URL=") {
			env = append(env, kv)
		}
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cmd := exec.Command(bin, c.args...)
			cmd.Dir, cmd.Env = dir, env
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			out := stdout.String() + stderr.String()
			exit := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				exit = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if exit != c.exit || !strings.Contains(out, c.says) {
				t.Fatalf("exit %d, want %d; output lacks %q:\n%s", exit, c.exit, c.says, out)
			}
			switch {
			case exit == 0 && stderr.Len() > 0:
				t.Fatalf("a command that succeeded wrote to stderr: %s", &stderr)
			case exit != 0 && (stdout.Len() > 0 || strings.Count(strings.TrimSuffix(stderr.String(), "\n"), "\n") > 0):
				t.Fatalf("a failure must be one line on stderr and nothing on stdout;\nstdout: %s\nstderr: %s", &stdout, &stderr)
			}
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				t.Fatalf("the command left %s in its folder", entries[0].Name())
			}
		})
	}
}

// ponte doctor against a database: reachable, migrated (after a start), its clock close;
// an address nothing answers on fails with status 1 and says so.
func TestDoctor(t *testing.T) {
	t.Parallel()
	env, _ := configured(t)
	s := start(t, env...) // applies the migrations
	s.stop(t)
	run := func(extra ...string) (int, string) {
		cmd := exec.Command(build(t), "doctor")
		cmd.Env = append(append(os.Environ(), env...), extra...)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), string(out)
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	code, out := run()
	for _, want := range []string{"ok    database      DATABASE_URL is reachable", "ok    migrations    all applied", "ok    clock", "ok    keys          PONTE_SECRET_KEY is set"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("doctor: exit %d, output lacks %q:\n%s", code, want, out)
		}
	}
	if code, out = run("PONTE_REDIS_URL=" + testsupport.StartRedis(t)); code != 0 || !strings.Contains(out, "ok    redis         reachable") {
		t.Fatalf("doctor with a live Redis: exit %d\n%s", code, out)
	}
	if code, out = run("PONTE_REDIS_URL=redis://127.0.0.1:1/0"); code != 1 || !strings.Contains(out, "FAIL  redis") {
		t.Fatalf("doctor with a dead Redis: exit %d\n%s", code, out)
	}
	if code, out = run("PONTE_ADDR=bad"); code != 1 || !strings.Contains(out, "FAIL  configuration PONTE_ADDR (or --addr) must be host:port") {
		t.Fatalf("doctor with PONTE_ADDR=bad: exit %d\n%s", code, out)
	}
	code, out = run("DATABASE_URL=postgres://postgres@127.0.0.1:1/ponte?connect_timeout=2", "PONTE_SECRET_KEY=short")
	if code != 1 || !strings.Contains(out, "FAIL  database") || !strings.Contains(out, "FAIL  keys") {
		t.Fatalf("doctor on a dead address with a short key: exit %d\n%s", code, out)
	}
}
