-- Kaboom bot schema, version 12: a carrier-menu entry's delivery state as data. Once the
-- player's DM was refused and the in-thread "Choose privately" offer failed, the entry's
-- retries post the offer (same nonce), not the DM: a DM that works on a retry would give
-- the player both. Until now that was read back from the start of `last_error`, which is
-- again only the last delivery error's message. Entries already marked so keep it.
ALTER TABLE discord_outbox ADD COLUMN dm_refused BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE discord_outbox SET dm_refused = TRUE
    WHERE kind = 'carrier-menu'
      AND last_error LIKE 'the DM was refused; the in-thread offer failed: %';
