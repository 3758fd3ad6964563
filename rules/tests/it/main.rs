//! The rules library's integration tests, one binary (`cargo test -p kaboom-rules --test
//! it`), one module per subject. Tests name the ruling they check (`be10_...`, `AT-2` in a
//! doc comment) or the regression they guard. Reference and regression data live in
//! `rules/tests/data/`; [`perft`] is the one driver for every `*.perft` file, reading them
//! with [`perft_file`] (test code, not the library's API).

mod api;
mod atomic;
mod atomic_props;
mod beirut;
mod beirut_props;
mod bombalot;
mod bombalot_props;
mod bomberman_game;
mod bomberman_notation;
mod bomberman_props;
mod bomberman_rules;
mod docs_examples;
mod fuzz;
mod nuke;
mod nuke_props;
mod perft;
mod perft_file;

/// The proptest configuration of every property test here: `cases` cases, and failures
/// persisted next to the test module (`tests/it/<module>.proptest-regressions`).
/// Explicit because proptest's default (`SourceParallel`) would find `tests/it/main.rs`
/// and look in `tests/proptest-regressions/<module>.txt` instead.
fn proptest_config(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        ..proptest::test_runner::Config::default()
    }
}
