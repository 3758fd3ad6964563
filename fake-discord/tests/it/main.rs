//! fake-discord's integration tests, one binary: the program over its control API, and the
//! rules of real Discord the fake enforces.

mod faults;
mod program;
mod strict;
