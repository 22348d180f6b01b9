-- The rate limiter's schema; applied by pgratelimit.New (idempotent).
-- One row per bucket that is not full: its theoretical arrival time (tat). The bucket is full when tat is
-- at or before now; each call admitted moves tat one interval later than max(tat, now); a call is refused
-- when that would put tat more than burst-1 intervals after now. A missing row is a full bucket, so rows
-- whose tat has passed can be deleted at any time (Store.Prune).
CREATE TABLE IF NOT EXISTS wink_ratelimit (
	bound   text NOT NULL,
	tool    text NOT NULL,
	issuer  text NOT NULL,
	subject text NOT NULL,
	tat     timestamptz NOT NULL,
	PRIMARY KEY (bound, tool, issuer, subject)
);
CREATE INDEX IF NOT EXISTS wink_ratelimit_tat ON wink_ratelimit (tat);
