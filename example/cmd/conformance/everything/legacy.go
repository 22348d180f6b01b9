package everything

import (
	"encoding/json"

	"github.com/winkgen/wink/runtime/wink"
)

// LegacyForm is WinkFormEnums with the legacy titles of legacyEnum stated as "enumNames" (SEP-1330's
// deprecated form, which the conformance suite still checks and winkgen does not generate: its
// decision is that titled enums use oneOf/anyOf). The decoder is the generated one.
var LegacyForm = &wink.Form[Enums]{Name: WinkFormEnums.Name, Schema: withEnumNames(WinkFormEnums.Schema), Decode: WinkFormEnums.Decode}

func withEnumNames(schema []byte) []byte {
	var s map[string]any
	if err := json.Unmarshal(schema, &s); err != nil {
		panic(err)
	}
	props := s["properties"].(map[string]any)
	props["legacyEnum"].(map[string]any)["enumNames"] = []string{"Option One", "Option Two", "Option Three"}
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return b
}
