package strictjson

import "strconv"

// FieldError is one problem found while decoding, located by its JSON path.
// Path is "" for the root value (and for syntax and limit errors).
type FieldError struct {
	Path    string
	Message string
}

// Errors is the ordered list of problems found in one decode. List is in input order and holds at most
// the configured maximum (Limits.MaxErrors); Omitted counts the errors that did not fit.
type Errors struct {
	List    []FieldError
	Omitted int
	max     int // cap for List; 0 = DefaultMaxErrors
}

// Error joins the errors as "path: message; path2: message2" (a root error is just its message) and ends
// with "; and N more errors" when some were omitted.
func (e *Errors) Error() string {
	var b []byte
	for i, fe := range e.List {
		if i > 0 {
			b = append(b, "; "...)
		}
		b = appendLine(b, fe)
	}
	if e.Omitted > 0 {
		if len(b) > 0 {
			b = append(b, "; "...)
		}
		b = appendOmitted(b, e.Omitted)
	}
	return string(b)
}

// Add appends an error unless the cap is reached, in which case it counts it in Omitted. Generated code
// uses it to join the errors of a Validate() method to those found while decoding.
func (e *Errors) Add(path, msg string) {
	max := e.max
	if max <= 0 {
		max = DefaultMaxErrors
	}
	if len(e.List) >= max {
		e.Omitted++
		return
	}
	e.List = append(e.List, FieldError{Path: path, Message: msg})
}

// Len reports the total number of errors, including the omitted ones.
func (e *Errors) Len() int { return len(e.List) + e.Omitted }

// Lines returns one line per error: "path: message", or just "message" for the root, followed by
// "and N more errors" ("and 1 more error") when some were omitted.
func (e *Errors) Lines() []string {
	n := len(e.List)
	if e.Omitted > 0 {
		n++
	}
	out := make([]string, 0, n)
	for _, fe := range e.List {
		out = append(out, string(appendLine(nil, fe)))
	}
	if e.Omitted > 0 {
		out = append(out, string(appendOmitted(nil, e.Omitted)))
	}
	return out
}

func appendLine(b []byte, fe FieldError) []byte {
	if fe.Path != "" {
		b = append(b, fe.Path...)
		b = append(b, ": "...)
	}
	return append(b, fe.Message...)
}

func appendOmitted(b []byte, n int) []byte {
	b = append(b, "and "...)
	b = strconv.AppendInt(b, int64(n), 10)
	if n == 1 {
		return append(b, " more error"...)
	}
	return append(b, " more errors"...)
}
