//! Finds candidate lines for `kaboom demo`: plays a small material-greedy
//! alpha-beta search (depth `DEPTH` plies, seeded noise for variety) against itself from a
//! variant's start, prints each game's movetext and marks the plies that show the variant's
//! specialities (a blast removing 3+ pieces, a check, a Boom, a transfer). The lines the
//! demo plays were picked from this output and are replayed by the demo's own checks; this
//! program only helps find them.
//!
//! `cargo run --release -p kaboom-rules --example demo_search -- atomic 3 20`
//! (variant, depth, number of seeds; Beirut and Nuke use carriers d1/d8 and e1/d8, Beirut
//! with the Dead Man's Switch).

use kaboom_rules::{Color, GameOptions, Kind, Position, Variant};

fn value(kind: Kind) -> i32 {
    match kind {
        Kind::Pawn | Kind::Tweke => 100,
        Kind::Knight | Kind::Bishop | Kind::SuperTweke | Kind::Defuser => 300,
        Kind::Rook | Kind::Tank | Kind::Detonator | Kind::Imitator | Kind::Bomb => 500,
        Kind::Queen | Kind::KingBattler | Kind::Immobilizer => 900,
        Kind::King => 0,
    }
}

const WIN: i32 = 100_000;

fn eval<P: Position>(pos: &P) -> i32 {
    if let Some(outcome) = pos.variant_outcome() {
        return match outcome.winner {
            Some(c) if c == pos.turn() => WIN,
            Some(_) => -WIN,
            None => 0,
        };
    }
    let view = pos.board_view();
    let me = pos.turn();
    view.pieces
        .iter()
        .map(|p| {
            let v = value(p.kind) + if p.carrier { 200 } else { 0 };
            if p.color == me { v } else { -v }
        })
        .sum()
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn search<P: Position>(pos: &P, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 || pos.variant_outcome().is_some() {
        return eval(pos);
    }
    let actions = pos.legal_actions();
    if actions.is_empty() {
        return eval(pos);
    }
    for a in &actions {
        let mut next = pos.clone();
        next.play_unchecked(a);
        let score = -search(&next, depth - 1, -beta, -alpha);
        if score > alpha {
            alpha = score;
            if alpha >= beta {
                break;
            }
        }
    }
    alpha
}

fn play<P: Position>(start: P, depth: u32, seed: u64, max_plies: usize) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut pos = start;
    let mut text = Vec::new();
    let mut notes = Vec::new();
    for ply in 0..max_plies {
        if pos.variant_outcome().is_some() {
            break;
        }
        let actions = pos.legal_actions();
        if actions.is_empty() {
            break;
        }
        let mut best = None;
        let mut best_score = i32::MIN;
        for a in &actions {
            let mut next = pos.clone();
            next.play_unchecked(a);
            let noise = (rng.next() % 40) as i32;
            let score = -search(&next, depth - 1, -WIN - 1, WIN + 1) + noise;
            if score > best_score {
                best_score = score;
                best = Some(a.clone());
            }
        }
        let Some(a) = best else { break };
        let san = pos.san_with_marks(&a);
        let mover = pos.turn();
        let removed = pos.play_reported(&a);
        if removed.len() >= 3 || san.contains('+') || san.starts_with("Boom") || san.contains('>') {
            notes.push(format!(
                "{}{} {san} removes {}",
                ply / 2 + 1,
                if mover == Color::White { "." } else { "..." },
                removed.len()
            ));
        }
        text.push(san);
    }
    println!(
        "seed {seed}: {} plies, outcome {:?}\n  {}\n  notes: {}",
        text.len(),
        pos.variant_outcome().map(|o| o.to_string()),
        text.join(" "),
        notes.join("; ")
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant: Variant = args
        .get(1)
        .map_or("atomic", String::as_str)
        .parse()
        .unwrap();
    let depth: u32 = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(3);
    let seeds: u64 = args.get(3).and_then(|d| d.parse().ok()).unwrap_or(10);
    let sq = |s: &str| s.parse().unwrap();
    for seed in 1..=seeds {
        match variant {
            Variant::Atomic => play(
                kaboom_rules::atomic::Atomic::start(&GameOptions::default()).unwrap(),
                depth,
                seed,
                80,
            ),
            Variant::Beirut => {
                let options = GameOptions {
                    carriers: 1,
                    dead_mans_switch: true,
                };
                let mut p = kaboom_rules::beirut::Beirut::start(&options).unwrap();
                p.designate(Color::White, &[sq("d1")]).unwrap();
                p.designate(Color::Black, &[sq("d8")]).unwrap();
                play(p, depth, seed, 80);
            }
            Variant::Nuke => {
                let mut p = kaboom_rules::nuke::Nuke::start(&GameOptions::default()).unwrap();
                p.designate(Color::White, &[sq("e1")]).unwrap();
                p.designate(Color::Black, &[sq("d8")]).unwrap();
                play(p, depth, seed, 80);
            }
            Variant::Bombalot => play(
                kaboom_rules::bombalot::Bombalot::start(&GameOptions::default()).unwrap(),
                depth,
                seed,
                120,
            ),
            Variant::Bomberman => play(
                kaboom_rules::bomberman::Bomberman::start(&GameOptions::default()).unwrap(),
                depth,
                seed,
                80,
            ),
        }
    }
}
