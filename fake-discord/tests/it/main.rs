//! fake-discord's integration tests, one binary: the program over its control API, and the
//! rules of real Discord the fake enforces.

mod program;
mod strict;
