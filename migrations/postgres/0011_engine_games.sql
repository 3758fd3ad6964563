-- Kaboom bot schema, version 11: games against the practice opponent (issue 23).
-- One row per game the engine plays, written in the transaction that starts the game.
-- The engine plays `color` at `level` (1-5); the other side is the human who asked.
-- Engine games are never rated (the games row has rated = 0).
CREATE TABLE engine_games (
    game_id     BIGINT PRIMARY KEY REFERENCES games(id),
    color       TEXT NOT NULL CHECK (color IN ('white', 'black')),
    level       BIGINT NOT NULL CHECK (level BETWEEN 1 AND 5),
    created_at  BIGINT NOT NULL
);
