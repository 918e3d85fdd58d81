package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// One failure reads the same on both surfaces: REST's body and GraphQL's extensions carry
// the same status, codeDescription, data and details, and leave out what the error lacks.
func TestErrorPresentation(t *testing.T) {
	t.Parallel()
	cause := errors.New("pq: relation items does not exist")
	details := []ValidationError{{Code: "001", Message: "CPF inválido", Parameter: "cpf"}}
	full := Fail(CodeItemNotFound, "No item %s.", "7b0c").WithData(map[string]any{"id": "7b0c"}).WithDetails(details)
	full.Err = cause
	bare := Fail(CodeInvalidParameter, "pageSize must be between 1 and %d (got %d).", MaxPageSize, 0)

	if got, want := full.Error(), "404 ITEM_NOT_FOUND: No item 7b0c."; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(full, cause) || full.Unwrap() != cause {
		t.Error("the cause is not reachable through Unwrap")
	}
	if bare.Unwrap() != nil {
		t.Errorf("an error without a cause unwraps to %v", bare.Unwrap())
	}
	for _, e := range []*Error{full, bare} {
		b, x := e.Body(), e.Extensions()
		if b.Code != e.Code.Status() || x["code"] != b.Code || x["codeDescription"] != b.CodeDescription || b.CodeDescription != e.Code.String() {
			t.Errorf("%s: body %+v and extensions %v disagree", e.Code, b, x)
		}
		if _, ok := x["data"]; ok != (e.Data != nil) || !reflect.DeepEqual(x["data"], b.Data) {
			t.Errorf("%s: extensions data %v, body data %v", e.Code, x["data"], b.Data)
		}
		if _, ok := x["details"]; ok != (len(e.Details) > 0) {
			t.Errorf("%s: extensions details %v with %d details", e.Code, x["details"], len(e.Details))
		}
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(raw), cause.Error()) {
			t.Errorf("%s: the body %s shows the cause", e.Code, raw)
		}
		if e == bare && (strings.Contains(string(raw), `"data"`) || strings.Contains(string(raw), `"details"`)) {
			t.Errorf("an error without data or details renders %s", raw)
		}
	}
	if !reflect.DeepEqual(full.Extensions()["details"], details) {
		t.Errorf("details %v, want %v", full.Extensions()["details"], details)
	}
}

// AsError keeps a documented error wherever it sits in the chain; anything else, and an
// Error that claims a 500, becomes INTERNAL_ERROR whose message shows nothing of the cause.
func TestAsError(t *testing.T) {
	t.Parallel()
	notFound := Fail(CodeItemNotFound, "No item.")
	secret := errors.New(`open /var/lib/ponte/key: permission denied`)
	cases := []struct {
		name     string
		err      error
		code     Code
		internal bool
	}{
		{"an Error", notFound, CodeItemNotFound, false},
		{"an Error wrapped", fmt.Errorf("read item: %w", notFound), CodeItemNotFound, false},
		{"a plain error", secret, CodeInternal, true},
		{"an Error with a 500 code", &Error{Code: CodeInternal, Message: "boom", Err: secret}, CodeInternal, true},
		{"an Error without a code", &Error{Message: "no code"}, CodeInternal, true},
	}
	for _, tc := range cases {
		e, internal := AsError(tc.err)
		if e.Code != tc.code || internal != tc.internal {
			t.Errorf("%s: AsError = %s internal %v, want %s internal %v", tc.name, e.Code, internal, tc.code, tc.internal)
		}
		if tc.internal {
			if strings.Contains(e.Message, "permission") || strings.Contains(e.Message, "boom") || e.Err != tc.err {
				t.Errorf("%s: message %q, cause %v", tc.name, e.Message, e.Err)
			}
			if e.Status() != http.StatusInternalServerError {
				t.Errorf("%s: status %d", tc.name, e.Status())
			}
		} else if e != notFound {
			t.Errorf("%s: AsError built a new error %+v", tc.name, e)
		}
	}
}

// Every code's status decides how its Error is answered.
func TestCodeStatusesReachErrors(t *testing.T) {
	t.Parallel()
	for _, c := range Codes() {
		e := Fail(c, "x")
		if e.Status() != c.Status() || e.Body().Code != c.Status() || !strings.HasPrefix(e.Error(), fmt.Sprint(c.Status())+" "+c.String()+":") {
			t.Errorf("%s: error status %d, body %d, text %q", c, e.Status(), e.Body().Code, e.Error())
		}
		e2, internal := AsError(e)
		if internal != (c.Status() == http.StatusInternalServerError) || (!internal && e2 != e) {
			t.Errorf("%s: AsError internal %v", c, internal)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestPageArgs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                  string
		page, size            *int
		wantP, wantL, wantOff int
		ok                    bool
	}{
		{"defaults", nil, nil, 1, DefaultPageSize, 0, true},
		{"page 3 of 20", ptr(3), ptr(20), 3, 20, 40, true},
		{"the last page allowed", ptr(MaxPage), ptr(MaxPageSize), MaxPage, MaxPageSize, (MaxPage - 1) * MaxPageSize, true},
		{"page size 1", nil, ptr(1), 1, 1, 0, true},
		{"page 0", ptr(0), nil, 0, 0, 0, false},
		{"negative page", ptr(-1), nil, 0, 0, 0, false},
		{"page past MaxPage", ptr(MaxPage + 1), nil, 0, 0, 0, false},
		{"page near the int64 limit", ptr(1 << 62), ptr(500), 0, 0, 0, false},
		{"page size 0", nil, ptr(0), 0, 0, 0, false},
		{"page size 501", ptr(1), ptr(MaxPageSize + 1), 0, 0, 0, false},
	}
	for _, tc := range cases {
		p, l, off, err := PageArgs(tc.page, tc.size)
		if !tc.ok {
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeInvalidParameter {
				t.Errorf("%s: error %v, want INVALID_PARAMETER", tc.name, err)
			}
			continue
		}
		if err != nil || p != tc.wantP || l != tc.wantL || off != tc.wantOff {
			t.Errorf("%s: PageArgs = %d, %d, %d, %v; want %d, %d, %d", tc.name, p, l, off, err, tc.wantP, tc.wantL, tc.wantOff)
		}
	}
}

// Any accepted page reads the records right after the previous page's, from offset 0, and
// TotalPages counts the page that holds the last record.
func TestPageArgsProperty(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(r *rapid.T) {
		page := rapid.IntRange(1, MaxPage).Draw(r, "page")
		size := rapid.IntRange(1, MaxPageSize).Draw(r, "size")
		p, l, off, err := PageArgs(&page, &size)
		if err != nil || p != page || l != size {
			r.Fatalf("PageArgs(%d, %d) = %d, %d, %v", page, size, p, l, err)
		}
		if off < 0 || off != (page-1)*size {
			r.Fatalf("offset %d", off)
		}
		if page > 1 {
			prev := page - 1
			_, _, prevOff, _ := PageArgs(&prev, &size)
			if off-prevOff != size {
				r.Fatalf("page %d starts %d after page %d", page, off-prevOff, prev)
			}
		}
		// A list whose last record is the page's first needs exactly that many pages.
		if got := TotalPages(off+1, l); got != page {
			r.Fatalf("TotalPages(%d, %d) = %d, want %d", off+1, l, got, page)
		}
	})
}

// Every execution that ended at login is final, and the in-progress steps are neither.
func TestExecutionStatuses(t *testing.T) {
	t.Parallel()
	login := []ExecutionStatus{ExecInvalidCredentials, ExecAlreadyLoggedIn, ExecInvalidCredentialsMFA, ExecAccountLocked,
		ExecAccountCredentialsReset, ExecAccountNeedsAction, ExecUserNotSupported, ExecUserAuthNotGranted, ExecUserInputTimeout,
		ExecUserAuthPending}
	otherFinal := []ExecutionStatus{ExecSuccess, ExecPartialSuccess, ExecError, ExecMergeError, ExecUnexpectedError,
		ExecSiteNotAvailable, ExecConnectionError}
	running := []ExecutionStatus{ExecCreating, ExecCreated, ExecLoginInProgress, ExecWaitingUserInput, ExecWaitingUserAction,
		ExecLoginMFAInProgress, ExecAccountsInProgress, ExecCreditCardsInProgress, ExecTransactionsInProgress,
		ExecPaymentDataInProgress, ExecInvestmentsInProgress, ExecInvestmentTxInProgress, ExecIdentityInProgress,
		ExecLoansInProgress, ExecStatementsInProgress, ExecutionStatus(""), ExecutionStatus("success")}
	for _, s := range login {
		if !s.IsLoginError() || !s.IsFinal() {
			t.Errorf("%s: login error %v, final %v; want both", s, s.IsLoginError(), s.IsFinal())
		}
	}
	for _, s := range otherFinal {
		if s.IsLoginError() || !s.IsFinal() {
			t.Errorf("%s: login error %v, final %v; want final only", s, s.IsLoginError(), s.IsFinal())
		}
	}
	for _, s := range running {
		if s.IsLoginError() || s.IsFinal() {
			t.Errorf("%q: login error %v, final %v; want neither", s, s.IsLoginError(), s.IsFinal())
		}
	}
}

// A body whose object repeats a key, exactly or in another case, is MALFORMED_JSON naming
// both spellings; keys repeated across different objects are fine.
func TestCheckUniqueKeys(t *testing.T) {
	t.Parallel()
	cases := []struct {
		body string
		want []string // substrings of the message; nil when accepted
	}{
		{`{"a":1,"b":2}`, nil},
		{`{"a":{"x":1},"b":{"x":2}}`, nil},
		{`[{"id":1},{"id":1}]`, nil},
		{`{}`, nil},
		{`{"a":1,"a":2}`, []string{"The request body repeats the key", `"a"`}},
		{`{"outer":{"name":"x","name":"y"}}`, []string{`"name"`}},
		{`{"clientId":"x","ClientID":"y"}`, []string{`"clientId"`, `"ClientID"`, "differ only in case"}},
		{`{"a\u0062":1,"ab":2}`, []string{"repeats the key", `"ab"`}},
	}
	for _, tc := range cases {
		err := CheckUniqueKeys("The request body", []byte(tc.body))
		if tc.want == nil {
			if err != nil {
				t.Errorf("%s refused: %v", tc.body, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeMalformedJSON {
			t.Errorf("%s: error %v, want MALFORMED_JSON", tc.body, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(e.Message, w) {
				t.Errorf("%s: message %q does not say %s", tc.body, e.Message, w)
			}
		}
	}
}

// JSONDocument passes a stored document through unchanged in both directions, and is never
// an argument.
func TestJSONDocument(t *testing.T) {
	t.Parallel()
	doc := JSONDocument(`{"id":"7b0c","amount":12.5,"tags":["a"]}`)
	out, err := json.Marshal(struct {
		D JSONDocument `json:"d"`
		N JSONDocument `json:"n"`
	}{D: doc})
	if err != nil || string(out) != `{"d":`+string(doc)+`,"n":null}` {
		t.Errorf("Marshal = %s, %v", out, err)
	}
	var w strings.Builder
	doc.MarshalGQL(&w)
	if w.String() != string(doc) {
		t.Errorf("MarshalGQL wrote %s", w.String())
	}
	input := []byte(`{"x":1}`)
	var back JSONDocument
	if err := back.UnmarshalJSON(input); err != nil {
		t.Fatal(err)
	}
	input[2] = 'y' // the reader's buffer is reused; the document must not change with it
	if string(back) != `{"x":1}` {
		t.Errorf("the document follows its reader's buffer: %s", back)
	}
	if err := back.UnmarshalGQL(map[string]any{"x": 1}); err == nil {
		t.Error("a JSONDocument was read as an argument")
	}
}

// Headers are written as a JSON object ({} when none) and read only as an object of strings.
func TestHeadersGQL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		h    Headers
		want string
	}{{nil, "{}"}, {Headers{}, "{}"}, {Headers{"X-Token": `a"b`}, `{"X-Token":"a\"b"}`}} {
		var w strings.Builder
		tc.h.MarshalGQL(&w)
		if strings.TrimSpace(w.String()) != tc.want {
			t.Errorf("MarshalGQL(%v) = %s, want %s", tc.h, w.String(), tc.want)
		}
	}
	var h Headers
	if err := h.UnmarshalGQL(map[string]any{"X-A": "1", "x-b": ""}); err != nil || !reflect.DeepEqual(h, Headers{"X-A": "1", "x-b": ""}) {
		t.Errorf("UnmarshalGQL = %v, %v", h, err)
	}
	for _, bad := range []any{"X-A: 1", []any{"X-A"}, map[string]any{"X-A": 1}, map[string]any{"X-A": nil}, nil} {
		h := Headers{"keep": "me"}
		if err := h.UnmarshalGQL(bad); err == nil {
			t.Errorf("UnmarshalGQL(%#v) accepted", bad)
		}
		if !reflect.DeepEqual(h, Headers{"keep": "me"}) {
			t.Errorf("a refused UnmarshalGQL(%#v) changed the headers to %v", bad, h)
		}
	}
}
