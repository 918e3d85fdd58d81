package rest

import (
	"compress/gzip"
	"net/http"

	"github.com/klauspost/compress/gzhttp"
)

// compressLevel trades CPU for bytes on JSON answers. BenchmarkCompression on this machine,
// a 500-row transaction page of 455 KB over loopback: level 1 sends 23 KB at 0.86× the
// pages per second of no compression with one reader and 1.03× with four; the default level
// 6 sends 20 KB at 0.73× and 1.01×. Fifteen percent fewer bytes is not worth the CPU.
const compressLevel = gzip.BestSpeed

// CompressMinSize is the smallest JSON answer gzipped. Under load on this machine gzip was
// a fifth of GET /accounts' CPU (a few KB saved per answer) at its knee (BenchmarkCapacity);
// the answers worth their bytes are the long lists and pages, far above it.
const CompressMinSize = 16 << 10

// compressJSON gzips JSON answers of CompressMinSize or more for clients that ask
// (Accept-Encoding: gzip), with Vary: Accept-Encoding; smaller ones gain less than gzip's
// cost, and pages and assets are left alone. gzhttp (klauspost/compress) handles the negotiation, the
// buffering up to the minimum size and pooling of the writers.
func compressJSON() func(http.Handler) http.Handler {
	wrap, err := gzhttp.NewWrapper(gzhttp.MinSize(CompressMinSize), gzhttp.CompressionLevel(compressLevel),
		gzhttp.ContentTypes([]string{"application/json"}))
	if err != nil {
		panic(err) // only for options out of range, which are constants here
	}
	return func(next http.Handler) http.Handler {
		compressed := wrap(next)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// A client that sends no Accept-Encoding gets every answer as it is, so it needs
			// neither gzhttp's writer nor its Vary header: a cache that kept such an answer
			// and gave it to a client that asks for gzip gives it an answer it reads. That
			// header was the ninth of a rate-limited route's answer, and past eight Go's maps
			// leave their small form: the answer's header and net/http's copy of it cost
			// about a microsecond and 1.1 KB more.
			if _, asks := r.Header["Accept-Encoding"]; !asks {
				next.ServeHTTP(w, r)
				return
			}
			compressed(w, r)
		})
	}
}
