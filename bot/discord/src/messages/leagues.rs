//! The texts of server leagues: the sign-up post, round pairings, standings, the end,
//! refusals and replies (docs/leagues.md explains the formats and buttons to organisers).

use poise::serenity_prelude as serenity;

use super::{ids, mention, timestamp};
use kaboom_domain::ids::UserId;
use kaboom_domain::league::{
    self, ByeValue, League, LeagueFormat, LeagueResult, LeagueStanding, LeagueStatus, standings,
};
use kaboom_pairing::berger::Cycles;
use kaboom_pairing::{Score, TieBreak};
use kaboom_renderer::{Align, Cell, CellStyle, Column, TableImage};
use kaboom_service::Snapshot;
use kaboom_service::leagues::LeagueRefusal;
use kaboom_store::leagues::LeagueRow;

/// Custom-id actions of the sign-up post's buttons (`kb:<action>:<league id>`).
pub mod actions {
    /// Join a league.
    pub const JOIN: &str = "lgjoin";
    /// Leave a league during sign-up.
    pub const LEAVE: &str = "lgleave";
}

/// `text` with Discord's markdown characters escaped, so that a name shows as typed.
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '*' | '_' | '~' | '`' | '|' | '>' | '#' | '[' | ']'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Points as players write them: `3`, `2½`, `½`.
pub fn points(score: Score) -> String {
    let text = score.to_string();
    let (whole, tenths) = text.split_once('.').unwrap_or((&text, "0"));
    match (whole, tenths) {
        (w, "0") => w.to_string(),
        ("0", "5") => "½".to_string(),
        (w, "5") => format!("{w}½"),
        _ => text.clone(),
    }
}

/// The format in words: `single round-robin`, `double round-robin, both colours at once`,
/// `5-round Swiss`.
pub fn format_name(format: LeagueFormat) -> String {
    match format {
        LeagueFormat::RoundRobin {
            cycles: Cycles::Single,
            ..
        } => "single round-robin".to_string(),
        LeagueFormat::RoundRobin {
            cycles: Cycles::Double,
            both_colours_at_once: false,
        } => "double round-robin".to_string(),
        LeagueFormat::RoundRobin {
            cycles: Cycles::Double,
            both_colours_at_once: true,
        } => "double round-robin, both colours at once".to_string(),
        LeagueFormat::Swiss { rounds } => format!("{rounds}-round Swiss"),
    }
}

fn days(secs: i64) -> String {
    let d = secs / league::DAY;
    if d * league::DAY == secs {
        if d == 1 {
            "1 day".to_string()
        } else {
            format!("{d} days")
        }
    } else {
        format!("{} hours", secs / 3600)
    }
}

/// The title line: `**Atomic autumn** · Atomic, single round-robin`.
fn title(league: &League) -> String {
    format!(
        "**{}** · {}, {}",
        plain(&league.name),
        league.variant.title(),
        format_name(league.format)
    )
}

/// The settings line: `Rated · 3 days per move · rounds of 7 days`.
fn settings_line(league: &League) -> String {
    let s = &league.settings;
    let mut parts = vec![
        if s.rated { "Rated" } else { "Casual" }.to_string(),
        format!(
            "{} per move",
            days(i64::from(s.days_per_move) * league::DAY)
        ),
        format!("rounds of {}", days(s.round_length_secs)),
    ];
    if league.options.carriers > 1 {
        parts.push(format!("{} carriers", league.options.carriers));
    }
    if league.options.dead_mans_switch {
        parts.push("Dead Man's Switch".to_string());
    }
    if let LeagueFormat::Swiss { .. } = league.format {
        parts.push(format!(
            "bye {}",
            match s.bye_value {
                ByeValue::Full => "1 point",
                ByeValue::Half => "½ point",
                ByeValue::Zero => "0 points",
            }
        ));
    }
    parts.join(" · ")
}

/// The sign-up post as it stands: title, settings, when sign-up closes, the players.
pub fn sign_up_post(row: &LeagueRow) -> String {
    let league = &row.league;
    let mut lines = vec![title(league), settings_line(league)];
    match league.status {
        LeagueStatus::SignUp => {
            let mut when = Vec::new();
            if let Some(deadline) = league.sign_up.deadline {
                when.push(format!("Sign-up closes {}", timestamp(deadline)));
            }
            if let Some(limit) = league.sign_up.player_limit {
                when.push(format!("at {limit} players"));
            }
            let close = if when.is_empty() {
                "Sign-up is open until an organiser starts the league.".to_string()
            } else {
                format!("{}.", when.join(" or "))
            };
            lines.push(format!(
                "{close} Organiser: {}. Press **Join** to take part.",
                mention(row.created_by)
            ));
        }
        _ if league.was_cancelled() => {
            lines.push("Called off: too few players joined.".to_string());
        }
        _ => lines.push("Sign-up is closed; the players are seeded by rating.".to_string()),
    }
    lines.push(String::new());
    if league.entrants.is_empty() {
        lines.push("No players yet.".to_string());
    } else {
        lines.push(format!("Players ({}):", league.entrants.len()));
        for e in &league.entrants {
            lines.push(format!(
                "{}. {} ({})",
                e.start_rank,
                plain(&e.name),
                e.rating
            ));
        }
    }
    lines.join("\n")
}

/// The sign-up post's Join and Leave buttons.
pub fn sign_up_buttons(league_id: i64) -> Vec<serenity::CreateActionRow> {
    vec![serenity::CreateActionRow::Buttons(vec![
        serenity::CreateButton::new(ids::make(actions::JOIN, league_id))
            .label("Join")
            .style(serenity::ButtonStyle::Success),
        serenity::CreateButton::new(ids::make(actions::LEAVE, league_id))
            .label("Leave")
            .style(serenity::ButtonStyle::Secondary),
    ])]
}

fn name_of(league: &League, rank: u32) -> String {
    league
        .entrant(rank)
        .map_or_else(|| format!("#{rank}"), |e| plain(&e.name))
}

/// A round's start: its deadline, its games (with pings), byes and forfeits.
pub fn round_started(row: &LeagueRow, round: u32, games: &[Snapshot]) -> String {
    let league = &row.league;
    let mut lines = vec![format!(
        "{} · **round {round} of {}** starts.",
        title(league),
        league.round_count()
    )];
    if let Some(deadline) = league.round_deadline(round) {
        let rule = match league.format {
            LeagueFormat::RoundRobin { .. } => {
                "the next round starts then; a game still running goes on and counts when it ends"
            }
            LeagueFormat::Swiss { .. } => {
                "a game still running then is adjudicated after the grace period"
            }
        };
        lines.push(format!("The round ends {} ({rule}).", timestamp(deadline)));
    }
    for snap in games {
        let r = &snap.row;
        lines.push(format!(
            "{} (White) vs {}: game #{}",
            mention(r.white_id),
            mention(r.black_id),
            r.id
        ));
    }
    for bye in league.byes.iter().filter(|b| b.round == round) {
        let worth = match bye.value {
            ByeValue::Full => "1 point",
            ByeValue::Half => "½ point",
            ByeValue::Zero => "no points",
        };
        lines.push(format!(
            "Bye: {} ({worth}).",
            name_of(league, bye.start_rank)
        ));
    }
    for forfeit in league
        .games
        .iter()
        .filter(|g| g.round == round && g.game.is_none())
    {
        let (white, black) = (
            name_of(league, forfeit.white),
            name_of(league, forfeit.black),
        );
        lines.push(match forfeit.result {
            Some(LeagueResult::ForfeitWhiteWins) => {
                format!("{white} wins by forfeit against {black}, who withdrew.")
            }
            Some(LeagueResult::ForfeitBlackWins) => {
                format!("{black} wins by forfeit against {white}, who withdrew.")
            }
            _ => format!("{white} vs {black}: not played, both withdrew."),
        });
    }
    lines.join("\n")
}

/// The players a round's post pings: those with a game in it.
pub fn round_pings(games: &[Snapshot]) -> Vec<UserId> {
    let mut pings: Vec<UserId> = games
        .iter()
        .flat_map(|s| [s.row.white_id, s.row.black_id])
        .collect();
    pings.sort_by_key(|u| u.get());
    pings.dedup();
    pings
}

/// The short name of a tie-break, as the standings' column header.
pub fn tie_break_name(t: TieBreak) -> &'static str {
    match t {
        TieBreak::DirectEncounter => "DE",
        TieBreak::SonnebornBerger => "SB",
        TieBreak::Wins => "Wins",
        TieBreak::BuchholzCut1 => "BH-C1",
        TieBreak::Buchholz => "BH",
    }
}

fn tie_break_value(value: Option<f64>) -> String {
    match value {
        None => "-".to_string(),
        Some(v) if (v - v.round()).abs() < 1e-9 => format!("{}", v.round() as i64),
        Some(v) => {
            let text = format!("{v:.2}");
            text.trim_end_matches('0').to_string()
        }
    }
}

/// `league` as it stood at the end of league round `round`: its games and byes of later
/// rounds left out (the standings "after round `round`", whenever they are drawn).
pub fn through_round(league: &League, round: u32) -> League {
    let mut past = league.clone();
    past.games.retain(|g| g.round <= round);
    past.byes.retain(|b| b.round <= round);
    past.rounds.retain(|r| r.round <= round);
    past
}

/// `lines` (the [`standings`] of `league`) as a monospaced table: place, name, points, the
/// tie-breaks of the format; a withdrawn player marked, adjudicated results noted below.
pub fn standings_table(league: &League, lines: &[LeagueStanding]) -> String {
    let breaks = league.format.tie_breaks();
    let width = lines
        .iter()
        .map(|l| l.standing.name.chars().count().min(24))
        .max()
        .unwrap_or(4)
        .max(6);
    let mut out = format!("{:>3}  {:<width$}  {:>4}", "#", "Player", "Pts");
    for t in breaks {
        out.push_str(&format!("  {:>5}", tie_break_name(*t)));
    }
    out.push('\n');
    for l in lines {
        let mut name: String = l.standing.name.chars().take(24).collect();
        if l.withdrawn {
            name = format!("{}*", name.chars().take(23).collect::<String>());
        }
        out.push_str(&format!(
            "{:>3}  {:<width$}  {:>4}",
            l.standing.rank,
            name,
            points(l.standing.points)
        ));
        for v in &l.standing.tie_breaks {
            out.push_str(&format!("  {:>5}", tie_break_value(v.value)));
        }
        out.push('\n');
    }
    let mut text = format!("```\n{out}```");
    if lines.iter().any(|l| l.withdrawn) {
        text.push_str("\n\\* withdrew: games played count, later games are forfeits.");
    }
    let adjudicated = league.games.iter().filter(|g| g.adjudicated).count();
    if adjudicated > 0 {
        text.push_str(&format!(
            "\n{adjudicated} result{} decided by adjudication.",
            if adjudicated == 1 { " was" } else { "s were" }
        ));
    }
    text
}

/// The standings post: after round `after_round` (`None`: the final standings), how many
/// games still run, the table.
pub fn standings_post(row: &LeagueRow, after_round: Option<u32>) -> String {
    let league = &row.league;
    let past = after_round.map(|round| through_round(league, round));
    let lines = standings(past.as_ref().unwrap_or(league));
    let running = league
        .games
        .iter()
        .filter(|g| g.game.is_some() && g.result.is_none())
        .filter(|g| after_round.is_none_or(|r| g.round <= r))
        .count();
    let head = if let Some(round) = after_round {
        let still = match running {
            0 => String::new(),
            1 => " (1 game still running)".to_string(),
            n => format!(" ({n} games still running)"),
        };
        format!(
            "{} · standings after round {round} of {}{still}.",
            title(league),
            league.round_count()
        )
    } else {
        let first: Vec<String> = lines
            .iter()
            .filter(|l| l.standing.rank == 1)
            .map(|l| plain(&l.standing.name))
            .collect();
        let winner = match (first.as_slice(), lines.first()) {
            ([one], Some(l)) => {
                format!(" Winner: {one} with {} points.", points(l.standing.points))
            }
            (many, Some(l)) if !many.is_empty() => format!(
                " Shared first place, equal on points and every tie-break: {} with {} points.",
                many.join(" and "),
                points(l.standing.points)
            ),
            _ => String::new(),
        };
        format!("{} · **final standings**.{winner}", title(league))
    };
    let table = standings_table(past.as_ref().unwrap_or(league), &lines);
    format!("{head}\n{table}")
}

/// A league called off at the close of sign-up.
pub fn cancelled(row: &LeagueRow, have: u32, need: u32) -> String {
    format!(
        "{} is called off: {have} player{} joined, it needs at least {need}.",
        title(&row.league),
        if have == 1 { "" } else { "s" }
    )
}

/// Players who had left the server when sign-up closed, taken off the list.
pub fn left_server(row: &LeagueRow, players: &[(UserId, String)]) -> String {
    let names: Vec<String> = players.iter().map(|(_, name)| plain(name)).collect();
    let (names, verb) = match names.as_slice() {
        [one] => (one.clone(), "has left the server and was"),
        [rest @ .., last] => (
            format!("{} and {last}", rest.join(", ")),
            "have left the server and were",
        ),
        [] => (String::new(), "were"),
    };
    format!(
        "{names} {verb} taken off the players of {}.",
        title(&row.league)
    )
}

/// A player's withdrawal.
pub fn withdrawn(row: &LeagueRow, user: UserId) -> String {
    let league = &row.league;
    let name = league
        .entrant_by_user(user)
        .map_or_else(|| mention(user), |e| plain(&e.name));
    let later = match league.format {
        LeagueFormat::RoundRobin { .. } => "their later games are forfeit wins for their opponents",
        LeagueFormat::Swiss { .. } => "they are not paired any more",
    };
    format!(
        "{name} withdrew from {}: their games played count, {later}.",
        title(league)
    )
}

/// A game decided by adjudication.
pub fn adjudicated(row: &LeagueRow, snap: &Snapshot) -> String {
    let r = &snap.row;
    format!(
        "{} · game #{} {} vs {} was still running after the round's deadline and grace: adjudicated {}.",
        title(&row.league),
        r.id,
        plain(&r.white_name),
        plain(&r.black_name),
        r.result.as_deref().unwrap_or("*")
    )
}

/// The first board caption's line naming the league and round of a league game.
pub fn game_line(row: &LeagueRow, round: u32) -> String {
    format!(
        "League game: {}, round {round} of {}.",
        plain(&row.league.name),
        row.league.round_count()
    )
}

/// Why a league action was refused, for the player who tried it.
pub fn refusal(r: &LeagueRefusal) -> String {
    match r {
        LeagueRefusal::Unknown { id } => format!(
            "There is no league #{id} in this server. `/league list` shows this server's leagues."
        ),
        LeagueRefusal::NotALeague { typed } => format!(
            "`{}` is not a league: choose one from the list, or type its number (e.g. `3`).",
            typed.replace('`', "'")
        ),
        LeagueRefusal::OutsideServer => {
            "Leagues belong to a server: use this command in a server's channel.".to_string()
        }
        LeagueRefusal::Rules(e) => {
            let text = e.to_string();
            let mut chars = text.chars();
            match chars.next() {
                Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
                None => text,
            }
        }
        LeagueRefusal::Options { reason } => {
            format!("These variant options make no game: {reason}.")
        }
        LeagueRefusal::NoAbort => {
            "League games cannot be aborted: they are part of a round. Resign if you must stop."
                .to_string()
        }
        LeagueRefusal::Busy => {
            "The league changed while your request was saved; nothing was done. Try again."
                .to_string()
        }
        LeagueRefusal::NotOrganiser { role: None } => "Only members with the Manage Server permission create and manage leagues in this server. A server admin can let a role do it too with `/settings server league_organisers`.".to_string(),
        LeagueRefusal::NotOrganiser { role: Some(role) } => format!(
            "Only members with the Manage Server permission or the <@&{role}> role create and manage leagues in this server."
        ),
    }
}

/// The reply to a click on Join.
pub fn joined(row: &LeagueRow, user: UserId) -> String {
    let league = &row.league;
    match league.entrant_by_user(user) {
        Some(_) if league.status != LeagueStatus::SignUp => format!(
            "You joined {}. Sign-up is now closed: the pairings are posted in this channel.",
            title(league)
        ),
        _ => format!(
            "You joined {}: {} so far. Your games will be posted in this channel.",
            title(league),
            match league.entrants.len() {
                1 => "1 player".to_string(),
                n => format!("{n} players"),
            }
        ),
    }
}

/// The reply to a click on Leave.
pub fn left(row: &LeagueRow) -> String {
    format!("You left {}.", title(&row.league))
}

/// The reply to `/league create`: where the sign-up post is (or that it follows).
pub fn created(row: &LeagueRow, posted: bool) -> String {
    let place = if posted {
        "Its sign-up post is in this channel"
    } else {
        "Its sign-up post follows in this channel"
    };
    format!(
        "League #{} created: {}. {place}; players join with its button. Start it with `/league start` (or it starts when sign-up closes).",
        row.id,
        title(&row.league)
    )
}

/// The reply to `/league start`.
pub fn started(row: &LeagueRow) -> String {
    let league = &row.league;
    format!(
        "{} has started with {} players: round 1's games are posted in its channel.",
        title(league),
        league.entrants.len()
    )
}

/// The reply to `/league standings`: the standings, or the sign-up list before round 1.
pub fn standings_reply(row: &LeagueRow) -> String {
    let league = &row.league;
    match league.status {
        LeagueStatus::SignUp => sign_up_post(row),
        LeagueStatus::Finished if league.was_cancelled() => {
            format!("{} was called off: too few players joined.", title(league))
        }
        LeagueStatus::Finished => standings_post(row, None),
        _ => standings_post(row, Some(league.current_round())),
    }
}

/// The reply to `/league list`.
pub fn list(rows: &[LeagueRow]) -> String {
    if rows.is_empty() {
        return "This server has no leagues yet. Members with Manage Server create one with `/league create`.".to_string();
    }
    let mut lines = vec!["This server's leagues:".to_string()];
    for row in rows {
        let league = &row.league;
        let state = match league.status {
            LeagueStatus::SignUp => format!("sign-up, {} players", league.entrants.len()),
            LeagueStatus::Running { round } | LeagueStatus::Paused { round, .. } => {
                format!("round {round} of {}", league.round_count())
            }
            LeagueStatus::Finished if league.was_cancelled() => "called off".to_string(),
            LeagueStatus::Finished => "finished".to_string(),
        };
        lines.push(format!("#{} {} ({state})", row.id, title(league)));
    }
    lines.join("\n")
}

/// The reply to `/league withdraw`.
pub fn withdrew_reply(row: &LeagueRow) -> String {
    format!(
        "You withdrew from {}. Your games played count; your running games were resigned.",
        title(&row.league)
    )
}

/// One player's result of a game, from their side: its text and cell style.
fn result_cell(result: Option<LeagueResult>, white: bool) -> (&'static str, CellStyle) {
    use LeagueResult as R;
    match (result, white) {
        (None, _) => ("*", CellStyle::Pending),
        (Some(R::Draw), _) => ("½", CellStyle::Draw),
        (Some(R::WhiteWins), true) | (Some(R::BlackWins), false) => ("1", CellStyle::Win),
        (Some(R::WhiteWins), false) | (Some(R::BlackWins), true) => ("0", CellStyle::Loss),
        (Some(R::ForfeitWhiteWins), true) | (Some(R::ForfeitBlackWins), false) => {
            ("+", CellStyle::Win)
        }
        (Some(R::ForfeitWhiteWins), false)
        | (Some(R::ForfeitBlackWins), true)
        | (Some(R::DoubleForfeit), _) => ("-", CellStyle::Loss),
    }
}

/// The style of a cell holding several results: the first one's, or pending if any runs.
fn combined_style(styles: &[CellStyle]) -> CellStyle {
    if styles.contains(&CellStyle::Pending) {
        CellStyle::Pending
    } else {
        styles.first().copied().unwrap_or(CellStyle::Normal)
    }
}

/// The standings as a picture's table: a crosstable for a round-robin (a row and a column
/// per player in standings order, each cell the results of their games, `*` for one still
/// running), for a Swiss a row per player with each round's colour, opponent (start
/// number) and result. Points and the format's tie-breaks close each row.
pub fn standings_image(row: &LeagueRow, after_round: Option<u32>) -> TableImage {
    let past;
    let league = match after_round {
        Some(round) => {
            past = through_round(&row.league, round);
            &past
        }
        None => &row.league,
    };
    let lines = standings(league);
    let breaks = league.format.tie_breaks();
    let subtitle = match after_round {
        Some(r) => format!(
            "{} · after round {r} of {}",
            format_name(league.format),
            league.round_count()
        ),
        None => format!("{} · final", format_name(league.format)),
    };
    let mut columns = vec![
        Column {
            header: "#".to_string(),
            align: Align::Right,
        },
        Column {
            header: "Player".to_string(),
            align: Align::Left,
        },
    ];
    let order: Vec<u32> = lines.iter().map(|l| l.standing.start_rank).collect();
    let round_robin = matches!(league.format, LeagueFormat::RoundRobin { .. });
    if round_robin {
        for index in 1..=order.len() {
            columns.push(Column {
                header: index.to_string(),
                align: Align::Center,
            });
        }
    } else {
        columns.push(Column {
            header: "No.".to_string(),
            align: Align::Right,
        });
        for round in 1..=after_round.unwrap_or_else(|| league.current_round()) {
            columns.push(Column {
                header: format!("R{round}"),
                align: Align::Center,
            });
        }
    }
    columns.push(Column {
        header: "Pts".to_string(),
        align: Align::Right,
    });
    for t in breaks {
        columns.push(Column {
            header: tie_break_name(*t).to_string(),
            align: Align::Right,
        });
    }
    let mut rows = Vec::new();
    for l in &lines {
        let me = l.standing.start_rank;
        let mut name = l.standing.name.clone();
        if l.withdrawn {
            name.push_str(" (withdrew)");
        }
        let mut cells = vec![Cell::new(l.standing.rank.to_string()), Cell::new(name)];
        if round_robin {
            for &them in &order {
                if them == me {
                    cells.push(Cell::styled("", CellStyle::Diagonal));
                    continue;
                }
                let mut texts = Vec::new();
                let mut styles = Vec::new();
                for g in league.games.iter().filter(|g| {
                    (g.white == me && g.black == them) || (g.white == them && g.black == me)
                }) {
                    let (text, style) = result_cell(g.result, g.white == me);
                    texts.push(text);
                    styles.push(style);
                }
                cells.push(Cell::styled(texts.join(" "), combined_style(&styles)));
            }
        } else {
            cells.push(Cell::new(me.to_string()));
            for round in 1..=after_round.unwrap_or_else(|| league.current_round()) {
                let game = league
                    .games
                    .iter()
                    .find(|g| g.round == round && (g.white == me || g.black == me));
                let cell = if let Some(g) = game {
                    let white = g.white == me;
                    let (text, style) = result_cell(g.result, white);
                    let opponent = if white { g.black } else { g.white };
                    Cell::styled(
                        format!("{}{opponent} {text}", if white { "W" } else { "B" }),
                        style,
                    )
                } else if league
                    .byes
                    .iter()
                    .any(|b| b.round == round && b.start_rank == me)
                {
                    Cell::styled("bye", CellStyle::Draw)
                } else {
                    Cell::new("-")
                };
                cells.push(cell);
            }
        }
        cells.push(Cell::styled(points(l.standing.points), CellStyle::Emphasis));
        for v in &l.standing.tie_breaks {
            cells.push(Cell::new(tie_break_value(v.value)));
        }
        rows.push(cells);
    }
    TableImage {
        title: league.name.clone(),
        subtitle: Some(subtitle),
        columns,
        rows,
    }
}

/// The reply to `/league export`.
pub fn exported(id: i64) -> String {
    format!("League #{id}: its tournament report (FIDE TRF-16) and its games (PGN).")
}

/// A league paused by an organiser.
pub fn paused(row: &LeagueRow) -> String {
    format!(
        "{} is paused by an organiser: no round starts and no game is adjudicated until it resumes. Games in progress go on.",
        title(&row.league)
    )
}

/// A league resumed: the current round's deadline.
pub fn resumed(row: &LeagueRow) -> String {
    let league = &row.league;
    match league.round_deadline(league.current_round()) {
        Some(deadline) if league.status != LeagueStatus::Finished => format!(
            "{} resumes: round {} now ends {}.",
            title(league),
            league.current_round(),
            timestamp(deadline)
        ),
        _ => format!("{} resumes.", title(league)),
    }
}

/// The reply to `/league pause`.
pub fn paused_reply(row: &LeagueRow) -> String {
    format!(
        "{} is paused. `/league resume` starts its clock again.",
        title(&row.league)
    )
}

/// The reply to `/league resume`.
pub fn resumed_reply(row: &LeagueRow) -> String {
    format!("{} has resumed.", title(&row.league))
}
