-- Kaboom bot schema, version 15: post-game analyses (/analysis; docs/analysis.md).
-- One row per analysed game, written with the outbox entry of its progress post when a
-- player asks; a worker claims queued rows (state and claimed_at: a claim older than the
-- lease is taken over after a crash), writes progress (done_plies of total_plies) and
-- finally the review (kaboom_engine::review::GameReview as JSON). message_id is the
-- progress post in the game's thread, edited in place and finally into the result.
CREATE TABLE analyses (
    game_id       BIGINT PRIMARY KEY REFERENCES games(id),
    requested_by  BIGINT NOT NULL,
    state         TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
    nodes         BIGINT NOT NULL,
    done_plies    BIGINT NOT NULL,
    total_plies   BIGINT NOT NULL,
    review        TEXT,
    message_id    BIGINT,
    requested_at  BIGINT NOT NULL,
    claimed_at    BIGINT,
    finished_at   BIGINT
);
CREATE INDEX analyses_queue ON analyses (state, requested_at);
