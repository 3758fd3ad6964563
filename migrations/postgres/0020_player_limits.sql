-- Kaboom bot schema, version 20: a server's per-player limits (/settings server; the
-- limits and their defaults are in docs/hosting.md, "Limits per player"). NULL: the
-- server left the limit at its default, so a later release's default applies to it.
ALTER TABLE guild_settings ADD COLUMN practice_games BIGINT;
ALTER TABLE guild_settings ADD COLUMN open_challenges BIGINT;
ALTER TABLE guild_settings ADD COLUMN commands_per_minute BIGINT;
