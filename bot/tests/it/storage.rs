//! Storage round trips on a temporary database.

use kaboom_domain::ids::{GuildId, UserId};
use kaboom_store::settings::{
    GuildSettings, NudgeVia, UserSettings, guild, put_guild, put_user, user,
};
use kaboom_testkit::temp_db;

kaboom_testkit::dbtest! {
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
            league_organisers: None,
            limits: kaboom_domain::settings::PlayerLimits {
                practice_games: Some(30),
                open_challenges: None,
                commands_per_minute: Some(60),
            },
        };
        put_guild(&db, GuildId(9), &g, 1).await.unwrap();
        assert_eq!(guild(&db, GuildId(9)).await.unwrap(), Some(g));
    }
}

/// The database holds hidden carriers and salts, so its files are the owner's
/// only (0600), also when an older version left them readable by others.
#[cfg(unix)]
#[tokio::test]
async fn database_files_are_readable_by_their_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kaboom.db");
    let url = format!("sqlite://{}", path.display());
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let db = kaboom_store::Db::connect(&url).await.unwrap();
    put_user(&db, UserId(7), UserSettings::default(), 1)
        .await
        .unwrap();
    assert_eq!(mode(&path), 0o600);
    let wal = dir.path().join("kaboom.db-wal");
    assert!(wal.exists(), "WAL mode writes a -wal file");
    assert_eq!(mode(&wal), 0o600);
    db.close().await;

    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let db = kaboom_store::Db::connect(&url).await.unwrap();
    assert_eq!(
        mode(&path),
        0o600,
        "an existing world-readable file is narrowed"
    );
    db.close().await;
}

/// A database made before version 5 still opens. The announcements its
/// `scheduler_outbox` still held (a crash, failed deliveries) move into the one outbox, in
/// order, as the effects the deliverer posts; those given up (5 attempts) do not; the old
/// table is gone.
#[tokio::test]
async fn a_version_4_database_moves_its_pending_announcements_into_the_one_outbox() {
    use std::str::FromStr;

    use kaboom_discord::outbox::Effect;
    use kaboom_domain::ids::{ChannelId, GameId, MessageId};
    use kaboom_store::{Db, outbox};
    use sqlx::sqlite::{SqliteConnectOptions, SqlitePool};

    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("migrations");
    std::fs::create_dir(&old).unwrap();
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations/sqlite");
    for file in std::fs::read_dir(&shipped).unwrap() {
        let file = file.unwrap();
        let name = file.file_name().into_string().unwrap();
        if name.ends_with(".sql") && name.as_str() < "0005" {
            std::fs::copy(file.path(), old.join(&name)).unwrap();
        }
    }
    let url = format!("sqlite://{}", dir.path().join("v4.db").display());
    let options = SqliteConnectOptions::from_str(&url)
        .unwrap()
        .create_if_missing(true);
    let pool = SqlitePool::connect_with(options).await.unwrap();
    sqlx::migrate::Migrator::new(old.as_path())
        .await
        .unwrap()
        .run(&pool)
        .await
        .unwrap();
    for (kind, subject, message, text, attempts) in [
        (
            "game-ended",
            7,
            Some(20),
            "Time is up in game #7. <@1> <@2>",
            1,
        ),
        (
            "challenge-expired",
            3,
            Some(30),
            "This challenge expired.",
            0,
        ),
        ("game-ended", 8, None, "dropped after 5 attempts", 5),
    ] {
        sqlx::query(
            "INSERT INTO scheduler_outbox (kind, subject_id, channel_id, message_id, text,
                attempts, created_at) VALUES (?, ?, 10, ?, ?, ?, 1700000000)",
        )
        .bind(kind)
        .bind(subject)
        .bind(message)
        .bind(text)
        .bind(attempts)
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;

    let db = Db::connect(&url).await.unwrap();
    let pending = outbox::pending(&db).await.unwrap();
    assert_eq!(pending.len(), 2, "{pending:?}");
    assert_eq!(
        (pending[0].game_id, pending[0].challenge_id),
        (Some(GameId(7)), None)
    );
    assert_eq!(pending[0].kind, "game-ended");
    let effect: Effect = serde_json::from_str(&pending[0].payload).unwrap();
    assert_eq!(
        effect,
        Effect::GameEnded {
            text: "Time is up in game #7. <@1> <@2>".into()
        }
    );
    assert_eq!(
        (pending[1].game_id, pending[1].challenge_id),
        (None, Some(3))
    );
    let effect: Effect = serde_json::from_str(&pending[1].payload).unwrap();
    assert_eq!(
        effect,
        Effect::ChallengeClosed {
            channel_id: ChannelId(10),
            message_id: Some(MessageId(30)),
            content: None,
            line: "This challenge expired.".into()
        }
    );
    for e in &pending {
        assert!(e.nonce.starts_with("kbm") && e.nonce.len() == 23, "{e:?}");
        assert_eq!((e.attempts, e.next_attempt_at), (0, 1_700_000_000));
    }
    assert_ne!(pending[0].nonce, pending[1].nonce);
    let left: (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM sqlite_master WHERE name = 'scheduler_outbox'")
            .fetch_one(&sqlx::SqlitePool::connect(&url).await.unwrap())
            .await
            .unwrap();
    assert_eq!(left.0, 0, "the old outbox is gone");
}

kaboom_testkit::dbtest! {
    /// On PostgreSQL, an outbox queue is claimed by one process at a time: a second
    /// owner is refused while the claim runs, the holder renews it, anyone takes it once it
    /// has lapsed (a dead process), and a released queue is free at once. On SQLite (one
    /// process) every claim is granted.
    #[tokio::test]
    async fn an_outbox_queue_is_claimed_by_one_process_at_a_time() {
        use kaboom_store::Engine;
        use kaboom_store::outbox::{CLAIM_LEASE_SECS, claim_queue, release_queue};

        let (db, _dir) = temp_db().await;
        let t = 1_000;
        assert!(claim_queue(&db, "game:1", "a", t).await.unwrap());
        if db.engine() == Engine::Sqlite {
            assert!(claim_queue(&db, "game:1", "b", t).await.unwrap());
            return;
        }
        assert!(!claim_queue(&db, "game:1", "b", t + 1).await.unwrap());
        assert!(
            claim_queue(&db, "game:2", "b", t + 1).await.unwrap(),
            "another queue is free"
        );
        assert!(
            claim_queue(&db, "game:1", "a", t + 10).await.unwrap(),
            "the holder renews"
        );
        let lapsed = t + 10 + CLAIM_LEASE_SECS + 1;
        assert!(!claim_queue(&db, "game:1", "b", lapsed - 2).await.unwrap());
        assert!(
            claim_queue(&db, "game:1", "b", lapsed).await.unwrap(),
            "a lapsed claim is taken over"
        );
        assert!(
            !claim_queue(&db, "game:1", "a", lapsed).await.unwrap(),
            "the old holder lost it"
        );
        release_queue(&db, "game:1", "b").await.unwrap();
        assert!(
            claim_queue(&db, "game:1", "a", lapsed).await.unwrap(),
            "released: free at once"
        );
    }
}

/// One column of a migrated schema, in one vocabulary for both engines: (table, column,
/// type, not null). Types: `integer` (SQLite `INTEGER`, PostgreSQL `bigint`/`integer`),
/// `text`, `boolean`, `float` (`REAL`, `double precision`); any other type as declared.
type SchemaColumn = (String, String, String, bool);

/// A declared type in the vocabulary of [`SchemaColumn`].
fn type_kind(declared: &str) -> String {
    match declared.to_ascii_lowercase().as_str() {
        "integer" | "bigint" | "int" | "smallint" => "integer".into(),
        "text" | "character varying" => "text".into(),
        "boolean" => "boolean".into(),
        "real" | "double precision" => "float".into(),
        other => other.into(),
    }
}

/// Every column of every table of `db` but sqlx's own, sorted by table and column.
async fn schema_of(db: &kaboom_store::Db) -> Vec<SchemaColumn> {
    use kaboom_store::{Engine, sql::query};
    let rows: Vec<(String, String, String, i64)> = match db.engine() {
        Engine::Sqlite => query(
            "SELECT m.name, p.name, p.type, p.\"notnull\" <> 0 OR p.pk > 0
             FROM sqlite_master m JOIN pragma_table_info(m.name) p
             WHERE m.type = 'table' AND m.name <> '_sqlx_migrations'
               AND m.name NOT LIKE 'sqlite%'",
        ),
        Engine::Postgres => query(
            "SELECT table_name::text, column_name::text, data_type::text,
                    CASE WHEN is_nullable::text = 'NO' THEN 1 ELSE 0 END::bigint
             FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name <> '_sqlx_migrations'",
        ),
    }
    .fetch_all(db)
    .await
    .unwrap();
    let mut columns: Vec<SchemaColumn> = rows
        .into_iter()
        .map(|(t, c, ty, not_null)| (t, c, type_kind(&ty), not_null != 0))
        .collect();
    columns.sort();
    columns
}

kaboom_testkit::pgtest! {
    /// The SQLite and PostgreSQL migrations make the same tables with the same columns, of
    /// the same kinds and nullability, so that each statement means the same on both and
    /// `copy-db` moves every column. A SQLite `PRIMARY KEY` column counts as `NOT NULL`
    /// (PostgreSQL makes it so; SQLite's `INTEGER PRIMARY KEY` is the row id, never
    /// `NULL`).
    #[tokio::test]
    async fn sqlite_and_postgres_schemas_agree_column_by_column() {
        let pg_db = kaboom_testkit::TempDb::new().await;
        let pg = kaboom_store::Db::connect(pg_db.url()).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let sqlite = kaboom_store::Db::connect(&format!(
            "sqlite://{}",
            dir.path().join("schema.db").display()
        ))
        .await
        .unwrap();
        let (lite, post) = (schema_of(&sqlite).await, schema_of(&pg).await);
        assert!(lite.len() > 50 && post.len() > 50, "{} and {} columns", lite.len(), post.len());
        let only = |a: &[SchemaColumn], b: &[SchemaColumn]| {
            a.iter()
                .filter(|c| !b.contains(c))
                .map(|(t, c, ty, nn)| format!("  {t}.{c} {ty}{}", if *nn { " NOT NULL" } else { "" }))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert!(
            lite == post,
            "the schemas differ\nonly on SQLite:\n{}\nonly on PostgreSQL:\n{}",
            only(&lite, &post),
            only(&post, &lite)
        );
        sqlite.close().await;
        pg.close().await;
    }
}
