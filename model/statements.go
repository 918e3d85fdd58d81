package model

// MaxStatementFileBytes is the largest statement file an item takes (POST
// /items/{id}/statements). A year of a busy business account is a few megabytes; the limit
// leaves room for 100,000-line files while keeping what a request holds bounded.
const MaxStatementFileBytes = 64 << 20
