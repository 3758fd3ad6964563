//! placeholder
/// e
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DutchError {
    /// x
    #[error("x")]
    NoPairing,
}
/// x
pub fn pair_round(_t: &crate::Tournament) -> Result<crate::Pairings, DutchError> {
    Err(DutchError::NoPairing)
}
