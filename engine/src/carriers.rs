//! The engine's own carriers in Beirut (BE-2) and Nuke (NU-3).

use kaboom_rules::{AnyGame, Color, Kind, Square, Viewer};

use crate::EngineError;

/// `color`'s carriers, chosen at random (seeded) among sensible candidates: in Beirut
/// (BE-2) knights, bishops and the centre pawns, which reach the enemy king soonest; in
/// Nuke (NU-3) one knight or bishop. The choice uses only `color`'s own view of the game.
/// Returns as many squares as [`AnyGame::carrier_count`] asks, in canonical order.
///
/// # Errors
/// [`EngineError::NothingToDesignate`] when `color` has no carriers to choose (wrong
/// variant, or already chosen).
pub fn choose_carriers(
    game: &AnyGame,
    color: Color,
    seed: u64,
) -> Result<Vec<Square>, EngineError> {
    let count = game.carrier_count();
    if count == 0 || !game.awaiting_designation().contains(&color) {
        return Err(EngineError::NothingToDesignate(color));
    }
    let candidates = game.carrier_candidates(color);
    let view = game.board_view(Viewer::player(color));
    let kind_at = |s: Square| view.piece_at(s).map(|p| p.kind);
    let sensible: Vec<Square> = candidates
        .iter()
        .copied()
        .filter(|&s| match kind_at(s) {
            Some(Kind::Knight | Kind::Bishop) => true,
            Some(Kind::Pawn) => (2..=5).contains(&s.file()),
            _ => false,
        })
        .collect();
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut pool = if sensible.len() >= count {
        sensible
    } else {
        candidates
    };
    rng.shuffle(&mut pool);
    let mut chosen: Vec<Square> = pool.into_iter().take(count).collect();
    chosen.sort();
    Ok(chosen)
}
