package faults

import (
	"fmt"
	"strings"

	"ponte/model"
)

// Limits of a rule list. Fifty rules cover every route of the service with room to spare;
// a minute of added latency is past any client's time-out worth testing, and stays well
// inside the server's own write time-out (two minutes).
const (
	MaxRules     = 50
	MaxLatencyMs = 60_000
)

// ControlPath is the fault control's own route, which no rule reaches: "*" at probability
// 1 must still let the application take its rules back.
const ControlPath = "/sandbox/faults"

// methods are the methods a rule's route may name: the route table's.
var methods = map[string]bool{"GET": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true}

// check validates a rule list and returns it as stored: SERVER_ERROR's status defaults to
// 500. known is the route table ("METHOD pattern", "*" as the method of a route served for
// every method); when empty, a route is checked for its form only.
func check(in []*model.SandboxFault, known map[string]bool) ([]model.SandboxFault, error) {
	if len(in) > MaxRules {
		return nil, invalid("%d rules; an application has at most %d.", len(in), MaxRules)
	}
	out := make([]model.SandboxFault, 0, len(in))
	seen := map[[2]string]int{}
	for i, r := range in {
		if r == nil {
			return nil, invalid("faults[%d] is null; each rule is an object with route, kind and probability.", i)
		}
		f := *r
		if err := checkRoute(f.Route, known); err != nil {
			return nil, invalid("faults[%d].route %s", i, err)
		}
		if !(f.Probability >= 0 && f.Probability <= 1) {
			return nil, invalid("faults[%d].probability is %v; it is a number from 0 (never) to 1 (every request).", i, f.Probability)
		}
		switch f.Kind {
		case model.FaultServerError:
			if f.Status == nil {
				status := 500
				f.Status = &status
			}
			if *f.Status != 500 && *f.Status != 503 {
				return nil, invalid("faults[%d].status is %d; SERVER_ERROR answers 500 (INTERNAL_ERROR) or 503 (DATABASE_UNAVAILABLE).", i, *f.Status)
			}
			if f.LatencyMs != nil {
				return nil, invalid("faults[%d].latencyMs belongs to LATENCY rules; a SERVER_ERROR rule has none.", i)
			}
		case model.FaultRateLimit:
			if f.Status != nil || f.LatencyMs != nil {
				return nil, invalid("faults[%d]: a RATE_LIMIT rule answers 429 and takes neither status nor latencyMs.", i)
			}
		case model.FaultLatency:
			if f.Status != nil {
				return nil, invalid("faults[%d].status belongs to SERVER_ERROR rules; a LATENCY rule has none.", i)
			}
			if f.LatencyMs == nil || *f.LatencyMs < 1 || *f.LatencyMs > MaxLatencyMs {
				return nil, invalid("faults[%d].latencyMs is required for LATENCY: the milliseconds to add, 1 to %d.", i, MaxLatencyMs)
			}
		default:
			return nil, invalid("faults[%d].kind is %.40q; it is SERVER_ERROR, RATE_LIMIT or LATENCY.", i, f.Kind)
		}
		k := [2]string{f.Route, string(f.Kind)}
		if j, dup := seen[k]; dup {
			return nil, invalid("faults[%d] and faults[%d] are both %s rules of %q; give a route one rule of each kind.", j, i, f.Kind, f.Route)
		}
		seen[k] = i
		out = append(out, f)
	}
	return out, nil
}

// checkRoute says what is wrong with a rule's route, nil when it is "*" or a route the
// service serves other than the fault control's.
func checkRoute(route string, known map[string]bool) error {
	if route == "*" {
		return nil
	}
	method, path, ok := strings.Cut(route, " ")
	if !ok || !methods[method] || !strings.HasPrefix(path, "/") {
		return fmt.Errorf("is %.80q; write \"*\" or a method and a route pattern as the route table spells them, e.g. \"GET /accounts/{id}\"", route)
	}
	if path == ControlPath {
		return fmt.Errorf("is %q: the fault control's own routes take no faults, so the rules can always be taken back", route)
	}
	if len(known) > 0 && !known[route] && !known["* "+path] {
		return fmt.Errorf("is %.80q, which this service does not serve; a route is written as the route table spells it (GET /openapi.json lists them), e.g. \"GET /accounts/{id}\"", route)
	}
	return nil
}

func invalid(format string, args ...any) error {
	return model.Fail(model.CodeSandboxFaultInvalid, format, args...)
}

// set is one application's rules, compiled for the draw: the rule of each kind for each
// route it names, and the rules of "*".
type set struct {
	byRoute map[string]*kinds
	all     kinds
}

// kinds holds at most one rule of each kind.
type kinds struct {
	serverError, rateLimit, latency *model.SandboxFault
}

func (k *kinds) put(f *model.SandboxFault) {
	switch f.Kind {
	case model.FaultServerError:
		k.serverError = f
	case model.FaultRateLimit:
		k.rateLimit = f
	case model.FaultLatency:
		k.latency = f
	}
}

// compile builds the draw's view of a checked rule list; nil when there is nothing to draw.
func compile(rules []model.SandboxFault) *set {
	if len(rules) == 0 {
		return nil
	}
	s := &set{byRoute: map[string]*kinds{}}
	for i := range rules {
		f := &rules[i]
		if f.Route == "*" {
			s.all.put(f)
			continue
		}
		k := s.byRoute[f.Route]
		if k == nil {
			k = &kinds{}
			s.byRoute[f.Route] = k
		}
		k.put(f)
	}
	return s
}

// rules are the rules route meets: a route's own rule of a kind replaces "*"'s.
func (s *set) rules(route string) kinds {
	k := s.all
	if own := s.byRoute[route]; own != nil {
		if own.serverError != nil {
			k.serverError = own.serverError
		}
		if own.rateLimit != nil {
			k.rateLimit = own.rateLimit
		}
		if own.latency != nil {
			k.latency = own.latency
		}
	}
	return k
}
