package db

import "strings"

// likeEscaper quotes LIKE's wildcards and its escape character (backslash, PostgreSQL's
// default ESCAPE), so a name searched for is matched as typed: "%" finds names holding a
// percent sign, not every name.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// likeLiteral is s as a LIKE pattern that matches exactly s; wrap it in '%' || … || '%' to
// search for it anywhere.
func likeLiteral(s string) string { return likeEscaper.Replace(s) }
