package benchmarks

import (
	"bytes"
	"errors"
	"io"

	segjson "github.com/segmentio/encoding/json"
)

// decodeSegmentioSDK decodes as the MCP Go SDK calls github.com/segmentio/encoding (its internal/json
// Unmarshal: a decoder over a bytes.Reader that matches keys case-sensitively), with DisallowUnknownFields,
// the enum check and a check that nothing but whitespace follows the object. (It accepts duplicate keys,
// null for any field and missing keys.)
func decodeSegmentioSDK(data []byte) (SearchArgs, error) {
	var v SearchArgs
	dec := segjson.NewDecoder(bytes.NewReader(data))
	dec.DontMatchCaseInsensitiveStructFields()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return SearchArgs{}, err
	}
	if err := checkMode(v.Mode); err != nil {
		return SearchArgs{}, err
	}
	var extra struct{}
	if err := dec.Decode(&extra); err != io.EOF {
		return SearchArgs{}, errors.New("data after the arguments object")
	}
	return v, nil
}

// decodeSegmentioParse is segmentio's fastest path: Parse on the bytes with DisallowUnknownFields,
// case-sensitive keys and ZeroCopy (strings share the input's memory), then the enum check and the
// trailing-data check.
func decodeSegmentioParse(data []byte) (SearchArgs, error) {
	var v SearchArgs
	rest, err := segjson.Parse(data, &v, segjson.DisallowUnknownFields|segjson.DontMatchCaseInsensitiveStructFields|segjson.ZeroCopy)
	if err != nil {
		return SearchArgs{}, err
	}
	if len(bytes.TrimLeft(rest, " \t\r\n")) != 0 {
		return SearchArgs{}, errors.New("data after the arguments object")
	}
	if err := checkMode(v.Mode); err != nil {
		return SearchArgs{}, err
	}
	return v, nil
}
