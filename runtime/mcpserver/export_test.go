package mcpserver

// EnvelopeSchema is envelope, for the external tests.
var EnvelopeSchema = envelope
