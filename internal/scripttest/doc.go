// Package scripttest tests the shell scripts under scripts/ that the Makefile runs before anything is
// built (what `make test` installs or asks for), the way a user's machine runs them: with a PATH that has
// or lacks apt-get, as root or not.
package scripttest
