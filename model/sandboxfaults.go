package model

import "time"

// SandboxFaultKind is what an injected fault does to a request (docs/sandbox-control.md, "Control:
// fault injection").
type SandboxFaultKind string

const (
	// FaultServerError answers a 5xx (500 or 503) instead of serving the request.
	FaultServerError SandboxFaultKind = "SERVER_ERROR"
	// FaultRateLimit answers 429 with the rate limit's headers instead of serving it.
	FaultRateLimit SandboxFaultKind = "RATE_LIMIT"
	// FaultLatency serves the request after a delay.
	FaultLatency SandboxFaultKind = "LATENCY"
)

// SandboxFault is one fault injection rule of a client application: its requests to Route
// made with its API key meet the fault with the given probability.
type SandboxFault struct {
	// Route is "METHOD pattern" as the route table spells it ("GET /accounts/{id}"), or
	// "*" for every route but the fault control's own.
	Route       string           `json:"route"`
	Kind        SandboxFaultKind `json:"kind"`
	Probability float64          `json:"probability"`
	// Status is SERVER_ERROR's status, 500 or 503; absent for the other kinds.
	Status *int `json:"status,omitempty"`
	// LatencyMs is LATENCY's added delay in milliseconds; absent for the other kinds.
	LatencyMs *int `json:"latencyMs,omitempty"`
}

// SandboxFaultInput is SandboxFault as GraphQL's input type names it: one shape both ways.
type SandboxFaultInput = SandboxFault

// InjectedFault is what the faults drawn for one request do: wait Delay, then answer
// Status (429, 500 or 503) instead of serving it, or serve it when Status is 0.
type InjectedFault struct {
	Delay  time.Duration
	Status int
}
