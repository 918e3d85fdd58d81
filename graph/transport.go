package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"ponte/auth"
	"ponte/model"
)

// Request limits of /graphql. The largest legitimate request is a query of a few thousand
// tokens with its variables, tens of kilobytes; a GET query belongs in a link, so it is
// held to less. The HTTP server's header limit (rest.MaxHeaderBytes) makes room for
// MaxQueryStringBytes in the request line.
const (
	maxBodyBytes        = 1 << 20
	MaxQueryStringBytes = 64 << 10
)

// httpTransport serves GET and POST /graphql. It differs from gqlgen's transports in what
// happens before gqlgen sees a request: the body is read through a limit, never whole; the
// query is parsed and measured by prevalidate before gqlparser's validation, whose cost is
// not linear; a caller without a valid credential may run introspection and nothing else;
// and the response's data, JSON the executor has just written, goes out as it is (gqlgen's
// own writer passes it through json.Marshal, which validated and compacted a 500-row page
// byte by byte: 2.7 ms a response).
type httpTransport struct{}

var _ graphql.Transport = httpTransport{}

// Supports takes every request but OPTIONS and HEAD, which transport.Options answers, so a
// request that is not GET or POST gets a 405 with the error body.
func (httpTransport) Supports(r *http.Request) bool {
	return r.Method != http.MethodOptions && r.Method != http.MethodHead
}

func (httpTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	w.Header().Set("Content-Type", "application/json")
	start := graphql.Now()
	var params *graphql.RawParams
	switch r.Method {
	case http.MethodPost:
		params = readPost(w, r, exec)
	case http.MethodGet:
		params = readGet(w, r, exec)
	default:
		w.Header().Set("Allow", "GET, POST, OPTIONS")
		writeErrorBody(w, model.Fail(model.CodeMethodNotAllowed, "%s is not supported on /graphql; use POST (or GET for queries).", r.Method))
		return
	}
	if params == nil {
		return
	}
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}
	ctx := r.Context()
	if err := precheck(ctx, params, r.Method == http.MethodGet); err != nil {
		refuse(ctx, w, exec, err)
		return
	}
	rc, opErr := exec.CreateOperationContext(ctx, params)
	if opErr != nil {
		writeResponse(w, statusFor(opErr), exec.DispatchError(graphql.WithOperationContext(ctx, rc), opErr))
		return
	}
	ctx, held := withSplices(ctx)
	responses, ctx := exec.DispatchOperation(ctx, rc)
	writeAnswer(w, http.StatusOK, responses(ctx), held)
}

// precheck is everything that must pass before gqlgen parses and validates the query: the
// bounded checks of prevalidate, then the credential, so a caller without one costs a parse
// and a count at most. GET runs queries only: a link must not change anything.
func precheck(ctx context.Context, params *graphql.RawParams, getOnly bool) error {
	p, err := prevalidateCached(ctx, params.Query, params.OperationName, params.Variables)
	if err != nil {
		return err
	}
	if err := authenticated(ctx); err != nil {
		if !p.anonymous {
			return err
		}
		if p.selections > maxAnonymousSelections {
			return tooComplex("Without a valid credential a query may only introspect or serve the payer's pages, in at most %d selections; this one makes %d. Send an API key in X-API-KEY.", maxAnonymousSelections, p.selections)
		}
	}
	if getOnly && p.op != nil && p.op.Operation != ast.Query {
		return model.Fail(model.CodeMethodNotAllowed, "GET runs queries only; send a %s with POST.", p.op.Operation)
	}
	return nil
}

// maxUploadRequest bounds a multipart request: a statement file and its operation.
const maxUploadRequest = model.MaxStatementFileBytes + maxBodyBytes

// uploadTransport serves the GraphQL multipart requests that carry files (uploadStatement),
// to a caller with a valid credential only: no anonymous field takes a file, so a request
// without one is refused before its body is read.
type uploadTransport struct{ transport.MultipartForm }

func (u uploadTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	if err := authenticated(r.Context()); err != nil {
		e, _ := model.AsError(err)
		writeErrorBody(w, e)
		return
	}
	if r.ContentLength > maxUploadRequest {
		writeErrorBody(w, model.Fail(model.CodeStatementFileTooLarge, "The request exceeds %d bytes: a statement file is at most 64 MiB.", maxUploadRequest))
		return
	}
	u.MultipartForm.Do(w, r, exec)
}

// authenticated returns why the request's credential is refused: missing, invalid or
// expired. Reading connectors is what every valid credential may do, Connect Tokens
// included, so it stands for "any valid credential"; what each resolver needs beyond that
// it checks itself.
func authenticated(ctx context.Context) error {
	_, err := auth.Require(ctx, auth.ReadConnectors)
	return err
}

// readPost decodes a POST body of at most maxBodyBytes, or answers the failure and returns nil.
func readPost(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) *graphql.RawParams {
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mediaType != "application/json" {
		writeErrorBody(w, model.Fail(model.CodeUnsupportedMediaType, "POST /graphql takes a JSON body {query, variables, operationName} with Content-Type application/json."))
		return nil
	}
	tooLarge := model.Fail(model.CodeBodyTooLarge, "The request body exceeds %d bytes.", maxBodyBytes)
	if r.ContentLength > maxBodyBytes {
		// Refused on its announced length: nothing of it is read.
		w.Header().Set("Connection", "close")
		writeErrorBody(w, tooLarge)
		return nil
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			w.Header().Set("Connection", "close")
			writeErrorBody(w, tooLarge)
			return nil
		}
		writeErrorBody(w, model.Fail(model.CodeMalformedJSON, "Could not read the request body."))
		return nil
	}
	var params graphql.RawParams
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&params); err != nil {
		writeResponse(w, http.StatusBadRequest, exec.DispatchError(r.Context(), gqlerror.List{gqlerror.Errorf("json request body could not be decoded: %v", err)}))
		return nil
	}
	// Two "query" keys would run the second. Checked on what was decoded, which nests at
	// most encoding/json's 10,000 levels: what follows it is never read, and a megabyte
	// of brackets there would cost the check a frame each.
	if err := model.CheckUniqueKeys("The request body", body[:dec.InputOffset()]); err != nil {
		refuse(r.Context(), w, exec, err)
		return nil
	}
	return &params
}

// readGet decodes the query string of a GET, as gqlgen's GET transport does, within
// MaxQueryStringBytes.
func readGet(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) *graphql.RawParams {
	if len(r.URL.RawQuery) > MaxQueryStringBytes {
		writeErrorBody(w, model.Fail(model.CodeBodyTooLarge, "The query string exceeds %d bytes; send large queries with POST.", MaxQueryStringBytes))
		return nil
	}
	fail := func(msg string) *graphql.RawParams {
		writeResponse(w, http.StatusBadRequest, exec.DispatchError(r.Context(), gqlerror.List{gqlerror.Errorf("%s", msg)}))
		return nil
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return fail("the query string could not be decoded")
	}
	params := &graphql.RawParams{Query: q.Get("query"), OperationName: q.Get("operationName")}
	for name, dst := range map[string]*map[string]any{"variables": &params.Variables, "extensions": &params.Extensions} {
		if v := q.Get(name); v != "" {
			dec := json.NewDecoder(strings.NewReader(v))
			dec.UseNumber()
			if err := dec.Decode(dst); err != nil {
				return fail(name + " could not be decoded")
			}
			if err := model.CheckUniqueKeys("The "+name+" parameter", []byte(v[:dec.InputOffset()])); err != nil {
				refuse(r.Context(), w, exec, err)
				return nil
			}
		}
	}
	return params
}

// refuse answers a request refused before execution: a GraphQL response whose one error
// carries the code and codeDescription, with the same HTTP status, or gqlgen's status for a
// query that does not parse or validate.
func refuse(ctx context.Context, w http.ResponseWriter, exec graphql.GraphExecutor, err error) {
	var list gqlerror.List
	status := http.StatusBadRequest
	var e *model.Error
	var gqlErr *gqlerror.Error
	switch {
	case errors.As(err, &e):
		status = e.Status()
		list = gqlerror.List{{Message: e.Message, Err: e}}
	case errors.As(err, &gqlErr):
		list = gqlerror.List{gqlErr}
		status = statusFor(list)
	default:
		status = http.StatusInternalServerError
		list = gqlerror.List{gqlerror.WrapIfUnwrapped(internalFailure{err})}
	}
	if status == http.StatusMethodNotAllowed {
		w.Header().Set("Allow", "POST")
	}
	writeResponse(w, status, exec.DispatchError(ctx, list))
}

// writeErrorBody answers a request that never became a GraphQL request (too large, not
// JSON, a method /graphql does not serve) with REST's error body.
func writeErrorBody(w http.ResponseWriter, e *model.Error) {
	b, _ := json.Marshal(e.Body())
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(e.Status())
	_, _ = w.Write(append(b, '\n'))
}

// statusFor is gqlgen's rule: a request that did not parse or validate is a 422.
func statusFor(errs gqlerror.List) int {
	if errcode.GetErrorKind(errs) == errcode.KindProtocol {
		return http.StatusUnprocessableEntity
	}
	return http.StatusOK
}

// responseBuffers hold the frame of an answer around its data. The answer's length is
// known before it is sent, so its Content-Length goes first: net/http sent an answer of
// more than 2 KB without one chunked, framing a client must parse. A new buffer per answer
// was a twelfth of the bytes a dashboard allocated. Buffers past responseBufferKept go back
// to the collector, so one large error list does not stay held.
var responseBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const responseBufferKept = 64 << 10

// writeResponse answers status with errors, data and extensions in the order gqlgen writes
// them, data unchanged.
func writeResponse(w http.ResponseWriter, status int, resp *graphql.Response) {
	writeAnswer(w, status, resp, nil)
}

// writeAnswer is writeResponse with the lists the operation held aside (splice.go) put back
// in their places. The data is written as it is, never copied: a page's answer is mostly
// its lists, and copying it into one buffer cost a copy of the page and the buffer's growth.
func writeAnswer(w http.ResponseWriter, status int, resp *graphql.Response, held *splices) {
	defer held.release()
	b := responseBuffers.Get().(*bytes.Buffer)
	b.Reset()
	defer func() {
		if b.Cap() <= responseBufferKept {
			responseBuffers.Put(b)
		}
	}()
	b.WriteByte('{')
	sep := ""
	if len(resp.Errors) > 0 {
		errs, err := json.Marshal(resp.Errors)
		if err != nil {
			errs = []byte(`[{"message":"the errors could not be encoded"}]`)
		}
		b.WriteString(`"errors":`)
		b.Write(errs)
		sep = ","
	}
	b.WriteString(sep + `"data":`)
	head := b.Len()
	if len(resp.Extensions) > 0 {
		ext, err := json.Marshal(resp.Extensions)
		if err == nil {
			b.WriteString(`,"extensions":`)
			b.Write(ext)
		}
	}
	b.WriteByte('}')
	frame := b.Bytes()
	data := []byte(resp.Data)
	if len(data) == 0 {
		data = []byte("null")
	}
	parts := append([][]byte{frame[:head]}, held.segments(data)...)
	parts = append(parts, frame[head:])
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	w.Header().Set("Content-Length", strconv.Itoa(n))
	w.WriteHeader(status)
	for _, p := range parts {
		if _, err := w.Write(p); err != nil {
			return
		}
	}
}
