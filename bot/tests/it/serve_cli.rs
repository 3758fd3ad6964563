//! `kaboom serve` (and `kaboom` alone) without a token: a one-line error pointing to
//! `.env.example` and `kaboom demo`.

use std::process::Command;

#[test]
fn serve_without_token_fails_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["serve"][..], &[][..]] {
        let out = Command::new(env!("CARGO_BIN_EXE_kaboom"))
            .args(args)
            .current_dir(dir.path())
            .env_remove("DISCORD_TOKEN")
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(".env.example") && err.contains("kaboom demo"),
            "{err}"
        );
        // No database was created before the configuration was checked.
        assert!(!dir.path().join("kaboom.db").exists());
    }
}
