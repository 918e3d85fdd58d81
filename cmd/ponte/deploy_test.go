package main_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v4"

	"ponte/testsupport"
)

// The deployment files stay true: the image's Go stage builds (its exact go build line is
// run here, the output path moved to a temporary folder), the compose file parses and runs
// two replicas of that image on one PostgreSQL behind a proxy, and the systemd unit starts
// the service.
func TestDeployFiles(t *testing.T) {
	t.Parallel()
	dockerfile, err := os.ReadFile("deploy/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^RUN (CGO_ENABLED=0 go build .*) -o /out/ponte (\./cmd/ponte)$`).FindStringSubmatch(string(dockerfile))
	if m == nil {
		t.Fatal("the Dockerfile has no `RUN CGO_ENABLED=0 go build ... -o /out/ponte ./cmd/ponte` line")
	}
	out := filepath.Join(t.TempDir(), "ponte")
	build := exec.Command("sh", "-c", m[1]+" -o "+out+" "+m[2])
	build.Dir = root
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the image's Go stage does not build: %v\n%s", err, b)
	}
	if b, err := exec.Command(out, "version").CombinedOutput(); err != nil || !strings.HasPrefix(string(b), "ponte ") {
		t.Fatalf("the built binary: %v %s", err, b)
	}

	raw, err := os.ReadFile("deploy/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			Build       map[string]string `yaml:"build"`
			Environment map[string]string `yaml:"environment"`
			Image       string            `yaml:"image"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(raw, &compose); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	for _, name := range []string{"ponte-1", "ponte-2"} {
		s := compose.Services[name]
		if s.Build["dockerfile"] != "cmd/ponte/deploy/Dockerfile" || !strings.Contains(s.Environment["DATABASE_URL"], "@postgres:5432/") {
			t.Fatalf("compose service %s: %+v", name, s)
		}
	}
	if compose.Services["postgres"].Image == "" || compose.Services["proxy"].Image == "" {
		t.Fatalf("compose services: %+v", compose.Services)
	}
	unit, err := os.ReadFile("deploy/ponte.service")
	if err != nil || !strings.Contains(string(unit), "ExecStart=/usr/local/bin/ponte serve") {
		t.Fatalf("ponte.service: %v", err)
	}
}

// The build context leaves out what must never reach an image (the data folder holds the
// private cluster and secret.key) and what only makes it large.
func TestDockerIgnore(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(root, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	for _, want := range []string{".git", ".ponte", "**/.ponte", "ponte", "*.test", "node_modules"} {
		if !lines[want] {
			t.Errorf(".dockerignore lacks %q", want)
		}
	}
}

// Where a Docker daemon answers, the image builds from the repository's root as the README
// says, runs as a non-root user, and serves /readyz on a database it is given (a private
// cluster's socket folder mounted into the container).
func TestDockerImage(t *testing.T) {
	t.Parallel()
	if out, err := exec.Command("docker", "info", "--format", "{{.ServerVersion}}").CombinedOutput(); err != nil {
		t.Skipf("no Docker daemon here (docker info: %v: %s); the image is built and run where one answers", err, strings.TrimSpace(string(out)))
	}
	tag := "ponte-test:" + strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-"))
	docker := func(args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "docker", args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("docker %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	docker("build", "-f", "cmd/ponte/deploy/Dockerfile", "-t", tag, ".")
	t.Cleanup(func() { _ = exec.Command("docker", "rmi", "-f", tag).Run() })
	if user := docker("image", "inspect", "--format", "{{.Config.User}}", tag); user == "" || strings.HasPrefix(user, "root") || user == "0" {
		t.Fatalf("the image runs as %q, not a non-root user", user)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	// The test cluster listens on a Unix socket: its folder is mounted into the container.
	// A server on TCP (DATABASE_URL given to the tests) is reached on the host's network.
	dbURL, err := url.Parse(testsupport.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "-d", "--rm", "-e", "PONTE_SECRET_KEY=" + strings.Repeat("k", 40)}
	if q := dbURL.Query(); strings.HasPrefix(q.Get("host"), "/") {
		args = append(args, "-v", q.Get("host")+":/pg", "-p", fmt.Sprintf("127.0.0.1:%d:8080", port))
		q.Set("host", "/pg")
		dbURL.RawQuery = q.Encode()
	} else {
		args = append(args, "--network", "host", "-e", fmt.Sprintf("PONTE_ADDR=127.0.0.1:%d", port))
	}
	id := docker(append(args, "-e", "DATABASE_URL="+dbURL.String(), tag)...)
	t.Cleanup(func() { _ = exec.Command("docker", "rm", "-f", id).Run() })
	url := fmt.Sprintf("http://127.0.0.1:%d/readyz", port)
	testsupport.Eventually(t, "the container serves /readyz", 2*time.Minute, func() bool {
		resp, err := http.Get(url)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
}
