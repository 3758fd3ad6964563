-- Kaboom bot schema, version 4: the Discord outbox (issue 16). Portable SQL (SQLite now,
-- PostgreSQL later: BIGINT ids and Unix seconds, TEXT JSON, a partial index).
--
-- Every Discord side effect of a committed change (the game's thread, a board post, a
-- carrier menu by DM, an announcement in the thread, clearing an old board's buttons) is
-- written here by the transaction that makes the change, and posted afterwards by the
-- deliverer (`discord::outbox`): right after the commit, at start-up (what a crash left)
-- and periodically (retries). A game's entries are delivered in `id` order; an entry that
-- fails blocks the later ones of its game until it is delivered or given up.
--
-- Exactly once: the ids Discord gave (message, thread) are recorded when an entry is
-- delivered; a message is created with `nonce` = this row's `nonce` and
-- `enforce_nonce: true`, so a retry after a lost answer returns the message the first
-- attempt created instead of posting a second one; the thread is recorded on the game
-- (`games.thread_id`) and not created again once recorded.
CREATE TABLE discord_outbox (
    id              INTEGER PRIMARY KEY,
    game_id         BIGINT,                 -- NULL for effects of a challenge only
    kind            TEXT NOT NULL,          -- thread | board | carrier-menu | announcement
    payload         TEXT NOT NULL,          -- JSON: what to post (worded text, ply, target)
    nonce           TEXT NOT NULL UNIQUE,   -- Create Message `nonce` (at most 25 characters)
    attempts        INTEGER NOT NULL DEFAULT 0,   -- failed deliveries so far
    next_attempt_at BIGINT NOT NULL,        -- not before (Unix s)
    message_id      BIGINT,                 -- once posted: the message Discord created
    thread_id       BIGINT,                 -- once posted (kind thread): the thread
    delivered_at    BIGINT,
    failed_at       BIGINT,                 -- given up after the last attempt
    last_error      TEXT,
    created_at      BIGINT NOT NULL
);
CREATE INDEX discord_outbox_pending ON discord_outbox(id)
    WHERE delivered_at IS NULL AND failed_at IS NULL;
CREATE INDEX discord_outbox_game ON discord_outbox(game_id, id);
