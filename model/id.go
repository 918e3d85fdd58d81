package model

import "github.com/google/uuid"

// NewID names a new resource. Lists are ordered by creation time, which is kept to the
// millisecond, with the id breaking ties; a time-ordered id (UUIDv7, monotonic within
// the process) makes resources created in one millisecond still list in the order
// they were made.
func NewID() uuid.UUID { return uuid.Must(uuid.NewV7()) }
