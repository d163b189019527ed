package volley

import (
	"context"
	"errors"
	"fmt"

	"github.com/volley-wargames/volley/scenario"
)

// Error codes. A user-facing error carries one; the CLI maps codes to exit statuses and
// the HTTP API to status codes, each in exactly one place.
const (
	EINVALID      = "invalid"       // bad input: a scenario, an action, a flag
	ENOTFOUND     = "not_found"     // no such battle, unit, weapon
	ECONFLICT     = "conflict"      // the battle moved on: retry with the new state
	EUNAUTHORIZED = "unauthorized"  // no credentials
	EFORBIDDEN    = "forbidden"     // credentials that may not do this
	EINTERNAL     = "internal"      // a bug or a failed dependency
	ETOOLARGE     = "too_large"     // a request or a computation beyond the limits
	ENOTSUPPORTED = "not_supported" // the rule system does not offer this
	EUNAVAILABLE  = "unavailable"   // out of time or too busy now: the same request may succeed later
	ETOOMANY      = "too_many"      // this client has sent too many requests: slow down
	ETOOSLOW      = "too_slow"      // this client sent its request too slowly: send it at once
)

// Error is an error meant for the person using volley: a code, a message in words a
// player understands, and the field at fault when there is one.
type Error struct {
	Code    string
	Message string
	Field   string
}

// Error returns the message, prefixed by the field when there is one.
func (e *Error) Error() string {
	if e.Field != "" {
		return e.Field + ": " + e.Message
	}
	return e.Message
}

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode is the code of err: the code of the first *Error in its chain, EINVALID for
// scenario errors (they are always about the input), EUNAVAILABLE for work stopped at its
// deadline or cancelled, EINTERNAL otherwise, "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return EUNAVAILABLE
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	var need *NeedRoll
	if errors.As(err, &need) {
		return ENEEDROLL
	}
	var list scenario.ErrorList
	if errors.As(err, &list) {
		return EINVALID
	}
	var one *scenario.Error
	if errors.As(err, &one) {
		return EINVALID
	}
	return EINTERNAL
}

// ErrorMessage is the message a user should see for err. Internal errors are not
// described, so that nothing about the machine leaks to a player.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	if ErrorCode(err) == EINTERNAL {
		return "internal error"
	}
	return err.Error()
}
