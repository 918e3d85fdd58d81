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
	// Status is the HTTP status, repeated as `code` in the REST body.
	Status int
	// CodeDescription is the stable identifier clients branch on; empty when the status
	// alone says everything.
	CodeDescription string
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
	if e.CodeDescription != "" {
		return fmt.Sprintf("%d %s: %s", e.Status, e.CodeDescription, e.Message)
	}
	return fmt.Sprintf("%d: %s", e.Status, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an Error with a formatted message.
func Errorf(status int, codeDescription, format string, args ...any) *Error {
	return &Error{Status: status, CodeDescription: codeDescription, Message: fmt.Sprintf(format, args...)}
}

// WithData returns the error with Data set.
func (e *Error) WithData(data any) *Error { e.Data = data; return e }

// ErrorBody is the REST error body of section 7.1.
type ErrorBody struct {
	Code            int               `json:"code"`
	CodeDescription string            `json:"codeDescription,omitempty"`
	Message         string            `json:"message"`
	Data            any               `json:"data,omitempty"`
	Details         []ValidationError `json:"details,omitempty"`
}

// Body renders the REST body.
func (e *Error) Body() ErrorBody {
	return ErrorBody{Code: e.Status, CodeDescription: e.CodeDescription, Message: e.Message, Data: e.Data, Details: e.Details}
}

// Extensions renders the GraphQL error extensions: the same code and codeDescription as the
// REST body, so a client can switch surfaces without relearning failures.
func (e *Error) Extensions() map[string]any {
	ext := map[string]any{"code": e.Status}
	if e.CodeDescription != "" {
		ext["codeDescription"] = e.CodeDescription
	}
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
	if errors.As(err, &e) && e.Status != http.StatusInternalServerError {
		return e, false
	}
	if DatabaseUnavailable(err) {
		return &Error{Status: http.StatusServiceUnavailable, CodeDescription: CodeDatabaseUnavailable, Message: MessageDatabaseUnavailable, Err: err}, true
	}
	return &Error{Status: http.StatusInternalServerError, CodeDescription: CodeInternal, Message: "The service failed to process the request. It has been logged; try again later.", Err: err}, true
}

// MessageDatabaseUnavailable is the message of every DATABASE_UNAVAILABLE answer: it names
// no host, socket, user or database.
const MessageDatabaseUnavailable = "The database is not reachable at the moment. Retry after the number of seconds in the Retry-After header."

// Stable codeDescription values. Those of the specification are spelled as it spells them.
const (
	CodeInternal             = "INTERNAL_ERROR"
	CodeInvalidRequest       = "INVALID_REQUEST"
	CodeInvalidParameter     = "INVALID_PARAMETER"
	CodeMalformedJSON        = "MALFORMED_JSON"
	CodeNotFound             = "NOT_FOUND"
	CodeMethodNotAllowed     = "METHOD_NOT_ALLOWED"
	CodeNotAcceptable        = "NOT_ACCEPTABLE"
	CodeUnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
	CodeBodyTooLarge         = "BODY_TOO_LARGE"
	CodeRateLimited          = "RATE_LIMIT_EXCEEDED"

	CodeAPIKeyMissing  = "API_KEY_MISSING"
	CodeAPIKeyInvalid  = "API_KEY_INVALID"
	CodeAPIKeyExpired  = "API_KEY_EXPIRED"
	CodeForbidden      = "FORBIDDEN"
	CodeClientKeysBad  = "CLIENT_KEYS_UNAUTHORIZED"
	CodeClientDisabled = "CLIENT_DISABLED"

	CodeItemNotFound      = "ITEM_NOT_FOUND"
	CodeConnectorNotFound = "CONNECTOR_NOT_FOUND"
	CodeCategoryNotFound  = "CATEGORY_NOT_FOUND"

	// CodeDatabaseUnavailable (503): the database did not answer in time; retry later.
	CodeDatabaseUnavailable = "DATABASE_UNAVAILABLE"
	// CodeNotReady (503, /readyz only): the database answers but migrations are pending.
	CodeNotReady = "NOT_READY"
	// CodeIdempotencyKeyReused (422): an Idempotency-Key sent again with another request.
	CodeIdempotencyKeyReused = "IDEMPOTENCY_KEY_REUSED"
	// CodeIdempotencyKeyInUse (409): the first request with this Idempotency-Key is still running.
	CodeIdempotencyKeyInUse = "IDEMPOTENCY_KEY_IN_USE"
	// CodeConnectTokenOptionConflict (400): the body contradicts an option the Connect Token carries.
	CodeConnectTokenOptionConflict = "CONNECT_TOKEN_OPTION_CONFLICT"
	// CodeWebhookLimitReached (409): the application has as many webhooks as it may.
	CodeWebhookLimitReached = "WEBHOOK_LIMIT_REACHED"
)

// Shorthands for the most common failures.
func NotFound(codeDescription, format string, args ...any) *Error {
	return Errorf(http.StatusNotFound, codeDescription, format, args...)
}

func BadRequest(codeDescription, format string, args ...any) *Error {
	return Errorf(http.StatusBadRequest, codeDescription, format, args...)
}

func Forbidden(format string, args ...any) *Error {
	return Errorf(http.StatusForbidden, CodeForbidden, format, args...)
}

func Unauthorized(codeDescription, format string, args ...any) *Error {
	return Errorf(http.StatusUnauthorized, codeDescription, format, args...)
}

// WithDetails returns the error with per-parameter validation details.
func (e *Error) WithDetails(d []ValidationError) *Error { e.Details = d; return e }

// WithCode returns the error with another codeDescription.
func (e *Error) WithCode(code string) *Error { e.CodeDescription = code; return e }
