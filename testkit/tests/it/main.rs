//! The testkit's integration tests, one binary: the `kaboom-demo` program end to end.

mod demo;
