-- Kaboom bot schema, version 14: the role whose members may create and manage leagues
-- besides Manage Server members (/settings server league_organisers; docs/leagues.md).
-- NULL: Manage Server members only.
ALTER TABLE guild_settings ADD COLUMN league_role_id BIGINT;
