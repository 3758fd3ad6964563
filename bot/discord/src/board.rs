//! A game's board picture and where its posts go, for the outbox and the commands.
//!
//! Images are painted off the async runtime (`spawn_blocking`, a bounded number at once:
//! `service::replay::CpuPool`).

use crate::ids::Serenity;
use kaboom_rules::{Color, Viewer};
use poise::serenity_prelude as serenity;

use crate::Error;
use kaboom_service::painter::ReplayPace;
use kaboom_service::{Services, Snapshot};

/// Whose side is at the bottom of every public board picture of a game: White, as
/// lichess and most chess bots do. One orientation for the whole game keeps a thread
/// readable when scrolling (flipping to the side to move swapped it on every
/// post). A player's own view ("My view", `/board private`) shows their side at the bottom.
pub const PUBLIC_BOTTOM: Color = Color::White;

/// Paints `viewer`'s view from `bottom`'s side on a blocking thread, through the services'
/// bounded CPU pool.
///
/// # Errors
/// [`Error::Paint`] from the painter (or [`Error::Service`] if its task panicked).
pub async fn paint(
    services: &Services,
    snap: &Snapshot,
    viewer: Viewer,
    bottom: Color,
) -> Result<serenity::CreateAttachment, Error> {
    let (s, snap2) = (services.clone(), snap.clone());
    let png = services
        .cpu()
        .run(move || s.games().paint(&snap2, viewer, bottom))
        .await??;
    Ok(serenity::CreateAttachment::bytes(
        png,
        format!("game-{}.png", snap.row.id),
    ))
}

/// The channel where a game's messages go: its thread, or the challenge channel before
/// the thread exists.
pub fn game_channel(snap: &Snapshot) -> serenity::ChannelId {
    (snap.row.thread_id.unwrap_or(snap.row.channel_id)).serenity()
}

/// The largest file a bot may upload to a message: 10 MiB. Discord's "Uploading Files"
/// (<https://discord.com/developers/docs/reference#uploading-files>): "the maximum
/// request size when sending a message is **25 MiB**" and the default file size limit
/// for a guild without boosts is 10 MiB (the limit Discord applies to bots' uploads since
/// 2024). Replays stay far below it (about 0.5 MB for 150 plies at 480 px).
pub const UPLOAD_LIMIT: usize = 10 * 1024 * 1024;

/// The replay GIF of the game in `snap` as `viewer` sees it from `bottom`'s
/// side, encoded on a blocking thread through the services' bounded CPU pool, never over
/// [`UPLOAD_LIMIT`].
///
/// # Errors
/// [`Error::Paint`] from the painter (`PaintError::TooLarge` when the replay would be over
/// the upload limit), or [`Error::Service`] if its task panicked.
pub async fn replay(
    services: &Services,
    snap: &Snapshot,
    viewer: Viewer,
    bottom: Color,
    pace: ReplayPace,
) -> Result<serenity::CreateAttachment, Error> {
    let (s, snap2) = (services.clone(), snap.clone());
    let gif = services
        .cpu()
        .run(move || {
            s.games()
                .replay_gif(&snap2, viewer, bottom, pace, UPLOAD_LIMIT)
        })
        .await??;
    Ok(serenity::CreateAttachment::bytes(
        gif,
        format!("game-{}-replay.gif", snap.row.id),
    ))
}

/// The attachments of an analysis's result post for finished game `snap`: the evaluation
/// chart (`game-N-chart.png`, White's winning chances over the game with the marked plies),
/// a board per key moment (`game-N-ply-P.png`: the position before ply P with the move
/// played as a red arrow and the engine's better move as a green one, every carrier shown:
/// the game is over, BE-9) and the annotated PGN (`game-N-analysis.pgn`). Pictures are
/// drawn off the async runtime on the services' CPU pool.
///
/// # Errors
/// [`Error::Paint`] from the renderer; [`Error::Service`] when the game cannot be read.
pub async fn analysis_files(
    services: &Services,
    snap: &Snapshot,
    review: std::sync::Arc<kaboom_engine::review::GameReview>,
) -> Result<Vec<serenity::CreateAttachment>, Error> {
    use kaboom_engine::review::Mark;
    let id = snap.row.id;
    let mut files = Vec::new();
    let title = format!(
        "Game #{id} · {} · {}",
        snap.row.variant.title(),
        crate::messages::players_line(&snap.row)
    );
    let r = review.clone();
    let chart = services
        .cpu()
        .run(move || {
            let mut series = vec![r.start_win_percent()];
            series.extend(r.white_win_percents());
            let marks: Vec<(usize, kaboom_renderer::Mark)> = r
                .plies
                .iter()
                .filter_map(|p| {
                    let mark = match p.mark? {
                        Mark::Inaccuracy => kaboom_renderer::Mark::Inaccuracy,
                        Mark::Mistake => kaboom_renderer::Mark::Mistake,
                        Mark::Blunder => kaboom_renderer::Mark::Blunder,
                    };
                    Some((p.ply, mark))
                })
                .collect();
            kaboom_renderer::render_eval_chart_png(&kaboom_renderer::EvalChart {
                title: &title,
                win_percent: &series,
                marks: &marks,
                width: kaboom_renderer::chart::CHART_WIDTH,
            })
        })
        .await??;
    files.push(serenity::CreateAttachment::bytes(
        chart,
        format!("game-{id}-chart.png"),
    ));
    for moment in crate::messages::analysis::key_moments(&review) {
        let before = services.games().load_at(id, moment.ply as i64 - 1).await?;
        let arrows = kaboom_service::analysis::key_moment_arrows(
            &before.game,
            &moment.san,
            moment.better.as_deref(),
        );
        let painter = services.painter().clone();
        let png = services
            .cpu()
            .run(move || {
                painter.paint_with_arrows(&before.game, Viewer::Full, PUBLIC_BOTTOM, &arrows)
            })
            .await??;
        files.push(serenity::CreateAttachment::bytes(
            png,
            format!("game-{id}-ply-{}.png", moment.ply),
        ));
    }
    // The game is over: its carriers are public (BE-9).
    let designations = services.games().designations(id).await?;
    let pgn = kaboom_service::pgn::annotated_pgn(snap, &designations, &review);
    files.push(serenity::CreateAttachment::bytes(
        pgn.into_bytes(),
        format!("game-{id}-analysis.pgn"),
    ));
    Ok(files)
}
