-- Kaboom bot schema, version 6, for PostgreSQL: sqlite/0006_ratings.sql (ratings, issue
-- 18). DOUBLE PRECISION is the same type on both engines (float8; SQLite's REAL).
--
-- `ratings` holds each player's current rating in a variant and their record in rated
-- games; `name` is the name they last played a rated game under (for leaderboards).
CREATE TABLE ratings (
    user_id     BIGINT NOT NULL,
    variant     TEXT NOT NULL,
    name        TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       BIGINT NOT NULL,
    wins        BIGINT NOT NULL,
    draws       BIGINT NOT NULL,
    losses      BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, variant)
);
CREATE INDEX ratings_board ON ratings(variant, rating);

-- One row per side of every rated game, written in the transaction that ends the game.
-- The primary key makes a second application to the same game impossible: exactly once.
CREATE TABLE rating_changes (
    game_id           BIGINT NOT NULL REFERENCES games(id),
    color             TEXT NOT NULL,          -- white | black
    user_id           BIGINT NOT NULL,
    variant           TEXT NOT NULL,
    score             DOUBLE PRECISION NOT NULL, -- 1 win, 0.5 draw, 0 loss
    rating_before     DOUBLE PRECISION NOT NULL,
    deviation_before  DOUBLE PRECISION NOT NULL,
    volatility_before DOUBLE PRECISION NOT NULL,
    rating_after      DOUBLE PRECISION NOT NULL,
    deviation_after   DOUBLE PRECISION NOT NULL,
    volatility_after  DOUBLE PRECISION NOT NULL,
    rated_at          BIGINT NOT NULL,
    PRIMARY KEY (game_id, color)
);
CREATE INDEX rating_changes_user ON rating_changes(user_id, game_id);

-- The finished-games archive (`/games finished:true`, `/profile`): a player's finished
-- games, newest first.
CREATE INDEX games_white_finished ON games(white_id, state, updated_at);
CREATE INDEX games_black_finished ON games(black_id, state, updated_at);
