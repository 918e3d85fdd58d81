package model

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"syscall"
	"testing"
)

// pgError stands for *pgconn.PgError: model knows it only by its SQLState method.
type pgError struct{ code string }

func (e *pgError) Error() string    { return "ERROR: something (SQLSTATE " + e.code + ")" }
func (e *pgError) SQLState() string { return e.code }

// connError stands for pgconn's connection-level errors, which implement SafeToRetry.
type connError struct{ err error }

func (e *connError) Error() string     { return "failed to receive message: " + e.err.Error() }
func (e *connError) SafeToRetry() bool { return false }
func (e *connError) Unwrap() error     { return e.err }

func TestDatabaseUnavailable(t *testing.T) {
	t.Parallel()
	dial := &net.OpError{Op: "dial", Net: "unix", Err: syscall.ECONNREFUSED}
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"plain", errors.New("boom"), false},
		{"syntax error", &pgError{"42601"}, false},
		{"unique violation, wrapped", fmt.Errorf("insert: %w", &pgError{"23505"}), false},
		{"admin shutdown", &pgError{"57P01"}, true},
		{"crash shutdown", &pgError{"57P02"}, true},
		{"cannot connect now", fmt.Errorf("failed to connect: %w", &pgError{"57P03"}), true},
		{"statement timeout", &pgError{"57014"}, true},
		{"too many connections", &pgError{"53300"}, true},
		{"connection failure", &pgError{"08006"}, true},
		{"connection refused", fmt.Errorf("failed to connect: %w", dial), true},
		{"connection lost", &connError{io.ErrUnexpectedEOF}, true},
		{"bad connection", driver.ErrBadConn, true},
		{"connection done", fmt.Errorf("commit: %w", sql.ErrConnDone), true},
		{"acquire timeout", context.DeadlineExceeded, true},
		{"outgoing HTTP call", &url.Error{Op: "Post", URL: "https://example.com", Err: dial}, false},
		{"outgoing HTTP time-out", &url.Error{Op: "Post", URL: "https://example.com", Err: context.DeadlineExceeded}, false},
		{"cancelled by the client", context.Canceled, false},
	} {
		if got := DatabaseUnavailable(tc.err); got != tc.want {
			t.Errorf("%s: DatabaseUnavailable(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}

func TestAsErrorDatabaseUnavailable(t *testing.T) {
	t.Parallel()
	e, internal := AsError(fmt.Errorf("list connectors: %w", &pgError{"57P01"}))
	if e.Status() != 503 || e.Code.String() != "DATABASE_UNAVAILABLE" || e.Message != MessageDatabaseUnavailable || !internal {
		t.Fatalf("got %d %s %q internal=%v", e.Status(), e.Code.String(), e.Message, internal)
	}
	// A model.Error the caller chose wins over its cause.
	chosen := &Error{Code: CodeNotFound, Message: "x", Err: &pgError{"57P01"}}
	if e, _ := AsError(chosen); e != chosen {
		t.Fatalf("got %v", e)
	}
	if e, _ := AsError(&pgError{"42601"}); e.Status() != 500 || e.Code.String() != "INTERNAL_ERROR" {
		t.Fatalf("syntax error became %d %s", e.Status(), e.Code.String())
	}
}
