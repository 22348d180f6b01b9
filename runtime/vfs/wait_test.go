package vfs

import "time"

// waitPastRacyWindow lets the racy window elapse so that signatures taken afterwards are trusted. It is a
// precondition for exercising the trusted path, not a timing assertion.
func waitPastRacyWindow() { time.Sleep(racyWindow + 20*time.Millisecond) }
