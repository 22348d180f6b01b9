package resources

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Kinds of resource errors. Every error this package returns is an *Error
// whose Kind is one of these; errors.Is(err, ErrUnbound) and the like match
// on the kind. The sentinels' own texts are short descriptions; the product
// text is (*Error).Error.
var (
	// ErrUnbound reports a key with no binding: "No binding for Filesystem".
	ErrUnbound = errors.New("no binding")
	// ErrDuplicate reports a key, or a key name, bound twice:
	// "Duplicate binding for Filesystem".
	ErrDuplicate = errors.New("duplicate binding")
	// ErrInvalidBinding reports a binding that can never work (zero key, nil
	// provider, eager non-singleton, close hook on a prototype, bad scope).
	ErrInvalidBinding = errors.New("invalid binding")
	// ErrCycle reports a circular dependency: "Circular dependency: A -> B -> A".
	ErrCycle = errors.New("circular dependency")
	// ErrProvider reports a provider that returned an error or panicked:
	// "Provider for Filesystem failed: <err>".
	ErrProvider = errors.New("provider failed")
	// ErrPostConstruct reports a failed post-construct hook:
	// "Post-construct for Filesystem failed: <err>".
	ErrPostConstruct = errors.New("post-construct failed")
	// ErrClose reports a failed close hook: "Close for Filesystem failed: <err>".
	ErrClose = errors.New("close failed")
	// ErrScope reports a scope violation: a tool-call resource outside a tool
	// call, a singleton depending on a tool-call resource, a tool call ended
	// during a construction, EndToolCall without BeginToolCall, or a Resolver
	// used after its provider returned.
	ErrScope = errors.New("scope violation")
	// ErrClosed reports use of a Context after Close.
	ErrClosed = errors.New("context closed")
)

// Error is the error type of this package. Kind is one of the Err* sentinels;
// Resource names the resource concerned; Path is the cycle for ErrCycle; Err
// is the underlying cause (provider, post-construct or close hook error), so
// errors.Is and errors.As reach it.
type Error struct {
	Kind     error
	Resource string
	Path     []string
	Err      error
	msg      string
}

// Error returns the product text, e.g. "No binding for Filesystem".
func (e *Error) Error() string { return e.msg }

// Is reports whether target is e's Kind.
func (e *Error) Is(target error) bool { return target == e.Kind }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

func errUnbound(name string) error {
	return &Error{Kind: ErrUnbound, Resource: name, msg: "No binding for " + name}
}

func errDuplicate(name string) error {
	return &Error{Kind: ErrDuplicate, Resource: name, msg: "Duplicate binding for " + name}
}

func errInvalid(name, msg string) error {
	return &Error{Kind: ErrInvalidBinding, Resource: name, msg: msg}
}

func errCycle(path []string) error {
	return &Error{Kind: ErrCycle, Resource: path[0], Path: path,
		msg: "Circular dependency: " + strings.Join(path, " -> ")}
}

func errProvider(name string, err error) error {
	return &Error{Kind: ErrProvider, Resource: name, Err: err,
		msg: "Provider for " + name + " failed: " + err.Error()}
}

func errProviderPanicked(name string) error {
	return &Error{Kind: ErrProvider, Resource: name, msg: "Provider for " + name + " panicked"}
}

func errPostConstruct(name string, err error) error {
	return &Error{Kind: ErrPostConstruct, Resource: name, Err: err,
		msg: "Post-construct for " + name + " failed: " + err.Error()}
}

func errClose(name string, err error) error {
	return &Error{Kind: ErrClose, Resource: name, Err: err,
		msg: "Close for " + name + " failed: " + err.Error()}
}

func errClosePanicked(name string, v any) error {
	return &Error{Kind: ErrClose, Resource: name,
		msg: "Close for " + name + " failed: panic: " + fmt.Sprint(v)}
}

func errOutsideToolCall(name string) error {
	return &Error{Kind: ErrScope, Resource: name,
		msg: "Tool-call resource " + name + " requested outside a tool call"}
}

func errWidening(singleton, toolCall string) error {
	return &Error{Kind: ErrScope, Resource: toolCall,
		msg: "Singleton " + singleton + " cannot depend on tool-call resource " + toolCall}
}

func errToolCallEnded(name string) error {
	return &Error{Kind: ErrScope, Resource: name,
		msg: "Tool call ended while " + name + " was being constructed"}
}

func errCallEnded(name string) error {
	return &Error{Kind: ErrScope, Resource: name,
		msg: "Tool-call resource " + name + " requested after its tool call ended (get it while the call runs)"}
}

func errNoToolCall() error {
	return &Error{Kind: ErrScope, msg: "No tool call in progress"}
}

func errResolverExpired(owner, name string) error {
	return &Error{Kind: ErrScope, Resource: name,
		msg: "Resolver of " + owner + " used after its provider returned (getting " + name + ")"}
}

func errClosed(name string) error {
	return &Error{Kind: ErrClosed, Resource: name,
		msg: "Cannot get " + name + ": resource context is closed"}
}

func errWrongType(name string) error {
	// Unreachable through the typed API: Bind and Instance tie a key's type to
	// its provider's. Kept as an error rather than a panic.
	return &Error{Kind: ErrProvider, Resource: name,
		msg: "Resource " + name + " has an unexpected type"}
}

func scopeText(s Scope) string {
	switch s {
	case Singleton:
		return "singleton"
	case ToolCall:
		return "tool-call"
	case Prototype:
		return "prototype"
	}
	return "Scope(" + strconv.Itoa(int(s)) + ")"
}
