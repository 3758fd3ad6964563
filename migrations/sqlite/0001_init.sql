-- Kaboom bot schema, version 1.
-- Portable SQL (SQLite now, PostgreSQL possible): INTEGER/BIGINT ids, TEXT, no engine-specific types.
-- Discord snowflakes are stored as BIGINT (they fit in 63 bits). Times are Unix seconds (UTC).

CREATE TABLE challenges (
    id               INTEGER PRIMARY KEY,
    guild_id         BIGINT,
    channel_id       BIGINT NOT NULL,
    message_id       BIGINT,
    challenger_id    BIGINT NOT NULL,
    challenger_name  TEXT NOT NULL,
    opponent_id      BIGINT,
    variant          TEXT NOT NULL,
    carriers         INTEGER NOT NULL,
    dead_mans_switch BOOLEAN NOT NULL,
    days_per_move    INTEGER,
    color            TEXT NOT NULL,          -- white | black | random: the challenger's colour
    rated            BOOLEAN NOT NULL,
    state            TEXT NOT NULL,          -- open | accepted | declined | cancelled
    game_id          BIGINT,
    created_at       BIGINT NOT NULL
);

CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    challenge_id     BIGINT REFERENCES challenges(id),
    guild_id         BIGINT,
    channel_id       BIGINT NOT NULL,
    thread_id        BIGINT,
    white_id         BIGINT NOT NULL,
    white_name       TEXT NOT NULL,
    black_id         BIGINT NOT NULL,
    black_name       TEXT NOT NULL,
    variant          TEXT NOT NULL,
    carriers         INTEGER NOT NULL,
    dead_mans_switch BOOLEAN NOT NULL,
    -- Full serialization of the start position (secrets included once designated; never shown).
    start_fen        TEXT NOT NULL,
    -- Full serialization of the current position (a cache: game_actions is the source of truth).
    state_fen        TEXT NOT NULL,
    ply              INTEGER NOT NULL,
    state            TEXT NOT NULL,          -- setup | active | finished
    declared         TEXT,                   -- JSON Outcome of a result declared off the board
    result           TEXT,                   -- 1-0 | 0-1 | 1/2-1/2 | * once finished
    reason           TEXT,                   -- status.reason vocabulary once finished
    days_per_move    INTEGER,
    deadline_at      BIGINT,                 -- when the side to move runs out of time (scheduler)
    rated            BOOLEAN NOT NULL,
    board_message_id BIGINT,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);
CREATE INDEX games_deadline_at ON games(deadline_at);
CREATE INDEX games_white ON games(white_id, state);
CREATE INDEX games_black ON games(black_id, state);
CREATE UNIQUE INDEX games_thread ON games(thread_id);

-- The ordered actions of a game: the source of truth, replayable.
CREATE TABLE game_actions (
    game_id    BIGINT NOT NULL REFERENCES games(id),
    ply        INTEGER NOT NULL,             -- 1 for the first action
    action     TEXT NOT NULL,                -- canonical text (C-5)
    player_id  BIGINT NOT NULL,
    played_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);

-- Carrier designations (Beirut: secret until the game ends, BE-2/BE-9; Nuke: public once both chose).
CREATE TABLE carrier_designations (
    game_id     BIGINT NOT NULL REFERENCES games(id),
    color       TEXT NOT NULL,               -- white | black
    squares     TEXT NOT NULL,               -- canonical order, comma-joined
    salt        TEXT NOT NULL,               -- 16 bytes, lowercase hex (BE-9)
    commitment  TEXT NOT NULL,               -- SHA-256 lowercase hex (BE-9)
    chosen_at   BIGINT NOT NULL,
    PRIMARY KEY (game_id, color)
);

-- A standing draw offer (at most one per game).
CREATE TABLE draw_offers (
    game_id     BIGINT PRIMARY KEY REFERENCES games(id),
    offered_by  TEXT NOT NULL,               -- white | black
    ply         INTEGER NOT NULL,
    offered_at  BIGINT NOT NULL
);
