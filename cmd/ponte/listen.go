package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v3"

	"ponte/webhooks"
)

// listenCommand is `ponte listen --forward-to URL`: it reads the application's event stream
// (GET /sandbox/events/stream) and POSTs each event to URL as a webhook delivery would be
// sent: the same body, and webhook-id, webhook-timestamp and webhook-signature signed with
// the application's signing secret, so the receiver's verification is tested as it is.
// One line per delivery on stdout. It runs until interrupted, reconnecting where it left
// off (Last-Event-ID) when the stream ends, and logging in again when its API key expires.
func listenCommand() *cli.Command {
	return &cli.Command{
		Name:  "listen",
		Usage: "forward the application's events, signed, to a local URL as they are written",
		Flags: append(remoteFlags(),
			&cli.StringFlag{Name: "forward-to", Usage: "the URL each event is POSTed to (any address: a receiver on this machine, say)"},
		),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			to := cmd.String("forward-to")
			if u, err := url.Parse(to); to == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return usagef("listen needs --forward-to, an http:// or https:// URL; got %q", to)
			}
			r, err := remoteOf(cmd)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
			defer stop()
			l := &listener{r: r, to: to, out: cmd.Root().Writer, errOut: cmd.Root().ErrWriter,
				post: &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
			err = l.run(ctx)
			if ctx.Err() != nil {
				return nil // interrupted: the normal end
			}
			return err
		},
	}
}

type listener struct {
	r        *remote
	to       string
	out      io.Writer
	errOut   io.Writer
	post     *http.Client
	keys     [][]byte
	lastID   string
	keysRead time.Time
}

// signingKeysTTL is how long the listener signs with the keys it read: a rotation reaches it
// within this time, as it reaches the service's deliveries.
const signingKeysTTL = time.Minute

// run connects, forwards, and reconnects until ctx ends or the service refuses the
// application's credentials.
func (l *listener) run(ctx context.Context) error {
	if err := l.connect(ctx); err != nil {
		return err
	}
	fmt.Fprintf(l.errOut, "Ready: forwarding the events of %s from %s to %s (Ctrl-C stops)\n", l.r.clientID, l.r.url, l.to)
	pause := time.Second
	for ctx.Err() == nil {
		err := l.stream(ctx)
		var ae *apiError
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.As(err, &ae) && (ae.Code == http.StatusUnauthorized):
			if err := l.connect(ctx); err != nil {
				return err
			}
			continue
		case errors.As(err, &ae) && ae.Code != http.StatusServiceUnavailable && ae.Code != http.StatusTooManyRequests:
			return err
		case err != nil:
			fmt.Fprintf(l.errOut, "stream interrupted (%v); reconnecting\n", err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(pause):
		}
	}
	return nil
}

// connect logs in and reads the signing secret.
func (l *listener) connect(ctx context.Context) error {
	if err := l.r.login(ctx); err != nil {
		return err
	}
	return l.readKeys(ctx)
}

func (l *listener) readKeys(ctx context.Context) error {
	var s struct {
		Secret         string  `json:"secret"`
		PreviousSecret *string `json:"previousSecret"`
	}
	if err := l.r.call(ctx, http.MethodGet, "/webhooks/signing-secret", nil, &s); err != nil {
		return fmt.Errorf("read the signing secret: %w", err)
	}
	var keys [][]byte
	for _, v := range []*string{&s.Secret, s.PreviousSecret} {
		if v == nil {
			continue
		}
		k, err := webhooks.SecretKey(*v)
		if err != nil {
			return fmt.Errorf("the signing secret: %w", err)
		}
		keys = append(keys, k)
	}
	l.keys, l.keysRead = keys, time.Now()
	return nil
}

// streamedEvent is an event of the stream, as GET /events/{id} answers it.
type streamedEvent struct {
	ID      string          `json:"id"`
	Event   string          `json:"event"`
	Payload json.RawMessage `json:"payload"`
}

// stream reads one connection of the stream to its end, forwarding each event.
func (l *listener) stream(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.r.url+"/sandbox/events/stream", nil)
	if err != nil {
		return err
	}
	req.Header.Set("X-API-KEY", l.r.apiKey)
	req.Header.Set("Accept", "text/event-stream")
	if l.lastID != "" {
		req.Header.Set("Last-Event-ID", l.lastID)
	}
	resp, err := (&http.Client{}).Do(req) // no time-out: the stream lasts
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		e := &apiError{}
		if json.Unmarshal(b, e) != nil || e.CodeDescription == "" {
			return fmt.Errorf("the event stream answered %d", resp.StatusCode)
		}
		return e
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var id, name string
	var data []byte
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if name == "error" {
				e := &apiError{}
				if json.Unmarshal(data, e) == nil && e.CodeDescription != "" {
					return e
				}
				return errors.New("the event stream failed")
			}
			if name != "" && len(data) > 0 {
				l.forward(ctx, data)
			}
			if id != "" {
				l.lastID = id
			}
			id, name, data = "", "", nil
		case strings.HasPrefix(line, "id: "):
			id = line[4:]
		case strings.HasPrefix(line, "event: "):
			name = line[7:]
		case strings.HasPrefix(line, "data: "):
			data = append(data, line[6:]...)
		}
	}
	return sc.Err()
}

// forward POSTs one event to the local URL, signed, and prints how it went.
func (l *listener) forward(ctx context.Context, data []byte) {
	var ev streamedEvent
	if err := json.Unmarshal(data, &ev); err != nil || ev.ID == "" {
		fmt.Fprintf(l.errOut, "skipped an event the stream sent malformed: %.200s\n", data)
		return
	}
	if time.Since(l.keysRead) > signingKeysTTL {
		if err := l.readKeys(ctx); err != nil {
			fmt.Fprintf(l.errOut, "%v; signing with the keys read before\n", err)
		}
	}
	body := []byte(ev.Payload)
	start := time.Now()
	ts := strconv.FormatInt(start.Unix(), 10)
	line := start.UTC().Format(time.RFC3339) + "  " + ev.Event + "  " + ev.ID + "  -> "
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.to, bytes.NewReader(body))
	if err != nil {
		fmt.Fprintln(l.out, line+"error: "+err.Error())
		return
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Ponte-Listen/1")
	req.Header.Set("webhook-id", ev.ID)
	req.Header.Set("webhook-timestamp", ts)
	req.Header.Set("webhook-signature", webhooks.Sign(l.keys, ev.ID, ts, body))
	resp, err := l.post.Do(req)
	ms := time.Since(start).Milliseconds()
	if err != nil {
		fmt.Fprintf(l.out, "%serror: %v (%d ms)\n", line, err, ms)
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	fmt.Fprintf(l.out, "%s%d (%d ms)\n", line, resp.StatusCode, ms)
}
