-- Kaboom bot schema, version 5, for PostgreSQL: sqlite/0005_one_outbox.sql. SQLite's
-- json_object is json_build_object here (kept as TEXT); the fresh nonce's 20 hex digits
-- come from md5 of random() (SQLite: randomblob).
ALTER TABLE discord_outbox ADD COLUMN challenge_id BIGINT;
CREATE INDEX discord_outbox_challenge ON discord_outbox(challenge_id, id)
    WHERE challenge_id IS NOT NULL;

INSERT INTO discord_outbox (game_id, challenge_id, kind, payload, nonce, attempts,
        next_attempt_at, created_at)
    SELECT subject_id, NULL, 'game-ended',
           json_build_object('kind', 'game-ended', 'text', text)::text,
           'kbm' || substr(md5(random()::text || id::text), 1, 20), 0, created_at, created_at
    FROM scheduler_outbox WHERE kind = 'game-ended' AND attempts < 5 ORDER BY id;
INSERT INTO discord_outbox (game_id, challenge_id, kind, payload, nonce, attempts,
        next_attempt_at, created_at)
    SELECT NULL, subject_id, 'challenge-closed',
           json_build_object('kind', 'challenge-closed', 'channel_id', channel_id,
                       'message_id', message_id, 'content', NULL, 'line', text)::text,
           'kbm' || substr(md5(random()::text || id::text), 1, 20), 0, created_at, created_at
    FROM scheduler_outbox WHERE kind = 'challenge-expired' AND attempts < 5 ORDER BY id;
DROP TABLE scheduler_outbox;
