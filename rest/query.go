package rest

import (
	"iter"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"ponte/model"
)

// query reads a request's query string. Only the endpoint's documented parameters are
// accepted, so a misspelt filter is a 400 naming it rather than a silently ignored one.
//
// The pairs are kept in order in a slice, not url.Values: an endpoint reads two or three
// parameters, and the map was the largest of the bytes a list request allocated beyond its
// minimal baseline (issue 16). They are read as url.ParseQuery reads them, which the edge
// has already checked the string against.
type query struct {
	params []queryParam
	err    error
	first  [2]queryParam // params' backing array for the usual one or two
}

type queryParam struct{ name, value string }

// read parses r's query string, accepting only the allowed names.
func (q *query) read(r *http.Request, allowed ...string) {
	q.params = parseQuery(q.first[:0], r.URL.RawQuery)
	var unknown []string
	for _, p := range q.params {
		if !contains(allowed, p.name) {
			unknown = append(unknown, p.name)
		}
	}
	if len(unknown) > 0 {
		// Sorted, then each name once: a query string can hold a hundred thousand names,
		// and checking each against the ones already seen would take their square.
		sort.Strings(unknown)
		unknown = slices.Compact(unknown)
		q.err = model.Fail(model.CodeInvalidParameter, "Unknown query parameter %s; this endpoint accepts: %s.", strings.Join(quoted(unknown), ", "), strings.Join(allowed, ", "))
	}
}

// parseQuery appends raw's pairs to dst as url.ParseQuery reads them, skipping the ones it
// would refuse (a semicolon, a bad escape) as url.URL.Query does.
func parseQuery(dst []queryParam, raw string) []queryParam {
	for p, ok := range queryPairs(raw) {
		if ok {
			dst = append(dst, p)
		}
	}
	return dst
}

// queryPairs yields each name=value pair of raw, unescaped, and whether url.ParseQuery
// accepts it (no semicolon, valid escapes): the one walk of a query string that the edge's
// check and the handlers' reader share.
func queryPairs(raw string) iter.Seq2[queryParam, bool] {
	return func(yield func(queryParam, bool) bool) {
		for pair := range strings.SplitSeq(raw, "&") {
			if pair == "" {
				continue
			}
			k, v, _ := strings.Cut(pair, "=")
			name, errName := url.QueryUnescape(k)
			value, errValue := url.QueryUnescape(v)
			if !yield(queryParam{name, value}, errName == nil && errValue == nil && !strings.Contains(pair, ";")) {
				return
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func quoted(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strconv.Quote(s)
	}
	return out
}

func (q *query) fail(name, format string, args ...any) {
	if q.err == nil {
		q.err = model.Fail(model.CodeInvalidParameter, "Query parameter %s: "+format, append([]any{name}, args...)...)
	}
}

// raw is the parameter's last value, as url.Values' readers take it here.
func (q *query) raw(name string) (string, bool) {
	for i := len(q.params) - 1; i >= 0; i-- {
		if q.params[i].name == name {
			return q.params[i].value, true
		}
	}
	return "", false
}

// str returns a string parameter, nil when absent.
func (q *query) str(name string) *string {
	v, ok := q.raw(name)
	if !ok {
		return nil
	}
	return &v
}

// list reads a form-style array: a,b,c (repeated keys are accepted too).
func (q *query) list(name string) []string {
	var out []string
	for _, p := range q.params {
		if p.name != name {
			continue
		}
		for _, part := range strings.Split(p.value, ",") {
			if p := strings.TrimSpace(part); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func (q *query) boolean(name string) *bool {
	v, ok := q.raw(name)
	if !ok {
		return nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil || (v != "true" && v != "false") {
		q.fail(name, "must be true or false (got %q).", v)
		return nil
	}
	return &b
}

func (q *query) integer(name string) *int {
	v, ok := q.raw(name)
	if !ok {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		q.fail(name, "must be an integer (got %q).", v)
		return nil
	}
	return &n
}

func (q *query) uuid(name string) *uuid.UUID {
	v, ok := q.raw(name)
	if !ok {
		return nil
	}
	id, err := parseUUID(v)
	if err != nil {
		q.fail(name, "must be a UUID (got %q).", v)
		return nil
	}
	return &id
}

// parseUUID accepts only the canonical 36-character form.
func parseUUID(s string) (uuid.UUID, error) {
	if len(s) != 36 {
		return uuid.Nil, errBadUUID
	}
	return uuid.Parse(s)
}

var errBadUUID = model.Fail(model.CodeInvalidParameter, "not a UUID")

// intParam reads an integer path parameter.
func intParam(r *http.Request, name, what string) (int, error) {
	v := pathParam(r, name)
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, model.Fail(model.CodeInvalidParameter, "%s must be an integer (got %q).", what, v)
	}
	return n, nil
}

// uuidParam reads a UUID path parameter.
func uuidParam(r *http.Request, name, what string) (uuid.UUID, error) {
	v := pathParam(r, name)
	id, err := parseUUID(v)
	if err != nil {
		return uuid.Nil, model.Fail(model.CodeInvalidParameter, "%s must be a UUID (got %q).", what, v)
	}
	return id, nil
}

// date reads a date filter's lower bound: a date-time (RFC 3339) or a plain date
// (YYYY-MM-DD), read as its midnight UTC.
func (q *query) date(name string) *time.Time {
	v, ok := q.raw(name)
	if !ok {
		return nil
	}
	t, err := model.ParseTime(v)
	if err != nil {
		q.fail(name, "%q is not a date (YYYY-MM-DD) or date-time (RFC 3339).", v)
		return nil
	}
	return &t.Time
}

// upTo reads the upper bound of a date filter: a plain date covers its whole day (UTC), a
// date-time its whole millisecond (model.ParseUpTo), on every list.
func (q *query) upTo(name string) *time.Time {
	v, ok := q.raw(name)
	if !ok {
		return nil
	}
	t, err := model.ParseUpTo(v)
	if err != nil {
		q.fail(name, "%q is not a date (YYYY-MM-DD) or date-time (RFC 3339).", v)
		return nil
	}
	return &t
}

// requiredUUID reads a UUID parameter the endpoint cannot do without.
func (q *query) requiredUUID(name string) *uuid.UUID {
	v := q.uuid(name)
	if v == nil && q.err == nil {
		q.err = model.Fail(model.CodeInvalidParameter, "Query parameter %s is required.", name)
	}
	return v
}

// uuids reads a comma-separated list of UUIDs.
func (q *query) uuids(name string) []uuid.UUID {
	var out []uuid.UUID
	for _, raw := range q.list(name) {
		id, err := parseUUID(raw)
		if err != nil {
			q.fail(name, "%q is not a UUID.", raw)
			return nil
		}
		out = append(out, id)
	}
	return out
}
