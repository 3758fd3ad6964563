//! The players' texts the bot shows: the condensed rules of each variant (`/rules`) and the
//! help (`/help`). One place for them, so they are easy to keep in step with the rules pages
//! (`docs/rules/<variant>.md`). They cite no ruling ids and point to no file: players cannot
//! open either; the full rules come as an attached file ([`super::full_rules`]).
//!
//! The texts are link-free and sized for a Discord embed (title 256, description 4,096,
//! 25 fields of name 256 and value 1,024, footer 2,048, 6,000 in all); the unit tests
//! below and `bot/tests/it/help_rules.rs` check those limits, and every notation example is
//! replayed in the rules library.

use kaboom_rules::Variant;

/// One titled part of a rules card (an embed field).
#[derive(Copy, Clone, Debug)]
pub struct Section {
    /// The heading, e.g. "What explodes".
    pub name: &'static str,
    /// The text, Discord markdown, at most 1,024 characters.
    pub text: &'static str,
}

/// One notation example: the text a player writes and what it does, with the game that
/// leads to it so the tests can replay it.
#[derive(Copy, Clone, Debug)]
pub struct Example {
    /// The action as the bot displays it (canonical form plus check or win mark), e.g. `Boom@d7#`.
    pub text: &'static str,
    /// What it does, in a few words.
    pub meaning: &'static str,
    /// Set-up for the replay: a FEN (the variant's serialization), if not the start.
    pub fen: Option<&'static str>,
    /// Set-up for the replay: `white=SQ[,SQ...],black=SQ[,SQ...]` (Beirut, Nuke).
    pub carriers: Option<&'static str>,
    /// PGN movetext whose last ply is `text`.
    pub movetext: &'static str,
}

/// The condensed rules of one variant, as `/rules` shows them.
#[derive(Copy, Clone, Debug)]
pub struct RulesCard {
    /// The variant.
    pub variant: Variant,
    /// The game in two sentences (the embed description).
    pub summary: &'static str,
    /// Setup, moves that differ from chess, explosions, the end of the game.
    pub sections: &'static [Section],
    /// Notation examples (the last field).
    pub examples: &'static [Example],
}

impl RulesCard {
    /// The embed title, e.g. "Atomic Chess: the rules".
    pub fn title(&self) -> String {
        format!("{}: the rules", self.variant.title())
    }

    /// The notation field's text: the general rule, then one line per example.
    pub fn notation(&self) -> String {
        let mut s = String::from(notation_intro(self.variant));
        for ex in self.examples {
            s.push_str(&format!("\n`{}`: {}", ex.text, ex.meaning));
        }
        s
    }

    /// The embed fields as (name, value): the sections, then "Notation".
    pub fn fields(&self) -> Vec<(String, String)> {
        self.sections
            .iter()
            .map(|s| (s.name.to_string(), s.text.to_string()))
            .chain(std::iter::once(("Notation".to_string(), self.notation())))
            .collect()
    }

    /// The embed footer: the full rules come with the card as an attached file
    /// ([`super::full_rules`]), so nothing points to a page players cannot open.
    pub fn footer(&self) -> String {
        format!(
            "The full rules, with worked examples, are in the attached file {}.",
            super::full_rules::file_name(self.variant)
        )
    }

    /// The file name of the setup picture attached to `/rules` (the same name as the rules
    /// pages' picture, `docs/rules/img/<variant>-start.png`).
    pub fn image_name(&self) -> String {
        format!("{}-start.png", self.variant.name())
    }
}

fn notation_intro(variant: Variant) -> &'static str {
    match variant {
        Variant::Bombalot => {
            "Squares only, no piece letters: `-` joins from and to, `:` the landings of a jump chain, and `!` makes a bomb explode (`d4!` where it stands, `d4-d5!` after a step). Coordinates (`c3c4`) work too."
        }
        _ => {
            "Standard algebraic notation (SAN) as in chess (`Nf3`, `exd5`, `O-O`), or coordinates (`g1f3`); `0-0` works, trailing `+ # ! ?` are ignored."
        }
    }
}

/// The card of `variant`.
pub fn card(variant: Variant) -> &'static RulesCard {
    match variant {
        Variant::Atomic => &ATOMIC,
        Variant::Beirut => &BEIRUT,
        Variant::Nuke => &NUKE,
        Variant::Bomberman => &BOMBERMAN,
        Variant::Bombalot => &BOMBALOT,
    }
}

static ATOMIC: RulesCard = RulesCard {
    variant: Variant::Atomic,
    summary: "Chess where every capture is an explosion. Blow up the enemy king to win.",
    sections: &[
        Section {
            name: "Setup and moves",
            text: "The standard chess position. Every piece moves as in chess, with castling, en passant and promotion. **Kings cannot capture**.",
        },
        Section {
            name: "What explodes",
            text: "Every capture explodes on the capture square: the captured piece, the capturing piece (a pawn too) and every piece on the 8 squares around it, of either colour, are removed. **Pawns next to the blast survive.**\n• En passant: the blast is centred where the capturing pawn lands.\n• A capture that promotes destroys the new piece at once.\n• A rook destroyed by a blast loses its castling right.",
        },
        Section {
            name: "Kings and check",
            text: "No move may blow up your own king, even if it blows up the enemy king too. A move that blows up the enemy king **wins at once**, even if your own king was in check. Kings that touch each other are never in check.",
        },
        Section {
            name: "How the game ends",
            text: "King blown up, or checkmated: that side loses. Stalemate: draw. Automatic draws: insufficient material (bare kings, or a bare king against king and one knight, bishop or rook), threefold repetition, and 100 plies without a capture or a pawn move. Draws by agreement and resignation as usual.",
        },
    ],
    examples: &[
        Example {
            text: "exd5",
            meaning: "after `1. e4 d5`, the capture explodes on d5 and removes both pawns.",
            fen: None,
            carriers: None,
            movetext: "1. e4 d5 2. exd5",
        },
        Example {
            text: "Nxf7#",
            meaning: "after `1. Nf3 a6 2. Ng5 a5`, the blast on f7 reaches the king on e8: White wins.",
            fen: None,
            carriers: None,
            movetext: "1. Nf3 a6 2. Ng5 a5 3. Nxf7#",
        },
    ],
};

static BEIRUT: RulesCard = RulesCard {
    variant: Variant::Beirut,
    summary: "Chess with a hidden bomb: each player secretly picks one piece to carry it, and may blow it up instead of moving.",
    sections: &[
        Section {
            name: "Setup",
            text: "The standard chess position and moves, with check and checkmate. Before White's first move each player privately picks one of their own pieces, **not the king**, as bomb carrier; with Multiple Beirut, N carriers (1 to 15). I send you a menu by direct message, or a **Choose privately** button in the game thread if your DMs are closed. Your opponent never sees your choice unless a carrier explodes; you can see yours with `/board private:true`.",
        },
        Section {
            name: "Boom!",
            text: "Instead of moving, you may blow up one of your carriers that is still on the board: everything on the 3x3 block around it is removed, **both colours, pawns and kings included**, and the square is revealed. A Boom may not blow up your own king; one that blows up the enemy king **wins at once**; otherwise it must not leave your king in check.",
        },
        Section {
            name: "Captured carriers",
            text: "A captured carrier is removed silently: the capturer is not told. Carriers caught in a Boom just vanish, with no chain reaction, and a pawn carrier stays a carrier after promotion.\nOption **Dead Man's Switch**: a captured carrier explodes at once on its square (3x3), the capturer included; if that blast removes the capturer's king, the carrier's owner wins.",
        },
        Section {
            name: "Check and the end of the game",
            text: "Check, checkmate and stalemate ignore the hidden bombs: a king next to an enemy carrier is not in check, and a Boom cannot rescue a mated side. Checkmate or king blown up: loss (both kings: draw). Stalemate, threefold repetition, 100 plies without a capture, explosion or pawn move, and two bare kings: automatic draws. At the end all carriers are revealed, with the secret that proves nobody changed theirs. Draws by agreement and resignation as usual.",
        },
    ],
    examples: &[
        Example {
            text: "Boom@e5",
            meaning: "`Boom@` and your **carrier's square**: the knight on e5 explodes and takes the queen on d4 and the pawn on e4 with it.",
            fen: None,
            carriers: Some("white=g1,black=b8"),
            movetext: "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Nxe5 Qd4 6. Boom@e5",
        },
        Example {
            text: "Boom@d7#",
            meaning: "the carrier on d7 stands next to the black king: the Boom removes it and White wins.",
            fen: None,
            carriers: Some("white=g1,black=b8"),
            movetext: "1. Nf3 e5 2. Nxe5 a6 3. Nxd7 a5 4. Boom@d7#",
        },
    ],
};

static NUKE: RulesCard = RulesCard {
    variant: Variant::Nuke,
    summary: "Chess without check, with one public bomb per side that can be handed from piece to piece, even to the enemy. Blow up the enemy king to win.",
    sections: &[
        Section {
            name: "Setup",
            text: "The standard chess position. Before White's first move each player picks **one** of their own pieces, any piece, the king included, to carry their bomb: both at the same time and in private, by direct message (or the **Choose privately** button in the game thread if your DMs are closed). Then both carriers are shown to everyone and stay public.",
        },
        Section {
            name: "What differs from chess",
            text: "• **No check, no checkmate**: a king may stand attacked, and castling may pass through attacked squares.\n• Only a piece that carries a bomb may capture a king.\n• A king or queen that carries a bomb cannot move.\n• Before your move you may hand a bomb from one of your pieces to any piece on the 8 squares around it, yours or the enemy's, that carries none; a bomb belongs to whoever owns its carrier.",
        },
        Section {
            name: "What explodes",
            text: "When a piece that carries a bomb is **captured**, the bomb explodes: everything on the 3x3 block around it is removed, both colours, kings and the capturer included. A carrier inside the blast explodes too. En passant: the blast is on the captured pawn's square. An exploded bomb lies **loose** where it went off; a piece that ends its move there and carries none may grab it.",
        },
        Section {
            name: "How the game ends",
            text: "After all blasts of a move: one king blown up, its owner loses, **even if they blew it up themselves**; both kings: draw; no legal action: stalemate, a draw. Threefold repetition and 100 plies without a capture or a pawn move: automatic draws. Draws by agreement and resignation as usual.",
        },
    ],
    examples: &[
        Example {
            text: "e1>e2 e4",
            meaning: "hand the bomb from the king on e1 to the pawn on e2, then play `e4`.",
            fen: None,
            carriers: Some("white=e1,black=d8"),
            movetext: "1. e1>e2 e4",
        },
        Example {
            text: "Ne5*",
            meaning: "`*` grabs the loose bomb lying on e5 after `3. Nxe5` blew up there.",
            fen: None,
            carriers: Some("white=b1,black=e7"),
            movetext: "1. e4 e5 2. Nf3 Nc6 3. Nxe5 Ne5*",
        },
        Example {
            text: "Nxa8#",
            meaning: "a knight that carries a bomb captures the king: it blows up on a8 and White wins.",
            fen: Some("k6n/8/1N6/8/8/8/8/R3K3 w - - 0 1 b6,h8"),
            carriers: None,
            movetext: "1. Nxa8#",
        },
    ],
};

static BOMBERMAN: RulesCard = RulesCard {
    variant: Variant::Bomberman,
    summary: "Chess on a 10x8 board with two bombs per side that blast along ranks and files, and a Defuser that can remove them safely. Checkmate wins.",
    sections: &[
        Section {
            name: "Setup",
            text: "Files a to j, ranks 1 to 8. White: Bombs a1 and j1, Rooks b1 and i1, Knights c1 and h1, Bishops d1 and g1, Defuser e1, King f1, pawns a2 to j2. Black the same on ranks 8 and 7. **No queen.**",
        },
        Section {
            name: "Pieces that differ from chess",
            text: "• **Defuser** (D): 1 to 3 squares along a rank, file or diagonal, no jumping; captures normally.\n• **Bomb** (O): 1 or 2 squares along a rank, file or diagonal, no jumping, only to an empty square; never captures by moving.\n• Pawns promote to Knight, Bishop, Rook or **King Battler** (KB: moves like a queen, not royal).\n• `O-O`: king f1 to h1, rook i1 to g1; `O-O-O`: king f1 to d1, rook b1 to e1.",
        },
        Section {
            name: "What explodes",
            text: "Instead of moving, you may **detonate** one of your bombs. It sends a blast up, right, down and left; each blast removes the **first piece it meets**, of either colour, and stops. A bomb hit explodes in turn, in its 3 other directions. A Defuser that captures a bomb removes it safely; any other piece that captures a bomb is destroyed as the bomb explodes there, so a king never captures a bomb.",
        },
        Section {
            name: "Check and the end of the game",
            text: "You are in check when your opponent could destroy your king without destroying their own: by capturing it, by detonating a bomb, or by capturing a bomb whose blast reaches it. Get out of check as in chess. Checkmate: loss. Stalemate, threefold repetition, and 100 plies without a capture, explosion or pawn move: draws. Draws by agreement and resignation as usual.",
        },
    ],
    examples: &[
        Example {
            text: "Oxa1->a2,b1",
            meaning: "`Ox` and the **bomb's own square** (type `Oxa1`) detonates it; I add what it removed after `->`: here White's own pawn a2 and rook b1.",
            fen: None,
            carriers: None,
            movetext: "1. Oxa1",
        },
        Example {
            text: "Oc3+",
            meaning: "a bomb move: from c3 it could blast up the c-file into the king on c8.",
            fen: Some("2k7/10/10/10/10/10/10/O4K4 w - - 0 1"),
            carriers: None,
            movetext: "1. Oc3+",
        },
        Example {
            text: "c8=KB+",
            meaning: "promotion to a King Battler.",
            fen: Some("5k4/2P7/10/10/10/10/10/5K4 w - - 0 1"),
            carriers: None,
            movetext: "1. c8=KB+",
        },
    ],
};

static BOMBALOT: RulesCard = RulesCard {
    variant: Variant::Bombalot,
    summary: "No kings and no check: jumping twekes, pushing tanks, paired detonators, freezing immobilizers, bombs and an imitator. Get two pieces into your opponent's goal.",
    sections: &[
        Section {
            name: "Setup",
            text: "An 8x8 board plus four goal squares: d0 and e0 below White, d9 and e9 above Black. White scores in d9/e9, Black in d0/e0. White: Imitator a1, Detonators b1 and g1, Bomb d1, Immobilizer e1, Tank h1, Super-twekes b2 and g2, Twekes c2 to f2 and c3 to f3; Black the same on ranks 8, 7 and 6.",
        },
        Section {
            name: "The pieces",
            text: "• **Tweke**: one step, or a chain of jumps over neighbours of **one colour**; jumped enemies are removed, bombs stay. **Super-tweke**: may jump both colours.\n• **Tank**: one step along a rank or file, pushing the line in front; pushed off the board means removed.\n• **Detonator**: a knight move; with each other friendly detonator it forms a rectangle, and the pieces on its two other corners are removed, yours too.\n• **Immobilizer**: a step or one jump; freezes neighbouring enemies that touch no friendly immobilizer.\n• **Bomb**: a step, a step and explode, or explode in place, clearing the 8 squares around it.\n• **Imitator**: moves as the piece your opponent just moved.",
        },
        Section {
            name: "How the game ends",
            text: "After every action: **two pieces in the opponent's goal** wins; a side with no piece on the board loses (both: draw); a player to move with no legal action loses. A piece in a goal is locked for the rest of the game. Threefold repetition and 100 plies without a removal, tweke move or goal entry: automatic draws. Draws by agreement and resignation as usual.",
        },
    ],
    examples: &[
        Example {
            text: "c4:c6:c8",
            meaning: "a tweke's jump chain over c5 and c7: both black twekes are removed.",
            fen: None,
            carriers: None,
            movetext: "1. c3-c4 c6-c5 2. c4:c6:c8",
        },
        Example {
            text: "d4-d5!",
            meaning: "the bomb steps to d5, then explodes.",
            fen: Some("7t/3w4/2wow3/8/3O4/8/8/T7 w ---- -- 0 1"),
            carriers: None,
            movetext: "1. d4-d5!",
        },
        Example {
            text: "e8-e9#",
            meaning: "a step into the goal: with d9 already taken, White wins.",
            fen: Some("4W3/8/8/8/8/8/8/7t w --W- -- 0 1"),
            carriers: None,
            movetext: "1. e8-e9#",
        },
    ],
};

/// One slash command's line in `/help`: its full name (with a subcommand, `settings me`)
/// and what it does.
pub const HELP_COMMANDS: &[(&str, &str)] = &[
    (
        "challenge",
        "challenge someone (or anyone) to a variant; options: days per move, colour, rated, Beirut carriers and Dead Man's Switch.",
    ),
    (
        "seek",
        "look for an opponent anywhere Kaboom is used; the game is played by DM.",
    ),
    (
        "seeks",
        "the open seeks of players anywhere: accept one, or cancel yours.",
    ),
    (
        "play-bot",
        "practise against the bot at a level from 1 (beginner) to 5 (strongest); it answers within seconds, never rated.",
    ),
    (
        "move",
        "play in the game's thread; start typing and pick from your legal actions. An action that removes pieces first shows you the position after it: Confirm or Cancel (`preview:true` for any action).",
    ),
    (
        "board",
        "the current board; `private:true` shows your own view to you only.",
    ),
    ("draw", "offer a draw, or accept your opponent's offer."),
    ("resign", "give up the game (you confirm first)."),
    (
        "abort",
        "call a game off without a result, before both sides have moved.",
    ),
    (
        "games",
        "active games, whose turn it is and their deadlines; `finished:true` lists finished games with results and rating changes.",
    ),
    (
        "profile",
        "a player's ratings per variant, record, games in progress and last finished games.",
    ),
    (
        "leaderboard",
        "the ten best players of a variant, and your own rank.",
    ),
    ("pgn", "download a game as PGN."),
    (
        "analysis",
        "after a game, the engine's analysis in its thread: accuracy, mistakes and the better moves, with a chart and an annotated PGN.",
    ),
    ("moves", "a game's whole move list."),
    (
        "replay",
        "watch a game as an animated GIF: every move and blast, the final position held.",
    ),
    (
        "rules",
        "the rules of a variant, with its starting position and the full rules as a file.",
    ),
    ("help", "this help."),
    (
        "settings me",
        "your reminders (on or off, by DM or a mention in the game thread) and explosion previews (in your first games of a variant, always, or only when asked).",
    ),
    (
        "settings server",
        "the server's reminder defaults, its league organiser role and its daily puzzle channel (Manage Server permission).",
    ),
    (
        "premove line",
        "a conditional line, e.g. `Nf6 e5 Nd5 c4`: if your opponent plays Nf6 I reply e5 for you, and so on. Only you see it.",
    ),
    ("premove list", "your conditional lines in a game."),
    ("premove clear", "remove your conditional lines in a game."),
    (
        "vacation start",
        "stop your clocks in all games for some days (14 a year unless the server sets another); reminders pause.",
    ),
    ("vacation end", "come back early: your clocks run again."),
    (
        "vacation status",
        "the vacation days you have left this year.",
    ),
    (
        "vacation allowance",
        "the server's yearly vacation days (Manage Server permission).",
    ),
    (
        "takeback",
        "casual games: propose to undo your last move; your opponent accepts or declines.",
    ),
    (
        "note",
        "private notes on a game, shown to you with **My view**.",
    ),
    (
        "league create",
        "a round-robin or Swiss league in this channel; players join with its post's button (Manage Server, or the server's league organiser role).",
    ),
    (
        "league start",
        "close a league's sign-up and start round 1 (league organisers).",
    ),
    (
        "league pause",
        "stop a league's round clock; games go on (league organisers).",
    ),
    (
        "league resume",
        "start a paused league's round clock again (league organisers).",
    ),
    (
        "league standings",
        "a league's standings: points, then tie-breaks.",
    ),
    ("league list", "this server's leagues."),
    (
        "league withdraw",
        "leave a league that has started; your games played count.",
    ),
    (
        "league export",
        "a league's tournament report (TRF) and all its games (PGN).",
    ),
    (
        "moderate abort",
        "moderators: call off a stuck or abusive game of this server, with a reason posted in its thread (Moderate Members permission).",
    ),
    (
        "moderate result",
        "moderators: decide a game's result (it counts for ratings), with a reason posted in its thread (Moderate Members permission).",
    ),
    (
        "puzzle solve",
        "a puzzle near your puzzle rating, only for you.",
    ),
    ("puzzle move", "answer your puzzle."),
    ("puzzle daily", "today's puzzle of this server."),
    ("puzzle rating", "your puzzle ratings and streaks."),
    ("privacy show", "what Kaboom keeps about you."),
    ("privacy export", "all of it as a file."),
    (
        "privacy delete",
        "delete your settings, notes, conditional lines and puzzle history.",
    ),
];

/// `/help`'s embed title.
pub const HELP_TITLE: &str = "Kaboom: explosive chess by correspondence";

/// `/help`'s sections after the command list: how a correspondence game flows.
pub const HELP_FLOW: &[Section] = &[
    Section {
        name: "1. Challenge",
        text: "`/challenge variant` in a channel, naming an opponent or leaving it open to anyone. They click **Accept** (or **Decline**; you may **Cancel**). A challenge nobody accepts expires (it says when: a week unless the host changed it). Accepting opens a thread for the game. No opponent where you are? `/seek` lists your challenge for players in every server; they accept it in `/seeks`, and the game is played by DM.",
    },
    Section {
        name: "2. Private choices (Beirut, Nuke)",
        text: "Each player picks their bomb carriers from a menu I send by direct message. If your DMs are closed, click **Choose privately** in the game thread: only you see that menu. Play starts when both have chosen; a game still waiting for a choice when the menu's deadline passes (48 hours unless the host changed it) is called off.",
    },
    Section {
        name: "3. Moves",
        text: "Use `/move` in the game's thread. Start typing: the list shows your legal actions and what each removes; you may also type SAN (`Nf3`) or coordinates (`g1f3`). After every move I post the board with **My view**, **Offer draw** and **Resign** buttons.",
    },
    Section {
        name: "4. Deadlines and reminders",
        text: "Each move has a time limit chosen in the challenge: 1, 2, 3 (default), 5, 7, 10 or 14 days, or none. I remind the player to move when half and 80% of the time are used (servers can change this). When the time runs out, that player loses on time, or it is a draw if the opponent could not possibly win. Untimed games get a reminder after 48 hours, then weekly. Turn reminders on or off, by DM or in the thread, with `/settings me`.",
    },
    Section {
        name: "5. Correspondence comforts",
        text: "**Conditional moves**: `/premove line` stores replies I play for you at once when your opponent plays what you expect; a line that no longer fits is dropped and I tell you by DM. Only you see your lines. In Beirut a line cannot name your opponent's Boom (you cannot see their carriers). **Vacation**: `/vacation start` stops your clocks in all games; your opponents see when you are back. **Takeback** (casual games): `/takeback`, then your opponent accepts or declines; in Beirut never across a Boom or a Dead Man's Switch blast, which revealed a hidden carrier. **Notes**: `/note`, private. **Rematch**: the button under a finished game's board challenges your opponent again, colours swapped.",
    },
];

/// `/help`'s first screen: how to start a game, how to move, where the rules are; the
/// menu under it opens the other pages ([`HelpPage`]).
pub const HELP_START: &str = "**Start a game**: `/challenge` in a channel, naming your opponent or leaving it open to anyone. They press **Accept** and a thread opens for the game. To practise first, `/play-bot`.
**Move**: `/move` in the game's thread. Start typing and pick from your legal actions. You have days for each move, and I remind you before your time runs out.
**Learn a variant**: `/rules` shows its rules with the starting position.

Pick a page from the menu below for every command and how a game goes.";

/// A page of `/help`: the first screen, the command list, or one step of a game
/// ([`HELP_FLOW`]), chosen from the menu under the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HelpPage {
    /// [`HELP_START`].
    Start,
    /// Every command, one line each ([`HELP_COMMANDS`]).
    Commands,
    /// The section of [`HELP_FLOW`] at this index.
    Flow(usize),
}

impl HelpPage {
    /// Every page, in the menu's order.
    pub fn all() -> impl Iterator<Item = HelpPage> {
        [HelpPage::Start, HelpPage::Commands]
            .into_iter()
            .chain((0..HELP_FLOW.len()).map(HelpPage::Flow))
    }

    /// The page's value in the menu (`start`, `commands`, `flow-3`).
    pub fn value(self) -> String {
        match self {
            HelpPage::Start => "start".into(),
            HelpPage::Commands => "commands".into(),
            HelpPage::Flow(i) => format!("flow-{i}"),
        }
    }

    /// The page a menu value names; `None` for any other text (a menu from an older
    /// version, say).
    pub fn from_value(value: &str) -> Option<HelpPage> {
        match value {
            "start" => Some(HelpPage::Start),
            "commands" => Some(HelpPage::Commands),
            other => other
                .strip_prefix("flow-")
                .and_then(|i| i.parse().ok())
                .filter(|&i| i < HELP_FLOW.len())
                .map(HelpPage::Flow),
        }
    }

    /// The page's name in the menu and as its heading.
    pub fn label(self) -> &'static str {
        match self {
            HelpPage::Start => "Quick start",
            HelpPage::Commands => "All commands",
            HelpPage::Flow(i) => HELP_FLOW[i].name,
        }
    }

    /// The page's text (Discord markdown, at most 4,096 characters: an embed's
    /// description).
    pub fn text(self) -> String {
        match self {
            HelpPage::Start => HELP_START.to_string(),
            HelpPage::Commands => help_commands(),
            HelpPage::Flow(i) => HELP_FLOW[i].text.to_string(),
        }
    }
}

/// `/help`'s footer.
pub const HELP_FOOTER: &str =
    "Draws by repetition and the 100-ply rule are automatic. Use /rules to learn a variant.";

/// The command lines of `/help`, one per command: `` `/name`: what it does ``.
pub fn help_commands() -> String {
    HELP_COMMANDS
        .iter()
        .map(|(name, line)| format!("`/{name}`: {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use kaboom_rules::{AnyGame, Color, GameOptions, Square};

    /// An example's game: its set-up (`fen`, `carriers` like `white=g1,black=b8`) with
    /// `movetext` played.
    fn replay(
        variant: Variant,
        fen: Option<&str>,
        carriers: Option<&str>,
        movetext: &str,
    ) -> AnyGame {
        let sides: Vec<(Color, Vec<Square>)> = carriers
            .map(|c| {
                let (white, black) = c
                    .strip_prefix("white=")
                    .and_then(|c| c.split_once(",black="))
                    .expect("white=..,black=..");
                let squares = |list: &str| -> Vec<Square> {
                    list.split(',')
                        .map(|s| s.parse().expect("a square"))
                        .collect()
                };
                vec![
                    (Color::White, squares(white)),
                    (Color::Black, squares(black)),
                ]
            })
            .unwrap_or_default();
        let count = sides.iter().map(|(_, s)| s.len()).max().unwrap_or(1);
        let options = GameOptions {
            carriers: u8::try_from(count).expect("few carriers"),
            dead_mans_switch: false,
        };
        let mut game = match fen {
            Some(fen) => AnyGame::from_fen(variant, fen).expect("the example's set-up"),
            None => AnyGame::new(variant, options).expect("the variant's start"),
        };
        for (color, squares) in &sides {
            game.designate(*color, squares)
                .expect("the example's carriers");
        }
        for token in kaboom_rules::notation::movetext_actions(movetext).expect("movetext") {
            game.play(None, &token)
                .unwrap_or_else(|e| panic!("{variant} {movetext}: {token}: {e}"));
        }
        game
    }

    /// Discord's embed limits
    /// (<https://discord.com/developers/docs/resources/message#embed-object-embed-limits>).
    fn check_embed(
        what: &str,
        title: &str,
        description: &str,
        fields: &[(String, String)],
        footer: &str,
    ) {
        assert!(title.chars().count() <= 256, "{what}: title too long");
        assert!(
            description.chars().count() <= 4096,
            "{what}: description too long"
        );
        assert!(fields.len() <= 25, "{what}: too many fields");
        for (name, value) in fields {
            assert!(
                !name.is_empty() && name.chars().count() <= 256,
                "{what}: field name {name}"
            );
            assert!(
                !value.is_empty() && value.chars().count() <= 1024,
                "{what}: field {name} has {} characters",
                value.chars().count()
            );
        }
        assert!(footer.chars().count() <= 2048, "{what}: footer too long");
        let total = title.chars().count()
            + description.chars().count()
            + footer.chars().count()
            + fields
                .iter()
                .map(|(n, v)| n.chars().count() + v.chars().count())
                .sum::<usize>();
        assert!(total <= 6000, "{what}: {total} characters in all");
    }

    #[test]
    fn every_card_fits_an_embed_and_has_no_link() {
        for variant in Variant::ALL {
            let c = card(variant);
            assert_eq!(c.variant, variant);
            let f = c.fields();
            check_embed(variant.name(), &c.title(), c.summary, &f, &c.footer());
            assert!(
                c.footer()
                    .contains(&super::super::full_rules::file_name(variant)),
                "{variant}: the footer must name the attached full rules: {}",
                c.footer()
            );
            let all = format!("{} {} {:?}", c.summary, c.footer(), f);
            for link in ["http", "://", "www.", "](", "discord.gg"] {
                assert!(!all.contains(link), "{variant}: '{link}' in the rules card");
            }
        }
    }

    /// Every page of `/help`, as its embed is sent, fits Discord's embed limits.
    #[test]
    fn help_fits_an_embed() {
        // `/help` shows one page at a time (`commands::info::help_page`): each page's
        // embed is the title, the page's text and the footer.
        for page in HelpPage::all() {
            let title = format!("Help: {}", page.label());
            check_embed(page.label(), &title, &page.text(), &[], HELP_FOOTER);
        }
        check_embed("help", HELP_TITLE, HELP_START, &[], HELP_FOOTER);
    }

    /// Every example replays in the rules library from its set-up, and its text is exactly
    /// what the bot displays for the last ply (C-5).
    #[test]
    fn every_notation_example_replays() {
        for variant in Variant::ALL {
            let c = card(variant);
            assert!(!c.examples.is_empty(), "{variant}: no notation example");
            for ex in c.examples {
                let game = replay(variant, ex.fen, ex.carriers, ex.movetext);
                let last = game.plies().last().expect("at least one ply");
                assert_eq!(last.display, ex.text, "{variant}: {}", ex.movetext);
            }
        }
    }

    /// The cards condense the rules pages: they cite no ruling id (players
    /// cannot look them up), and every example's action appears on that page.
    #[test]
    fn cards_agree_with_the_rules_pages() {
        let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules");
        let id = regex::Regex::new(r"[A-Z]{1,2}-\d+").unwrap();
        for variant in Variant::ALL {
            let page = std::fs::read_to_string(docs.join(format!("{}.md", variant.name())))
                .expect("rules page exists");
            let c = card(variant);
            let text = format!("{} {:?} {}", c.summary, c.fields(), c.footer());
            assert!(!id.is_match(&text), "{variant}: {:?}", id.find(&text));
            for ex in c.examples {
                assert!(
                    page.contains(ex.text),
                    "{variant}: the example {} is not on the rules page",
                    ex.text
                );
            }
        }
    }
}
