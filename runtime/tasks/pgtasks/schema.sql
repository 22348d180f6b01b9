-- The tasks of MCP's tasks extension (runtime/tasks); applied by pgtasks.New (idempotent). They live
-- beside the durable runs (wink_durable_*) and follow their rules: a lease on the database's clock, a
-- token that fences every write of a worker whose lease was taken over.
CREATE TABLE IF NOT EXISTS wink_tasks (
	id        text PRIMARY KEY,
	tool      text NOT NULL,
	arguments bytea NOT NULL,
	carried   bytea,
	status    text NOT NULL DEFAULT 'working',
	ttl_ms    bigint NOT NULL DEFAULT 0,
	result    bytea,
	owner     text NOT NULL DEFAULT '',
	token     bigint NOT NULL DEFAULT 0,
	lease     timestamptz NOT NULL DEFAULT 'epoch',
	attempts  integer NOT NULL DEFAULT 0,
	created   timestamptz NOT NULL DEFAULT now(),
	updated   timestamptz NOT NULL DEFAULT now()
);
-- Who the task acts for (durable.EncodePrincipal: never a token) and the MCP session that created it.
ALTER TABLE wink_tasks ADD COLUMN IF NOT EXISTS principal bytea;
ALTER TABLE wink_tasks ADD COLUMN IF NOT EXISTS session text NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS wink_tasks_lease ON wink_tasks (lease) WHERE status IN ('working', 'input_required');
CREATE SEQUENCE IF NOT EXISTS wink_tasks_token;
-- One row per input request of a task: pending while answer is NULL.
CREATE TABLE IF NOT EXISTS wink_tasks_inputs (
	task_id text NOT NULL REFERENCES wink_tasks (id) ON DELETE CASCADE,
	key     text NOT NULL,
	request bytea NOT NULL,
	answer  bytea,
	PRIMARY KEY (task_id, key)
);
