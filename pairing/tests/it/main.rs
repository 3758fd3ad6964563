//! The pairing library's integration tests, one binary (`cargo test -p kaboom-pairing --test
//! it`), one module per subject. Reference data cite their source (FIDE Handbook section).

mod berger;
mod dutch;
mod tiebreak;
mod trf;
