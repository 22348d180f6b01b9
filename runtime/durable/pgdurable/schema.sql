-- The durable run engine's schema; applied by pgdurable.New (idempotent).
-- One row per run. due is when the run next needs a worker: a pending run at once (the epoch), a running
-- one when its lease expires, a held one when it is looked at again; terminal runs (state 3, 4) never.
CREATE TABLE IF NOT EXISTS wink_durable_runs (
	id        text PRIMARY KEY,
	session   text NOT NULL DEFAULT '',
	input     bytea NOT NULL,
	max_turns integer NOT NULL DEFAULT 0,
	state     smallint NOT NULL DEFAULT 0,
	owner     text NOT NULL DEFAULT '',
	token     bigint NOT NULL DEFAULT 0,
	due       timestamptz NOT NULL DEFAULT 'epoch',
	attempts  integer NOT NULL DEFAULT 0,
	held      bytea,
	result    bytea,
	last_err  text NOT NULL DEFAULT '',
	created   timestamptz NOT NULL DEFAULT now(),
	updated   timestamptz NOT NULL DEFAULT now()
);
-- principal: who the run acts for (durable.EncodePrincipal: subject, client, issuer, scopes, expiry; never
-- a token), NULL for none. Added after the table's first version, hence the ALTER.
ALTER TABLE wink_durable_runs ADD COLUMN IF NOT EXISTS principal bytea;
CREATE INDEX IF NOT EXISTS wink_durable_runs_due ON wink_durable_runs (due) WHERE state < 3;
-- One row per checkpoint: a model response (kind 1, idx 0) or a tool call's outcome (kind 2, idx the
-- call's position in its turn).
CREATE TABLE IF NOT EXISTS wink_durable_steps (
	run_id text NOT NULL REFERENCES wink_durable_runs (id) ON DELETE CASCADE,
	turn   integer NOT NULL,
	kind   smallint NOT NULL,
	idx    integer NOT NULL,
	data   bytea NOT NULL,
	worker text NOT NULL DEFAULT '',
	at     timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (run_id, turn, kind, idx)
);
