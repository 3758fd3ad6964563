//! `kaboom render`: draw a position as one viewer sees it, to a PNG or SVG file, or the
//! whole game as the replay GIF the bot posts.
//!
//! `kaboom render --variant V [--fen F] [--carriers ...] [--moves "MOVETEXT"]
//! [--as white|black|spectator|full] [--size PX] -o FILE.png|FILE.svg|FILE.gif`
//!
//! A `.gif` is [`kaboom_renderer::render_replay_gif`] of the movetext: one frame per ply
//! (and the blast frames), captioned, at the normal pace, a player's own side at the
//! bottom and White's otherwise.
//!
//! The set-up flags and `--as` are those of `kaboom replay` ([`crate::cli::analysis`]); the
//! default view is the spectator's (docs/ARCHITECTURE.md, "The CLI"). Orientation: a player
//! sees their own side at the bottom, a spectator (or `full`) the side to move.

use std::path::{Path, PathBuf};

use kaboom_renderer::{
    LastAction, Orientation, RenderOptions, ReplayOptions, render_png, render_replay_gif,
    render_svg,
};
use kaboom_rules::{AnyGame, Color, Viewer};

use crate::cli::analysis::{CliError, Setup, play_movetext};

/// The picture format, from the output file's extension.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Format {
    /// `.png`: PNG bytes.
    Png,
    /// `.svg`: SVG text.
    Svg,
    /// `.gif`: the replay GIF of the whole game.
    Gif,
}

impl Format {
    /// The format for `path`'s extension (case-insensitive `png`, `svg` or `gif`).
    ///
    /// # Errors
    /// [`CliError`] for any other extension, saying which ones work.
    pub fn from_path(path: &Path) -> Result<Format, CliError> {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("png") => Ok(Format::Png),
            Some("svg") => Ok(Format::Svg),
            Some("gif") => Ok(Format::Gif),
            _ => Err(CliError(format!(
                "cannot tell the picture format of '{}': the output file must end in .png, .svg or .gif",
                path.display()
            ))),
        }
    }
}

/// Everything `kaboom render` needs.
#[derive(Clone, Debug)]
pub struct RenderRequest {
    /// Variant, start position and designation.
    pub setup: Setup,
    /// PGN movetext to play first.
    pub moves: Option<String>,
    /// Whose view to draw (default: spectator).
    pub viewer: Viewer,
    /// Width of the picture in pixels (64 to 4096).
    pub size: u32,
    /// The file to write; its extension picks PNG, SVG or the replay GIF.
    pub output: PathBuf,
}

/// The orientation for a viewer: a player's own side at the bottom, otherwise the
/// side to move.
pub fn orientation_for(viewer: Viewer, turn: Color) -> Orientation {
    let side = match viewer {
        Viewer::White => Color::White,
        Viewer::Black => Color::Black,
        Viewer::Spectator | Viewer::Full => turn,
    };
    match side {
        Color::White => Orientation::White,
        Color::Black => Orientation::Black,
    }
}

/// The picture of `game` as `viewer` sees it, with its last ply highlighted; for
/// [`Format::Gif`] the replay of the whole game, a player's own side at the bottom
/// (White's for a spectator or the full view).
///
/// # Errors
/// [`CliError`] when rasterizing fails (an internal error of the renderer).
pub fn picture(
    game: &AnyGame,
    viewer: Viewer,
    size: u32,
    format: Format,
) -> Result<Vec<u8>, CliError> {
    let board = game.board_view(viewer);
    let last = LastAction::from_game(game, game.ply_count());
    let options = RenderOptions {
        size,
        orientation: orientation_for(viewer, board.turn),
        ..RenderOptions::default()
    };
    match format {
        Format::Svg => Ok(render_svg(&board, last.as_ref(), &options).into_bytes()),
        Format::Png => render_png(&board, last.as_ref(), &options)
            .map_err(|e| CliError(format!("rendering failed: {e}"))),
        Format::Gif => {
            let replay = ReplayOptions {
                size,
                orientation: orientation_for(viewer, Color::White),
                viewer,
                ..ReplayOptions::default()
            };
            render_replay_gif(game, &replay).map_err(|e| CliError(format!("rendering failed: {e}")))
        }
    }
}

/// `kaboom render`: set up, play the moves, draw and write the file.
///
/// # Errors
/// [`CliError`] for a bad output extension, a size outside 64..=4096, a bad set-up or
/// move (naming the ply), or a file that cannot be written.
pub fn render(request: &RenderRequest) -> Result<(), CliError> {
    let format = Format::from_path(&request.output)?;
    if !(64..=4096).contains(&request.size) {
        return Err(CliError(format!(
            "--size {} is out of range: use 64 to 4096 pixels",
            request.size
        )));
    }
    let mut game = request.setup.game()?;
    if let Some(text) = &request.moves {
        play_movetext(&mut game, text, |_| {})?;
    }
    let bytes = picture(&game, request.viewer, request.size, format)?;
    std::fs::write(&request.output, bytes)
        .map_err(|e| CliError(format!("cannot write '{}': {e}", request.output.display())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kaboom_rules::Variant;

    fn request(output: PathBuf, viewer: Viewer) -> RenderRequest {
        RenderRequest {
            setup: Setup {
                variant: Variant::Atomic,
                fen: None,
                carriers: None,
                dead_mans_switch: false,
                ignore: Vec::new(),
            },
            moves: None,
            viewer,
            size: 320,
            output,
        }
    }

    #[test]
    fn format_follows_the_extension() {
        assert_eq!(Format::from_path(Path::new("a.PNG")).unwrap(), Format::Png);
        assert_eq!(Format::from_path(Path::new("b.svg")).unwrap(), Format::Svg);
        assert_eq!(Format::from_path(Path::new("d.Gif")).unwrap(), Format::Gif);
        let err = Format::from_path(Path::new("c.jpg")).unwrap_err();
        assert!(err.0.contains(".png, .svg or .gif"), "{err}");
    }

    #[test]
    fn orientation_is_own_side_or_side_to_move() {
        assert_eq!(
            orientation_for(Viewer::Black, Color::White),
            Orientation::Black
        );
        assert_eq!(
            orientation_for(Viewer::White, Color::Black),
            Orientation::White
        );
        assert_eq!(
            orientation_for(Viewer::Spectator, Color::Black),
            Orientation::Black
        );
        assert_eq!(
            orientation_for(Viewer::Full, Color::White),
            Orientation::White
        );
    }

    #[test]
    fn writes_png_and_svg_files() {
        let dir = std::env::temp_dir().join(format!("kaboom-render-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let png = dir.join("start.png");
        render(&request(png.clone(), Viewer::Spectator)).unwrap();
        let bytes = std::fs::read(&png).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        let svg = dir.join("start.svg");
        render(&request(svg.clone(), Viewer::Black)).unwrap();
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.starts_with("<svg") && text.contains(r#"width="320""#));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A `.gif` is the renderer's replay of the movetext, byte for byte: one frame per
    /// position (the start and three plies, no explosion).
    #[test]
    fn writes_the_replay_gif_of_the_moves() {
        let dir = std::env::temp_dir().join(format!("kaboom-render-gif-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let gif = dir.join("game.gif");
        let mut r = request(gif.clone(), Viewer::Spectator);
        r.moves = Some("1. e4 e5 2. Nf3".to_string());
        render(&r).unwrap();
        let bytes = std::fs::read(&gif).unwrap();
        let mut game = r.setup.game().unwrap();
        play_movetext(&mut game, "1. e4 e5 2. Nf3", |_| {}).unwrap();
        let expected = render_replay_gif(
            &game,
            &ReplayOptions {
                size: 320,
                ..ReplayOptions::default()
            },
        )
        .unwrap();
        assert_eq!(bytes, expected);
        assert_eq!(&bytes[..6], b"GIF89a");
        assert_eq!(kaboom_renderer::replay_plan(&game).len(), 4);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn refuses_bad_size_and_extension() {
        let mut r = request(PathBuf::from("x.png"), Viewer::Spectator);
        r.size = 10;
        assert!(render(&r).unwrap_err().0.contains("64 to 4096"));
        let r = request(PathBuf::from("x.jpg"), Viewer::Spectator);
        assert!(render(&r).unwrap_err().0.contains(".png, .svg or .gif"));
    }
}
