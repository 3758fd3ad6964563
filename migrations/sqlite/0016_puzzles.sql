-- Kaboom bot schema, version 16: variant puzzles (/puzzle; docs/puzzles.md). Times are
-- Unix seconds; JSON is TEXT.

-- One row per puzzle: the shipped set (data/puzzles/, loaded at start-up; `source`
-- 'shipped') and any made from this database's games ('games'). `fen` is the position
-- before the solver's first move with every secret (the solver knows the opponent's
-- carriers, as in a study); `solution` a JSON array of coordinate texts alternating the
-- solver's moves and the forced replies, the solver's first and last; `themes` a JSON
-- array of theme names. The rating is Glicko-2 and moves as players solve and fail it.
CREATE TABLE puzzles (
    id          TEXT PRIMARY KEY,
    variant     TEXT NOT NULL,
    fen         TEXT NOT NULL,
    solution    TEXT NOT NULL,
    themes      TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    attempts    BIGINT NOT NULL,
    solved      BIGINT NOT NULL,
    source      TEXT NOT NULL CHECK (source IN ('shipped', 'games')),
    created_at  BIGINT NOT NULL
);
CREATE INDEX puzzles_pick ON puzzles (variant, rating);

-- A player's try at a puzzle: `progress` is how many plies of the solution are behind
-- them (each correct move adds two: the move and the reply), written with an
-- expected-progress check so one answer counts once. Only a player's first try at a
-- puzzle is rated. `guild_id` is the server whose daily post it came from, if any.
CREATE TABLE puzzle_attempts (
    id           INTEGER PRIMARY KEY,
    user_id      BIGINT NOT NULL,
    puzzle_id    TEXT NOT NULL REFERENCES puzzles(id),
    progress     BIGINT NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('open', 'solved', 'failed')),
    rated        BOOLEAN NOT NULL,
    guild_id     BIGINT,
    started_at   BIGINT NOT NULL,
    finished_at  BIGINT
);
CREATE INDEX puzzle_attempts_user ON puzzle_attempts (user_id, state, id);
CREATE INDEX puzzle_attempts_puzzle ON puzzle_attempts (puzzle_id, guild_id, state);

-- A player's puzzle rating per variant (Glicko-2) and their streak of solved puzzles.
CREATE TABLE puzzle_ratings (
    user_id      BIGINT NOT NULL,
    variant      TEXT NOT NULL,
    rating       DOUBLE PRECISION NOT NULL,
    deviation    DOUBLE PRECISION NOT NULL,
    volatility   DOUBLE PRECISION NOT NULL,
    attempts     BIGINT NOT NULL,
    solved       BIGINT NOT NULL,
    streak       BIGINT NOT NULL,
    best_streak  BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    PRIMARY KEY (user_id, variant)
);

-- The channel a server's daily puzzle is posted in (/settings server puzzle_channel).
CREATE TABLE guild_puzzle_channels (
    guild_id    BIGINT PRIMARY KEY,
    channel_id  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);

-- One daily puzzle per server and UTC day (days since 1970-01-01), written with the
-- outbox entry of its post; `message_id` once posted.
CREATE TABLE daily_puzzles (
    guild_id    BIGINT NOT NULL,
    day         BIGINT NOT NULL,
    puzzle_id   TEXT NOT NULL REFERENCES puzzles(id),
    channel_id  BIGINT NOT NULL,
    message_id  BIGINT,
    PRIMARY KEY (guild_id, day)
);
