// Package schema writes the JSON Schemas of tool params and results from the winkgen model, at generation
// time, as deterministic compact JSON bytes that the generator embeds as constants.
//
// Plain writes JSON Schema 2020-12 (Anthropic input_schema, MCP inputSchema/outputSchema), the one schema a
// tool's Spec carries; the dialect forms are derived from it by each provider's adapter at run time
// (openai.StrictSchema, anthropic.StrictSchema, gemini.Schema, once per tool), and Strict, Gemini and
// AnthropicStrict here call those same functions, so that what winkgen checks is what is sent. The
// generated decoder enforces exactly what the plain schema states.
//
// # Shape
//
//   - A struct is {"type":"object","description":…,"properties":{…},"required":[…],"additionalProperties":false}:
//     properties in Field order, "required" lists required fields in order and is omitted when empty.
//     A named struct used once is inlined; one used more than once (and every recursive one) is written once
//     under the root's "$defs" and referenced ("$ref":"#/$defs/ID"), which keeps schemas small; Gemini's
//     form inlines them again, as it cannot state $defs.
//   - Keys inside every schema object come in one fixed order: type, description, anyOf, enum, properties,
//     required, additionalProperties, items, minItems, maxItems, uniqueItems, minimum, exclusiveMinimum,
//     maximum, exclusiveMaximum, multipleOf, minLength, maxLength, pattern, format, default, $ref, $defs.
//     Keys of "properties" and "$defs" keep model order. Strings escape only '"', '\\' and control
//     characters (no HTML escaping). The root states its dialect first:
//     "$schema":"https://json-schema.org/draft/2020-12/schema" (MCP's default dialect; the OpenAI and
//     Anthropic strict forms and Gemini's leave it out).
//   - Descriptions: a property takes its field's Doc, else its type's Doc (named structs, enums, named
//     scalars and named slices); omitted when empty. A reference to a recursive type carries only the field's
//     Doc: the type's Doc is in its $defs entry.
//   - Nullability: an optional field (Required=false) accepts null, a required field never does, whether or
//     not it is a pointer. Pointers elsewhere (slice elements, map values) are nullable. Nullable is written
//     "type":[T,"null"]; an enum also lists null last; a reference becomes
//     {"anyOf":[{"$ref":…},{"type":"null"}]} with the description beside anyOf and never a "type" beside it.
//   - Integers always carry the Go type's range as minimum/maximum. A Cons min/max replaces the bound when
//     at least as tight (written as given); a looser one is dropped (the type bound implies it). An
//     exclusive Cons bound is always written, and the implicit type bound on that side is left out when the
//     exclusive bound implies it. Floats do the same with ±3.4028235e+38 (32 bits: the text math.MaxFloat32 is
//     encoded as) or
//     ±1.7976931348623157e+308 (64 bits). Enum-valued numbers (type or tag enum) carry no implicit range
//     (the enum is tighter; explicit Cons bounds are still written).
//   - A pattern P is written "^(?:P)$" (full match), or P itself when it is already anchored as a whole
//     (Anchored); CheckPattern limits patterns to what RE2 and ECMA-262 read alike. time.Time is {"type":"string","format":"date-time"}.
//   - Arrays [N]T have minItems = maxItems = N, tightened by Cons minItems/maxItems.
//   - Scalar constraints on a slice or array field apply to its items; item constraints (minItems, maxItems,
//     uniqueItems) to the array. A constraint that fits nowhere (pattern on an integer, minItems on a
//     string, any constraint but default on a struct or map field, any on a time field, scalar
//     constraints on a slice of non-scalars) is an error: the analyzer should have reported it, and writing
//     a schema the decoder does not enforce would be worse.
//   - A default is written "default": <literal> on the property (compacted).
//   - Recursive types (Type.Recursive) are written once under the root's "$defs", keyed by Type.ID in
//     first-reference order, and referenced as "#/$defs/ID". When the root itself is recursive, it is
//     written inline and references to it are "#" (no duplicate copy under $defs). A cycle through types
//     not marked Recursive is an error rather than endless output.
//   - A map is {"type":"object","additionalProperties":<value schema>}.
//
// # Strict variant
//
// Strict is openai.StrictSchema of Plain: every property is listed in "required" (optional ones stay
// nullable), a map is an array of {"key","value"} pair objects and free-form JSON a string of JSON text
// (read by the decoder under strictjson.Limits.PairMaps), "$ref" never has siblings, and the keywords
// OpenAI does not support are dropped and restated at the end of the description ("Doc. (at least 1
// character; format: uri; items must be unique; default: 10)"; items' notes read "each item ..."). That
// package documents it. CheckOpenAIStrict and CheckStrictAgainstPlain verify the strict rules.
//
// # Durations
//
// Bounds on a time.Duration (min=1s,max=24h) have no JSON Schema keyword: the description states them
// ("(at least 1s; at most 24h)", "each item ..." for a slice), and the decoder enforces them.
//
// # Float bounds
//
// The float bounds are the shortest decimal texts of math.MaxFloat32 and math.MaxFloat64. A validator that
// compares decimals exactly (big.Rat) and a decoder that compares the parsed float64 can disagree only on
// inputs within half an ulp of those bounds (e.g. 1.79769313486231571e308, which rounds to MaxFloat64);
// the decoder should compare the parsed float64 against float64(math.MaxFloat32) / math.MaxFloat64.
package schema
