-- Kaboom bot schema, version 3: the scheduler's outbox (issue 8). Portable SQL (a partial
-- index: SQLite and PostgreSQL both have them).
--
-- A time forfeit, a designation-timeout abort or a challenge expiry is announced after the
-- transaction that decided it commits. So that a crash between that commit and the send
-- cannot lose the announcement, the decision's transaction also writes the announcement
-- here; it is deleted once delivered. The scheduler delivers what is left (from a crash, or
-- a failed delivery) at the start of its next sweep, up to 5 attempts. Delivery is thus at
-- least once: a crash after the send but before the delete repeats that one message.
-- Nudges are not written here: they stay at most once (the `nudges` claim).
CREATE TABLE scheduler_outbox (
    id          INTEGER PRIMARY KEY,
    kind        TEXT NOT NULL,          -- game-ended | challenge-expired
    subject_id  BIGINT NOT NULL,        -- the game or the challenge
    channel_id  BIGINT NOT NULL,        -- the game's thread, or the challenge's channel
    message_id  BIGINT,                 -- challenge-expired: the challenge's message
    text        TEXT NOT NULL,          -- the announcement, already worded
    attempts    INTEGER NOT NULL,       -- failed deliveries so far
    created_at  BIGINT NOT NULL
);
CREATE INDEX scheduler_outbox_pending ON scheduler_outbox(id) WHERE attempts < 5;
