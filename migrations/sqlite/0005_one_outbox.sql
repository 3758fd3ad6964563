-- Kaboom bot schema, version 5: one outbox (issue 16). The scheduler's announcements (time
-- forfeits, designation-timeout aborts, challenge expiries) and its nudges go into
-- `discord_outbox` with the decisions that make them, and are posted by the one deliverer
-- with a nonce, exactly once; `scheduler_outbox` (version 3) is gone.
--
-- `challenge_id` names the challenge an entry belongs to (the challenge message's edits:
-- accepted, declined, cancelled, expired), so that a command can wait for them and
-- entries of one challenge are delivered in order, as a game's are.
ALTER TABLE discord_outbox ADD COLUMN challenge_id BIGINT;
CREATE INDEX discord_outbox_challenge ON discord_outbox(challenge_id, id)
    WHERE challenge_id IS NOT NULL;

-- Announcements still waiting in the old outbox (a crash, failed deliveries) move over,
-- worded as they were, as the effects the deliverer now posts them with (payload JSON as
-- `discord::outbox::Effect` serializes it; SQLite's JSON1 functions, like the triggers of
-- version 2, are this file's only non-portable part). Each gets a fresh nonce: `kbm` and
-- 20 hex digits (23 characters; Discord allows 25).
INSERT INTO discord_outbox (game_id, challenge_id, kind, payload, nonce, attempts,
        next_attempt_at, created_at)
    SELECT subject_id, NULL, 'game-ended',
           json_object('kind', 'game-ended', 'text', text),
           'kbm' || lower(hex(randomblob(10))), 0, created_at, created_at
    FROM scheduler_outbox WHERE kind = 'game-ended' AND attempts < 5 ORDER BY id;
INSERT INTO discord_outbox (game_id, challenge_id, kind, payload, nonce, attempts,
        next_attempt_at, created_at)
    SELECT NULL, subject_id, 'challenge-closed',
           json_object('kind', 'challenge-closed', 'channel_id', channel_id,
                       'message_id', message_id, 'content', NULL, 'line', text),
           'kbm' || lower(hex(randomblob(10))), 0, created_at, created_at
    FROM scheduler_outbox WHERE kind = 'challenge-expired' AND attempts < 5 ORDER BY id;
DROP TABLE scheduler_outbox;
