package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v3"
)

// The sandbox control commands: clients of a running service's API, as an
// application is, with its client id and secret; they open nothing of the service's own.

// remoteFlags name the service and the application a control command acts as.
func remoteFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "url", Usage: "the service's address (PONTE_URL; default http:// and PONTE_ADDR, or http://127.0.0.1:8080)"},
		&cli.StringFlag{Name: "client-id", Usage: "the application's client id (PONTE_CLIENT_ID)"},
		&cli.StringFlag{Name: "client-secret", Usage: "the application's client secret (PONTE_CLIENT_SECRET)"},
	}
}

// remote is a service and an application's credentials.
type remote struct {
	url, clientID, secret string
	http                  *http.Client
	apiKey                string
}

func remoteOf(cmd *cli.Command) (*remote, error) {
	pick := func(flag, env string) string {
		if cmd.IsSet(flag) {
			return cmd.String(flag)
		}
		return os.Getenv(env)
	}
	r := &remote{url: pick("url", "PONTE_URL"), clientID: pick("client-id", "PONTE_CLIENT_ID"), secret: pick("client-secret", "PONTE_CLIENT_SECRET"),
		http: &http.Client{Timeout: 30 * time.Second}}
	if r.url == "" {
		addr := os.Getenv("PONTE_ADDR")
		if addr == "" {
			addr = "127.0.0.1:8080"
		}
		r.url = "http://" + addr
	}
	r.url = strings.TrimRight(r.url, "/")
	if !strings.HasPrefix(r.url, "http://") && !strings.HasPrefix(r.url, "https://") {
		return nil, usagef("--url must start with http:// or https://; got %q", r.url)
	}
	if r.clientID == "" || r.secret == "" {
		return nil, usagef("%s needs the application's --client-id and --client-secret (or PONTE_CLIENT_ID and PONTE_CLIENT_SECRET)", cmd.FullName())
	}
	return r, nil
}

// apiError is the service's error body.
type apiError struct {
	Code            int    `json:"code"`
	CodeDescription string `json:"codeDescription"`
	Message         string `json:"message"`
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Code, e.CodeDescription, e.Message)
}

// call sends one JSON request and decodes a 200 answer into out; any other answer is an
// *apiError.
func (r *remote) call(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, r.url+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if r.apiKey != "" {
		req.Header.Set("X-API-KEY", r.apiKey)
	}
	resp, err := r.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		e := &apiError{}
		if json.Unmarshal(b, e) != nil || e.CodeDescription == "" {
			return fmt.Errorf("%s %s answered %d", method, path, resp.StatusCode)
		}
		return e
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(b, out)
}

// login takes an API key (POST /auth) for the application.
func (r *remote) login(ctx context.Context) error {
	var out struct {
		APIKey string `json:"apiKey"`
	}
	r.apiKey = ""
	if err := r.call(ctx, http.MethodPost, "/auth", map[string]string{"clientId": r.clientID, "clientSecret": r.secret}, &out); err != nil {
		return fmt.Errorf("log in as %s at %s: %w", r.clientID, r.url, err)
	}
	r.apiKey = out.APIKey
	return nil
}

// triggerCommand is `ponte trigger EVENT`: POST /sandbox/events.
func triggerCommand() *cli.Command {
	return &cli.Command{
		Name:      "trigger",
		Usage:     "fire a webhook event on demand for a sandbox resource of the application (POST /sandbox/events)",
		ArgsUsage: "EVENT",
		Description: "EVENT is an event name (item/updated, transactions/created, payment_intent/completed, …; docs/sandbox-control.md lists them).\n" +
			"Item, connector and transactions events take --item; payment events take --payment-request; smart transfer\n" +
			"events --preauthorization or --smart-transfer-payment; boleto/updated --boleto. The event is\n" +
			"delivered to the application's webhooks like any other, and printed as GET /events/{id} shows it.",
		Flags: append(remoteFlags(),
			&cli.StringFlag{Name: "item", Usage: "the item (item/*, connector/status_updated, transactions/*)"},
			&cli.StringFlag{Name: "account", Usage: "the account of a transactions/* event (default: the item's first)"},
			&cli.StringFlag{Name: "payment-request", Usage: "the payment request (payment_request/*, payment_intent/*, scheduled_payment/*, automatic_pix_payment/*)"},
			&cli.StringFlag{Name: "preauthorization", Usage: "the smart transfer pre-authorization (smart_transfer_preauthorization/*)"},
			&cli.StringFlag{Name: "smart-transfer-payment", Usage: "the smart transfer payment (smart_transfer_payment/*)"},
			&cli.StringFlag{Name: "boleto", Usage: "the boleto (boleto/updated)"},
			&cli.StringFlag{Name: "error-code", Usage: "the error code of item/error or a payment error event"},
		),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.NArg() != 1 {
				return usagef("trigger takes one argument, the event name; got %d", cmd.NArg())
			}
			r, err := remoteOf(cmd)
			if err != nil {
				return err
			}
			body := map[string]any{"event": cmd.Args().First()}
			for flag, field := range map[string]string{"item": "itemId", "account": "accountId", "payment-request": "paymentRequestId",
				"preauthorization": "preauthorizationId", "smart-transfer-payment": "smartTransferPaymentId", "boleto": "boletoId", "error-code": "errorCode"} {
				if cmd.IsSet(flag) {
					body[field] = cmd.String(flag)
				}
			}
			if err := r.login(ctx); err != nil {
				return err
			}
			var ev json.RawMessage
			if err := r.call(ctx, http.MethodPost, "/sandbox/events", body, &ev); err != nil {
				return err
			}
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, ev, "", "  "); err != nil {
				return err
			}
			fmt.Fprintln(cmd.Root().Writer, pretty.String())
			return nil
		},
	}
}
