// Package annotations parses winkgen's source annotations: the //wink: directive comments on tool handlers
// and the wink:"..." struct-tag values on parameter fields. It turns text plus a position into structured
// values or positioned errors, and never panics (fuzzed). It uses only the standard library and checks
// syntax only; meaning (name syntax, whether a constraint fits a field's type, whether a regexp compiles,
// whether an example matches the schema) is the generator's job.
//
// # Directives
//
//	//wink:tool name=search_docs overrides=false
//	//wink:example desc="Basic search" input={"query":"fs","limit":10} output={"total":1}
//	//wink:idempotent strategy=params keys=user_id,order_id ttl=1h scope=session
//	//wink:tool readonly
//	//wink:state                          (on a named struct type: emit its session codec)
//	//wink:form                           (on a named struct type: emit its elicitation form, WinkForm<T>)
//	//wink:enum title="First option"      (on an enum constant: the label a form shows for it)
//
// Decisions where the contract is silent:
//   - Arguments are separated by spaces or tabs only. A value is a double-quoted string (Go or JSON
//     escapes: strconv.Unquote is tried first, then JSON, so \x41 and \/ and surrogate pairs all work), a
//     JSON object or array (brackets balanced, JSON strings skipped; a mismatched closer ends the value so
//     the JSON error names it), or a bare word up to the next blank. A quoted or JSON value must be followed
//     by a blank or the end.
//   - input= and output= are always JSON text: a quoted value is a JSON string (JSON escapes only), a bare
//     word must be a JSON literal. Values are validated and stored compacted (json.Compact keeps key order);
//     invalid UTF-8 is rejected. JSON syntax errors point at the offending byte. Duplicate object keys are
//     left to the generated decoder, which examples are run through.
//   - Every other key takes a bare word or a quoted string; a JSON object there is an error, and an empty
//     quoted value ("") is an error.
//   - A key without '=' is reported as unknown if it is not a key of the verb, else as missing '='.
//     Unknown keys and verbs carry a "did you mean" suggestion (edit distance <= 2) and the accepted list.
//   - Idempotent: keys= and func= given with the wrong strategy are errors at the key; strategy=params
//     without keys= and strategy=custom without func= are errors at the strategy value; ttl= and scope= with
//     strategy=none are errors (they would have no effect); an invalid strategy suppresses these checks so
//     one mistake gives one error. keys= elements must be non-empty and distinct. func= must be a Go
//     identifier (token.IsIdentifier: keywords are rejected).
//   - Missing required keys (desc, input) are reported at the directive's "//". Errors are sorted by
//     position. The parsed directive is returned whenever the verb is known, even with errors.
//   - Positions of values point at the value's first byte (its opening quote or bracket when quoted);
//     positions of absent keys are the zero token.Position.
//   - NearMiss reports comments such as "// wink:tool" that look like directives but would be ignored.
//
// # Field tags
//
//	Limit int    `json:"limit" wink:"min=1,max=100"`
//	Code  string `json:"code" wink:"pattern='^[a-z]{2,5}$',default='it''s'"`
//	Mode  string `json:"mode" wink:"enum=fuzzy|exact,default=fuzzy"`
//
// Decisions where the contract is silent:
//   - Spaces and tabs around items, keys, '=' and commas are ignored; a blank or a quote (' or ") inside
//     an unquoted value is an error that says to use single quotes. An all-blank value is an empty tag.
//   - A single-quoted value may be empty (two quotes with nothing between); an unquoted empty value is a
//     missing value.
//   - Numbers are checked as JSON number literals; multipleOf > 0 is decided on the text, so 1e-400 is
//     positive. Counts are decimal digits without leading zeros that fit in an int64. enum alternatives
//     must be non-empty and textually distinct; '|' cannot appear inside an alternative.
//   - Items with errors are left out of Tag.Items; the rest are kept. ValuePos is the value's first byte
//     (inside the quotes when quoted).
//   - ParseFieldTag walks the struct tag exactly as reflect.StructTag.Lookup does (a fuzz test checks the
//     two agree), reports a duplicate wink key and a malformed tag that hides a wink key, and maps every
//     position through both layers of Go quoting (the literal, then the wink:"..." value) to the source
//     column; a byte produced by an escape sits at the escape's backslash. Raw literals may span lines;
//     positions follow the newlines.
package annotations
