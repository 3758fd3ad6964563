-- Kaboom bot schema, version 8: correspondence comforts (issue 20). Portable SQL (SQLite
-- now, PostgreSQL later: BIGINT ids and Unix seconds, TEXT JSON). Times are Unix seconds.

-- Conditional moves ("premoves"): a player's private lines. `actions` is a JSON array of
-- canonical texts (C-5) that alternates the opponent's action and the owner's reply; its
-- first entry is the opponent's action expected at ply `from_ply + 1`. Never shown to the
-- opponent, in a board, in the PGN or in any public message.
CREATE TABLE premoves (
    id          INTEGER PRIMARY KEY,
    game_id     BIGINT NOT NULL REFERENCES games(id),
    user_id     BIGINT NOT NULL,
    color       TEXT NOT NULL,               -- white | black: the owner's side
    from_ply    INTEGER NOT NULL,            -- the game's ply when the line's next action is due
    actions     TEXT NOT NULL,               -- JSON array of canonical texts
    created_at  BIGINT NOT NULL
);
CREATE INDEX premoves_game ON premoves(game_id, color, id);

-- Vacations: while one runs (`ended_at` NULL and `until_at` in the future) the player's
-- clocks stand still in all their games (the deadlines are pushed back when it starts and
-- pulled forward again when it ends early) and they get no nudges. The scheduler ends it
-- at `until_at`. The days taken in a calendar year (UTC) are counted from these rows.
CREATE TABLE vacations (
    id          INTEGER PRIMARY KEY,
    user_id     BIGINT NOT NULL,
    name        TEXT NOT NULL,
    started_at  BIGINT NOT NULL,
    until_at    BIGINT NOT NULL,             -- planned end
    ended_at    BIGINT                       -- actual end (early with /vacation end)
);
CREATE INDEX vacations_user ON vacations(user_id, started_at);
CREATE INDEX vacations_running ON vacations(until_at) WHERE ended_at IS NULL;

-- A server's yearly vacation allowance in days (`/vacation allowance`, Manage Server); no
-- row: the default (14 days).
CREATE TABLE guild_vacation (
    guild_id    BIGINT PRIMARY KEY,
    days        INTEGER NOT NULL,
    updated_at  BIGINT NOT NULL
);

-- A standing takeback proposal (casual games only; at most one per game). `ply` is the
-- game's ply when it was made: a move after it voids it.
CREATE TABLE takeback_offers (
    game_id     BIGINT PRIMARY KEY REFERENCES games(id),
    offered_by  TEXT NOT NULL,               -- white | black
    ply         INTEGER NOT NULL,
    undo        INTEGER NOT NULL,            -- how many plies it takes back (1 or 2)
    offered_at  BIGINT NOT NULL
);

-- Private notes, one text per player and game (shown only to their owner, with "My view").
CREATE TABLE game_notes (
    game_id     BIGINT NOT NULL REFERENCES games(id),
    user_id     BIGINT NOT NULL,
    text        TEXT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
