//! The demo's pages for people: Discord's markup rendered as a Discord client
//! shows it ([`render_markup`]: `<@1001>` as `@alice`, `<t:1795740092:f>` as a date), and
//! `kaboom-demo/index.html` ([`index_html`]), one self-contained page (no script, no
//! network; the board images beside it) with each game's thread as its players saw it:
//! names and initials avatars, timestamps, embeds, buttons and menus drawn, board images,
//! and in a side column what only one player saw (DMs, ephemeral answers, the autocomplete
//! list they typed into), each marked "only alice sees this".
//!
//! Markup follows Discord's message formatting reference
//! (<https://discord.com/developers/docs/reference#message-formatting>): user mentions
//! `<@ID>`, channel mentions `<#ID>`, timestamps `<t:UNIX:STYLE>` with the styles `t`, `T`,
//! `d`, `D`, `f` (default), `F` and `R`, shown here in UTC.

use std::collections::HashMap;
use std::fmt::Write as _;

use fake_discord::FakeMessage;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// Who and what the markup names: user and channel ids to names.
#[derive(Clone, Debug, Default)]
pub struct Names {
    /// User id to username (`1001` to `alice`).
    pub users: HashMap<u64, String>,
    /// Channel id to channel name (without `#`).
    pub channels: HashMap<u64, String>,
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn clock(t: OffsetDateTime, seconds: bool) -> String {
    let (h, m, s) = (t.hour(), t.minute(), t.second());
    let (h12, ampm) = match h {
        0 => (12, "AM"),
        1..=11 => (h, "AM"),
        12 => (12, "PM"),
        _ => (h - 12, "PM"),
    };
    if seconds {
        format!("{h12}:{m:02}:{s:02} {ampm}")
    } else {
        format!("{h12}:{m:02} {ampm}")
    }
}

fn long_date(t: OffsetDateTime) -> String {
    format!(
        "{} {}, {}",
        MONTHS[usize::from(u8::from(t.month())) - 1],
        t.day(),
        t.year()
    )
}

/// A Discord timestamp `<t:unix:style>` as a client shows it (in UTC), `R` relative to
/// `now` (Unix seconds). `None` for a time out of range or an unknown style.
pub fn timestamp(unix: i64, style: char, now: i64) -> Option<String> {
    let t = OffsetDateTime::from_unix_timestamp(unix).ok()?;
    Some(match style {
        't' => clock(t, false),
        'T' => clock(t, true),
        'd' => format!("{:02}/{:02}/{}", u8::from(t.month()), t.day(), t.year()),
        'D' => long_date(t),
        'f' => format!("{} {}", long_date(t), clock(t, false)),
        'F' => format!("{}, {} {}", t.weekday(), long_date(t), clock(t, false)),
        'R' => relative(unix - now),
        _ => return None,
    })
}

fn relative(delta: i64) -> String {
    let abs = delta.unsigned_abs();
    let (n, unit) = match abs {
        0..=44 => return "just now".into(),
        45..=5_399 => (abs.div_ceil(60).max(1), "minute"),
        5_400..=129_599 => ((abs + 1_800) / 3_600, "hour"),
        129_600..=2_591_999 => ((abs + 43_200) / 86_400, "day"),
        _ => ((abs + 1_296_000) / 2_592_000, "month"),
    };
    let plural = if n == 1 { "" } else { "s" };
    if delta >= 0 {
        format!("in {n} {unit}{plural}")
    } else {
        format!("{n} {unit}{plural} ago")
    }
}

/// `text` with Discord's mention and timestamp markup replaced by what a client shows:
/// `<@1001>` (or `<@!1001>`) by `@alice`, `<#77>` by `#general`, `<t:N:f>` by the date
/// (UTC), `<t:N:R>` relative to `now` (Unix seconds). Unknown ids and malformed tags stay
/// as they are.
pub fn render_markup(text: &str, names: &Names, now: i64) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        let Some(end) = tail.find('>') else {
            out.push_str(tail);
            return out;
        };
        let tag = &tail[1..end];
        match replace_tag(tag, names, now) {
            Some(shown) => out.push_str(&shown),
            None => out.push_str(&tail[..=end]),
        }
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    out
}

fn replace_tag(tag: &str, names: &Names, now: i64) -> Option<String> {
    if let Some(id) = tag.strip_prefix("@!").or_else(|| tag.strip_prefix('@')) {
        let id: u64 = id.parse().ok()?;
        return names.users.get(&id).map(|n| format!("@{n}"));
    }
    if let Some(id) = tag.strip_prefix('#') {
        let id: u64 = id.parse().ok()?;
        return names.channels.get(&id).map(|n| format!("#{n}"));
    }
    let spec = tag.strip_prefix("t:")?;
    let (unix, style) = match spec.split_once(':') {
        Some((unix, style)) => (unix, style),
        None => (spec, "f"),
    };
    let mut chars = style.chars();
    let (Some(style), None) = (chars.next(), chars.next()) else {
        return None;
    };
    timestamp(unix.parse().ok()?, style, now)
}

/// Unix seconds of a message's `timestamp` (RFC 3339), 0 when it has none.
pub fn message_unix(m: &FakeMessage) -> i64 {
    m.json["timestamp"]
        .as_str()
        .and_then(|t| OffsetDateTime::parse(t, &Rfc3339).ok())
        .map_or(0, OffsetDateTime::unix_timestamp)
}

/// HTML-escapes `text` (`&`, `<`, `>`, `"`, `'`).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Discord's Markdown subset the bot uses, as HTML: `**bold**`, `*italic*`, `` `code` ``,
/// `> ` quotes, `-# ` small text, line breaks; everything else escaped.
pub fn markdown_html(text: &str) -> String {
    let mut lines = Vec::new();
    // A fenced code block (```), shown monospaced with its spacing, as Discord does.
    let mut code: Option<Vec<String>> = None;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            match code.take() {
                Some(block) => {
                    lines.push(format!("<pre class=\"code\">{}</pre>", block.join("\n")))
                }
                None => code = Some(Vec::new()),
            }
            continue;
        }
        if let Some(block) = code.as_mut() {
            block.push(escape(line));
            continue;
        }
        let (class, body) = if let Some(b) = line.strip_prefix("> ") {
            (Some("quote"), b)
        } else if let Some(b) = line.strip_prefix("-# ") {
            (Some("small"), b)
        } else {
            (None, line)
        };
        let html = inline_html(body);
        lines.push(match class {
            Some(c) => format!("<span class=\"{c}\">{html}</span>"),
            None => html,
        });
    }
    if let Some(block) = code {
        // An unclosed fence: its lines as they are.
        lines.extend(block);
    }
    lines.join("<br>")
}

fn inline_html(text: &str) -> String {
    let escaped = escape(text);
    let mut out = String::new();
    let mut rest = escaped.as_str();
    loop {
        let next = [("**", "b"), ("`", "code"), ("*", "i")]
            .into_iter()
            .filter_map(|(mark, tag)| rest.find(mark).map(|at| (at, mark, tag)))
            .min_by_key(|(at, mark, _)| (*at, std::cmp::Reverse(mark.len())));
        let Some((at, mark, tag)) = next else {
            out.push_str(rest);
            return out;
        };
        let after = &rest[at + mark.len()..];
        match after.find(mark) {
            Some(close) if close > 0 => {
                out.push_str(&rest[..at]);
                let _ = write!(out, "<{tag}>{}</{tag}>", &after[..close]);
                rest = &after[close + mark.len()..];
            }
            _ => {
                out.push_str(&rest[..at + mark.len()]);
                rest = after;
            }
        }
    }
}

/// Where an item of a game's page appeared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// In the game's public thread (or the text channel, for the challenge).
    Public,
    /// Only `user` saw it: a DM, an ephemeral answer or an autocomplete list.
    Private {
        /// The username.
        user: String,
        /// `DM`, `ephemeral` or `autocomplete`.
        how: &'static str,
    },
}

/// One message (or autocomplete list) on a game's page.
#[derive(Clone, Debug)]
pub struct Item {
    /// Orders the items: the message id (autocomplete lists: the last id before them).
    pub order: u64,
    /// Author name (`alice`, `Kaboom`).
    pub author: String,
    /// Whether the author is the bot (shown with a BOT tag).
    pub bot: bool,
    /// The time shown beside the author.
    pub time: String,
    /// `alice used /move`, above a reply to an interaction.
    pub used: Option<String>,
    /// The content, rendered to HTML.
    pub html: String,
    /// Board image paths, relative to the page.
    pub images: Vec<String>,
    /// Where it appeared.
    pub place: Place,
}

/// One game's section of the page.
#[derive(Clone, Debug)]
pub struct GamePage {
    /// The section's id in the page (`atomic`, ..., `clock`), so `index.html#beirut` links it.
    pub anchor: String,
    /// Its name in the table of contents (thread names repeat: two Atomic games of alice
    /// and bob).
    pub label: String,
    /// The thread's name.
    pub title: String,
    /// A line under the title (variant, result, plies).
    pub summary: String,
    /// The items in time order.
    pub items: Vec<Item>,
}

const BUTTON_STYLES: [&str; 6] = ["", "primary", "secondary", "success", "danger", "link"];

/// The HTML of one message's content, embeds and components (`names`/`now` render the
/// markup; `images` maps attachment ids to paths beside the page).
pub fn message_html(
    m: &FakeMessage,
    names: &Names,
    now: i64,
    images: &HashMap<u64, String>,
) -> (String, Vec<String>) {
    let mut html = String::new();
    if !m.content().is_empty() {
        let _ = write!(
            html,
            "<div class=\"content\">{}</div>",
            markdown_html(&render_markup(m.content(), names, now))
        );
    }
    for e in m.embeds() {
        html.push_str("<div class=\"embed\">");
        for (key, class) in [("title", "etitle"), ("description", "edesc")] {
            if let Some(t) = e.get(key).and_then(|v| v.as_str()) {
                let _ = write!(
                    html,
                    "<div class=\"{class}\">{}</div>",
                    markdown_html(&render_markup(t, names, now))
                );
            }
        }
        for f in e["fields"].as_array().into_iter().flatten() {
            let _ = write!(
                html,
                "<div class=\"field\"><b>{}</b><br>{}</div>",
                markdown_html(&render_markup(f["name"].as_str().unwrap_or(""), names, now)),
                markdown_html(&render_markup(
                    f["value"].as_str().unwrap_or(""),
                    names,
                    now
                ))
            );
        }
        html.push_str("</div>");
    }
    let mut shown = Vec::new();
    for a in &m.attachments {
        if let Some(path) = images.get(&a.id) {
            shown.push(path.clone());
        }
    }
    for row in m.components() {
        html.push_str("<div class=\"row\">");
        for c in row["components"].as_array().into_iter().flatten() {
            match c["type"].as_u64() {
                Some(2) => {
                    let style = usize::try_from(c["style"].as_u64().unwrap_or(2)).unwrap_or(2);
                    let disabled = c["disabled"].as_bool().unwrap_or(false);
                    let _ = write!(
                        html,
                        "<span class=\"button {}{}\">{}</span>",
                        BUTTON_STYLES.get(style).copied().unwrap_or("secondary"),
                        if disabled { " disabled" } else { "" },
                        escape(c["label"].as_str().unwrap_or("?"))
                    );
                }
                Some(3) => {
                    let options: Vec<String> = c["options"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|o| o["label"].as_str().map(escape))
                        .collect();
                    let _ = write!(
                        html,
                        "<div class=\"select\"><div class=\"placeholder\">{} &#9662;</div><div class=\"options\">{}</div></div>",
                        escape(c["placeholder"].as_str().unwrap_or("Make a selection")),
                        options.join(" · ")
                    );
                }
                _ => {}
            }
        }
        html.push_str("</div>");
    }
    (html, shown)
}

const STYLE: &str = r#"
body{margin:0;background:#313338;color:#dbdee1;font:15px/1.4 "gg sans","Noto Sans","Helvetica Neue",Helvetica,Arial,sans-serif}
header{padding:16px 24px;background:#2b2d31;border-bottom:1px solid #1f2023}
h1{margin:0 0 4px;font-size:22px;color:#f2f3f5}h2{margin:0;font-size:18px;color:#f2f3f5}
.intro{color:#b5bac1;max-width:1100px}
section.game{margin:18px 24px;border:1px solid #1f2023;border-radius:8px;overflow:hidden}
section.game>.ghead{padding:10px 16px;background:#2b2d31}
.ghead .sum{color:#b5bac1;font-size:13px}
.cols{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr)}
.colhead{padding:6px 16px;font-size:12px;text-transform:uppercase;color:#949ba4;background:#2b2d31;border-bottom:1px solid #1f2023}
.colhead.side{background:#232428;border-left:1px solid #1f2023}
.cell{padding:6px 16px}.cell.side{background:#232428;border-left:1px solid #1f2023}
.msg{display:flex;gap:12px}
.avatar{flex:0 0 40px;height:40px;border-radius:50%;display:flex;align-items:center;justify-content:center;font-weight:700;color:#fff}
.body{min-width:0;flex:1;overflow-wrap:anywhere}
.name{font-weight:600;color:#f2f3f5}.time{color:#949ba4;font-size:12px;margin-left:6px}
.bot{background:#5865f2;color:#fff;font-size:10px;border-radius:3px;padding:1px 4px;margin-left:4px;vertical-align:2px}
.used{color:#949ba4;font-size:13px}
.only{color:#c9cdfb;font-size:12px;font-style:italic}
.private{border-left:3px solid #5865f2;padding-left:8px}
.embed{border-left:4px solid #f0b232;background:#2b2d31;border-radius:4px;padding:8px 12px;margin:4px 0;max-width:520px}
.etitle{font-weight:700;color:#f2f3f5}.field{margin-top:4px}
.quote{border-left:3px solid #4e5058;padding-left:8px;display:inline-block}pre.code{background:#2b2d31;border:1px solid #1e1f22;border-radius:4px;padding:6px 8px;margin:4px 0;font:13px/1.35 monospace;white-space:pre;overflow-x:auto}.small{font-size:12px;color:#949ba4}
code{background:#1e1f22;border-radius:3px;padding:0 3px;font-size:13px}
img.board{display:block;max-width:300px;border-radius:4px;margin:4px 0}
.row{margin:4px 0}.button{display:inline-block;padding:3px 12px;margin:2px 6px 2px 0;border-radius:3px;font-size:13px;font-weight:500;color:#fff;background:#4e5058}
.button.primary{background:#5865f2}.button.success{background:#248046}.button.danger{background:#da373c}.button.disabled{opacity:.5}
.select{background:#1e1f22;border-radius:4px;padding:6px 10px;max-width:420px}.options{font-size:12px;color:#b5bac1}
.ac{background:#2b2d31;border-radius:6px;padding:6px 10px}.ac .typed{font-family:monospace;color:#f2f3f5}
.ac ol{margin:4px 0 0;padding-left:20px}.ac li{color:#dbdee1}.ac li.chosen{color:#fff;font-weight:700}
nav a{color:#00a8fc;margin-right:14px;font-size:13px}
table.sumt{border-collapse:collapse;margin:8px 0}.sumt td,.sumt th{border:1px solid #4e5058;padding:3px 8px;font-size:13px}
"#;

fn avatar(name: &str, bot: bool) -> String {
    let colour = if bot {
        "#5865f2".to_string()
    } else {
        let h = name
            .bytes()
            .fold(7u32, |h, b| h.wrapping_mul(31) + u32::from(b))
            % 360;
        format!("hsl({h},55%,42%)")
    };
    let initials: String = if bot {
        "KB".into()
    } else {
        name.chars().take(1).flat_map(char::to_uppercase).collect()
    };
    format!("<div class=\"avatar\" style=\"background:{colour}\">{initials}</div>")
}

fn item_html(item: &Item) -> String {
    let mut html = String::from("<div class=\"msg\">");
    html.push_str(&avatar(&item.author, item.bot));
    html.push_str("<div class=\"body\">");
    if let Some(used) = &item.used {
        let _ = write!(html, "<div class=\"used\">&#8627; {}</div>", escape(used));
    }
    let _ = write!(
        html,
        "<div><span class=\"name\">{}</span>{}<span class=\"time\">{}</span></div>",
        escape(&item.author),
        if item.bot {
            "<span class=\"bot\">APP</span>"
        } else {
            ""
        },
        escape(&item.time)
    );
    html.push_str(&item.html);
    for img in &item.images {
        let _ = write!(
            html,
            "<img class=\"board\" src=\"{}\" alt=\"board {}\">",
            escape(img),
            escape(img)
        );
    }
    if let Place::Private { user, how } = &item.place {
        let _ = write!(
            html,
            "<div class=\"only\">only {} sees this ({how})</div>",
            escape(user)
        );
    }
    html.push_str("</div></div>");
    html
}

/// The whole page: a title, an introduction, the summary table (Markdown table rows as
/// given by the demo) and one section per game.
pub fn index_html(intro: &str, summary_rows: &[Vec<String>], games: &[GamePage]) -> String {
    let mut html = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>kaboom demo</title><style>",
    );
    html.push_str(STYLE);
    html.push_str("</style></head><body><header><h1>kaboom demo</h1>");
    let _ = write!(html, "<div class=\"intro\">{}</div>", markdown_html(intro));
    if let Some((head, rows)) = summary_rows.split_first() {
        html.push_str("<table class=\"sumt\"><tr>");
        for h in head {
            let _ = write!(html, "<th>{}</th>", escape(h));
        }
        html.push_str("</tr>");
        for row in rows {
            html.push_str("<tr>");
            for c in row {
                let _ = write!(html, "<td>{}</td>", escape(c));
            }
            html.push_str("</tr>");
        }
        html.push_str("</table>");
    }
    html.push_str("<nav>");
    for g in games {
        let _ = write!(
            html,
            "<a href=\"#{}\">{}</a> ",
            escape(&g.anchor),
            escape(&g.label)
        );
    }
    html.push_str("</nav></header>\n");
    for g in games {
        let _ = write!(
            html,
            "<section class=\"game\" id=\"{}\"><div class=\"ghead\"><h2># {}</h2><div class=\"sum\">{}</div></div>\
             <div class=\"cols\"><div class=\"colhead\">Thread (everyone sees this)</div>\
             <div class=\"colhead side\">Private: DMs, ephemeral answers, autocomplete</div>",
            escape(&g.anchor),
            escape(&g.title),
            escape(&g.summary)
        );
        for item in &g.items {
            let inner = item_html(item);
            match item.place {
                Place::Public => {
                    let _ = write!(
                        html,
                        "<div class=\"cell\">{inner}</div><div class=\"cell side\"></div>"
                    );
                }
                Place::Private { .. } => {
                    let _ = write!(
                        html,
                        "<div class=\"cell\"></div><div class=\"cell side\"><div class=\"private\">{inner}</div></div>"
                    );
                }
            }
        }
        html.push_str("</div></section>\n");
    }
    html.push_str("</body></html>\n");
    html
}

/// An autocomplete list as the typing player saw it, the chosen entry marked.
pub fn autocomplete_html(typed: &str, choices: &[String], chosen: &str) -> String {
    let mut html = format!(
        "<div class=\"ac\">/move action: <span class=\"typed\">{}</span><ol>",
        escape(typed)
    );
    for c in choices {
        let _ = write!(
            html,
            "<li{}>{}</li>",
            if c == chosen { " class=\"chosen\"" } else { "" },
            escape(c)
        );
    }
    html.push_str("</ol></div>");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Names {
        let mut n = Names::default();
        n.users.insert(1001, "alice".into());
        n.users.insert(1002, "bob".into());
        n.channels.insert(77, "kaboom".into());
        n
    }

    #[test]
    fn mentions_and_timestamps_are_rendered() {
        // 1795740092 = 2026-11-27T00:41:32Z.
        let t = render_markup(
            "<@1001> vs <@!1002> in <#77>: by <t:1795740092:f> (<t:1795740092:R>) <@9>",
            &names(),
            1_795_740_092 - 3 * 86_400,
        );
        assert_eq!(
            t,
            "@alice vs @bob in #kaboom: by November 27, 2026 12:41 AM (in 3 days) <@9>"
        );
        assert_eq!(
            render_markup("<t:1795740092:R>", &names(), 1_795_740_092 + 7_200),
            "2 hours ago"
        );
        assert_eq!(
            render_markup("a < b <t:x:f> <t:1:Q>", &names(), 0),
            "a < b <t:x:f> <t:1:Q>"
        );
        assert_eq!(timestamp(0, 'd', 0).unwrap(), "01/01/1970");
        assert_eq!(timestamp(13 * 3600 + 5, 'T', 0).unwrap(), "1:00:05 PM");
    }

    #[test]
    fn markdown_is_escaped_then_styled() {
        assert_eq!(
            markdown_html("**Nf3** `e4` <b> *x*\n> quoted"),
            "<b>Nf3</b> <code>e4</code> &lt;b&gt; <i>x</i><br><span class=\"quote\">quoted</span>"
        );
        assert_eq!(markdown_html("2 * 3"), "2 * 3");
    }
}
