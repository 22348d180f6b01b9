package decls

// More colors, in a second file.
const (
	Teal  Color = "teal"
	Black Color = "black"
)
