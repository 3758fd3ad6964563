-- Kaboom bot schema, version 13: server leagues (round-robin and Swiss correspondence
-- tournaments; docs/leagues.md).
--
-- A league is one row: its model (kaboom_domain::league::League: settings, entrants,
-- rounds, games, byes) as JSON in `body`, written whole by every change with the
-- expected `version` (a change that read an older version writes nothing and is retried),
-- in the transaction that also writes the change's games and outbox entries.
-- `status` and `next_check_at` copy what the scheduler's sweep selects on.
CREATE TABLE leagues (
    id            INTEGER PRIMARY KEY,
    guild_id      BIGINT NOT NULL,
    channel_id    BIGINT NOT NULL,        -- where the sign-up post, rounds and standings go
    message_id    BIGINT,                 -- the sign-up post, once delivered
    created_by    BIGINT NOT NULL,
    name          TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('sign_up', 'running', 'paused', 'finished')),
    next_check_at BIGINT,                 -- Unix seconds; NULL: only when a game ends or someone acts
    body          TEXT NOT NULL,
    version       INTEGER NOT NULL,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);
CREATE INDEX leagues_guild ON leagues(guild_id, status);
CREATE INDEX leagues_due ON leagues(status, next_check_at);

-- The games a league started: an ordinary game, tagged with its league and round.
-- `recorded`: the league has taken the finished game's result (the sweep looks for
-- finished games not yet recorded).
CREATE TABLE league_games (
    game_id    BIGINT PRIMARY KEY REFERENCES games(id),
    league_id  BIGINT NOT NULL REFERENCES leagues(id),
    recorded   BOOLEAN NOT NULL DEFAULT FALSE,
    round      INTEGER NOT NULL
);
CREATE INDEX league_games_league ON league_games(league_id);
CREATE INDEX league_games_unrecorded ON league_games(game_id) WHERE NOT recorded;

-- A league's own outbox queue (its sign-up post, round and standings posts), delivered in
-- order like a game's.
ALTER TABLE discord_outbox ADD COLUMN league_id BIGINT;
CREATE INDEX discord_outbox_league ON discord_outbox(league_id, id)
    WHERE league_id IS NOT NULL;
