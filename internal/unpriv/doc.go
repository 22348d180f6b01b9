// Package unpriv serialises the tests that re-run themselves as the user nobody.
//
// The kernel counts RLIMIT_NPROC per user across the machine, and go test runs packages in parallel: when
// the vfs and sandbox packages ran their unprivileged runs at once, the threads of one used up the
// sandbox's process limit of the other, and its commands could not fork. A test that runs something as
// nobody holds [Lock] while it does.
package unpriv
