-- Kaboom bot schema, version 2: the correspondence clock and scheduler (issue 8).
-- Portable SQL except the triggers (SQLite syntax; a PostgreSQL port writes them as
-- trigger functions with the same bodies). Times are Unix seconds (UTC).

-- When the scheduler next has to look at a game (a nudge threshold, the deadline, the next
-- idle reminder, the designation timeout); NULL when never (finished games). The sweep finds
-- due games with one range query on the index below. The scheduler itself writes the exact
-- time; the triggers below only set it to "now" whenever a game changes, so that the next
-- sweep reconsiders it (the bot's services need not know about the scheduler).
ALTER TABLE games ADD COLUMN next_due_at BIGINT;
-- When the current turn began (the last action, or the start of play): nudge shares and
-- idle periods count from here.
ALTER TABLE games ADD COLUMN turn_started_at BIGINT;
UPDATE games SET next_due_at = updated_at, turn_started_at = updated_at WHERE state <> 'finished';
CREATE INDEX games_next_due_at ON games(next_due_at);

CREATE TRIGGER games_schedule_insert AFTER INSERT ON games
BEGIN
    UPDATE games SET next_due_at = NEW.created_at, turn_started_at = NEW.created_at
    WHERE id = NEW.id;
END;

-- A new ply or a new state (setup -> active, -> finished) starts a new turn.
CREATE TRIGGER games_schedule_turn AFTER UPDATE OF ply, state ON games
WHEN NEW.ply IS NOT OLD.ply OR NEW.state IS NOT OLD.state
BEGIN
    UPDATE games SET turn_started_at = NEW.updated_at,
        next_due_at = CASE WHEN NEW.state = 'finished' THEN NULL ELSE NEW.updated_at END
    WHERE id = NEW.id;
END;

-- A deadline changed within a turn (an extension): reconsider the game.
CREATE TRIGGER games_schedule_deadline AFTER UPDATE OF deadline_at ON games
WHEN NEW.deadline_at IS NOT OLD.deadline_at AND NEW.ply IS OLD.ply
    AND NEW.state IS OLD.state AND NEW.state <> 'finished'
BEGIN
    UPDATE games SET next_due_at = NEW.updated_at WHERE id = NEW.id;
END;

-- A finished game is final: an update of its play state is skipped (0 rows changed), so
-- the expected-ply update of a move that raced a time forfeit (or a resignation) finds
-- nothing to update and the move is reported as "the game moved on" instead of
-- overwriting the result. Updates of other columns (thread, board message) still apply.
CREATE TRIGGER games_finished_is_final BEFORE UPDATE OF ply, state, state_fen, result ON games
WHEN OLD.state = 'finished'
BEGIN
    SELECT RAISE(IGNORE);
END;

-- Nudges claimed: one row per (game, ply, threshold), inserted in the same transaction that
-- decides to send it, so a nudge is never sent twice, also across restarts (at most once:
-- a crash between the commit and the send loses that nudge).
-- threshold: 'share:50' (50% of the time used), 'idle:1' (first idle reminder), ...
CREATE TABLE nudges (
    game_id    BIGINT NOT NULL REFERENCES games(id),
    ply        INTEGER NOT NULL,
    threshold  TEXT NOT NULL,
    user_id    BIGINT NOT NULL,
    claimed_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply, threshold)
);

-- Open challenges expire: the sweep finds them by (state, created_at).
CREATE INDEX challenges_open_created ON challenges(state, created_at);

-- A player's notification choices (/settings); no row: the defaults (nudges on, by DM).
CREATE TABLE user_settings (
    user_id    BIGINT PRIMARY KEY,
    nudges     BOOLEAN NOT NULL,
    nudge_via  TEXT NOT NULL,                -- dm | thread
    updated_at BIGINT NOT NULL
);

-- A server's nudge defaults (/settings server, Manage Server); no row: the bot's defaults.
CREATE TABLE guild_settings (
    guild_id          BIGINT PRIMARY KEY,
    nudge_shares      TEXT NOT NULL,         -- percentages of the time per move, e.g. '50,80'
    idle_first_secs   BIGINT NOT NULL,       -- untimed games: first reminder after this
    idle_repeat_secs  BIGINT NOT NULL,       -- then again every this
    updated_at        BIGINT NOT NULL
);
