-- Kaboom bot schema, version 2, for PostgreSQL: sqlite/0002_scheduler.sql. SQLite's
-- triggers become PL/pgSQL trigger functions with the same effect. SQLite's AFTER
-- triggers that update the row again are BEFORE triggers here that set NEW's columns
-- (the same values, one write); `IS NOT` is `IS DISTINCT FROM`; `RAISE(IGNORE)` is a
-- BEFORE trigger returning NULL (the row's update is skipped, the statement goes on).
-- PostgreSQL fires BEFORE triggers of one event in name order: games_finished_is_final
-- runs first, so a finished game's play state is never touched.

ALTER TABLE games ADD COLUMN next_due_at BIGINT;
ALTER TABLE games ADD COLUMN turn_started_at BIGINT;
UPDATE games SET next_due_at = updated_at, turn_started_at = updated_at WHERE state <> 'finished';
CREATE INDEX games_next_due_at ON games(next_due_at);

CREATE FUNCTION games_schedule_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.next_due_at := NEW.created_at;
    NEW.turn_started_at := NEW.created_at;
    RETURN NEW;
END $$;
CREATE TRIGGER games_schedule_insert BEFORE INSERT ON games
    FOR EACH ROW EXECUTE FUNCTION games_schedule_insert();

-- A new ply or a new state (setup -> active, -> finished) starts a new turn.
CREATE FUNCTION games_schedule_turn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.turn_started_at := NEW.updated_at;
    NEW.next_due_at := CASE WHEN NEW.state = 'finished' THEN NULL ELSE NEW.updated_at END;
    RETURN NEW;
END $$;
CREATE TRIGGER games_schedule_turn BEFORE UPDATE OF ply, state ON games
    FOR EACH ROW
    WHEN (NEW.ply IS DISTINCT FROM OLD.ply OR NEW.state IS DISTINCT FROM OLD.state)
    EXECUTE FUNCTION games_schedule_turn();

-- A deadline changed within a turn (an extension): reconsider the game.
CREATE FUNCTION games_schedule_deadline() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.next_due_at := NEW.updated_at;
    RETURN NEW;
END $$;
CREATE TRIGGER games_schedule_deadline BEFORE UPDATE OF deadline_at ON games
    FOR EACH ROW
    WHEN (NEW.deadline_at IS DISTINCT FROM OLD.deadline_at
        AND NEW.ply IS NOT DISTINCT FROM OLD.ply
        AND NEW.state IS NOT DISTINCT FROM OLD.state AND NEW.state <> 'finished')
    EXECUTE FUNCTION games_schedule_deadline();

-- A finished game is final (see sqlite/0002_scheduler.sql): the row's update is skipped.
CREATE FUNCTION games_finished_is_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RETURN NULL;
END $$;
CREATE TRIGGER games_finished_is_final BEFORE UPDATE OF ply, state, state_fen, result ON games
    FOR EACH ROW WHEN (OLD.state = 'finished')
    EXECUTE FUNCTION games_finished_is_final();

CREATE TABLE nudges (
    game_id    BIGINT NOT NULL REFERENCES games(id),
    ply        BIGINT NOT NULL,
    threshold  TEXT NOT NULL,
    user_id    BIGINT NOT NULL,
    claimed_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply, threshold)
);

CREATE INDEX challenges_open_created ON challenges(state, created_at);

CREATE TABLE user_settings (
    user_id    BIGINT PRIMARY KEY,
    nudges     BOOLEAN NOT NULL,
    nudge_via  TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE guild_settings (
    guild_id          BIGINT PRIMARY KEY,
    nudge_shares      TEXT NOT NULL,
    idle_first_secs   BIGINT NOT NULL,
    idle_repeat_secs  BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL
);
