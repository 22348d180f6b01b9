package resources

// keyID is the identity of a Key. Keys compare equal when they share a keyID,
// that is, when they are copies of one NewKey result.
type keyID struct {
	name string
}

// Key identifies a resource of type T. Create keys once, usually as
// package-level variables, with NewKey; copies of a key are the same key.
// Two NewKey calls make two different keys even with the same name (a
// Registry refuses to hold both, since messages name resources by name).
// The zero Key is never bound.
type Key[T any] struct {
	id *keyID
}

// NewKey returns a new key for resources of type T. name is how messages
// refer to the resource ("No binding for Filesystem"). NewKey panics if name
// is empty, since every message needs it.
func NewKey[T any](name string) Key[T] {
	if name == "" {
		panic("resources.NewKey: empty name")
	}
	return Key[T]{id: &keyID{name: name}}
}

// Name returns the name the key was created with ("" for the zero Key).
func (k Key[T]) Name() string {
	if k.id == nil {
		return ""
	}
	return k.id.name
}

// String returns the key's name, so a Key prints as its name.
func (k Key[T]) String() string { return k.Name() }

// displayName is the name used in messages; the zero Key has none.
func displayName(id *keyID) string {
	if id == nil {
		return "<zero Key>"
	}
	return id.name
}

// AnyKey is satisfied by every Key[T], whatever T; it lets non-generic code
// (Registry.Has) take keys.
type AnyKey interface {
	Name() string
	keyIdentity() *keyID
}

func (k Key[T]) keyIdentity() *keyID { return k.id }
