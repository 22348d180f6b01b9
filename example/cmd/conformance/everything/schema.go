package everything

import "github.com/winkgen/wink/runtime/wink"

// address is a postal address; used twice, so winkgen states it once, under $defs.
type address struct {
	// Street and number.
	Street string `json:"street,omitempty"`
	// City name.
	City string `json:"city,omitempty"`
}

// SchemaParams are the arguments of json_schema_2020_12_tool.
type SchemaParams struct {
	// Name of the person.
	Name string `json:"name,omitempty"`
	// Address of the person.
	Address *address `json:"address,omitempty"`
	// Billing address, when it differs.
	Billing *address `json:"billing,omitempty"`
}

// JSONSchemaTool has an input schema with JSON Schema 2020-12 features: $schema, $defs and
// additionalProperties.
//
//wink:tool readonly name=json_schema_2020_12_tool
func JSONSchemaTool(tc *wink.ToolContext, p SchemaParams) (wink.ToolResult[wink.NoValue], error) {
	return wink.Done[wink.NoValue]("Received " + p.Name), nil
}
