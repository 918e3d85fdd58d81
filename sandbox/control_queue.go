package sandbox

import "github.com/google/uuid"

// The data changes of sandbox control reach the generator as one queue per kind (the
// latest change of each resource). Laying them on what a run generates goes the same way
// for every kind: a generated row with a change is dropped (REMOVE) or changed (CHANGE);
// an ADD is the kind's to build, as is any order the rows keep.

// changesByID indexes changes by the id of what each is of.
func changesByID[C any](changes []C, key func(C) uuid.UUID) map[uuid.UUID]C {
	byID := make(map[uuid.UUID]C, len(changes))
	for _, c := range changes {
		byID[key(c)] = c
	}
	return byID
}

// layChanges gives rows with the changes of byID laid on them (ours: a change of this kind
// of row), room left for extra added ones. The rows given are not changed in place.
func layChanges[R, C any](rows []R, byID map[uuid.UUID]C, extra int, rowID func(R) uuid.UUID,
	ours func(C) bool, operation func(C) string, change func(*R, C)) []R {
	out := make([]R, 0, len(rows)+extra)
	for _, r := range rows {
		if c, ok := byID[rowID(r)]; ok && ours(c) {
			switch operation(c) {
			case "REMOVE":
				continue
			case "CHANGE":
				change(&r, c)
			}
		}
		out = append(out, r)
	}
	return out
}

func always[C any](C) bool { return true }
