//! Storage round trips on a temporary database.

use kaboom_bot::domain::ids::{GuildId, UserId};
use kaboom_bot::storage::settings::{
    GuildSettings, NudgeVia, UserSettings, guild, put_guild, put_user, user,
};
use kaboom_testkit::temp_db;

#[tokio::test]
async fn settings_round_trip_with_defaults() {
    let (db, _dir) = temp_db().await;
    assert_eq!(user(&db, UserId(7)).await.unwrap(), UserSettings::default());
    let s = UserSettings {
        nudges: false,
        via: NudgeVia::Thread,
    };
    put_user(&db, UserId(7), s, 1).await.unwrap();
    assert_eq!(user(&db, UserId(7)).await.unwrap(), s);
    assert_eq!(guild(&db, GuildId(9)).await.unwrap(), None);
    let g = GuildSettings {
        nudge_shares: vec![25, 75],
        idle_first_secs: 3600,
        idle_repeat_secs: 7200,
    };
    put_guild(&db, GuildId(9), &g, 1).await.unwrap();
    assert_eq!(guild(&db, GuildId(9)).await.unwrap(), Some(g));
}

/// Issue 16: the database holds hidden carriers and salts, so its files are the owner's
/// only (0600), also when an older version left them readable by others.
#[cfg(unix)]
#[tokio::test]
async fn database_files_are_readable_by_their_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kaboom.db");
    let url = format!("sqlite://{}", path.display());
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let db = kaboom_bot::storage::Db::connect(&url).await.unwrap();
    put_user(&db, UserId(7), UserSettings::default(), 1)
        .await
        .unwrap();
    assert_eq!(mode(&path), 0o600);
    let wal = dir.path().join("kaboom.db-wal");
    assert!(wal.exists(), "WAL mode writes a -wal file");
    assert_eq!(mode(&wal), 0o600);
    db.close().await;

    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let db = kaboom_bot::storage::Db::connect(&url).await.unwrap();
    assert_eq!(
        mode(&path),
        0o600,
        "an existing world-readable file is narrowed"
    );
    db.close().await;
}
