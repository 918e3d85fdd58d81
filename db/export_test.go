package db

// CollectDocs is collectDocs, for the external tests.
var CollectDocs = collectDocs

// TransactionPageQuery is the statement of TransactionPage and its arguments.
var TransactionPageQuery = transactionPageQuery
