package rest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// BenchmarkEdgeJSON measures the edge's walk of a body (checkJSON) on bodies near the
// 1 MiB limit and on a typical one, as a ratio to json.Valid on the same body measured in
// the same process: the walk must stay within a small factor of merely parsing.
func BenchmarkEdgeJSON(b *testing.B) {
	const size = 1<<20 - 64
	fill := func(unit string) string {
		var sb strings.Builder
		sb.WriteString("[")
		for sb.Len()+len(unit)+2 < size {
			if sb.Len() > 1 {
				sb.WriteString(",")
			}
			sb.WriteString(unit)
		}
		sb.WriteString("]")
		return sb.String()
	}
	bodies := []struct{ name, body string }{
		{"typical", `{"amount":10.5,"description":"Pedido 1","isSandbox":true,"callbackUrls":{"success":"https://app.example.com/ok"},` +
			`"recipientId":"0b6f0b7e-6b6e-4a52-9c5e-2f6b7f1a0c11"}`},
		{"1MiB-numbers", fill("0")},
		{"1MiB-short-strings", fill(`"a"`)},
		{"1MiB-objects", fill(`{"k":"v"}`)},
		{"1MiB-16KiB-strings", fill(`"` + strings.Repeat("x", 16<<10-8) + `"`)},
		{"1MiB-escaped", fill(`"\u00e9\u00e9\u00e9\u00e9"`)},
	}
	for _, c := range bodies {
		body := []byte(c.body)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			start := time.Now()
			for range b.N {
				if err := checkJSON(body); err != nil {
					b.Fatal(err)
				}
			}
			walk := time.Since(start)
			start = time.Now()
			for range b.N {
				if !json.Valid(body) {
					b.Fatal("invalid")
				}
			}
			b.ReportMetric(float64(walk)/float64(time.Since(start)), "x-json.Valid")
		})
	}
}
