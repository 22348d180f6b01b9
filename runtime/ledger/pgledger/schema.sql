-- The idempotency ledger's schema; applied by pgledger.New (idempotent).
-- A row is either a claim (state 'claimed': owner runs the call until lease_until, renewing it) or a
-- recorded success (state 'done': what a replay returns, until expires; NULL expires means never).
CREATE TABLE IF NOT EXISTS wink_ledger (
	key         text PRIMARY KEY,
	tool        text NOT NULL,
	state       text NOT NULL CHECK (state IN ('claimed', 'done')),
	owner       text,
	lease_until timestamptz,
	message     text,
	rendered    text,
	recorded    timestamptz,
	expires     timestamptz
);
CREATE INDEX IF NOT EXISTS wink_ledger_tool ON wink_ledger (tool);
