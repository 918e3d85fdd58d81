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
	"strconv"
	"strings"
	"sync"
	"syscall"
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
	Warmed   int           `json:"warmed"` // calls before the clock started (warmConnections), not in Sent
	Errors   int           `json:"errors"`
	P50      time.Duration `json:"p50"`
	P99      time.Duration `json:"p99"`
	Max      time.Duration `json:"max"`
	Achieved float64       `json:"achievedRate"`
	// CPU time spent during the run, measured around the generator process: by this
	// process (the servers under test), by PostgreSQL's processes, and by the generator,
	// for Sent and Warmed calls together.
	// Knees move a step with one slow second on a shared machine; CPU per request does not,
	// and it is what sets the knee once the cores are full.
	CPU CPUSpent `json:"-"`
}

// CPUSpent is CPU time by whom.
type CPUSpent struct {
	Server, Database, Generator time.Duration
}

// PerRequest divides each part by n requests.
func (c CPUSpent) PerRequest(n int) CPUSpent {
	d := time.Duration(max(n, 1))
	return CPUSpent{c.Server / d, c.Database / d, c.Generator / d}
}

// Total is the three together.
func (c CPUSpent) Total() time.Duration { return c.Server + c.Database + c.Generator }

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
	self0, db0 := processCPU(), postgresCPU()
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("load generator: %w", err)
	}
	spent := CPUSpent{Server: processCPU() - self0, Database: postgresCPU() - db0,
		Generator: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "LOADRESULT "); ok {
			r := LoadResult{CPU: spent}
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
	// No Accept-Encoding: the baselines answer uncompressed, and the two sides of a
	// comparison must send the same bytes. Asked for gzip, the service compressed the
	// dashboard's 17 KB answer, a twentieth of its CPU (50 µs), which the baseline never
	// paid; what gzip costs is BenchmarkCompression's to measure.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256, DisableCompression: true}, Timeout: 10 * time.Second}
	call := func(path string) (ok bool) {
		method, body := cmp.Or(spec.Method, "GET"), io.Reader(nil)
		if spec.Body != "" {
			body = strings.NewReader(spec.Body)
		}
		req, _ := http.NewRequest(method, spec.BaseURL+path, body)
		req.Header.Set("X-API-KEY", spec.Key)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := client.Do(req)
		if err != nil {
			return false
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode == 200
	}
	var wg sync.WaitGroup
	warm := warmConnections(spec.Rate)
	for i := range warm {
		wg.Go(func() { call(spec.Paths[i%len(spec.Paths)]) })
	}
	wg.Wait()
	total := spec.Rate * int(spec.Duration/time.Second)
	lat := make([]time.Duration, total)
	failed := make([]bool, total)
	interval := time.Second / time.Duration(spec.Rate)
	start := time.Now()
	for i := range total {
		time.Sleep(time.Until(start.Add(time.Duration(i) * interval)))
		wg.Go(func() {
			t0 := time.Now()
			failed[i] = !call(spec.Paths[i%len(spec.Paths)])
			lat[i] = time.Since(t0)
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	r := LoadResult{Sent: total, Warmed: warm, Achieved: float64(total) / elapsed.Seconds()}
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

// warmConnections is how many connections the generator opens before its clock starts, one
// call each, unmeasured: a client that calls thousands of times a second holds its
// keep-alive connections, and a new process opening them inside the measured seconds
// put their handshakes into the first requests' latencies.
func warmConnections(rate int) int { return min(64, max(1, rate/100)) }

// processCPU is this process's user and system time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// postgresCPU is the user and system time of every running PostgreSQL process, and of the
// ones that ended (in their parents' children's times), read from /proc. Benchmarks only:
// the cluster runs on this machine.
func postgresCPU() time.Duration {
	dirs, _ := os.ReadDir("/proc")
	var ticks int64
	for _, d := range dirs {
		if d.Name()[0] < '0' || d.Name()[0] > '9' {
			continue
		}
		raw, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: fields after the command's closing parenthesis.
		s := string(raw)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open || s[open+1:end] != "postgres" {
			continue
		}
		f := strings.Fields(s[end+1:])
		if len(f) < 15 {
			continue
		}
		for _, i := range []int{11, 12, 13, 14} { // utime stime cutime cstime
			n, _ := strconv.ParseInt(f[i], 10, 64)
			ticks += n
		}
	}
	return time.Duration(ticks) * time.Second / 100 // USER_HZ, 100 on Linux
}
