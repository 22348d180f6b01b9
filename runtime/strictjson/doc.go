// Package strictjson holds the strict, reflection-free JSON primitives that winkgen-generated decoders
// and encoders call. It uses no reflect, no encoding/json and no fmt: a generated decoder is a key switch
// over [Decoder] calls, and a successful decode allocates only the decoded values: strings and map keys
// are copied into shared blocks of 64 bytes and up (one allocation for many short strings; a string of
// 256 bytes or more gets its own), never as a copy of the whole input, so the input may be reused once
// decoding ends and a decoded string keeps at most its block alive.
//
// # Shape of a generated decoder
//
//	if !d.ObjectStart() { return }
//	var seen [1]uint64
//	for d.NextKey() {
//		switch string(d.Key()) {
//		case "query":
//			if seen[0]&1 != 0 { d.Duplicate(); d.Skip(); continue }
//			seen[0] |= 1
//			if s, ok := d.String(); ok { v.Query = s }
//		default:
//			d.Unknown(allowedKeys)
//		}
//	}
//	if seen[0]&1 == 0 { d.Missing("query") }
//	d.ObjectEnd()
//
// A field's constraints are checked after its value is read, one call per rule: [Decoder.CheckLength],
// [Decoder.CheckItems], [Decoder.CheckArrayLen], [Decoder.CheckPattern], [Decoder.CheckFormat],
// [Decoder.CheckMultipleOfFloat], and [CheckMin], [CheckMax], [CheckExclusiveMin], [CheckExclusiveMax]
// and [CheckMultipleOf] for any [Number]. Each records its message (the Msg functions, such as [MsgMin])
// at the current path and reports whether the value passed; winkgen checks examples and defaults with
// the same calls.
//
// # Errors
//
// Fatal errors (syntax, size, depth) stop decoding: they are recorded once, with Path "" and the text
// "invalid JSON at byte N: <what>", and every later call returns false or zero without reading. N is
// the 0-based offset of the offending byte (the input length for "unexpected end of input"). Value
// errors (wrong type, range, enum, format, constraint, unknown / missing / duplicate field) are
// recorded with their JSON path and decoding goes on, so one call reports all of them, in input order,
// at most Limits.MaxErrors (Errors.Omitted counts the rest; the cap applies to fatal errors too).
//
// Paths: "filters.max_size", "file_types[1]", `labels["a b"]`. A key that is not an identifier
// ([A-Za-z_][A-Za-z0-9_]*) is written as a quoted JSON string in brackets, truncated like values.
// Unknown-field errors are reported at the path of the object (the key is in the message); missing
// fields at the object's path plus the field name; duplicates at the key's path.
//
// Values quoted in messages are JSON strings (no HTML escaping) cut after 60 runes with "…" before the
// closing quote; number literals are cut the same way.
//
// # Decisions where the contract was silent
//
//   - After a fatal error no further value error is recorded (Fail*, Missing, Unknown ... are no-ops):
//     the rest of the input was not read, so "missing required field" would be false.
//   - A member or element the generated code leaves unread (no call consumed it) is skipped strictly by
//     the next NextKey / NextElem / ObjectEnd / ArrayEnd, so a generator bug cannot desynchronise the
//     lexer. Unknown skips the value itself.
//   - Depth counts every open array and object, whether pushed by ObjectStart/ArrayStart or met inside
//     Skip; MaxDepth levels are allowed, one more is "nesting deeper than N levels".
//   - Integral numbers are decided on the decimal text, never through float64: 1e2, 100.0, 1000e-1 and -0
//     are integers; 1e400 is an out-of-range integer, 1.5 is not an integer, 1e-400 is not an integer.
//     Exponents are saturated at 2^40, which is exact for any input under 1 TB.
//   - Float values that round to ±Inf are range errors; values below the smallest subnormal become 0
//     (as strconv.ParseFloat rounds them), as encoding/json does.
//   - Unknown suggestions: a case-insensitive equal name wins; otherwise the nearest name by optimal
//     string alignment distance (Damerau-Levenshtein without repeated edits of one substring) that is at
//     most max(2, runes(name)/3), where name is the allowed name; ties go to the earlier name.
//   - Time: exactly the strings the "date-time" format accepts; "Z"/"z" gives time.UTC, any numeric
//     offset (even +00:00) a nameless fixed zone; a leap second (23:59:60Z) becomes 23:59:59.999999999 of its minute
//     first second; fractions beyond nanoseconds are truncated.
//   - Errors.Lines ends with "and 1 more error" / "and N more errors".
//   - FirstDuplicate compares pairwise up to 64 elements and uses a map (one allocation) above that.
//   - Speed without changing what is accepted: strings are scanned eight bytes at a time and the first
//     byte needing attention (control, '"', '\\', non-ASCII) is found from the word's mask with
//     TrailingZeros (special8; its exactness is tested for every byte at every position); NextKey takes
//     a short key (closing quote within the next eight bytes) and a compact ',"' without the general
//     path; the current key is kept as offsets, and Reset writes a pointer field only when it changes,
//     because a pooled Decoder lives on the heap, where pointer stores pay write barriers during GC.
//   - MultipleOf is exact on the literal's decimal digits; its cost is bounded by the literal's length,
//     whatever the exponent (1e1000000000 is checked by counting factors of 2 and 5).
//
// # Canonical form
//
// [Canonical] writes RFC 8785's JSON Canonicalization Scheme (members sorted by UTF-16 code units,
// minimal string escapes, ECMAScript number notation, no whitespace); [CanonicalExact] is the same except
// that a number a double cannot hold (12345678901234567891, 1e400) keeps its exact value instead of being
// rounded, so that two different values never share a form. Both refuse a member named twice (also when
// one name is escaped), invalid UTF-8 and lone surrogates. winkgen computes everything that identifies a
// call by its arguments (automatic idempotency keys, approval bindings) from CanonicalExact, and
// [Decoder.FreeForm] refuses a free-form value that has no canonical form, so a repeated member never
// reaches a handler or a key. The published vectors of RFC 8785's reference implementation are in
// testdata/jcs.
//
// # Formats
//
// Format.Valid reproduces the format assertions of github.com/santhosh-tekuri/jsonschema/v6 exactly,
// including their quirks: "time" fields go through strconv.Atoi, so "+1:00:00Z" is a valid time; "ipv4"
// groups go through strconv.Atoi, so "+1.2.3.4" and "-0.0.0.0" are valid; "email" allows a quoted local
// part; "uri" is net/url.Parse plus an absolute-URI and bracketed-IPv6 check. (The reference panics on
// an email ending in "@[", which Valid rejects.) All ten formats of the list are supported.
//
// # JSON test suite (test_parsing)
//
// Every y_ file is accepted and every n_ file rejected. The implementation-defined i_ files:
//
//	i_number_double_huge_neg_exp, i_number_huge_exp,       accepted: valid RFC 8259 syntax; range is
//	i_number_neg_int_huge_exp, i_number_pos_double_huge_exp, checked only when a field reads the number
//	i_number_real_neg_overflow, i_number_real_pos_overflow, (Int/Uint/Float report the range error)
//	i_number_real_underflow, i_number_too_big_neg_int,
//	i_number_too_big_pos_int, i_number_very_big_negative_int
//	i_object_key_lone_2nd_surrogate,                        rejected: lone surrogate escapes cannot be
//	i_string_1st_surrogate_but_2nd_missing,                 represented in UTF-8 ("lone surrogate \udc00
//	i_string_1st_valid_surrogate_2nd_invalid,               in string")
//	i_string_incomplete_surrogate_and_escape_valid,
//	i_string_incomplete_surrogate_pair,
//	i_string_incomplete_surrogates_escape_valid,
//	i_string_invalid_lonely_surrogate, i_string_invalid_surrogate,
//	i_string_inverted_surrogates_U+1D11E, i_string_lone_second_surrogate
//	i_string_UTF8_surrogate_U+D800, i_string_invalid_utf-8,  rejected: invalid UTF-8 ("invalid UTF-8 in
//	i_string_iso_latin_1, i_string_lone_utf8_continuation_byte, string"), including encoded surrogates,
//	i_string_not_in_unicode_range,                          overlong forms and code points above U+10FFFF
//	i_string_overlong_sequence_2_bytes,
//	i_string_overlong_sequence_6_bytes(_null),
//	i_string_truncated-utf-8, i_string_UTF-8_invalid_sequence
//	i_string_UTF-16LE_with_BOM, i_string_utf16BE_no_BOM,    rejected: the input must be UTF-8
//	i_string_utf16LE_no_BOM
//	i_structure_UTF-8_BOM_empty_object                      rejected: a byte order mark is not JSON
//	i_structure_500_nested_arrays                           rejected: deeper than MaxDepth (64)
package strictjson
