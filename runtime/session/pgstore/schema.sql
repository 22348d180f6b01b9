-- The session store's schema; applied by pgstore.New (idempotent).
CREATE TABLE IF NOT EXISTS wink_sessions (
	id      text PRIMARY KEY,
	version bigint NOT NULL DEFAULT 0
);
-- One row per stored STATE slice of a session: its whole content as a JSON array, and the session
-- version that last wrote it (a worker reloads only the slices whose version moved).
CREATE TABLE IF NOT EXISTS wink_state (
	session_id text NOT NULL REFERENCES wink_sessions (id) ON DELETE CASCADE,
	slice      text NOT NULL,
	version    bigint NOT NULL,
	items      bytea NOT NULL,
	PRIMARY KEY (session_id, slice)
);
-- One row per LOG entry: appending costs the same however long the log is.
CREATE TABLE IF NOT EXISTS wink_log (
	session_id text NOT NULL REFERENCES wink_sessions (id) ON DELETE CASCADE,
	slice      text NOT NULL,
	seq        bigint NOT NULL,
	item       bytea NOT NULL,
	PRIMARY KEY (session_id, slice, seq)
);
