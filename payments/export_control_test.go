package payments

import "slices"

// IntentMovesFrom is the intent table's row for status (tests walk it).
func IntentMovesFrom(status string) []string { return slices.Clone(intentMoves[status]) }

// RequestFollows is the status a single payment's request takes after its intent's.
func RequestFollows(intentStatus string) string { return requestFollows(intentStatus, single) }

// RequestMovesFrom is the request table's row for status.
func RequestMovesFrom(status string) []string { return slices.Clone(requestMoves[status]) }
