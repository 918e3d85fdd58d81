package jobs

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// River's Info lines go out at Debug; its warnings and errors keep their level.
func TestQuieter(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		level      slog.Level // the handler's
		logged     slog.Level // River's line
		wantOut    bool
		wantLevels string
	}{
		{slog.LevelInfo, slog.LevelInfo, false, ""},
		{slog.LevelDebug, slog.LevelInfo, true, "level=DEBUG"},
		{slog.LevelInfo, slog.LevelWarn, true, "level=WARN"},
		{slog.LevelInfo, slog.LevelError, true, "level=ERROR"},
		{slog.LevelInfo, slog.LevelDebug, false, ""},
	} {
		var b bytes.Buffer
		log := slog.New(quieter{slog.NewTextHandler(&b, &slog.HandlerOptions{Level: c.level})}).With("component", "river")
		log.Log(t.Context(), c.logged, "producer stats")
		if out := b.String(); (out != "") != c.wantOut || !strings.Contains(out, c.wantLevels) || c.wantOut && !strings.Contains(out, "component=river") {
			t.Errorf("handler at %v, River's %v line: %q", c.level, c.logged, out)
		}
	}
}
