package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/redis/go-redis/v9"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"ponte/db"
	"ponte/model"
	"ponte/payments"
	"ponte/webhooks"
)

// config is read from the environment; flags of the same meaning override it.
type config struct {
	Addr        string
	DatabaseURL string
	// DatabaseReadURL is a streaming standby of the primary for the read routes
	// (DATABASE_READ_URL); empty: every read on the primary.
	DatabaseReadURL string
	DataDir         string
	ClientID        string
	ClientSecret    string
	SecretKey       string
	TLSCert         string
	TLSKey          string
	LogLevel        string
	LogFormat       string
	MetricsToken    string
	// BrowserOrigins are the origins of the applications' front ends (PONTE_BROWSER_ORIGINS,
	// comma-separated): browsers there may read the API's answers to Connect Token calls and
	// frame the Connect page, as may each token's own targetOrigin.
	BrowserOrigins []string
	// RedisURL, when set, moves the rate-limit counters from PostgreSQL to Redis
	// (PONTE_REDIS_URL, redis://[user:password@]host:port/db or rediss:// for TLS).
	RedisURL string
	// AllowInsecureWebhooks lifts the HTTPS and no-localhost rules on webhook URLs, for
	// local development only (PONTE_ALLOW_INSECURE_WEBHOOKS).
	AllowInsecureWebhooks bool
	// StepDelay paces sandbox executions (PONTE_SANDBOX_STEP_DELAY).
	StepDelay time.Duration
	// BaseURL is the public URL of the service, used in links it hands out
	// (PONTE_BASE_URL; default: the listen address).
	BaseURL string
	// JobTimeout and JobRescueAfter tune the job queue (PONTE_JOB_TIMEOUT,
	// PONTE_JOB_RESCUE_AFTER): a job still running after the latter is retried, the
	// fallback behind the liveness locks (db/liveness.go).
	JobTimeout     time.Duration
	JobRescueAfter time.Duration
	// Webhooks is the delivery configuration (PONTE_WEBHOOK_*).
	Webhooks webhooks.Config
	// WebhookWorkers is how many deliveries a process sends at once (PONTE_WEBHOOK_WORKERS).
	WebhookWorkers int
	// PaymentAuthTimeout ends payment attempts the payer has not authorized
	// (PONTE_PAYMENT_AUTH_TIMEOUT, section 8: 30m); PaymentStepDelay spaces the sandbox
	// institutions' settlement steps (PONTE_PAYMENT_STEP_DELAY).
	PaymentAuthTimeout time.Duration
	PaymentStepDelay   time.Duration
	// AutomaticPixAuthTimeout is the same limit for automatic PIX authorizations
	// (PONTE_AUTOMATIC_PIX_AUTH_TIMEOUT, section 8: 60m).
	AutomaticPixAuthTimeout time.Duration
	// BoletoProtestAfter is how long an OVERDUE boleto waits before it is PROTESTED
	// (PONTE_BOLETO_PROTEST_AFTER, default 720h).
	BoletoProtestAfter time.Duration
	// RequestExpiry is how long a payment request waits for a payment before it is EXPIRED
	// (PONTE_PAYMENT_REQUEST_EXPIRY, default 720h).
	RequestExpiry time.Duration
	// DB bounds database waits (PONTE_DB_CONNECT_TIMEOUT, PONTE_DB_ACQUIRE_TIMEOUT,
	// PONTE_DB_STATEMENT_TIMEOUT; 0 lifts a limit).
	DB db.Limits
}

// loadConfig reads the environment, lets the command line's flags override it (flags may
// be nil), and checks the result.
func loadConfig(flags func(*config)) (*config, error) {
	c := &config{
		Addr:            env("PONTE_ADDR", "127.0.0.1:8080"),
		DatabaseURL:     os.Getenv("DATABASE_URL"),
		DatabaseReadURL: os.Getenv("DATABASE_READ_URL"),
		DataDir:         env("PONTE_DATA_DIR", ".ponte"),
		ClientID:        os.Getenv("PONTE_CLIENT_ID"),
		ClientSecret:    os.Getenv("PONTE_CLIENT_SECRET"),
		SecretKey:       os.Getenv("PONTE_SECRET_KEY"),
		TLSCert:         os.Getenv("PONTE_TLS_CERT"),
		TLSKey:          os.Getenv("PONTE_TLS_KEY"),
		LogLevel:        env("PONTE_LOG_LEVEL", "info"),
		LogFormat:       env("PONTE_LOG_FORMAT", "text"),
		MetricsToken:    os.Getenv("PONTE_METRICS_TOKEN"),
		RedisURL:        os.Getenv("PONTE_REDIS_URL"),
	}
	if c.RedisURL != "" {
		if _, err := redis.ParseURL(c.RedisURL); err != nil {
			return nil, fmt.Errorf("PONTE_REDIS_URL is not a Redis URL (redis://host:port/db): %v", err)
		}
	}
	origins, err := browserOrigins(os.Getenv("PONTE_BROWSER_ORIGINS"))
	if err != nil {
		return nil, err
	}
	c.BrowserOrigins = origins
	if v := os.Getenv("PONTE_ALLOW_INSECURE_WEBHOOKS"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("PONTE_ALLOW_INSECURE_WEBHOOKS must be a boolean (1, true, 0, false), not %q", v)
		}
		c.AllowInsecureWebhooks = b
	}
	c.BaseURL = os.Getenv("PONTE_BASE_URL")
	payDefaults := payments.DefaultConfig()
	for _, d := range []struct {
		name string
		dst  *time.Duration
		def  time.Duration
	}{
		{"PONTE_SANDBOX_STEP_DELAY", &c.StepDelay, time.Second},
		{"PONTE_JOB_TIMEOUT", &c.JobTimeout, 2 * time.Minute},
		{"PONTE_JOB_RESCUE_AFTER", &c.JobRescueAfter, 3 * time.Minute},
		{"PONTE_PAYMENT_AUTH_TIMEOUT", &c.PaymentAuthTimeout, payDefaults.AuthorizationTimeout},
		{"PONTE_PAYMENT_STEP_DELAY", &c.PaymentStepDelay, payDefaults.StepDelay},
		{"PONTE_AUTOMATIC_PIX_AUTH_TIMEOUT", &c.AutomaticPixAuthTimeout, payDefaults.AutomaticPixTimeout},
		{"PONTE_BOLETO_PROTEST_AFTER", &c.BoletoProtestAfter, payDefaults.BoletoProtestAfter},
		{"PONTE_PAYMENT_REQUEST_EXPIRY", &c.RequestExpiry, payDefaults.RequestExpiry},
		{"PONTE_DB_CONNECT_TIMEOUT", &c.DB.ConnectTimeout, 3 * time.Second},
		{"PONTE_DB_ACQUIRE_TIMEOUT", &c.DB.AcquireTimeout, 5 * time.Second},
		{"PONTE_DB_STATEMENT_TIMEOUT", &c.DB.StatementTimeout, 5 * time.Second},
	} {
		*d.dst = d.def
		if v := os.Getenv(d.name); v != "" {
			dur, err := time.ParseDuration(v)
			if err != nil || dur < 0 {
				return nil, fmt.Errorf("%s must be a duration such as 1s or 500ms, not %q", d.name, v)
			}
			*d.dst = dur
		}
	}
	if err := c.loadWebhooks(); err != nil {
		return nil, err
	}
	if c.JobRescueAfter <= c.JobTimeout {
		return nil, fmt.Errorf("PONTE_JOB_RESCUE_AFTER (%s) must exceed PONTE_JOB_TIMEOUT (%s)", c.JobRescueAfter, c.JobTimeout)
	}
	if d := c.Webhooks.JobTimeout(); c.JobRescueAfter <= d {
		return nil, fmt.Errorf("PONTE_JOB_RESCUE_AFTER (%s) must exceed a webhook delivery's longest run (%s: its time-out plus 2s)", c.JobRescueAfter, d)
	}
	if flags != nil {
		flags(c)
	}
	if err := checkAddr(c.Addr); err != nil {
		return nil, err
	}
	if (c.ClientID == "") != (c.ClientSecret == "") {
		return nil, errors.New("PONTE_CLIENT_ID and PONTE_CLIENT_SECRET must be set together")
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return nil, errors.New("PONTE_TLS_CERT and PONTE_TLS_KEY must be set together")
	}
	if err := new(slog.Level).UnmarshalText([]byte(c.LogLevel)); err != nil {
		return nil, fmt.Errorf("PONTE_LOG_LEVEL must be debug, info, warn or error, not %q", c.LogLevel)
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		return nil, fmt.Errorf("PONTE_LOG_FORMAT must be text or json, not %q", c.LogFormat)
	}
	return c, nil
}

// loadWebhooks reads PONTE_WEBHOOK_RETRY (A or B, section 6.3's variants),
// PONTE_WEBHOOK_TIMEOUT, PONTE_WEBHOOK_SCHEDULE and PONTE_WEBHOOK_SHORT_SCHEDULE (waits
// before each retry, comma-separated durations), PONTE_WEBHOOK_LIMIT (webhooks per
// application) and PONTE_WEBHOOK_WORKERS.
func (c *config) loadWebhooks() error {
	c.Webhooks = webhooks.DefaultConfig()
	c.Webhooks.AllowInsecure = c.AllowInsecureWebhooks
	if v := os.Getenv("PONTE_WEBHOOK_RETRY"); v != "" {
		switch webhooks.Variant(strings.ToUpper(v)) {
		case webhooks.VariantA, webhooks.VariantB:
			c.Webhooks.Variant = webhooks.Variant(strings.ToUpper(v))
		default:
			return fmt.Errorf("PONTE_WEBHOOK_RETRY must be A or B, not %q", v)
		}
	}
	if v := os.Getenv("PONTE_WEBHOOK_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("PONTE_WEBHOOK_TIMEOUT must be a positive duration such as 5s, not %q", v)
		}
		c.Webhooks.Timeout = d
	}
	for _, s := range []struct {
		name string
		dst  *[]time.Duration
	}{{"PONTE_WEBHOOK_SCHEDULE", &c.Webhooks.Schedule}, {"PONTE_WEBHOOK_SHORT_SCHEDULE", &c.Webhooks.ShortSchedule}} {
		v := os.Getenv(s.name)
		if v == "" {
			continue
		}
		list := []time.Duration{}
		for _, part := range strings.Split(v, ",") {
			d, err := time.ParseDuration(strings.TrimSpace(part))
			if err != nil || d < 0 {
				return fmt.Errorf("%s must list durations such as 0s,0s,1h, not %q", s.name, v)
			}
			list = append(list, d)
		}
		*s.dst = list
	}
	if v := os.Getenv("PONTE_WEBHOOK_LIMIT"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("PONTE_WEBHOOK_LIMIT must be a positive number, not %q", v)
		}
		c.Webhooks.Limit = n
	}
	c.WebhookWorkers = webhooks.Workers
	if v := os.Getenv("PONTE_WEBHOOK_WORKERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("PONTE_WEBHOOK_WORKERS must be a positive number, not %q", v)
		}
		c.WebhookWorkers = n
	}
	return nil
}

func env(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// publicURL is PONTE_BASE_URL, or the listen address when it is unset (the service's
// own default for the links it hands out). Every command computes the same value, so the
// catalogue seeded by any of them carries the same logo URLs.
func (c *config) publicURL() string {
	if c.BaseURL != "" {
		return strings.TrimRight(c.BaseURL, "/")
	}
	scheme := "http"
	if c.TLSCert != "" {
		scheme = "https"
	}
	host, port, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return scheme + "://" + c.Addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost" // listening on every address: the machine's own name for itself
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}

func (c *config) logger() *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.LogLevel)); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(os.Stderr, opts)
	if c.LogFormat == "json" {
		h = slog.NewJSONHandler(os.Stderr, opts)
	}
	return slog.New(model.LogRequestIDs(h))
}

// existing refuses to go on when there is nothing yet to read: no private cluster in the
// data folder (with DATABASE_URL unset), or no master key.
func (c *config) existing() error {
	dir, _ := filepath.Abs(c.DataDir)
	if c.DatabaseURL == "" {
		if _, err := os.Stat(filepath.Join(c.DataDir, "pg", "PG_VERSION")); err != nil {
			return fmt.Errorf("no data folder at %s: nothing to read yet (start ponte once there, or set PONTE_DATA_DIR or DATABASE_URL)", dir)
		}
	}
	if c.SecretKey == "" {
		if _, err := os.Stat(filepath.Join(c.DataDir, "secret.key")); err != nil {
			return fmt.Errorf("no master key: PONTE_SECRET_KEY is unset and %s has no secret.key", dir)
		}
	}
	return nil
}

// masterKey returns PONTE_SECRET_KEY, or the key kept in the data folder, generating it
// on first start. Replicas sharing a database must share this key: set PONTE_SECRET_KEY.
func (c *config) masterKey(log *slog.Logger) ([]byte, error) {
	if c.SecretKey != "" {
		if len(c.SecretKey) < 32 {
			return nil, errors.New("PONTE_SECRET_KEY must be at least 32 characters")
		}
		return []byte(c.SecretKey), nil
	}
	path := filepath.Join(c.DataDir, "secret.key")
	b, err := os.ReadFile(path)
	if err == nil {
		key := strings.TrimSpace(string(b))
		if len(key) < 32 {
			return nil, fmt.Errorf("%s is too short to be a key; remove it to generate a new one", path)
		}
		return []byte(key), nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	key := hex.EncodeToString(raw)
	if err := os.MkdirAll(c.DataDir, 0o700); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, []byte(key+"\n"), 0o600); err != nil {
		return nil, err
	}
	if c.DatabaseURL != "" {
		log.Warn("generated a master key in the data folder while using an external DATABASE_URL; replicas must share it: set PONTE_SECRET_KEY", "path", path)
	}
	return []byte(key), nil
}

// checkAddr refuses a listen address net.Listen would refuse, so that doctor and a start
// say so before anything is opened.
func checkAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		_, err = strconv.ParseUint(port, 10, 16) // 0 asks the kernel for a free port
	}
	if err != nil {
		return fmt.Errorf("PONTE_ADDR (or --addr) must be host:port, such as 127.0.0.1:8080 or :8080, not %q", addr)
	}
	return nil
}

// browserOrigins reads PONTE_BROWSER_ORIGINS: origins separated by commas, each spelled as
// a browser sends it in Origin (scheme://host[:port]), since that is what they are matched
// against.
func browserOrigins(v string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		o, ok := model.Origin(part)
		if !ok {
			return nil, fmt.Errorf("PONTE_BROWSER_ORIGINS: %q is not an origin (scheme://host[:port], nothing after)", part)
		}
		if !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out, nil
}
