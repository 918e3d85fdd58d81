package model

import "ponte/jsonscan"

// CheckUniqueKeys refuses a JSON body in which an object repeats a key, exactly or in another
// case: encoding/json would read the last and match a struct field in any case, a gateway or
// a log reading the same body may take the first, and the two would see different requests
// (see jsonscan.DuplicateKey). REST's edge and /graphql both apply it; what names the
// document in the message ("The request body").
func CheckUniqueKeys(what string, body []byte) error {
	first, again, found := jsonscan.DuplicateKey(body)
	switch {
	case !found:
		return nil
	case first == again:
		return Fail(CodeMalformedJSON, "%s repeats the key %.60q in one object; send each key once.", what, again)
	}
	return Fail(CodeMalformedJSON, "%s has the keys %.60q and %.60q in one object: they differ only in case, and JSON readers that ignore case take them for one key; send each key once.", what, first, again)
}
