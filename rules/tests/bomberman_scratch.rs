use kaboom_rules::{bomberman::Bomberman, notation::movetext_actions, Game, GameOptions, Position};
#[test]
fn scratch() {
    let p = Bomberman::start(&GameOptions::default()).unwrap();
    println!("{}", p.to_fen());
    for d in 1..=4 { let t = std::time::Instant::now(); println!("perft {d} {} {:?}", p.perft(d), t.elapsed()); }
    let text = std::fs::read_to_string("tests/data/bomberman-game1.txt").unwrap();
    let toks = movetext_actions(&text).unwrap();
    println!("{} tokens", toks.len());
    let mut g: Game<Bomberman> = Game::new(GameOptions::default()).unwrap();
    for (i, t) in toks.iter().enumerate() {
        if t.chars().all(|c| c == '.') { continue; }
        match g.play(None, t) {
            Ok(r) => println!("{} {} {} {:?}", i + 1, t, r.display, r.removed.iter().map(|r| r.square.to_string()).collect::<Vec<_>>()),
            Err(e) => { println!("ply {} {}: {}", i + 1, t, e); break; }
        }
    }
    println!("{} {:?}", g.position().to_fen(), g.status());
}
