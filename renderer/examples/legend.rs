//! Writes the piece legends of Bombalot and Bomberman Chess as PNG files (600 px wide)
//! into a directory (default `docs/rules`, from the workspace root):
//!
//!     cargo run -p kaboom-renderer --example legend -- docs/rules

use kaboom_renderer::kaboom_rules::Variant;
use kaboom_renderer::render_legend_png;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "docs/rules".to_string());
    for (variant, file) in [
        (Variant::Bombalot, "bombalot-pieces.png"),
        (Variant::Bomberman, "bomberman-pieces.png"),
    ] {
        let png = render_legend_png(variant, 600)?;
        let path = std::path::Path::new(&dir).join(file);
        std::fs::write(&path, png)?;
        println!("{}", path.display());
    }
    Ok(())
}
