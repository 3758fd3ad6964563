-- Kaboom bot schema, version 19: what a player of a game played by DM missed because
-- Discord refused to DM them (DMs closed: 50007; no server shared with the bot and no
-- user install: 50278). Shown, then deleted, at the player's next command or click
-- (docs/ARCHITECTURE.md, "Play anywhere"). `nonce` is the delivery's own (the outbox
-- entry's nonce and the player's side), so a retried delivery records one notice.
CREATE TABLE undelivered_notices (
    id          INTEGER PRIMARY KEY,
    user_id     BIGINT NOT NULL,
    game_id     BIGINT NOT NULL REFERENCES games (id),
    nonce       TEXT NOT NULL,
    text        TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    UNIQUE (user_id, nonce)
);
