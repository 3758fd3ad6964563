-- Kaboom bot schema, version 7: explosion previews (issue 19). Portable SQL.
--
-- A pending preview: the action a player asked to see before playing it, at the ply it was
-- previewed from. Its Confirm / Cancel buttons carry only the row's id (`kb:pvok:<id>`,
-- `kb:pvno:<id>`), so any action text fits Discord's 100-character custom id limit
-- (https://discord.com/developers/docs/interactions/message-components#button-object).
-- Confirm plays `action` for `user_id` only while the game is still at `ply`, in the
-- transaction that sets `state` from 'pending' to 'confirmed' (exactly once); Cancel sets
-- 'cancelled'. Rows of finished games may be deleted at any time.
CREATE TABLE move_previews (
    id          INTEGER PRIMARY KEY,
    game_id     BIGINT NOT NULL REFERENCES games(id),
    user_id     BIGINT NOT NULL,
    ply         BIGINT NOT NULL,          -- the game's ply when previewed
    action      TEXT NOT NULL,            -- canonical text (C-5)
    state       TEXT NOT NULL,            -- pending | confirmed | cancelled
    created_at  BIGINT NOT NULL
);
CREATE INDEX move_previews_game ON move_previews(game_id, ply);

-- A player's preview choice (/settings me preview:...): 'always' shows a preview before
-- every action that removes pieces, 'asked' only with /move preview:True. No row: 'always'.
CREATE TABLE preview_settings (
    user_id     BIGINT PRIMARY KEY,
    mode        TEXT NOT NULL,            -- always | asked
    updated_at  BIGINT NOT NULL
);
