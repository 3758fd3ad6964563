-- Kaboom bot schema, version 18: open challenges across servers (docs/ARCHITECTURE.md,
-- "Play anywhere"). A seek is a challenge to anyone with the venue 'seek': `/seeks`
-- lists the open ones wherever the bot can be used, and its game is played by DM. A
-- rematch of a seek's game keeps the venue and names its opponent (never listed).
CREATE INDEX challenges_open_seeks ON challenges (variant, created_at)
    WHERE venue = 'seek' AND opponent_id IS NULL AND state = 'open';
