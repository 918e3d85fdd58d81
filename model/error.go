package model

import (
	"errors"
	"fmt"
	"net/http"
)

// Error is the one error type of the service. Resolvers return it; rest/ renders it as the
// documented body and graph/ as GraphQL error extensions, both through the methods below,
// so the two surfaces can never disagree about a failure.
type Error struct {
	// Code is the stable codeDescription clients branch on, with the HTTP status it is
	// answered with (repeated as `code` in the REST body); see codes.go.
	Code Code
	// Message is for people and may change between releases.
	Message string
	// Data carries structured detail (for example the ids of duplicate items).
	Data any
	// Details is the per-parameter list some validation errors carry at the body root.
	Details []ValidationError
	// Err is the cause, logged but never shown.
	Err error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Status(), e.Code, e.Message)
}

// Status is the HTTP status of the error's code.
func (e *Error) Status() int { return e.Code.Status() }

func (e *Error) Unwrap() error { return e.Err }

// Fail builds the Error of a code with a formatted message; the status is the code's.
func Fail(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithData returns the error with Data set.
func (e *Error) WithData(data any) *Error { e.Data = data; return e }

// ErrorBody is the REST error body of section 7.1. codeDescription is left out only by the
// 429 of a rate limit, which section 7.4 gives code and message alone.
type ErrorBody struct {
	Code            int               `json:"code"`
	CodeDescription string            `json:"codeDescription,omitempty"`
	Message         string            `json:"message"`
	Data            any               `json:"data,omitempty"`
	Details         []ValidationError `json:"details,omitempty"`
}

// Body renders the REST body.
func (e *Error) Body() ErrorBody {
	return ErrorBody{Code: e.Status(), CodeDescription: e.Code.String(), Message: e.Message, Data: e.Data, Details: e.Details}
}

// Extensions renders the GraphQL error extensions: the same code and codeDescription as the
// REST body, so a client can switch surfaces without relearning failures.
func (e *Error) Extensions() map[string]any {
	ext := map[string]any{"code": e.Status(), "codeDescription": e.Code.String()}
	if e.Data != nil {
		ext["data"] = e.Data
	}
	if len(e.Details) > 0 {
		ext["details"] = e.Details
	}
	return ext
}

// AsError finds the Error in err's chain. A database that did not answer (see
// DatabaseUnavailable) is a 503 DATABASE_UNAVAILABLE; anything else is an internal failure:
// a 500 whose message reveals nothing. internal reports both, so the caller logs the cause.
func AsError(err error) (e *Error, internal bool) {
	if errors.As(err, &e) && e.Status() != http.StatusInternalServerError {
		return e, false
	}
	if DatabaseUnavailable(err) {
		return &Error{Code: CodeDatabaseUnavailable, Message: MessageDatabaseUnavailable, Err: err}, true
	}
	return &Error{Code: CodeInternal, Message: "The service failed to process the request. It has been logged; try again later.", Err: err}, true
}

// MessageDatabaseUnavailable is the message of every DATABASE_UNAVAILABLE answer: it names
// no host, socket, user or database.
const MessageDatabaseUnavailable = "The database is not reachable at the moment. Retry after the number of seconds in the Retry-After header."

// WithDetails returns the error with per-parameter validation details.
func (e *Error) WithDetails(d []ValidationError) *Error { e.Details = d; return e }
