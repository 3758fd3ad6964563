//! `kaboom invite-url`: the OAuth2 links that add the bot to a server with exactly the
//! scopes and permissions it needs, and that install the app to a player's own account
//! (to play in DMs, group DMs and servers without the bot; docs/hosting.md explains both).
//!
//! The application id comes from `--application-id`, else `DISCORD_APPLICATION_ID`
//! (environment or `.env`), else the first segment of `DISCORD_TOKEN`, which is the
//! base64 of the bot user's id; a bot user's id equals its application's id.

use base64::Engine as _;
use poise::serenity_prelude as serenity;

/// The permissions Kaboom asks for when invited, and needs in the channels it plays in:
/// View Channel, Send Messages, Send Messages in Threads, Create Public Threads, Attach
/// Files, Embed Links, Read Message History. Its integer (`bits()`) is the `permissions`
/// value of the invite URL and the number given in docs/hosting.md.
pub const PERMISSIONS: serenity::Permissions = kaboom_discord::place::NEEDED;

/// The OAuth2 scopes of the invite, as they appear in the URL (`+` joins them).
pub const SCOPES: &str = "bot+applications.commands";

/// Why no application id could be found or used, as one line for the host.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum InviteError {
    /// Neither the flag, nor `DISCORD_APPLICATION_ID`, nor `DISCORD_TOKEN`.
    #[error(
        "no application id: pass --application-id <ID> (Developer Portal, General Information), or set DISCORD_APPLICATION_ID or DISCORD_TOKEN in the environment or .env"
    )]
    Missing,
    /// A value that is not a Discord id (a positive number).
    #[error(
        "{source_name} must be a Discord application id (a number such as 1234567890123456789), not '{value}'"
    )]
    BadId {
        /// Where the value came from (`--application-id`, `DISCORD_APPLICATION_ID`).
        source_name: &'static str,
        /// The value given.
        value: String,
    },
    /// A token whose first segment does not decode to an id.
    #[error(
        "DISCORD_TOKEN does not start with the base64 of the bot's id (is it a bot token?): pass --application-id <ID> instead"
    )]
    BadToken,
}

fn parse_id(source_name: &'static str, value: &str) -> Result<u64, InviteError> {
    match value.trim().parse::<u64>() {
        Ok(id) if id > 0 => Ok(id),
        _ => Err(InviteError::BadId {
            source_name,
            value: value.to_string(),
        }),
    }
}

/// The bot user's id encoded in `token`: its first `.`-separated segment is the base64
/// (standard or URL-safe alphabet, padding optional) of the id in decimal.
///
/// # Errors
/// [`InviteError::BadToken`] when that segment is not the base64 of a number.
pub fn id_from_token(token: &str) -> Result<u64, InviteError> {
    let token = token.trim();
    let token = token.strip_prefix("Bot ").unwrap_or(token);
    let first = token.split('.').next().unwrap_or_default();
    let normalized: String = first
        .trim_end_matches('=')
        .chars()
        .map(|c| match c {
            '-' => '+',
            '_' => '/',
            c => c,
        })
        .collect();
    let bytes = base64::engine::general_purpose::STANDARD_NO_PAD
        .decode(normalized)
        .map_err(|_| InviteError::BadToken)?;
    let text = String::from_utf8(bytes).map_err(|_| InviteError::BadToken)?;
    parse_id("DISCORD_TOKEN", &text).map_err(|_| InviteError::BadToken)
}

/// The application id: `flag` if given, else `DISCORD_APPLICATION_ID`, else the id in
/// `DISCORD_TOKEN`, both read through `get` (empty values count as unset).
///
/// # Errors
/// [`InviteError`] when none is given, or the one found is malformed.
pub fn application_id(
    flag: Option<&str>,
    get: impl Fn(&str) -> Option<String>,
) -> Result<u64, InviteError> {
    if let Some(id) = flag {
        return parse_id("--application-id", id);
    }
    if let Some(id) = get("DISCORD_APPLICATION_ID").filter(|v| !v.trim().is_empty()) {
        return parse_id("DISCORD_APPLICATION_ID", &id);
    }
    match get("DISCORD_TOKEN").filter(|v| !v.trim().is_empty()) {
        Some(token) => id_from_token(&token),
        None => Err(InviteError::Missing),
    }
}

/// The server invite URL for application `id`: `integration_type=0` (GUILD_INSTALL) with
/// [`SCOPES`] and [`PERMISSIONS`] ("integration_type: The installation context for the
/// authorization ... 0 for GUILD_INSTALL, 1 for USER_INSTALL",
/// <https://discord.com/developers/docs/topics/oauth2#authorization-code-grant>).
pub fn invite_url(id: u64) -> String {
    format!(
        "https://discord.com/oauth2/authorize?client_id={id}&integration_type=0&scope={SCOPES}&permissions={}",
        PERMISSIONS.bits()
    )
}

/// The user install URL for application `id`: `integration_type=1` (USER_INSTALL) with the
/// only scope a user install takes, `applications.commands` ("Apps installed in a user
/// context (user-installed apps) only support the applications.commands scope",
/// <https://discord.com/developers/docs/resources/application#installation-context>).
/// The Developer Portal must allow User Install (docs/hosting.md).
pub fn user_install_url(id: u64) -> String {
    format!(
        "https://discord.com/oauth2/authorize?client_id={id}&integration_type=1&scope=applications.commands"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn lookup(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    fn encode(id: &str) -> String {
        base64::engine::general_purpose::STANDARD_NO_PAD.encode(id)
    }

    #[test]
    fn permissions_are_exactly_the_seven_documented_ones() {
        let names = PERMISSIONS.get_permission_names();
        assert_eq!(names.len(), 7, "{names:?}");
        for name in [
            "View Channel",
            "Send Messages",
            "Send Messages in Threads",
            "Create Public Threads",
            "Attach Files",
            "Embed Links",
            "Read Message History",
        ] {
            assert!(names.contains(&name), "{name} missing from {names:?}");
        }
    }

    #[test]
    fn the_flag_wins_then_the_variable_then_the_token() {
        let token = format!("{}.GxYz12.abcdefghijklmnop", encode("222333444555666777"));
        let all = lookup(&[
            ("DISCORD_APPLICATION_ID", "111"),
            ("DISCORD_TOKEN", token.as_str()),
        ]);
        assert_eq!(application_id(Some("42"), &all), Ok(42));
        assert_eq!(application_id(None, &all), Ok(111));
        let only_token = lookup(&[("DISCORD_APPLICATION_ID", " "), ("DISCORD_TOKEN", &token)]);
        assert_eq!(application_id(None, only_token), Ok(222333444555666777));
        assert_eq!(application_id(None, lookup(&[])), Err(InviteError::Missing));
    }

    #[test]
    fn the_token_segment_decodes_with_or_without_padding() {
        // "1234" is MTIzNA== in base64.
        assert_eq!(id_from_token("MTIzNA.x.y"), Ok(1234));
        assert_eq!(id_from_token("Bot MTIzNA==.x.y"), Ok(1234));
        assert_eq!(id_from_token("not-base64!.x.y"), Err(InviteError::BadToken));
        // base64 of "abc": text, not an id.
        assert_eq!(id_from_token("YWJj.x.y"), Err(InviteError::BadToken));
    }

    #[test]
    fn bad_ids_say_what_was_wrong_in_one_line() {
        let e = application_id(Some("my-bot"), lookup(&[])).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("--application-id") && text.contains("'my-bot'"),
            "{text}"
        );
        assert!(!InviteError::Missing.to_string().contains('\n'));
    }

    #[test]
    fn the_url_has_the_id_scopes_and_bits() {
        let url = invite_url(987);
        assert!(url.starts_with("https://discord.com/oauth2/authorize?client_id=987&"));
        assert!(url.contains("&scope=bot+applications.commands&"));
        assert!(url.ends_with(&format!("&permissions={}", PERMISSIONS.bits())));
    }
}
