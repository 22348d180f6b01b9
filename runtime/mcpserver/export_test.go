package mcpserver

// EnvelopeSchema is envelope, for the external tests.
var EnvelopeSchema = envelope

// OutputSchema is guaranteed: the outputSchema listed for a result schema.
var OutputSchema = guaranteed
