package db

// CollectDocs is collectDocs, for the external tests.
var CollectDocs = collectDocs

// SpendingSQL and AccountWithTransactionsSQL are statements of the GraphQL reads, for the
// external tests to EXPLAIN.
const SpendingSQL = spendingSQL

var AccountWithTransactionsSQL = accountWithTransactionsSQL
