package mcpserver

import "github.com/winkgen/wink/runtime/strictjson"

// peekRequest reads the method, the id and the params members of one JSON-RPC request in body, for the
// checks an HTTP handler makes of a request's routing headers before the SDK reads it. param is called
// for each member of params with the decoder positioned at its value, and must read or skip the value.
// ok is false when body is not one well-formed JSON object (a batch, or what the SDK answers itself).
func peekRequest(body []byte, param func(d *strictjson.Decoder, key string)) (method string, id []byte, ok bool) {
	i := skipWS(body, 0)
	if i >= len(body) || body[i] != '{' {
		return "", nil, false
	}
	var d strictjson.Decoder
	d.Reset(body, strictjson.Limits{MaxBytes: len(body) + 1, MaxDepth: lineMaxDepth, MaxErrors: 1})
	if d.ObjectStart() {
		for d.NextKey() {
			switch string(d.Key()) {
			case "method":
				method, _ = d.String()
			case "id":
				if v, ok := d.Raw(); ok {
					id = append([]byte(nil), v...)
				}
			case "params":
				if d.Peek() != strictjson.KindObject {
					d.Skip()
					continue
				}
				if d.ObjectStart() {
					for d.NextKey() {
						param(&d, string(d.Key()))
					}
					d.ObjectEnd()
				}
			default:
				d.Skip()
			}
		}
		d.ObjectEnd()
	}
	if d.Finish() != nil {
		return "", nil, false
	}
	return method, id, true
}
