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
