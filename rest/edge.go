package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"ponte/model"
)

// Limits of the input every REST route accepts, checked before any handler runs. A NUL
// byte would cut the SQL statement bun writes at the server, and text that is not UTF-8
// cannot be stored; the lengths are far above any legitimate value (the longest are a
// Base64 RSA ciphertext of credentials and a webhook's Authorization header) and bound the
// work a request can cause.
const (
	maxPathSegment = 256      // bytes of one path segment
	maxQueryName   = 128      // bytes of a query parameter's name
	maxQueryValue  = 8 << 10  // bytes of a query value (about 200 comma-separated ids)
	maxJSONKey     = 256      // bytes of a JSON object key
	maxJSONString  = 16 << 10 // bytes of a JSON string value
	maxJSONDepth   = 32       // nested objects and arrays in a body
)

// edge refuses, before routing reaches a handler, any string a handler could not store or
// should not read: NUL bytes, invalid UTF-8 and overlong values in the path, the query and
// the body, bodies over maxBody, and JSON sent as another media type. /graphql has its own
// transport and limits.
func (s *Server) edge(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/graphql" {
			next.ServeHTTP(w, r)
			return
		}
		if err := checkURL(r.URL); err != nil {
			s.writeError(w, r, err)
			return
		}
		if isUpload(r) {
			// A statement file is not JSON and has a limit of its own (readStatement).
			next.ServeHTTP(w, r)
			return
		}
		if err := checkBody(w, r); err != nil {
			s.writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func invalid(format string, args ...any) error {
	return model.Fail(model.CodeInvalidParameter, format, args...)
}

// textProblem says what is wrong with a string holding a NUL byte or invalid UTF-8, or
// longer than limit, and is empty for a good one. Callers name the string only when it is
// refused: naming each one in advance cost a fmt.Sprintf per path segment and parameter of
// every request.
func textProblem(s string, limit int) string {
	switch {
	case strings.IndexByte(s, 0) >= 0:
		return "contains a NUL byte (\\u0000), which no value may hold"
	case !utf8.ValidString(s):
		return "is not valid UTF-8"
	case len(s) > limit:
		return fmt.Sprintf("is longer than %d bytes", limit)
	}
	return ""
}

func checkURL(u *url.URL) error {
	for seg := range strings.SplitSeq(u.Path, "/") {
		if p := textProblem(seg, maxPathSegment); p != "" {
			return invalid("Path segment %.40q %s.", seg, p)
		}
	}
	return checkQuery(u.RawQuery)
}

// checkQuery checks each name and value of a query string as url.ParseQuery reads them,
// without building the map: the handler's queryOf parses the string again, and building it
// twice was three allocations per request. A string ParseQuery refuses is answered with
// ParseQuery's own reason.
func checkQuery(raw string) error {
	for p, ok := range queryPairs(raw) {
		if !ok {
			if _, err := url.ParseQuery(raw); err != nil {
				return invalid("The query string is malformed: %s.", err.Error())
			}
		}
		if problem := textProblem(p.name, maxQueryName); problem != "" {
			return invalid("Query parameter name %.40q %s.", p.name, problem)
		}
		if problem := textProblem(p.value, maxQueryValue); problem != "" {
			return invalid("Query parameter %s %s.", p.name, problem)
		}
	}
	return nil
}

// checkValues checks the names and values of a query string or a form body.
func checkValues(kind string, v url.Values) error {
	for name, vals := range v {
		if p := textProblem(name, maxQueryName); p != "" {
			return invalid("%s name %.40q %s.", kind, name, p)
		}
		for _, val := range vals {
			if p := textProblem(val, maxQueryValue); p != "" {
				return invalid("%s %s %s.", kind, name, p)
			}
		}
	}
	return nil
}

// formPost reports the HTML form posts of the service's own pages (the payer's pages and
// the sandbox institutions' authorization page), which are not JSON endpoints.
func formPost(path string) bool {
	for _, p := range []string{"/payments/pay/", "/payments/consent/", "/smart-transfers/consent/", "/payments/bulk-consent/", "/sandbox/authorize/"} {
		if rest, ok := strings.CutPrefix(path, p); ok && rest != "" && !strings.Contains(rest, "/") {
			return true
		}
	}
	return false
}

// checkBody reads the body (at most maxBody), checks it for the route and puts it back
// for the handler.
func checkBody(w http.ResponseWriter, r *http.Request) error {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	if r.ContentLength > maxBody {
		return bodyTooLarge()
	}
	body, err := readBody(w, r)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return bodyTooLarge()
		}
		return model.Fail(model.CodeInvalidRequest, "Could not read the request body.")
	}
	r.Body = &checkedBody{Reader: bytes.NewReader(body), raw: body}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	switch r.Method {
	case http.MethodPost, http.MethodPatch, http.MethodPut:
	default:
		return nil // no handler of these methods reads a body
	}
	ct := r.Header.Get("Content-Type")
	mt, params := mediaType(ct)
	if formPost(r.URL.Path) {
		if mt != "application/x-www-form-urlencoded" {
			return unsupported(ct, "application/x-www-form-urlencoded")
		}
		v, err := url.ParseQuery(string(body))
		if err != nil {
			return invalid("The form body is malformed: %s.", err.Error())
		}
		return checkValues("Form field", v)
	}
	if !isJSON(mt) || (params["charset"] != "" && !strings.EqualFold(params["charset"], "utf-8")) {
		return unsupported(ct, "application/json")
	}
	return checkJSON(body)
}

// readBody reads a body of at most maxBody bytes. One whose stated length is at most
// exactBodyRead is read into a buffer of that size: net/http ends such a body at its
// length, so io.ReadAll's growing buffer and the MaxBytesReader were two allocations and
// copies per request for nothing. Larger ones grow as their bytes arrive, so a client that
// states a megabyte and sends nothing does not get a megabyte allocated.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.ContentLength <= 0 || r.ContentLength > exactBodyRead {
		return io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	}
	body := make([]byte, r.ContentLength)
	if _, err := io.ReadFull(r.Body, body); err != nil {
		return nil, err
	}
	return body, nil
}

// exactBodyRead is the largest stated body length readBody allocates in advance.
const exactBodyRead = 64 << 10

// mediaType is mime.ParseMediaType, without its parse for the Content-Type nearly every
// client sends.
func mediaType(ct string) (string, map[string]string) {
	if ct == "application/json" {
		return ct, nil
	}
	mt, params, _ := mime.ParseMediaType(ct)
	return mt, params
}

// checkedBody is a body checkBody has read: decode takes its bytes as they are rather than
// reading a copy of them.
type checkedBody struct {
	*bytes.Reader
	raw []byte
}

func (*checkedBody) Close() error { return nil }

// unread returns the whole body if nothing has read from it yet, and marks it read.
func (b *checkedBody) unread() ([]byte, bool) {
	if b.Len() != len(b.raw) {
		return nil, false
	}
	b.Reset(nil)
	return b.raw, true
}

func isJSON(mt string) bool {
	return mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")
}

func bodyTooLarge() error {
	return model.Fail(model.CodeBodyTooLarge, "The request body exceeds %d bytes.", maxBody)
}

func unsupported(got, want string) error {
	if got == "" {
		got = "none"
	}
	return model.Fail(model.CodeUnsupportedMediaType,
		"This endpoint reads %s (UTF-8); the request's Content-Type is %q.", want, got)
}

// checkJSON checks every string of a JSON body, keys and values, and names the field of
// the first one refused, then that no object repeats a key (model.CheckUniqueKeys). A body
// that does not parse is left to decode, which says why.
//
// It scans the bytes by hand rather than through json.Decoder.Token: measured on 1 MiB
// bodies of small values, Token cost 35 to 50 times json.Valid (about a second of CPU a
// request on this 2-core machine under load), this scan about twice. Its verdicts are
// checked against a Token walk by FuzzEdgeJSON. Lengths are counted as written, escapes
// included.
func checkJSON(body []byte) error {
	if !utf8.Valid(body) {
		return invalid("The request body is not valid UTF-8.")
	}
	if cannotBreakLimits(body) {
		// It may still repeat a key. Validated only then, so that a body that is not JSON
		// is left to decode as above.
		if err := model.CheckUniqueKeys("The request body", body); err != nil && json.Valid(body) {
			return err
		}
		return nil
	}
	if !json.Valid(body) {
		return nil
	}
	if err := scanJSON(body); err != nil {
		return err // the nesting is bounded before CheckUniqueKeys keeps a frame per level
	}
	return model.CheckUniqueKeys("The request body", body)
}

// scanJSON is checkJSON's walk of a valid JSON body.
func scanJSON(body []byte) error {
	type frame struct {
		obj      bool
		key, end int // where the current member's key is in body, in an object
		n        int // members begun, in an array
	}
	var stack []frame
	wantKey := false
	// path names the member being read at depth n (len(stack) for the innermost).
	path := func(n int) string {
		var b strings.Builder
		for i, f := range stack[:n] {
			switch {
			case !f.obj:
				b.WriteString("[" + strconv.Itoa(f.n-1) + "]")
			case i > 0:
				b.WriteByte('.')
				fallthrough
			default:
				b.Write(body[f.key:f.end])
			}
		}
		if b.Len() == 0 {
			return "The request body"
		}
		return "Field " + b.String()
	}
	// value notes that a value starts: it is the next member of an array.
	value := func() {
		if len(stack) > 0 && !stack[len(stack)-1].obj {
			stack[len(stack)-1].n++
		}
	}
	for i := 0; i < len(body); {
		switch c := body[i]; c {
		case '{', '[':
			value()
			if len(stack) == maxJSONDepth {
				return model.Fail(model.CodeInvalidRequest, "The request body nests objects and arrays deeper than %d levels.", maxJSONDepth)
			}
			stack = append(stack, frame{obj: c == '{'})
			wantKey = c == '{'
			i++
		case '}', ']':
			stack = stack[:len(stack)-1]
			i++
		case ',':
			wantKey = stack[len(stack)-1].obj
			i++
		case ':':
			wantKey = false
			i++
		case '"':
			end, nul := scanString(body, i)
			size := end - i - 2
			if wantKey {
				if nul || size > maxJSONKey {
					what := "contains a NUL byte (\\u0000), which no value may hold"
					if !nul {
						what = fmt.Sprintf("is longer than %d bytes", maxJSONKey)
					}
					return invalid("%s has a key %.40q that %s.", path(len(stack)-1), body[i+1:end-1], what)
				}
				stack[len(stack)-1].key, stack[len(stack)-1].end = i+1, end-1
			} else {
				value()
				if nul {
					return invalid("%s contains a NUL byte (\\u0000), which no value may hold.", path(len(stack)))
				}
				if size > maxJSONString {
					return invalid("%s is longer than %d bytes.", path(len(stack)), maxJSONString)
				}
			}
			i = end
		case ' ', '\t', '\n', '\r':
			i++
		default: // a number, true, false or null: runs to the next delimiter
			value()
			for i < len(body) && !jsonDelimiter(body[i]) {
				i++
			}
		}
	}
	return nil
}

// cannotBreakLimits reports whether body is too small to hold what scanJSON refuses: a
// string no longer than maxJSONKey, no NUL escape, and too few brackets to nest
// maxJSONDepth deep, counted over the whole body, strings included. Most bodies are a few
// hundred bytes; for them three quick searches replace the validation and the scan, a
// third of what the edge spent on POST /auth (the search for repeated keys still runs).
// FuzzEdgeJSON holds checkJSON to its reference walk either way.
func cannotBreakLimits(body []byte) bool {
	return len(body)-2 <= maxJSONKey && !bytes.Contains(body, []byte(`\u0000`)) &&
		bytes.Count(body, []byte("{"))+bytes.Count(body, []byte("[")) < maxJSONDepth
}

func jsonDelimiter(c byte) bool {
	switch c {
	case ',', ']', '}', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// scanString reads the string literal starting at body[start] (a quote) of valid JSON and
// returns the index after its closing quote and whether it holds an escaped NUL.
func scanString(body []byte, start int) (end int, nul bool) {
	for i := start + 1; ; {
		j := bytes.IndexAny(body[i:], `"\`)
		if j < 0 {
			return len(body), nul
		}
		i += j
		if body[i] == '"' {
			return i + 1, nul
		}
		// An escape: \uXXXX or a backslash and one character.
		if body[i+1] == 'u' && string(body[i+2:i+6]) == "0000" {
			nul = true
		}
		i += 2
	}
}
