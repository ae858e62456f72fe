//! No input can make the checker panic, hang or eat memory: each hostile
//! file gets a clear diagnostic.

use ruleset::{check_bytes, check_source, Code};

/// The small valid ruleset the hostile inputs are added to.
fn mini() -> String {
    std::fs::read_to_string(chronoscope_tests::repo_root().join("tests/fixtures/valid/mini.ruleset"))
        .expect("the valid fixture")
}

fn codes(checked: &ruleset::Checked) -> Vec<Code> {
    checked.diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn empty_file_is_reported() {
    let checked = check_source("");
    assert_eq!(codes(&checked), [Code::MissingGame]);
}

#[test]
fn unterminated_string_points_at_the_string() {
    let checked = check_source("game g \"Broken {\n  players 2..4\n}\n");
    assert!(checked.has_errors());
    let d = &checked.diagnostics[0];
    assert_eq!(d.code, Code::Syntax);
    assert_eq!(d.message, "unterminated text");
}

#[test]
fn deep_nesting_is_refused_before_parsing() {
    let text = format!("let x = {}1{}\n", "(".repeat(100_000), ")".repeat(100_000));
    let checked = check_source(&text);
    assert_eq!(codes(&checked), [Code::TooDeep]);
}

#[test]
fn long_runs_of_signs_are_refused() {
    let text = format!("let x = {}1\n", "- ".repeat(100_000));
    let checked = check_source(&text);
    assert!(codes(&checked).contains(&Code::TooDeep));
}

/// Chains that nest without brackets: each was a stack overflow in the
/// checker (100,000 `+1`, 5,000 `if ... then ... else` in release builds) before the depth
/// limit.
#[test]
fn chains_that_nest_without_brackets_are_refused_past_the_depth_limit() {
    let head = "game g \"G\" { players 2..3 }\nplace city A\ncounter c = 0\n";
    let plus = format!("{head}let x = 1{}\n", "+1".repeat(100_000));
    let fields = format!("{head}let x = c{}\n", ".b".repeat(100_000));
    let conds = format!("{head}let x = {}0\n", "if yes then 1 else ".repeat(1_000));
    let else_ifs = format!(
        "{head}setup {{\n  if c == 0 {{ set c = 1 }}\n{}}}\n",
        (0..1_000).map(|i| format!("  else if c == {i} {{ set c = 1 }}\n")).collect::<String>()
    );
    for (what, text) in [("+", plus), (".b", fields), ("if-then-else", conds), ("else if", else_ifs)] {
        let checked = check_source(&text);
        assert_eq!(codes(&checked), [Code::TooDeep], "{what}");
        assert_eq!(checked.diagnostics[0].message, "nested more than 256 deep", "{what}");
    }
    // Below the limit the same chains check as usual.
    let fine = format!("{head}let x = 1{}\nscore s = x\n", "+1".repeat(200));
    assert!(!codes(&check_source(&fine)).contains(&Code::TooDeep));
}

#[test]
fn input_that_exhausts_the_parsers_stack_is_too_complex_and_its_report_on_a_long_line_is_drawn() {
    // 100,000 nested `if`s on one line: pest's stack guard gives up before
    // any lowering runs. The report's line is 1.9 MB long: miette cannot
    // draw a label past column 65535 (it panicked), so the place is given
    // in words.
    let text = format!("let x = {}0\n", "if yes then 1 else ".repeat(100_000));
    let checked = check_source(&text);
    assert_eq!(codes(&checked), [Code::TooComplex]);
    let shown = chronoscope_tests::render("long.ruleset", &text, &checked);
    assert!(shown.contains("(at long.ruleset:1:"), "{shown}");
    assert!(shown.contains("the line is too long to show"), "{shown}");
    assert!(shown.len() < 2_000, "the long line is not drawn: {} bytes", shown.len());
}

#[test]
fn a_50_megabyte_file_is_refused_without_parsing() {
    let text = "// padding\n".repeat(50 * 1024 * 1024 / 11);
    let checked = check_source(&text);
    assert_eq!(codes(&checked), [Code::TooLarge]);
}

#[test]
fn binary_and_non_utf8_bytes_are_reported() {
    let (_, checked) = check_bytes(&[0x67, 0x61, 0x6d, 0x65, 0xff, 0xfe, 0x00, 0x01]);
    assert_eq!(codes(&checked), [Code::NotUtf8]);
    assert_eq!(checked.diagnostics[0].label.span.start, 4);
    // The span covers the whole character the bad byte is shown as (the
    // fuzzer found it ending inside U+FFFD, which is three bytes long).
    let (_, text) = &checked.sources[0];
    let span = checked.diagnostics[0].label.span;
    assert_eq!(&text[span.start..span.end], "\u{FFFD}");

    // Control characters: refused where they stand (before any syntax error).
    let (_, checked) = check_bytes(b"\x00\x01\x02\x03 game");
    assert!(checked.has_errors());
    assert_eq!(codes(&checked)[0], Code::ControlCharacter);
    assert_eq!(checked.diagnostics[0].label.span.start, 0);
}

/// Every diagnostic points inside the text it is about.
fn spans_inside(checked: &ruleset::Checked, len: usize) -> bool {
    checked.diagnostics.iter().all(|d| d.label.span.start <= d.label.span.end && d.label.span.end <= len)
}

#[test]
fn random_garbage_is_refused_with_diagnostics_that_point_inside_it() {
    // A fixed pseudo-random stream: deterministic, no dependency.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let alphabet = b"game place route kind cards zone table let action setup score { } [ ] ( ) : , . .. -> = == x3 \"a\" 12 -4 // \n";
    for _ in 0..300 {
        let mut text = Vec::new();
        for _ in 0..200 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            text.push(alphabet[(state % alphabet.len() as u64) as usize]);
        }
        let text = String::from_utf8(text).unwrap();
        let checked = check_source(&text);
        assert!(checked.has_errors(), "garbage is never a ruleset: {text:?}");
        assert!(spans_inside(&checked, text.len()), "{text:?}");
    }
}

#[test]
fn every_fixture_cut_in_the_middle_of_every_line_is_checked_without_panicking() {
    let root = chronoscope_tests::repo_root();
    let mut files = chronoscope_tests::ruleset_files(&root.join("tests/fixtures"));
    assert!(files.len() > 60, "the fixtures are found");
    // The bundled games too, at every seventh line (each check of a whole
    // game costs milliseconds in a test build).
    let games = ["rulesets/thebes/thebes.ruleset", "rulesets/grabrauber/grabrauber.ruleset"];
    files.extend(games.iter().map(|g| root.join(g)));
    let mut cuts = 0;
    for path in files {
        let source = std::fs::read_to_string(&path).unwrap();
        let every = if games.iter().any(|g| path.ends_with(g)) { 7 } else { 1 };
        let mut start = 0;
        for (i, line) in source.split_inclusive('\n').enumerate() {
            if i % every == 0 {
                let middle = source.floor_char_boundary_compat(start + line.len() / 2);
                let checked = check_source(&source[..middle]);
                assert!(spans_inside(&checked, middle), "{} cut at byte {middle}", path.display());
                cuts += 1;
            }
            start += line.len();
        }
    }
    assert!(cuts > 1_500, "{cuts} cuts");
}

trait FloorBoundary {
    fn floor_char_boundary_compat(&self, i: usize) -> usize;
}

impl FloorBoundary for str {
    fn floor_char_boundary_compat(&self, mut i: usize) -> usize {
        i = i.min(self.len());
        while !self.is_char_boundary(i) {
            i -= 1;
        }
        i
    }
}

#[test]
fn a_control_character_is_refused_and_never_reaches_the_terminal() {
    let text = "game t \"Title\x1b[2J\x07\" { players 2..2 }\n";
    let checked = check_source(text);
    assert_eq!(codes(&checked)[0], Code::ControlCharacter);
    assert_eq!(checked.diagnostics[0].label.span.start, text.find('\x1b').unwrap());
    let shown = chronoscope_tests::render_all(&checked);
    assert!(!shown.contains('\x1b') && !shown.contains('\x07'), "{shown:?}");
    assert!(shown.contains("U+001B"), "{shown}");
}

#[test]
fn calls_nested_sixty_deep_are_parsed_once_each() {
    // `max(max(...))` was parsed twice at every level (as an aggregate,
    // then as a call): 22 levels took more than 20 s, 60 would never end.
    let base = mini();
    let mut e = "1".to_string();
    for _ in 0..60 {
        e = format!("max({e}, sum(c.weeks for c in deck where c.weeks > 0))");
    }
    let text = format!("{base}\nlet deep = {e}\nscore deep_score = deep\n");
    let checked = check_source(&text);
    assert!(checked.diagnostics.is_empty(), "{}", chronoscope_tests::render("deep", &text, &checked));
}

#[test]
fn thousands_of_unknown_names_are_each_reported_and_suggestions_stop_at_their_budget() {
    // Each unknown name used to be compared with every known one (6,000 of
    // each took 87 s): the comparisons now share a budget per check.
    let base = mini();
    let known: String = (0..6000).map(|i| format!("let known_{i:04} = 1\n")).collect();
    let uses: String = (0..6000).map(|i| format!("let use_{i:04} = knwon_{i:04}\n")).collect();
    let text = format!("{base}{known}{uses}");
    let checked = check_source(&text);
    let unknown: Vec<_> = checked.diagnostics.iter().filter(|d| d.code == Code::UnknownName).collect();
    assert_eq!(unknown.len(), 6000);
    assert_eq!(unknown[0].help.as_deref(), Some("did you mean `known_0000`?"));
    let suggested =
        unknown.iter().filter(|d| d.help.as_deref().is_some_and(|h| h.starts_with("did you mean"))).count();
    assert!(suggested > 100 && suggested < 6000, "{suggested} suggestions before the budget ran out");
}

#[test]
fn routes_past_their_limit_and_repeated_routes_are_reported_without_quadratic_work() {
    // Distances are found from every place (places x routes), and each
    // route was compared with every earlier one: 2,000 places joined by
    // hundreds of thousands of route lines never finished checking.
    let base = mini();
    let towns: Vec<String> = (0..1990).map(|i| format!("T{i}")).collect();
    let mut text = format!("{base}place town {}\nroute X - T0\n", towns.join(", "));
    // Every town to the next five: 9,925 distinct routes, under the limit,
    // then every one of them again, and then 200 more new ones.
    for step in 1..=5 {
        for i in 0..towns.len().saturating_sub(step) {
            text.push_str(&format!("route T{i} - T{}\n", i + step));
        }
    }
    for i in 0..1985 {
        text.push_str(&format!("route T{} - T{i}\n", i + 5));
    }
    for i in 0..200 {
        text.push_str(&format!("route T{i} - T{}\n", i + 100));
    }
    let checked = check_source(&text);
    let repeated = checked.diagnostics.iter().filter(|d| d.message.contains("route")).count();
    let past: Vec<_> =
        checked.diagnostics.iter().filter(|d| d.message.contains("more than 10000 routes")).collect();
    assert_eq!(past.len(), 1, "the limit is reported once");
    assert_eq!(repeated, 1985 + 1, "each repeated route, and the limit");
    assert!(checked.ruleset.is_none());
}

/// Lets that read lets, and procedures that call procedures, run one
/// inside the other in the checker and in the engine: 20,000 of either
/// overflowed the stack, in whichever order they are written.
#[test]
fn chains_of_lets_and_procedures_past_their_limits_are_refused() {
    let base = mini();
    let n = 20_000;
    let forward: String = (0..n).map(|i| format!("let a{i} = a{} + 1\n", i + 1)).collect();
    let backward: String = (0..n).rev().map(|i| format!("let a{i} = a{} + 1\n", i + 1)).collect();
    for (order, lets) in [("forward", forward), ("backward", backward)] {
        let text = format!("{base}\nlet a{n} = 1\n{lets}score deep_score = a0\n");
        let checked = check_source(&text);
        assert_eq!(codes(&checked), [Code::Recursion], "{order}");
        assert!(checked.diagnostics[0].message.ends_with("goes more than 512 levels deep"), "{order}");
    }
    let procs: String = (0..n).map(|i| format!("procedure p{i}() {{ do p{}() }}\n", i + 1)).collect();
    let text = format!("{base}\nprocedure p{n}() {{ }}\n{procs}");
    let checked = check_source(&text);
    assert_eq!(codes(&checked), [Code::Recursion]);
    assert!(checked.diagnostics[0].message.ends_with("starts a chain of more than 64 procedure calls"));
}

#[test]
fn a_chain_of_lets_within_the_limit_checks_and_plays() {
    let base = mini();
    let n = 200;
    let lets: String = (0..n).map(|i| format!("let a{i} = a{} + 1\n", i + 1)).collect();
    let text = format!("{base}\nlet a{n} = 1\n{lets}score deep_score = a0\n");
    let checked = check_source(&text);
    assert!(!checked.has_errors(), "{}", chronoscope_tests::render("chain", &text, &checked));
    let program = engine::Program::new(checked.ruleset.unwrap());
    let (game, _) = engine::Game::new(&program, 2, 1).unwrap();
    let sheet = game.scores().unwrap();
    let row = sheet.rows.iter().find(|(name, _)| name == "deep_score").expect("the score row");
    assert_eq!(row.1, [n as i64 + 1, n as i64 + 1]);
}

#[test]
fn a_misspelled_name_200000_characters_long_is_reported_without_a_suggestion() {
    // Its edit distance to the known name of the same length was computed
    // cell by cell: 40 billion cells, hours of checking.
    let base = mini();
    let known = "x".repeat(200_000);
    let typo = format!("{}y", "x".repeat(199_999));
    let text = format!("{base}\nlet {known} = 1\nscore long_score = {typo}\n");
    let checked = check_source(&text);
    let unknown: Vec<_> = checked.diagnostics.iter().filter(|d| d.code == Code::UnknownName).collect();
    assert_eq!(unknown.len(), 1);
    assert_eq!(unknown[0].help.as_deref(), Some("define it, or check the spelling"));
    // Short names still get theirs.
    let text = format!("{base}\nlet long_name = 1\nscore long_score = long_nmae\n");
    let checked = check_source(&text);
    let help = checked.diagnostics.iter().find(|d| d.code == Code::UnknownName).and_then(|d| d.help.clone());
    assert_eq!(help.as_deref(), Some("did you mean `long_name`?"));
}

#[test]
fn a_let_called_with_millions_of_different_arguments_in_one_listing_is_listed_without_a_growing_memo() {
    // The engine remembers let values while it lists the choices; a let
    // called for every pair of 1,500 places (2,250,000 different calls)
    // filled a memo that each call then searched through: hours. The memo
    // keeps `MEMO_PER_LET` calls of a let and works out the rest.
    let towns: Vec<String> = (0..1500).map(|i| format!("T{i}")).collect();
    let text = format!(
        "game g \"Pairs\" {{ players 2..2 }}\nplace town {}\ncounter time per player = 0\nturns by lowest time\n\
         let same(a: town, b: town) = if a == b then 1 else 0\n\
         action go {{\n  require sum(sum(same(a, b) for b in town) for a in town) == 1500 else \"one a town\"\n  \
         advance me.time by 1\n}}\nend when all(p in players where p.time >= 1)\nscore moved = me.time\n",
        towns.join(", ")
    );
    let checked = check_source(&text);
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
    let program = engine::Program::new(checked.ruleset.unwrap());
    let (g, _) = engine::Game::new(&program, 2, 1).unwrap();
    let choices = g.legal().expect("listed within the work limit");
    assert_eq!(choices.len(), 1);
    assert!(g.work_done() > 2_250_000, "every call was made: {}", g.work_done());
}

#[test]
fn regions_over_the_largest_grid_are_walked_once_each_and_stop_at_the_work_limit() {
    // A grid of 2,000 places where every step joins: one region is the
    // whole grid (each place reached once, its neighbours tried once). A
    // region from every place, each walked anew, is 2,000 walks of 2,000
    // places: the work limit stops the listing with a rule error, not a
    // hang.
    let rules = |require: &str| {
        format!(
            "game g \"Grid\" {{ players 2..2 }}\nplace cell grid 50 x 40\ncounter time per player = 0\n\
             turns by lowest time\nlet always(a: cell, b: cell) = yes\n\
             action go {{\n  require {require} else \"no\"\n  advance me.time by 1\n}}\n\
             end when all(p in players where p.time >= 1)\nscore moved = me.time\n"
        )
    };
    let checked = check_source(&rules("count(q in connected(cell_0_0, always)) == 2000"));
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
    let program = engine::Program::new(checked.ruleset.unwrap());
    let (g, _) = engine::Game::new(&program, 2, 1).unwrap();
    assert_eq!(g.legal().expect("one region of 2,000 places").len(), 1);
    let checked = check_source(&rules("all(p in cell where count(q in connected(p, always)) == 2000)"));
    let program = engine::Program::new(checked.ruleset.unwrap());
    let (g, _) = engine::Game::new(&program, 2, 1).unwrap();
    let failed = g.legal().expect_err("2,000 walks of 2,000 places pass the work limit");
    assert!(failed.message().contains("steps"), "{}", failed.message());
}

#[test]
fn procedures_that_each_call_the_next_twice_are_planned_without_exponential_work() {
    // Forty procedures, each calling the next twice: a trial runs 2^40
    // moves. Writing that trial as steps (`engine::legality::Precondition`)
    // followed every call and never finished; it gives up past its size
    // limit, and the action is tried as before (within the work limit).
    let base = mini();
    let n = 40;
    let procs: String =
        (0..n).map(|i| format!("procedure p{i}() {{ do p{0}()\n do p{0}() }}\n", i + 1)).collect();
    let text = format!(
        "{base}\nprocedure p{n}() {{ move all c in me.hand to deck }}\n{procs}\
         action shuffle_hand() {{\n  advance me.time by 1\n  do p0()\n  require count(deck) >= 0 else \"never\"\n}}\n"
    );
    let checked = check_source(&text);
    assert!(!checked.has_errors(), "{}", chronoscope_tests::render("doubling", &text, &checked));
    let program = engine::Program::new(checked.ruleset.unwrap());
    let id = program.actions.iter().position(|a| a.name == "shuffle_hand").unwrap();
    assert!(program.trials().pre[id].is_none(), "too large to write as steps");
    let (g, _) = engine::Game::new(&program, 2, 1).unwrap();
    // The trial itself stops at the work limit: a rule error, not a hang.
    match g.legal() {
        Err(engine::Fail::Rule { message, .. }) => {
            assert!(message.contains("more than 20000000 steps"), "{message}")
        }
        other => panic!("expected the work limit's rule error, got {other:?}"),
    }
}
