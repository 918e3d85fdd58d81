package model

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"net"
	"net/url"
	"strings"
)

// DatabaseUnavailable reports an error that means the database did not answer, rather than
// a fault of the request or of the service: the client should retry later (503). model does
// not import the driver, so the driver's errors are recognised by what they implement:
//
//   - a PostgreSQL error (SQLState) of class 08 (connection exception), 57P01/57P02
//     (administrator or crash shutdown), 57P03 (cannot connect now: starting up or in
//     recovery), 57014 (statement cancelled: the statement time-out) or 53300 (too many
//     connections). Any other SQLSTATE is a fault of ours: a 500.
//   - pgx's connection-level failures (they implement SafeToRetry), database/sql's broken
//     connection errors, and a socket error or a deadline that is not an outgoing HTTP
//     call's (those are *url.Error): the only sockets and deadlines a request waits on
//     are the database's (connect, pool acquire, a broken or frozen connection).
func DatabaseUnavailable(err error) bool {
	if err == nil {
		return false
	}
	var pg interface{ SQLState() string }
	if errors.As(err, &pg) {
		return unavailableState(pg.SQLState())
	}
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) {
		return true
	}
	var retry interface{ SafeToRetry() bool }
	if errors.As(err, &retry) {
		return true
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		return false
	}
	var opErr *net.OpError
	return errors.As(err, &opErr) || errors.Is(err, context.DeadlineExceeded)
}

func unavailableState(state string) bool {
	switch state {
	case "57P01", "57P02", "57P03", "57014", "53300":
		return true
	}
	return strings.HasPrefix(state, "08")
}
