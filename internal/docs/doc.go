// Package docs holds the tests that keep the repository's documentation true: the README and the guides
// under docs/ show code that is compiled and tested elsewhere in the module (each Go block names its
// file), and the docs speak to users, not to the people who wrote them.
package docs
