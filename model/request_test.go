package model

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

// A line logged with a request's context carries its id; other lines carry none.
func TestLogRequestIDs(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	log := slog.New(LogRequestIDs(slog.NewTextHandler(&b, nil))).With("engine", "payments").WithGroup("g")
	log.InfoContext(WithRequestID(context.Background(), "abc123"), "in a request", "k", 1)
	log.InfoContext(context.Background(), "in a job")
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "requestId=abc123") || !strings.Contains(lines[0], "engine=payments") ||
		strings.Contains(lines[1], "requestId") {
		t.Fatalf("lines:\n%s", b.String())
	}
}
