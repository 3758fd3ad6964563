-- Kaboom bot schema, version 10, for PostgreSQL (issue 22): who delivers which outbox queue, when several
-- bot processes share one database (PostgreSQL). A queue is a game's entries, a
-- challenge's, or a lone entry (`game:7`, `challenge:3`, `entry:12`: the deliverer's
-- `Queue`); the process that holds a queue's unexpired claim is the only one posting its
-- entries; a process that dies stops renewing its claim, and another takes the queue over
-- once `claimed_until` has passed. SQLite runs one process and does not use this table
-- (the same versions on both engines: migrations/README.md).
CREATE TABLE outbox_claims (
    queue         TEXT PRIMARY KEY,
    owner         TEXT NOT NULL,         -- the claiming process (host, pid, random)
    claimed_until BIGINT NOT NULL        -- Unix seconds
);
