package collected

import "ponte/model"

// Connection page sizes: first defaults to 50 and may go up to a REST page (500).
const (
	DefaultFirst = 50
	MaxFirst     = 500
)

// First validates a connection's first argument; def is the list's default.
func First(first *int, def int) (int, error) {
	if first == nil {
		return def, nil
	}
	if *first < 1 || *first > MaxFirst {
		return 0, model.Fail(model.CodeInvalidParameter, "first must be between 1 and %d (got %d).", MaxFirst, *first)
	}
	return *first, nil
}
