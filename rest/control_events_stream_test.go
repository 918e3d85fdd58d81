package rest_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ponte/testsupport"
)

// sseEvent is one Server-Sent Event as a client reads it.
type sseEvent struct {
	id, name string
	data     map[string]any
}

// sseReader reads a stream in the background: its events, and its comment lines.
type sseReader struct {
	mu       sync.Mutex
	events   []sseEvent
	comments []string
	done     chan struct{}
	resp     *http.Response
}

func openStream(t *testing.T, env *testsupport.Env, key, query string, headers map[string]string) *sseReader {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", env.URL+"/sandbox/events/stream"+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-KEY", key)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req) // asks for gzip: the stream must not be held back by compression
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("stream: %d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	s := &sseReader{done: make(chan struct{}), resp: resp}
	go func() {
		defer close(s.done)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var cur sseEvent
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			switch {
			case line == "":
				if cur.name != "" {
					s.events = append(s.events, cur)
				}
				cur = sseEvent{}
			case strings.HasPrefix(line, ":"):
				s.comments = append(s.comments, strings.TrimSpace(line[1:]))
			case strings.HasPrefix(line, "id: "):
				cur.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				cur.name = line[7:]
			case strings.HasPrefix(line, "data: "):
				_ = json.Unmarshal([]byte(line[6:]), &cur.data)
			}
			s.mu.Unlock()
		}
	}()
	return s
}

func (s *sseReader) snapshot() ([]sseEvent, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]sseEvent(nil), s.events...), append([]string(nil), s.comments...)
}

// GET /sandbox/events/stream: the application's events as they are written, each once, a
// heartbeat while quiet, a resume with Last-Event-ID, an end at its time-out.
func TestSandboxEventStream(t *testing.T) {
	t.Parallel()
	env := testsupport.New(t, func(s *testsupport.Setup) {
		s.REST.StreamHeartbeat, s.REST.StreamPoll = 150*time.Millisecond, 50*time.Millisecond
	})
	a, b := env.NewClient(t, "stream A"), env.NewClient(t, "stream B")
	key := a.APIKey
	it := createItem(t, env, key, 0, map[string]any{"user": "user-ok", "password": "password-ok"})
	item := it.ID.String()
	env.WaitItem(t, key, item, testsupport.Settled)
	bItem := createItem(t, env, b.APIKey, 0, map[string]any{"user": "user-ok", "password": "password-ok"}).ID.String()
	env.WaitItem(t, b.APIKey, bItem, testsupport.Settled)

	s := openStream(t, env, key, "?timeout=60", nil)
	fired := []string{
		env.Do(t, "POST", "/sandbox/events", key, map[string]any{"event": "item/updated", "itemId": item}).Want(200).String("id"),
		env.Do(t, "POST", "/sandbox/events", key, map[string]any{"event": "item/error", "itemId": item}).Want(200).String("id"),
	}
	env.Do(t, "POST", "/sandbox/events", b.APIKey, map[string]any{"event": "item/updated", "itemId": bItem}).Want(200)
	// A change's own event comes too, not only the fired ones.
	env.Do(t, "PATCH", "/items/"+item, key, map[string]any{}).Want(200)
	env.WaitItem(t, key, item, testsupport.Settled)

	var events []sseEvent
	var comments []string
	testsupport.Eventually(t, "the stream shows the events and a heartbeat", 20*time.Second, func() bool {
		events, comments = s.snapshot()
		names := map[string]bool{}
		for _, e := range events {
			names[e.name] = true
		}
		return len(events) >= 3 && names["item/updated"] && names["item/error"] && slices.Contains(comments, "heartbeat")
	})
	if events[0].data["id"] != fired[0] || events[1].data["id"] != fired[1] || events[0].name != "item/updated" {
		t.Fatalf("stream began %v, want the fired events in order %v", events[:2], fired)
	}
	if events[0].data["sandboxControl"] != true || events[0].data["payload"].(map[string]any)["itemId"] != item {
		t.Errorf("stream event %v", events[0].data)
	}
	seen := map[any]bool{}
	lastID, upTo := "", 0
	for i, e := range events {
		if seen[e.data["id"]] {
			t.Errorf("event %v streamed twice", e.data["id"])
		}
		seen[e.data["id"]] = true
		if pl, _ := e.data["payload"].(map[string]any); pl["itemId"] == bItem {
			t.Errorf("A's stream shows B's event %v", e.data)
		}
		if e.id != "" {
			lastID, upTo = e.id, i+1
		}
	}
	if lastID == "" {
		t.Fatal("no event carried an id to resume from")
	}

	// Resumed from that id, a second stream shows what the first showed after it, and what
	// comes next.
	s2 := openStream(t, env, key, "?timeout=60", map[string]string{"Last-Event-ID": lastID})
	third := env.Do(t, "POST", "/sandbox/events", key, map[string]any{"event": "item/deleted", "itemId": item}).Want(200).String("id")
	ids := func(list []sseEvent) []string {
		var out []string
		for _, e := range list {
			out = append(out, e.data["id"].(string))
		}
		return out
	}
	var first, resumed []string
	testsupport.Eventually(t, "both streams show the next event", 20*time.Second, func() bool {
		a, _ := s.snapshot()
		b, _ := s2.snapshot()
		first, resumed = ids(a), ids(b)
		return slices.Contains(first, third) && slices.Contains(resumed, third)
	})
	if want := first[upTo:]; strings.Join(resumed, ",") != strings.Join(want, ",") {
		t.Fatalf("resumed stream showed %v, want %v", resumed, want)
	}

	// A stream with a time-out ends by itself; refusals come before it starts.
	short := openStream(t, env, key, "?timeout=1", nil)
	select {
	case <-short.done:
	case <-time.After(15 * time.Second):
		t.Fatal("a stream with timeout=1 still runs after 15 s")
	}
	env.Do(t, "GET", "/sandbox/events/stream", "", nil).WantError(401, "API_KEY_MISSING")
	token := env.Do(t, "POST", "/connect_token", key, map[string]any{"itemId": item}).Want(200).String("accessToken")
	env.Do(t, "GET", "/sandbox/events/stream", token, nil).WantError(403, "FORBIDDEN")
	env.Do(t, "GET", "/sandbox/events/stream?cursor=1.2.3", key, nil).WantError(400, "INVALID_CURSOR")
	env.Do(t, "GET", "/sandbox/events/stream?timeout=0", key, nil).WantError(400, "INVALID_PARAMETER")
	env.Do(t, "GET", "/sandbox/events/stream?timeout=3601", key, nil).WantError(400, "INVALID_PARAMETER")
	env.Do(t, "GET", "/sandbox/events/stream?since=now", key, nil).WantError(400, "INVALID_PARAMETER")
	env.DoHeaders(t, "GET", "/sandbox/events/stream", key, nil, map[string]string{"Last-Event-ID": "x"}).WantError(400, "INVALID_CURSOR")
}
