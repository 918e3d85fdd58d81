// Package metrics holds the service's Prometheus metrics (the official client library) and
// serves them at /metrics. Engines count what they do where they do it (an execution's end,
// a payment's status change, a delivery attempt, a job's run); the HTTP layer counts
// requests by route pattern; collectors read the database pool and the job queue's depth
// when scraped. One registry per process: every replica is scraped on its own and
// Prometheus sums them.
package metrics

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Registry holds every metric of the process, the Go runtime's and the process's included.
var Registry = prometheus.NewRegistry()

var factory = func() func(prometheus.Collector) {
	Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return func(c prometheus.Collector) { Registry.MustRegister(c) }
}()

func counter(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: "ponte", Name: name, Help: help}, labels)
	factory(c)
	return c
}

func histogram(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: "ponte", Name: name, Help: help, Buckets: buckets}, labels)
	factory(h)
	return h
}

// Request latencies run from a cached key check (well under a millisecond) to a 500-row
// page under load; job runs and syncs from milliseconds to minutes.
var (
	requestBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}
	jobBuckets     = []float64{.001, .005, .01, .05, .1, .5, 1, 5, 10, 30, 60, 120, 300}
)

var (
	// Requests counts answered requests by route pattern (never the raw path: ids would
	// make a series per resource), method and status.
	Requests = counter("http_requests_total", "HTTP requests answered, by route pattern, method and status.", "route", "method", "status")
	// RequestSeconds is the time to answer, by route pattern and method.
	RequestSeconds = histogram("http_request_duration_seconds", "Time to answer an HTTP request, by route pattern and method.", requestBuckets, "route", "method")
	// RateLimited counts requests refused by a rate limit, by limit group.
	RateLimited = counter("rate_limit_refusals_total", "Requests refused with 429, by rate-limit group.", "group")
	// InjectedFaults counts the faults a client application's own fault injection rules put
	// on its requests (docs/sandbox-control.md), by kind (SERVER_ERROR, RATE_LIMIT, LATENCY) and
	// route ("GET /accounts/{id}": the route table's patterns, so the series are bounded).
	InjectedFaults = counter("injected_faults_total", "Faults injected into requests by sandbox fault rules, by kind and route.", "kind", "route")
	// Executions counts item executions that ended, by status (SUCCESS, an error code...).
	Executions = counter("item_executions_total", "Item executions that ended, by execution status.", "status")
	// ExecutionSeconds is how long executions took, by status.
	ExecutionSeconds = histogram("item_execution_duration_seconds", "Duration of item executions, by execution status.", jobBuckets, "status")
	// Deliveries counts webhook delivery attempts by outcome (DELIVERED, PENDING: will
	// retry, FAILED: for good).
	Deliveries = counter("webhook_delivery_attempts_total", "Webhook delivery attempts, by outcome.", "outcome")
	// PaymentMoves counts payment status changes by resource (request, intent) and status.
	PaymentMoves = counter("payment_status_changes_total", "Payment request and intent status changes, by resource and new status.", "resource", "status")
	// Jobs counts job runs by queue, kind and outcome (completed, failed, cancelled, snoozed,
	// or rescued: taken back from a process that died while running it).
	Jobs = counter("jobs_total", "Background job runs, by queue, kind and outcome.", "queue", "kind", "outcome")
	// JobRunSeconds and JobWaitSeconds are a job run's duration and how long it waited to
	// start once available, by queue and kind.
	JobRunSeconds  = histogram("job_run_duration_seconds", "Background job run time, by queue and kind.", jobBuckets, "queue", "kind")
	JobWaitSeconds = histogram("job_wait_duration_seconds", "Time a background job waited to start once available, by queue and kind.", jobBuckets, "queue", "kind")
)

// Handler serves the registry in Prometheus' text format.
func Handler() http.Handler {
	return promhttp.HandlerFor(Registry, promhttp.HandlerOpts{ErrorLog: nil, Registry: Registry})
}

// PoolStats is the database pool as pgxpool reports it.
type PoolStats struct {
	Acquired, Idle, Total, Max int32
	Acquires, EmptyAcquires    int64
	AcquireWait                time.Duration
}

// QueueDepth is the number of jobs of a queue in one state.
type QueueDepth struct {
	Queue, State string
	Jobs         int64
}

// Store is what the collectors read when scraped.
type Store struct {
	Pool   func() PoolStats
	Depths func(ctx context.Context) ([]QueueDepth, error)
}

// RegisterStore adds the collectors of the database pool and the job queue's depth. A
// process registers one store (a second registration is refused and reported).
func RegisterStore(s Store) error { return Registry.Register(storeCollector{s}) }

type storeCollector struct{ s Store }

var (
	poolConns    = prometheus.NewDesc("ponte_db_pool_connections", "Database pool connections, by state (acquired, idle, total, max).", []string{"state"}, nil)
	poolAcquires = prometheus.NewDesc("ponte_db_pool_acquires_total", "Connections acquired from the pool, and those that had to wait for one (empty).", []string{"kind"}, nil)
	poolWait     = prometheus.NewDesc("ponte_db_pool_acquire_wait_seconds_total", "Time spent waiting for a pool connection.", nil, nil)
	queueDepth   = prometheus.NewDesc("ponte_jobs_pending", "Background jobs not finished, by queue and state (available, scheduled, retryable, running).", []string{"queue", "state"}, nil)
)

func (c storeCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- poolConns
	ch <- poolAcquires
	ch <- poolWait
	ch <- queueDepth
}

func (c storeCollector) Collect(ch chan<- prometheus.Metric) {
	p := c.s.Pool()
	for state, n := range map[string]int32{"acquired": p.Acquired, "idle": p.Idle, "total": p.Total, "max": p.Max} {
		ch <- prometheus.MustNewConstMetric(poolConns, prometheus.GaugeValue, float64(n), state)
	}
	ch <- prometheus.MustNewConstMetric(poolAcquires, prometheus.CounterValue, float64(p.Acquires), "all")
	ch <- prometheus.MustNewConstMetric(poolAcquires, prometheus.CounterValue, float64(p.EmptyAcquires), "empty")
	ch <- prometheus.MustNewConstMetric(poolWait, prometheus.CounterValue, p.AcquireWait.Seconds())
	// A scrape must not hang on a database that does not answer.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	depths, err := c.s.Depths(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(queueDepth, err)
		return
	}
	for _, d := range depths {
		ch <- prometheus.MustNewConstMetric(queueDepth, prometheus.GaugeValue, float64(d.Jobs), d.Queue, d.State)
	}
}

// requestKey names one route's series; method is one of requestMethods or "OTHER".
type requestKey struct {
	route, method string
	status        int
}

type requestSeries struct {
	count   prometheus.Counter
	seconds prometheus.Observer
}

// requestSeriesOf caches each route, method and status's two series: WithLabelValues
// hashes its label values and looks them up under a lock on every call, two of them per
// request.
var requestSeriesOf sync.Map // requestKey → *requestSeries

// requestMethods are the methods counted by name; any other is counted as OTHER, so a
// client inventing methods cannot make series without end.
var requestMethods = map[string]bool{http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodOptions: true}

// ObserveRequest counts an answered request in Requests and its duration in
// RequestSeconds.
func ObserveRequest(route, method string, status int, took time.Duration) {
	if !requestMethods[method] {
		method = "OTHER"
	}
	k := requestKey{route, method, status}
	s, ok := requestSeriesOf.Load(k)
	if !ok {
		s, _ = requestSeriesOf.LoadOrStore(k, &requestSeries{Requests.WithLabelValues(route, method, strconv.Itoa(status)),
			RequestSeconds.WithLabelValues(route, method)})
	}
	series := s.(*requestSeries)
	series.count.Inc()
	series.seconds.Observe(took.Seconds())
}
