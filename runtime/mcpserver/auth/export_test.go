package auth

// CachedTokens returns the number of tokens s's cache holds.
func CachedTokens(s *Server) int {
	if s.cache == nil {
		return 0
	}
	s.cache.mu.RLock()
	defer s.cache.mu.RUnlock()
	return len(s.cache.m)
}
