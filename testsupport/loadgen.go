package testsupport

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"
)

// A constant-rate load generator that runs in a second process: the test binary started
// again with PONTE_LOADGEN set. Open-loop: requests leave on a fixed schedule whether or
// not earlier ones have answered, so a slow server shows up in the latencies instead of
// lowering the rate.

// LoadSpec is what the generator process is told to do.
type LoadSpec struct {
	BaseURL  string        `json:"baseURL"`
	Key      string        `json:"key"`
	Paths    []string      `json:"paths"`
	Rate     int           `json:"rate"`
	Duration time.Duration `json:"duration"`
	// Method and Body make every request a POST of Body (JSON) when set; GET otherwise.
	Method string `json:"method,omitempty"`
	Body   string `json:"body,omitempty"`
}

// LoadResult is what it measured.
type LoadResult struct {
	Sent     int           `json:"sent"`
	Errors   int           `json:"errors"`
	P50      time.Duration `json:"p50"`
	P99      time.Duration `json:"p99"`
	Max      time.Duration `json:"max"`
	Achieved float64       `json:"achievedRate"`
}

const loadEnv = "PONTE_LOADGEN"

// RunLoad starts the generator process and waits for its result.
func RunLoad(spec LoadSpec) (*LoadResult, error) {
	b, _ := json.Marshal(spec)
	// The spec goes through a file: thousands of paths do not fit in the environment.
	f, err := os.CreateTemp("", "ponte-load-*.json")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(b); err != nil {
		return nil, err
	}
	f.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), loadEnv+"="+f.Name())
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("load generator: %w", err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "LOADRESULT "); ok {
			var r LoadResult
			return &r, json.Unmarshal([]byte(line), &r)
		}
	}
	return nil, fmt.Errorf("load generator printed no result: %s", out)
}

// runLoadIfAsked is the generator process's main: it runs before any test when the
// environment asks for it, and exits.
func runLoadIfAsked() {
	file := os.Getenv(loadEnv)
	if file == "" {
		return
	}
	var spec LoadSpec
	raw, err := os.ReadFile(file)
	if err == nil {
		err = json.Unmarshal(raw, &spec)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bad load spec:", err)
		os.Exit(2)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}, Timeout: 10 * time.Second}
	total := spec.Rate * int(spec.Duration/time.Second)
	lat := make([]time.Duration, total)
	failed := make([]bool, total)
	interval := time.Second / time.Duration(spec.Rate)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range total {
		time.Sleep(time.Until(start.Add(time.Duration(i) * interval)))
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			t0 := time.Now()
			method, body := cmp.Or(spec.Method, "GET"), io.Reader(nil)
			if spec.Body != "" {
				body = strings.NewReader(spec.Body)
			}
			req, _ := http.NewRequest(method, spec.BaseURL+spec.Paths[i%len(spec.Paths)], body)
			req.Header.Set("X-API-KEY", spec.Key)
			if body != nil {
				req.Header.Set("Content-Type", "application/json")
			}
			resp, err := client.Do(req)
			if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				failed[i] = resp.StatusCode != 200
			} else {
				failed[i] = true
			}
			lat[i] = time.Since(t0)
		}(i)
	}
	wg.Wait()
	elapsed := time.Since(start)
	r := LoadResult{Sent: total, Achieved: float64(total) / elapsed.Seconds()}
	for _, f := range failed {
		if f {
			r.Errors++
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	r.P50, r.P99, r.Max = lat[total/2], lat[total*99/100], lat[total-1]
	b, _ := json.Marshal(r)
	fmt.Println("LOADRESULT " + string(b))
	os.Exit(0)
}
