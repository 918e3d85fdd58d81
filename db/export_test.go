package db

// DocsInto is docsInto, for the external tests.
var DocsInto = docsInto
