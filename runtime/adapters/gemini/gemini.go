// Package gemini writes and reads the Gemini API's function calling payloads for winkgen tools: the
// function declarations ([FunctionDeclarations]: each tool's params in the OpenAPI subset Gemini accepts,
// derived from its plain Spec.ParamsSchema by [Schema], once per tool), the functionCall parts of a response
// ([ParseFunctionCalls]), and the functionResponse parts that answer them ([FunctionResponse]).
//
//	decls, err := gemini.FunctionDeclarations(reg.Tools())  // "tools":[{"functionDeclarations":decls}]
//	calls, err := gemini.ParseFunctionCalls(responseBody)
//	out, _ := d.Dispatch(ctx, calls[0])
//	part := gemini.FunctionResponse(calls[0], out)
//
// Decisions: a call's Arguments are the raw bytes of its args object (never re-encoded: the strict
// decoder reads what the model wrote); a call without args gets {}; a call without an id (older models)
// gets "gemini-<i>", its position among the response's calls; every call has wink.Call.PairMaps set, as
// the declarations state maps as key/value pairs and free-form JSON as JSON text. A success answers {"output": <text>}, a
// failure {"error": <text>}, where the text is what the model reads (Outcome.Output).
package gemini

import (
	"errors"
	"strconv"

	"github.com/winkgen/wink/runtime/adapters/internal/toolset"
	"github.com/winkgen/wink/runtime/strictjson"
	"github.com/winkgen/wink/runtime/wink"
)

// geminiSchema is the schema FunctionDeclarations checks and sizes: the Gemini form, or the plain schema
// when the tool has none (no parameters, or a plain schema that cannot be converted: reported apart).
func geminiSchema(s *wink.Spec) []byte {
	if f := cached(s.ParamsSchema); f.schema != nil {
		return f.schema
	}
	return s.ParamsSchema
}

// FunctionDeclarations returns the functionDeclarations array of a request's tools entry, one per tool
// in order:
//
//	{"name":N,"description":D,"parameters":S}
//	{"name":N,"description":D}                      (a tool without parameters)
//
// S is Schema of Spec.ParamsSchema. The error reports, all at once, nil tools, duplicate names, schemas
// that are not JSON objects, schemas that cannot be converted (a property name Gemini refuses among them)
// and names Gemini refuses as function names (FuncNameOK: one starting with a digit or a dash).
func FunctionDeclarations(tools []*wink.Tool) ([]byte, error) {
	return toolset.Write(&declFormat, tools, func(s *wink.Spec) ([]byte, string) { return cached(s.ParamsSchema).schema, "" })
}

// declFormat is a function declaration; a tool whose plain schema cannot be converted is an error.
var declFormat = toolset.Format{Pkg: "gemini", Open: `{"name":`, SchemaKey: `,"parameters":`, Close: "}", PerEntry: 48,
	Checked: geminiSchema, Usable: usable}

// usable reports a tool Gemini would refuse: a function name outside FuncNameOK, or params without a
// Gemini form.
func usable(s *wink.Spec) error {
	if !FuncNameOK(s.Name) {
		return errors.New("the name must start with a letter or an underscore to be a Gemini function name")
	}
	return cached(s.ParamsSchema).err
}

// ParseFunctionCalls reads the function calls of a generateContent response (the first candidate's
// content parts), of a content object, or of a parts array: every part with a functionCall becomes a
// Call, in order. A response with an "error" object is an error.
func ParseFunctionCalls(data []byte) ([]wink.Call, error) {
	var d strictjson.Decoder
	d.Reset(data, strictjson.Limits{MaxBytes: len(data) + 1, MaxDepth: 512, MaxErrors: 4})
	var calls []wink.Call
	switch d.Peek() {
	case strictjson.KindArray:
		calls = readParts(&d, calls)
	case strictjson.KindObject:
		d.ObjectStart()
		for d.NextKey() {
			switch string(d.Key()) {
			case "candidates":
				if d.Null() || !d.ArrayStart() {
					continue
				}
				for d.NextElem() {
					if d.Index() != 0 || !d.ObjectStart() {
						continue
					}
					for d.NextKey() {
						if string(d.Key()) == "content" {
							calls = readContent(&d, calls)
						}
					}
					d.ObjectEnd()
				}
				d.ArrayEnd()
			case "parts":
				calls = readParts(&d, calls)
			case "error":
				raw, _ := d.Raw()
				if msg := toolset.ErrorBody(raw); msg != "" {
					return nil, errors.New("gemini: response error: " + msg)
				}
			}
		}
		d.ObjectEnd()
	default:
		return nil, errors.New("gemini: a response must be a JSON object or a parts array")
	}
	if errs := d.Finish(); errs != nil {
		return nil, errors.New("gemini: reading the response: " + errs.Error())
	}
	for i := range calls {
		if calls[i].ID == "" {
			calls[i].ID = "gemini-" + strconv.Itoa(i)
		}
		calls[i].PairMaps = true
	}
	return calls, nil
}

func readContent(d *strictjson.Decoder, calls []wink.Call) []wink.Call {
	if d.Null() || !d.ObjectStart() {
		return calls
	}
	for d.NextKey() {
		if string(d.Key()) == "parts" {
			calls = readParts(d, calls)
		}
	}
	d.ObjectEnd()
	return calls
}

func readParts(d *strictjson.Decoder, calls []wink.Call) []wink.Call {
	if d.Null() || !d.ArrayStart() {
		return calls
	}
	for d.NextElem() {
		if !d.ObjectStart() {
			continue
		}
		for d.NextKey() {
			if string(d.Key()) != "functionCall" || d.Null() || !d.ObjectStart() {
				continue
			}
			var c wink.Call
			for d.NextKey() {
				switch string(d.Key()) {
				case "name":
					c.Name, _ = d.String()
				case "id":
					if !d.Null() {
						c.ID, _ = d.String()
					}
				case "args":
					if raw, ok := d.Raw(); ok && !toolset.IsNull(raw) {
						c.Arguments = append([]byte{}, raw...)
					}
				}
			}
			d.ObjectEnd()
			if c.Arguments == nil {
				c.Arguments = []byte("{}")
			}
			calls = append(calls, c)
		}
		d.ObjectEnd()
	}
	d.ArrayEnd()
	return calls
}

// FunctionResponse returns the part answering call with out:
//
//	{"functionResponse":{"id":ID,"name":N,"response":{"output":OUT}}}   on success
//	{"functionResponse":{"id":ID,"name":N,"response":{"error":OUT}}}    on failure
//
// ("id" is left out for a call whose id ParseFunctionCalls made up). An outcome with content blocks
// (Outcome.Content) sends its images (PNG, JPEG, WebP) and PDFs as inline parts of the function response
// ("parts":[{"inlineData":...}], multimodal function responses) and the rest as text after OUT: text
// blocks and text resources as they are, audio, other binaries and resource links stated as not shown
// (content.go).
func FunctionResponse(call wink.Call, out wink.Outcome) []byte {
	if out.Content.Len() > 0 {
		parts := out
		out.Output = contentText(out)
		return functionResponse(call, out, parts)
	}
	return functionResponse(call, out, wink.Outcome{})
}

// functionResponse is FunctionResponse, with the parts of parts.Content.
func functionResponse(call wink.Call, out, parts wink.Outcome) []byte {
	b := make([]byte, 0, 64+len(call.ID)+len(call.Name)+len(out.Output)+len(out.Output)/8)
	b = append(b, `{"functionResponse":{`...)
	if call.ID != "" && !isMadeUp(call.ID) {
		b = append(b, `"id":`...)
		b = strictjson.AppendString(b, call.ID)
		b = append(b, ',')
	}
	b = append(b, `"name":`...)
	b = strictjson.AppendString(b, call.Name)
	if out.Success {
		b = append(b, `,"response":{"output":`...)
	} else {
		b = append(b, `,"response":{"error":`...)
	}
	b = strictjson.AppendString(b, out.Output)
	b = append(b, '}')
	b = appendParts(b, parts)
	return append(b, "}}"...)
}

func isMadeUp(id string) bool {
	if len(id) < 8 || id[:7] != "gemini-" {
		return false
	}
	_, err := strconv.Atoi(id[7:])
	return err == nil
}
