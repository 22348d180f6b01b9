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
//	//wink:tool task=optional             (runs as an MCP task for clients that declared the tasks extension; task=required: only for them)
//	//wink:state                          (on a named struct type: emit its session codec)
//	//wink:form                           (on a named struct type: emit its elicitation form, WinkForm<T>)
//	//wink:enum title="First option"      (on an enum constant: the label a form shows for it)
//
// Arguments are separated by blanks; a value is a double-quoted string, a JSON
// object or array, or a bare word; input= and output= are JSON. Errors are
// positioned and sorted, unknown keys come with a "did you mean", and the parsed
// directive is returned whenever the verb is known. [NearMiss] reports comments
// that look like directives but would be ignored.
//
// # Field tags
//
//	Limit int    `json:"limit" wink:"min=1,max=100"`
//	Code  string `json:"code" wink:"pattern='^[a-z]{2,5}$',default='it''s'"`
//	Mode  string `json:"mode" wink:"enum=fuzzy|exact,default=fuzzy"`
//
// Items are separated by commas; a value with blanks or commas is
// single-quoted (two single quotes stand for one). [ParseFieldTag] walks the struct tag as
// reflect.StructTag.Lookup does and positions every item at its source column.
//
// The decisions where the contract is silent are in DESIGN.md beside this file.
package annotations
