package db

// CollectDocs is collectDocs, for the external tests.
var CollectDocs = collectDocs
