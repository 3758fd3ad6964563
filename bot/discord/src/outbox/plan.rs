//! The planner: the entries of a committed change, worded ([`DiscordEffects`], the
//! services' [`EffectPlanner`]).

use std::sync::Arc;

use super::Effect;
use crate::messages;
use kaboom_domain::game::Venue;
use kaboom_domain::ids::{GameId, UserId};
use kaboom_service::outbox::{Committed, EffectPlanner};
use kaboom_service::{DrawResult, Services};
use kaboom_store::challenges::ChallengeState;
use kaboom_store::games::GameState;
use kaboom_store::outbox::NewEffect;

/// The wording of every change's Discord side effects (the texts players read today).
#[derive(Clone, Debug)]
pub struct DiscordEffects {
    /// The carrier designation timeout the opening board quotes (seconds).
    pub designation_timeout_secs: i64,
}

impl DiscordEffects {
    /// The planner for `services` (quoting their scheduler configuration).
    pub fn for_services(services: &Services) -> Arc<DiscordEffects> {
        Arc::new(DiscordEffects {
            designation_timeout_secs: services.scheduler_config().designation_timeout_secs,
        })
    }

    fn effects(&self, change: Committed<'_>) -> Vec<NewEffect> {
        let (game_id, effects) = match change {
            Committed::Accepted {
                game,
                challenge,
                by,
            } => return self.accepted(game, challenge, by),
            Committed::ChallengeClosed { challenge, by } => {
                let cancel = challenge.state == ChallengeState::Cancelled;
                let effect = Effect::ChallengeClosed {
                    channel_id: challenge.spec.channel_id,
                    message_id: challenge.message_id,
                    content: Some(messages::challenge_closed(challenge, cancel, by)),
                    line: messages::challenge_closed_line(challenge.id, cancel, by),
                };
                return vec![effect.for_challenge(challenge.id)];
            }
            Committed::Comfort(change) => return comfort_effects(change),
            Committed::League(change) => return self.league_effects(change),
            Committed::Analysis(change) => return analysis_effects(change),
            Committed::DailyPuzzle(daily) => {
                let effect = Effect::DailyPuzzle {
                    channel_id: daily.channel,
                    guild_id: daily.guild,
                    day: daily.day,
                    puzzle_id: daily.puzzle.id.clone(),
                    text: messages::puzzles::daily_post(daily),
                };
                // Its own queue: no game, challenge or league.
                return vec![effect.entry(None, None)];
            }
            other => match self.game_effects(other) {
                Some(effects) => effects,
                None => return Vec::new(),
            },
        };
        effects.iter().map(|e| e.for_game(game_id)).collect()
    }

    /// An accepted challenge: the thread (from the challenge's message), the challenge
    /// message's edit, the first board, the carrier menus.
    fn accepted(
        &self,
        snap: &kaboom_service::Snapshot,
        challenge: &kaboom_store::challenges::Challenge,
        by: UserId,
    ) -> Vec<NewEffect> {
        let row = &snap.row;
        let mut v_lines = Vec::new();
        let mut v = match row.venue {
            Venue::Thread => vec![
                Effect::Thread {
                    channel_id: row.channel_id,
                    name: messages::thread_name(row),
                    message_id: challenge.message_id,
                }
                .for_game(row.id),
                Effect::ChallengeAccepted { by }.entry(Some(row.id), Some(challenge.id)),
            ],
            // Played by DM: no thread, and the challenge's message (where the bot is not a
            // member) is updated by the Accept click itself.
            Venue::Direct => Vec::new(),
            // A seek has no message to update: the first board, sent to both players,
            // says whose seek it was and who took it.
            Venue::Seek => {
                v_lines = vec![messages::seeks::accepted_line(challenge, by)];
                Vec::new()
            }
        };
        v.extend(self.opening(snap, &v_lines));
        v
    }

    /// A new game's first board (with `lines` under its caption, and the designation
    /// timeout for Beirut and Nuke) and its carrier menus.
    fn opening(&self, snap: &kaboom_service::Snapshot, lines: &[String]) -> Vec<NewEffect> {
        let row = &snap.row;
        let mut caption = messages::board_caption(snap, None, &[], lines);
        if row.state == GameState::Setup {
            caption.push('\n');
            caption.push_str(&messages::designation_abort_note(
                row.created_at,
                self.designation_timeout_secs,
            ));
        }
        let mut v = vec![
            Effect::Board {
                ply: row.ply,
                caption,
                finished: snap.outcome().is_some(),
            }
            .for_game(row.id),
        ];
        if row.variant.has_designation() {
            for color in snap.game.awaiting_designation() {
                let menu = Effect::CarrierMenu {
                    user: row.player(color),
                };
                v.push(menu.for_game(row.id));
            }
        }
        v
    }

    /// A league's change: the sign-up post's edit first (when its list or state changed),
    /// then per event its posts in the league's channel, and for a round the threads,
    /// first boards and carrier menus of its games.
    fn league_effects(&self, change: &kaboom_service::leagues::LeagueChange) -> Vec<NewEffect> {
        use kaboom_service::leagues::LeagueEvent;
        use messages::leagues as words;
        let row = &change.league;
        let id = row.id;
        let post = |text: String, pings: Vec<UserId>| {
            Effect::LeaguePost {
                channel_id: row.channel_id,
                text,
                pings,
                standings_image: false,
                after_round: None,
            }
            .for_league(id)
        };
        let standings = |after_round: Option<u32>| {
            Effect::LeaguePost {
                channel_id: row.channel_id,
                text: words::standings_post(row, after_round),
                pings: Vec::new(),
                standings_image: true,
                after_round,
            }
            .for_league(id)
        };
        let mut v = Vec::new();
        let edits_sign_up = change.events.iter().any(|e| {
            matches!(
                e,
                LeagueEvent::SignUpChanged
                    | LeagueEvent::SignUpClosed
                    | LeagueEvent::LeftServer { .. }
                    | LeagueEvent::Cancelled { .. }
            )
        });
        if edits_sign_up {
            let open = row.league.status == kaboom_domain::league::LeagueStatus::SignUp;
            v.push(
                Effect::LeagueSignUpEdit {
                    text: words::sign_up_post(row),
                    open,
                }
                .for_league(id),
            );
        }
        for event in &change.events {
            match event {
                LeagueEvent::Created => v.push(
                    Effect::LeagueSignUp {
                        channel_id: row.channel_id,
                        text: words::sign_up_post(row),
                    }
                    .for_league(id),
                ),
                LeagueEvent::SignUpChanged | LeagueEvent::SignUpClosed => {}
                LeagueEvent::LeftServer { players } => {
                    v.push(post(words::left_server(row, players), Vec::new()));
                }
                LeagueEvent::Cancelled { have, need } => {
                    v.push(post(words::cancelled(row, *have, *need), Vec::new()));
                }
                LeagueEvent::RoundStarted { round, games } => {
                    if *round > 1 {
                        v.push(standings(Some(round - 1)));
                    }
                    for snap in games {
                        let s = &snap.row;
                        v.push(
                            Effect::Thread {
                                channel_id: s.channel_id,
                                name: messages::thread_name(s),
                                message_id: None,
                            }
                            .for_game(s.id),
                        );
                        v.extend(self.opening(snap, &[words::game_line(row, *round)]));
                    }
                    let text = words::round_started(row, *round, games);
                    v.push(post(text, words::round_pings(games)));
                }
                LeagueEvent::Adjudicated { ended } => {
                    v.push(post(words::adjudicated(row, &ended.snap), Vec::new()));
                }
                LeagueEvent::Withdrawn { user } => {
                    v.push(post(words::withdrawn(row, *user), Vec::new()));
                }
                LeagueEvent::Finished => {
                    v.push(standings(None));
                }
                // Nothing can be posted in a server the bot was removed from.
                LeagueEvent::Paused { bot_removed: true } => {}
                LeagueEvent::Paused { bot_removed: false } => {
                    v.push(post(words::paused(row), Vec::new()));
                }
                LeagueEvent::Resumed => {
                    v.push(post(words::resumed(row), Vec::new()));
                }
            }
        }
        v
    }

    /// The effects of a change to a game in play (`None` for the changes of challenges).
    fn game_effects(&self, change: Committed<'_>) -> Option<(GameId, Vec<Effect>)> {
        Some(match change {
            Committed::Accepted { .. }
            | Committed::ChallengeClosed { .. }
            | Committed::Comfort(_)
            | Committed::League(_)
            | Committed::DailyPuzzle(_)
            | Committed::Analysis(_) => return None,
            Committed::Played(played) => {
                let mut notes = Vec::new();
                if played.declined_draw {
                    notes.push(messages::draw_offer_lapsed());
                }
                if played.by_conditional {
                    notes.push(messages::comforts::PLAYED_BY_CONDITIONAL.to_string());
                }
                let mut caption = messages::board_caption(
                    &played.snap,
                    Some(&played.ply),
                    &played.reveal,
                    &notes,
                );
                let snap = &played.snap;
                if let Some(outcome) = snap.outcome() {
                    with_result_lines(&mut caption, &snap.row, &outcome, played.rating.as_ref());
                }
                let mut effects = vec![Effect::Board {
                    ply: snap.row.ply,
                    caption,
                    finished: snap.outcome().is_some(),
                }];
                if snap.outcome().is_some() {
                    effects.push(Effect::ReplayGif { ply: snap.row.ply });
                }
                (snap.row.id, effects)
            }
            Committed::Designated(d) => {
                let row = &d.snap.row;
                if !d.started {
                    let text = messages::has_chosen(row, d.color);
                    return Some((row.id, vec![announcement(text, Vec::new(), false)]));
                }
                let mut lines = vec![messages::play_starts()];
                // Beirut commitments are behind "Verify fairness".
                lines.extend(messages::fairness::start_lines(&d.snap.game, &d.all));
                let caption = messages::board_caption(&d.snap, None, &[], &lines);
                (
                    row.id,
                    vec![Effect::Board {
                        ply: row.ply,
                        caption,
                        finished: d.snap.outcome().is_some(),
                    }],
                )
            }
            Committed::Ended(ended) => {
                let mut caption = messages::board_caption(&ended.snap, None, &ended.reveal, &[]);
                with_result_lines(
                    &mut caption,
                    &ended.snap.row,
                    &ended.outcome,
                    ended.rating.as_deref(),
                );
                if let Some(ruling) = &ended.ruling {
                    caption.push('\n');
                    caption.push_str(&messages::ruling_line(ruling));
                }
                (
                    ended.snap.row.id,
                    vec![
                        Effect::Board {
                            ply: ended.snap.row.ply,
                            caption,
                            finished: true,
                        },
                        Effect::ReplayGif {
                            ply: ended.snap.row.ply,
                        },
                    ],
                )
            }
            Committed::Draw(DrawResult::Offered { snap, by }) => {
                let to = snap.row.player(by.other());
                let text = messages::draw_offered(&snap.row, *by);
                (snap.row.id, vec![announcement(text, vec![to], true)])
            }
            Committed::Draw(DrawResult::Declined { snap, by }) => {
                let text = messages::draw_declined(&snap.row, *by);
                (snap.row.id, vec![announcement(text, Vec::new(), false)])
            }
            Committed::Draw(DrawResult::Agreed(ended)) => {
                return self.game_effects(Committed::Ended(ended));
            }
        })
    }
}

/// Adds the rating lines of a finished game under its result.
fn with_result_lines(
    caption: &mut String,
    row: &kaboom_store::games::GameRow,
    outcome: &kaboom_rules::Outcome,
    rating: Option<&kaboom_store::ratings::GameChange>,
) {
    for line in messages::ratings::result_lines(row, outcome, rating) {
        caption.push('\n');
        caption.push_str(&line);
    }
}

/// The effects of a change of the comforts.
fn comfort_effects(change: &kaboom_service::comforts::ComfortChange) -> Vec<NewEffect> {
    use kaboom_service::comforts::ComfortChange;
    use messages::comforts as words;
    match change {
        ComfortChange::LinesDropped { game, notices } => notices
            .iter()
            .map(|(user, lines)| {
                Effect::Private {
                    user: *user,
                    text: words::lines_dropped(*game, lines),
                }
                .for_game(*game)
            })
            .collect(),
        ComfortChange::VacationStarted { vacation, games } => games
            .iter()
            .map(|g| {
                announcement(words::vacation_started(g, vacation), Vec::new(), false).for_game(g.id)
            })
            .collect(),
        ComfortChange::VacationEnded { vacation, games } => games
            .iter()
            .map(|g| {
                announcement(words::vacation_ended(g, vacation), Vec::new(), false).for_game(g.id)
            })
            .collect(),
        ComfortChange::TakebackProposed { snap, by, plies } => {
            let row = &snap.row;
            vec![
                Effect::Prompt {
                    text: words::takeback_proposed(row, *by, plies),
                    pings: vec![row.player(by.other())],
                    buttons: words::takeback_buttons(row.id),
                }
                .for_game(row.id),
            ]
        }
        ComfortChange::TakebackDeclined { snap, by } => vec![
            announcement(words::takeback_declined(&snap.row, *by), Vec::new(), false)
                .for_game(snap.row.id),
            Effect::ClosePrompts.for_game(snap.row.id),
        ],
        ComfortChange::TakenBack { snap, by, plies } => {
            let note = words::taken_back(&snap.row, *by, plies);
            let caption = messages::board_caption(snap, snap.game.plies().last(), &[], &[note]);
            vec![
                Effect::Board {
                    ply: snap.row.ply,
                    caption,
                    finished: false,
                }
                .for_game(snap.row.id),
            ]
        }
        ComfortChange::Rematch { challenge, from } => vec![
            Effect::ChallengePost {
                channel_id: challenge.spec.channel_id,
                text: words::rematch_text(challenge, *from),
                pings: challenge.spec.opponent_id.into_iter().collect(),
            }
            .for_challenge(challenge.id),
        ],
    }
}

fn announcement(text: String, pings: Vec<UserId>, draw_buttons: bool) -> Effect {
    Effect::Announcement {
        text,
        pings,
        draw_buttons,
    }
}

impl EffectPlanner for DiscordEffects {
    fn plan(&self, change: Committed<'_>) -> Vec<NewEffect> {
        self.effects(change)
    }
}

/// An analysis's change: its progress post (posted, then edited), and at the end the result.
fn analysis_effects(change: &kaboom_service::analysis::AnalysisChange) -> Vec<NewEffect> {
    use kaboom_service::analysis::AnalysisEvent;
    use messages::analysis as words;
    let row = &change.analysis;
    let effect = match &change.event {
        AnalysisEvent::Queued | AnalysisEvent::Progress => Effect::AnalysisProgress {
            text: words::progress(row),
        },
        AnalysisEvent::Done { review } => Effect::AnalysisResult {
            text: words::result(&change.snap.row, review),
            progress: words::progress_done(row),
        },
        AnalysisEvent::Failed { reason } => Effect::AnalysisProgress {
            text: words::failed(row, reason),
        },
    };
    vec![effect.for_game(row.game_id)]
}
