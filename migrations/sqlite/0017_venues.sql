-- Kaboom bot schema, version 17: where a game is played (docs/ARCHITECTURE.md, "Play
-- anywhere"). 'thread': its own thread in the server channel of its challenge, as before;
-- 'direct': started where the bot is not a member (a DM, a group DM, a server where only a
-- player installed the app), its posts go to each player's DM with the bot. A challenge
-- carries the venue its game will have.
ALTER TABLE challenges ADD COLUMN venue TEXT NOT NULL DEFAULT 'thread';
ALTER TABLE games ADD COLUMN venue TEXT NOT NULL DEFAULT 'thread';
