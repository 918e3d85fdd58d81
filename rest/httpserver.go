package rest

import (
	"net/http"
	"time"

	"ponte/graph"
)

// MaxHeaderBytes bounds a request's line and header fields together (net/http reads 4 KiB
// beyond it before it stops). Go's default, 1 MiB, let 400 idle connections holding a 1 MiB
// header each take the process from 268 MB to 1 GB. The longest request line the service
// takes is a GraphQL GET, whose query string may be 64 KiB; the longest header it reads is
// X-API-KEY, a signed token of about 300 bytes (API keys and Connect Tokens alike, whatever
// the token's options: they are stored, not carried), and a browser's cookies and proxies'
// forwarding headers add a few KiB. 16 KiB beyond the query string hold all of these
// several times over, and 400 connections at the limit hold about 34 MB. Beyond it
// net/http answers 431 itself (see NewHTTPServer).
const MaxHeaderBytes = graph.MaxQueryStringBytes + 16<<10

// NewHTTPServer is the http.Server of every listener of the service, the one cmd/ponte
// serves and the one testsupport starts, so that tests meet the limits clients meet.
//
// A request over MaxHeaderBytes never reaches h: net/http refuses it while reading it,
// answering "431 Request Header Fields Too Large" as text/plain and closing the connection
// (over HTTP/2, a 431 with a line of HTML), as it answers a request line or header it
// cannot parse with a plain-text 400. No handler runs, so the body cannot be the documented JSON error: that
// would take reading the header in full, which is what the limit prevents.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		MaxHeaderBytes:    MaxHeaderBytes,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      120 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
}
