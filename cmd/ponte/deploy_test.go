package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
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
