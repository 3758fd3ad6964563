//! Texts of replay GIFs.

use kaboom_service::Snapshot;

/// The line posted with a replay GIF: the variant, the players, the game and how many
/// plies it shows; for a game still in play, that it is the game so far (as the caller
/// may see it: a Beirut player's replay marks only their own carriers).
pub fn replay_caption(snap: &Snapshot) -> String {
    let row = &snap.row;
    let plies = snap.game.ply_count();
    let so_far = if snap.outcome().is_some() {
        ""
    } else {
        " · so far"
    };
    format!(
        "Replay · **{}** · {} · game #{} · {} {}{so_far}",
        row.variant.title(),
        super::players_line(row),
        row.id,
        plies,
        if plies == 1 { "ply" } else { "plies" }
    )
}
