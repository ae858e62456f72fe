//! The engine skips, in a legality trial, every statement that cannot matter
//! to a later `require` (`engine::legality`). These small generic rulesets
//! make legality hang on each kind of thing a skipped statement could
//! change (a zone, a counter, a local, the random stream, a procedure) and
//! check that the legal choices are exactly those `check` accepts after a
//! full run, in many positions.

use chronoscope_tests::scenario::brute_force_choices;
use engine::legality::TrialPlan;
use engine::Game;
use rand::{Rng, SeedableRng};

const RULES: &str = r#"
game limits "Limits" { players 2..3 }
kind chip { bad: flag = no }
tokens chips of chip total 12 {
  "plain" x9
  "bad" x3 { bad: yes }
}
zone supply: bag
zone hand: hand per player
zone kept: tableau per player
zone shown: pile
counter time per player = 0
counter marks per player = 0
setup {
  move all c in chips to supply
}
turns by lowest time

// A zone the hook reads: the draw must run in the trial.
action draw_some(n: 1..3) {
  advance me.time by 1
  draw n from supply to me.hand
}

// A local computed after a change, read by a later require.
action keep_some(n: 0..3) {
  move all c in me.hand to me.kept
  let k = count(me.kept) + n
  advance me.time by 1
  require k < 4 else "too many kept"
}

// The random stream: what is drawn decides.
action gamble(times: 1..2) {
  advance me.time by 2
  shuffle supply
  draw times from supply to shown
  require not any(c in shown where c.bad) else "a bad chip came up"
  move all c in shown to supply
}

// Irrelevant work the trial may skip: a counter nobody's require reads.
action mark(n: 1..3) {
  advance me.marks by n
  advance me.time by n
}

// A procedure as the first change, opening with a requirement: its trial
// runs the call, and the shared first part stops before it (it reads the
// widest parameter).
procedure pay(n: int) {
  let have = count(me.kept)
  require have >= n else "not enough kept"
  advance me.time by n
}
action spend(n: 1..3) {
  do pay(n)
  move first c in me.kept to supply
}

// A first part shared by the choices that differ only in the widest
// parameter: the walk and the load read where, the wait how long
// (`TrialPlan::prefix`).
action wait_at(spot: 1..2, weeks: 1..4) {
  advance me.time by spot
  require count(me.hand) + spot <= 3 else "too much to carry that far"
  advance me.time by weeks
}

// Parameters after the monotone one, a flag and a range: the search
// notes what it finds by the number of their values (`Monotone::later`).
// A rushed wait fails at every duration alike when the hand is too full.
action linger(weeks: 1..3, rushed: flag, load: 0..2) {
  advance me.time by weeks
  require not rushed or count(me.hand) + load <= 2 else "too much to rush"
}

after action {
  require count(me.hand) <= 2 else "at most two in hand"
  require me.time <= 12 else "the time runs out at 12"
}

end when all(p in players where p.time >= 12)
score marked = me.marks
"#;

fn rules() -> engine::Program {
    let checked = ruleset::check_source(RULES);
    // `gamble` requires after a shuffle and a draw on purpose (the random
    // stream is one of the things a trial must keep): the one warning.
    let codes: Vec<&str> = checked.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes, ["ruleset::check::require_after_chance"], "{:?}", checked.diagnostics);
    engine::Program::new(checked.ruleset.unwrap())
}

/// The program of a ruleset that checks without a diagnostic.
fn clean_program(src: &str) -> engine::Program {
    let checked = ruleset::check_source(src);
    assert!(checked.diagnostics.is_empty(), "{:?}", checked.diagnostics);
    engine::Program::new(checked.ruleset.unwrap())
}

#[test]
fn the_trial_plan_keeps_what_a_later_require_reads_and_drops_the_rest() {
    let r = rules();
    let plan = TrialPlan::new(&r);
    let action = |name: &str| r.actions.iter().position(|a| a.name == name).unwrap();
    // draw_some: the time and the draw both feed the hook's requires.
    assert_eq!(plan.body[action("draw_some")], vec![true, true]);
    // keep_some: the move feeds the local the require reads.
    assert_eq!(plan.body[action("keep_some")], vec![true, true, true, true]);
    // gamble: the shuffle and the draw decide the require; the last move
    // writes zones, which the hook's hand count reads (all zones are one
    // resource to the analysis), so it stays.
    assert_eq!(plan.body[action("gamble")], vec![true, true, true, true, true]);
    // mark: nobody's require reads `marks`.
    assert_eq!(plan.body[action("mark")], vec![false, true]);
    assert!(plan.hook.iter().all(|h| h == &vec![true, true]));
    // spend: the call, whose opening `require` refuses, and the move the
    // hook's hand count reads.
    assert_eq!(plan.body[action("spend")], vec![true, true]);
    // The shared first parts: up to the first statement that reads the
    // widest parameter or binds a local, with the locals read before it.
    let prefix = |name: &str| plan.prefix[action(name)].as_ref().map(|p| (p.split, p.key.clone()));
    assert_eq!(prefix("wait_at"), Some((2, vec![0])), "the walk and the load, by where");
    assert_eq!(prefix("draw_some"), Some((1, vec![])), "the time, shared by every count drawn");
    assert_eq!(prefix("keep_some"), Some((1, vec![])), "the move, before the let");
    assert_eq!(prefix("gamble"), None, "no parameter of three values or more");
    assert_eq!(prefix("mark"), None, "the first statement kept reads the widest");
    assert_eq!(prefix("spend"), None, "the procedure call reads the widest");
    // The parameters the trials' outcome is monotone in: only through
    // `advance me.time by`, with the time read after it only by the hook's
    // `me.time <= 12` (its one bound).
    let hook_time = r.after_action.stmts[1].span;
    let monotone = |name: &str| plan.monotone[action(name)].as_ref().map(|m| (m.param, m.bounds.clone()));
    assert_eq!(
        monotone("wait_at"),
        Some((1, vec![hook_time])),
        "the wait, not the walk (a require reads it)"
    );
    assert_eq!(monotone("mark"), Some((0, vec![hook_time])));
    assert_eq!(monotone("draw_some"), None, "the count drawn is no advance");
    assert_eq!(monotone("keep_some"), None, "a let reads it");
    assert_eq!(monotone("gamble"), None);
    assert_eq!(monotone("spend"), None, "the procedure call reads it");
    assert_eq!(monotone("linger"), Some((0, vec![hook_time])), "the other require reads no time");
    // The requirement a trial meets first, before any change: `pay`'s,
    // which reads the amount through the call.
    let pay = &r.procedures[r.procedures.iter().position(|p| p.name == "pay").unwrap()];
    let opening = engine::legality::Opening { span: pay.body.stmts[1].span, params: vec![0] };
    assert_eq!(plan.openings[action("spend")], vec![opening]);
    let others = r.actions.iter().filter(|a| a.name != "spend");
    assert!(others.map(|a| &plan.openings[action(&a.name)]).all(|o| o.is_empty()));
}

/// The later parameters' values are numbered one to one, a flag's and a
/// range's from 0, and a value outside them has no number.
#[test]
fn the_values_after_a_monotone_parameter_are_numbered_one_to_one() {
    use engine::legality::Radix;
    use engine::V;
    let r = rules();
    let plan = r.trials();
    let action = |name: &str| r.actions.iter().position(|a| a.name == name).unwrap();
    let linger = plan.monotone[action("linger")].as_ref().expect("monotone in its weeks");
    assert_eq!(linger.later, Some(vec![Radix::Flag, Radix::Range { lo: 0, size: 3 }]));
    let mut numbers: Vec<u32> = [false, true]
        .into_iter()
        .flat_map(|rushed| (0..=2).map(move |load| [V::Bool(rushed), V::Int(load)]))
        .map(|key| linger.position(&key).expect("a number"))
        .collect();
    assert_eq!(numbers, vec![0, 1, 2, 3, 4, 5]);
    numbers.dedup();
    assert_eq!(numbers.len(), 6);
    assert_eq!(linger.position(&[V::Bool(true), V::Int(3)]), None, "beyond the range");
    assert_eq!(linger.position(&[V::Int(0), V::Int(0)]), None, "not a flag");
    // Nothing after it: one number for the one (empty) combination.
    let wait = plan.monotone[action("wait_at")].as_ref().expect("monotone in its weeks");
    assert_eq!(wait.later, Some(vec![]));
    assert_eq!(wait.position(&[]), Some(0));
}

#[test]
fn pruned_trials_find_exactly_the_choices_a_full_run_allows() {
    let positions = listings_match_full_runs(&rules(), 2..=3, 40, |_, _| {});
    assert!(positions > 500, "{positions} positions");
}

/// Random games of `r` for each player count and seeds `0..seeds`, every
/// listing held to `brute_force_choices`; `played` sees each choice before
/// it is applied. How many positions were listed.
fn listings_match_full_runs(
    r: &engine::Program,
    players: std::ops::RangeInclusive<usize>,
    seeds: u64,
    mut played: impl FnMut(&Game, &engine::Choice),
) -> usize {
    let mut positions = 0;
    for players in players {
        for seed in 0..seeds {
            let (mut g, _) = Game::new(r, players, seed).unwrap();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            while g.current().is_some() {
                let choices = g.choices();
                assert_eq!(choices, brute_force_choices(&g), "{players}p seed {seed}");
                positions += 1;
                if choices.is_empty() {
                    break;
                }
                let c = &choices[rng.gen_range(0..choices.len())];
                played(&g, c);
                g.apply(c).unwrap();
            }
        }
    }
    positions
}

/// A let read before and after a change: the search remembers let values
/// only while the state is as it was (`engine::interp::Memo`).
const MEMO: &str = r#"
game m "Memo" { players 2..2 }
counter time per player = 0
counter marks per player = 0
turns by lowest time
let marks_of(p: player) = p.marks
procedure mark() {
  let was = marks_of(me)
  advance me.marks by 1
  require marks_of(me) == was + 1 else "the let sees the mark"
}
action go(n: 1..2) {
  let before = marks_of(me)
  if n == 2 { advance me.marks by 1 }
  do mark()
  require marks_of(me) == before + n else "the let sees every mark"
  advance me.time by 1
}
end when all(p in players where p.time >= 3)
score marked = me.marks
"#;

#[test]
fn a_let_read_again_after_a_change_sees_the_change_in_the_search_and_in_play() {
    let program = clean_program(MEMO);
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    let mut taken = 0;
    while g.current().is_some() {
        let choices = g.legal().expect("no rule error");
        assert_eq!(choices.len(), 2, "both marks are legal at action {taken}");
        assert_eq!(choices, brute_force_choices(&g));
        // Always the double mark: 2 a turn, 3 turns each.
        g.step(&choices[1]).expect("the double mark applies");
        taken += 1;
    }
    assert_eq!(taken, 6);
    let sheet = g.scores().unwrap();
    assert_eq!(sheet.rows[0].1, vec![6, 6]);
}

#[test]
fn a_position_changed_by_hand_between_listing_and_applying_is_read_afresh() {
    // Applying a choice reuses the let values its listing worked out, while
    // the state is unchanged; a change through the position API in between
    // must not be missed.
    let checked = ruleset::check_source(MEMO);
    let program = engine::Program::new(checked.ruleset.unwrap());
    let (mut g, _) = Game::new(&program, 2, 1).unwrap();
    let me = g.current().unwrap();
    let choices = g.legal().unwrap();
    let marks = g.rules.counter_named("marks").unwrap();
    g.set_counter(marks, Some(me), None, engine::V::Int(5));
    // `go 1` reads the marks before and after its own: 5, then 6.
    let single = choices.iter().find(|c| c.args == [engine::V::Int(1)]).unwrap();
    g.step(single).expect("the marks are read as they are now");
    assert_eq!(g.counter(marks, Some(me), None), engine::V::Int(6));
}

/// A monotone parameter with two values after it: the interpreter's
/// search lists the smaller durations straight from its notes once every
/// combination of the later values is noted (`Game::settled`), unless a
/// leading statement runs once a later value is bound.
const SETTLING: &str = r#"
game s "Settling" { players 2..3 }
kind chip { }
tokens chips of chip total 8 { "chip" x8 }
zone supply: pile
zone hand: hand per player
counter time per player = 0
counter marks per player = 0
turns by lowest time
setup {
  move all c in chips to supply
}
action pick {
  require count(supply) > 0 else "the supply is empty"
  move first c in supply to me.hand
  advance me.time by 1
}
// Nothing runs once `rushed` or `load` is bound: it settles.
action stay(weeks: 1..4, rushed: flag, load: 0..1) {
  advance me.time by weeks
  require not rushed or count(me.hand) + load <= 2 else "too much to rush"
  advance me.marks by load
}
// A leading requirement once `weeks` is bound, which no pin holds: it
// settles only where that requirement runs for each duration anyway, so
// never.
action dawdle(weeks: 1..4, rushed: flag) {
  require weeks > 2 or count(me.hand) != 1 else "one chip is worth a long stay"
  advance me.time by weeks
  require not rushed or count(me.hand) <= 1 else "too much to rush"
}
// A leading requirement once `rushed` is bound: it does not.
action hurry(weeks: 1..4, rushed: flag, load: 0..1) {
  require not rushed or count(me.hand) < 3 else "too much to hurry"
  advance me.time by weeks
  advance me.marks by load
}
after action {
  require me.time <= 10 else "the time runs out at 10"
}
end when all(p in players where p.time >= 10)
score marked = me.marks
"#;

#[test]
fn a_monotone_search_settles_only_when_nothing_runs_for_the_later_values_and_lists_what_full_runs_allow() {
    let r = clean_program(SETTLING);
    let plan = TrialPlan::new(&r);
    let action = |name: &str| r.actions.iter().position(|a| a.name == name).unwrap();
    let settles = |name: &str| plan.monotone[action(name)].as_ref().map(|m| (m.param, m.settles));
    assert_eq!(settles("stay"), Some((0, true)));
    assert_eq!(settles("hurry"), Some((0, false)), "a requirement waits for `rushed`");
    // Settles as planned; the search sees the requirement at `weeks` run
    // for each duration (no pin holds it) and goes down to each.
    assert_eq!(settles("dawdle"), Some((0, true)));
    let positions = listings_match_full_runs(&r, 2..=3, 30, |_, _| {});
    assert!(positions > 300, "{positions} positions");
}

/// A floor after the advance: larger values pass where smaller fail, the
/// other way round from a ceiling, so the search must not skip trials;
/// and a procedure's requirement met twice, which is no opening one.
const FLOOR: &str = r#"
game f "Floor" { players 2..2 }
counter time per player = 0
counter rests per player = 0
turns by lowest time
action rest(weeks: 1..4) {
  advance me.time by weeks
  require me.time >= 3 else "rest until week 3 at least"
}
action work(weeks: 1..4) {
  advance me.rests by 1
  advance me.time by weeks
  require me.time <= 9 else "the season ends at 9"
}
// A procedure called twice: its requirement is met again after a change,
// so a failure there says nothing of the other choices with the same `n`.
procedure toll(n: int) {
  require me.rests >= n else "not rested enough"
  set me.rests = me.rests - n
}
action double(n: 1..2, bonus: flag) {
  do toll(n)
  if bonus { advance me.rests by 3 }
  do toll(n)
  advance me.time by 1
}
end when all(p in players where p.time >= 8)
score rested = me.rests
"#;

#[test]
fn only_a_ceiling_makes_trials_monotone_and_only_a_first_met_requirement_an_opening_and_listings_stay_exact()
{
    let r = clean_program(FLOOR);
    let plan = TrialPlan::new(&r);
    let monotone: Vec<Option<usize>> = plan.monotone.iter().map(|m| m.as_ref().map(|m| m.param)).collect();
    assert_eq!(monotone, [None, Some(0), None], "a floor is no ceiling");
    assert!(plan.openings.iter().all(|o| o.is_empty()), "`toll` is called twice");
    let positions = listings_match_full_runs(&r, 2..=2, 20, |_, _| {});
    assert!(positions > 100, "{positions} positions");
}

/// Counters written under one key and read under another (`p.time`, then
/// `me.time`: one instance when `p` is `me`), a piece moved and read back,
/// an `if` writing a counter on one side only, and a let reading what was
/// written: the trial as steps (`legality::Precondition`) must follow each,
/// or leave the action to its trial.
const STEPS: &str = r#"
game s "Steps" { players 2..3 }
kind chip { }
tokens chips of chip total 6 { "chip" x6 }
zone supply: pile
zone kept: tableau per player
place spot camp, ford, hill
route camp - ford, ford - hill
counter time per player = 0
counter streak = 0
piece pawn per player at camp
turns by lowest time
setup {
  move all c in chips to supply
}
let late(p: player) = p.time > 6
let left(p: player) = 9 - p.time

// Another player's time, then one's own: the same instance when `p` is
// `me`, so no steps: only the trial can tell.
action push(p: player, n: 1..3) {
  advance p.time by n
  require me.time <= 7 else "you would be too late"
}

// The pawn moves, then a requirement reads where it is; an `if` on one
// side; a let read after the change (inlined into the steps).
action walk(to: spot, hurry: flag) {
  set me.pawn = to
  if hurry { advance streak by 1 } else { set streak = 0 }
  advance me.time by distance(me.pawn, camp) + 1
  require streak <= 2 else "three hurries in a row"
  require not late(me) or to == camp else "late walkers go home"
  require left(me) >= 0 else "out of time"
}

// A move, then a requirement reading a zone: no steps.
action take(k: 1..2) {
  advance me.time by k
  move first c in supply to me.kept
  require count(me.kept) <= 3 else "at most three kept"
}

after action {
  require me.time <= 9 else "the day ends at 9"
}

end when all(p in players where p.time >= 8)
score holding = count(me.kept)
"#;

#[test]
fn a_trial_becomes_steps_only_where_they_follow_every_read_and_listings_stay_exact() {
    let has_steps = |src: &str| -> Vec<(String, bool)> {
        let r = engine::Program::new(ruleset::check_source(src).ruleset.unwrap());
        let plan = TrialPlan::new(&r);
        r.actions.iter().zip(&plan.pre).map(|(a, p)| (a.name.clone(), p.is_some())).collect()
    };
    let named = |list: &[(&str, bool)]| list.iter().map(|(n, b)| (n.to_string(), *b)).collect::<Vec<_>>();
    assert_eq!(
        has_steps(STEPS),
        named(&[("push", false), ("walk", true), ("take", false)]),
        "another key of a written counter, a zone read after a move"
    );
    // The fixtures above: a zone the hook reads after a draw or a move
    // leaves the trial; a counter, a let and a procedure do not.
    assert_eq!(
        has_steps(RULES),
        named(&[
            ("draw_some", false),
            ("keep_some", false),
            ("gamble", false),
            ("mark", true),
            ("spend", false),
            ("wait_at", true),
            ("linger", true),
        ])
    );
    assert_eq!(has_steps(MEMO), named(&[("go", true)]), "a let inlined, an `if` on one side");
    assert_eq!(has_steps(FLOOR), named(&[("rest", true), ("work", true), ("double", true)]));
    // Every Thebes action's trial is steps.
    let thebes = chronoscope_tests::scenario::load("rulesets/thebes/thebes.ruleset");
    assert!(thebes.trials().pre.iter().all(Option::is_some));

    let r = clean_program(STEPS);
    let mut pushed_self = 0;
    let positions = listings_match_full_runs(&r, 2..=3, 30, |g, c| {
        pushed_self +=
            usize::from(c.action.index() == 0 && c.args[0] == engine::V::Player(g.current().unwrap()));
    });
    assert!(positions > 300, "{positions} positions");
    assert!(pushed_self > 10, "players pushed their own time {pushed_self} times");
}

/// `legal_into`, given the list the last turn filled, lists exactly what
/// `legal` lists (stale choices gone), turn after turn of random games of
/// bundled rulesets (Archaeology's choices carry sets), and leaves the
/// list empty once the game is over.
#[test]
fn legal_into_a_reused_list_lists_what_legal_lists_and_empties_it_at_the_end() {
    for path in ["rulesets/thebes/thebes.ruleset", "rulesets/archaeology/archaeology.ruleset"] {
        let program = chronoscope_tests::scenario::load(path);
        let mut reused = Vec::new();
        for seed in 1..=3 {
            let mut g = Game::start(&program, 3, seed).expect("setup");
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            while g.current().is_some() {
                let fresh = g.legal().expect("a listing");
                g.legal_into(&mut reused).expect("a listing");
                assert_eq!(reused, fresh, "{path}, seed {seed}, after {} actions", g.actions_taken());
                let c = reused[rng.gen_range(0..reused.len())].clone();
                g.step(&c).expect("a legal choice applies");
            }
            assert!(!reused.is_empty(), "the last turn listed something");
            g.legal_into(&mut reused).expect("nothing to list");
            assert!(reused.is_empty(), "{path}, seed {seed}: a finished game lists nothing");
        }
    }
}

/// Parameters of each kind of domain: a shared zone, the mover's own zone,
/// a player, places around the mover, a class of places, a range and a
/// flag.
const DOMAINS: &str = r#"
game domains "Domains" { players 2..3 }
place city A, B, C
route A - B, B - C
piece pawn per player at A
kind chip { }
tokens chips of chip total 6 {
  "plain" x6
}
zone pool: pile
zone hand: hand per player
counter time per player = 0
setup {
  move all c in chips to pool
}
turns by lowest time
action take(c: in pool, n: 1..2) {
  move c to me.hand
  advance me.time by n
}
action give(h: in me.hand, p: player) {
  require p != me else "keep it yourself"
  move h to p.hand
  advance me.time by 1
}
action hop(to: city in around(me.pawn)) {
  set me.pawn = to
  advance me.time by 1
}
action walk(q: city, fast: flag) {
  require q != me.pawn else "you are there"
  set me.pawn = q
  advance me.time by (if fast then 1 else 2)
}
end when all(p in players where p.time >= 8)
score held = count(me.hand)
"#;

#[test]
fn check_accepts_exactly_the_listed_choices_and_refuses_values_outside_their_domains() {
    use engine::{Choice, V};
    use model::{ActionId, ComponentId, PlaceId, PlayerId};
    let program = clean_program(DOMAINS);
    // Every value a parameter could be given: each component (in the pool,
    // in a hand), players past the game's, every place, numbers around
    // the range, both flags, none, an (empty) set.
    let mut universe: Vec<V> = (0..program.components.len()).map(|c| V::Card(ComponentId::new(c))).collect();
    universe.extend((0..4).map(|p| V::Player(PlayerId::new(p))));
    universe.extend((0..program.places.len()).map(|p| V::Place(PlaceId::new(p))));
    universe.extend((-1..=3).map(V::Int));
    universe.extend([V::Bool(true), V::Bool(false), V::None, V::Set(0)]);
    let mut checked_choices = 0;
    for seed in 1..=3 {
        let (mut g, _) = Game::new(&program, 2, seed).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        while g.current().is_some() {
            let listed = g.choices();
            let me = g.current().unwrap();
            for (id, action) in program.actions.iter().enumerate() {
                let domains = g.domains(action, me).unwrap();
                let mut combos: Vec<Vec<V>> = vec![Vec::new()];
                for _ in &action.params {
                    combos = combos
                        .iter()
                        .flat_map(|c| universe.iter().map(move |v| [&c[..], &[*v]].concat()))
                        .collect();
                }
                for args in combos {
                    let mut c = Choice::new(ActionId::new(id), args);
                    if c.args.iter().any(|v| matches!(v, V::Set(_))) {
                        c.sets.push(Vec::new());
                    }
                    let refused = g.check(&c).err();
                    assert_eq!(refused.is_none(), listed.contains(&c), "seed {seed}: {c:?}");
                    // A value outside its domain is refused as such, before
                    // the action runs (none of these parameters is a set).
                    if c.args.iter().zip(&domains).any(|(v, d)| !d.contains(v)) {
                        let why = refused.map(|f| f.message().to_string()).unwrap_or_default();
                        assert!(why.contains("cannot be that now"), "seed {seed}: {c:?}: {why}");
                    }
                    checked_choices += 1;
                }
            }
            let c = &listed[rng.gen_range(0..listed.len())];
            g.apply(c).unwrap();
        }
    }
    assert!(checked_choices > 10_000, "{checked_choices} choices checked");
}

/// The parameters the leading requirements narrow by plain arithmetic
/// or by a table's entry (`engine::legality::Pin`) in `pins.ruleset`:
/// `halve`'s `b` (a sum with an attribute), `owe`'s `b` (on the left,
/// subtracted), `spare`'s `n`, `stack`'s `a` and `b` (comparisons),
/// `wait`'s `w` and `rest`'s `w` (tables that never fall, never rise);
/// not `count_on`'s, whose equality reads a let, nor `roam`'s, whose
/// table goes both ways; and in the bundled games.
#[test]
fn the_plan_pins_the_number_parameters_comparisons_and_monotone_table_entries_narrow_and_no_others() {
    let pinned = |path: &str| -> Vec<(String, Vec<usize>)> {
        let program = chronoscope_tests::scenario::load(path);
        let rules = program.rules();
        program
            .trials()
            .pins
            .iter()
            .enumerate()
            .filter(|(_, p)| p.iter().any(Option::is_some))
            .map(|(a, p)| {
                let at = p.iter().enumerate().filter(|(_, p)| p.is_some()).map(|(k, _)| k).collect();
                (rules.actions[a].name.clone(), at)
            })
            .collect()
    };
    let named = |v: &[(&str, &[usize])]| -> Vec<(String, Vec<usize>)> {
        v.iter().map(|(n, k)| (n.to_string(), k.to_vec())).collect()
    };
    assert_eq!(
        pinned("tests/fixtures/valid/pins.ruleset"),
        named(&[
            ("halve", &[2]),
            ("owe", &[1]),
            ("spare", &[1]),
            ("stack", &[1, 2]),
            ("wait", &[1]),
            ("rest", &[0])
        ])
    );
    // Each region's finds bounded by the card's and the player's, the
    // last fixed by the sum.
    assert_eq!(pinned("rulesets/grabrauber/grabrauber.ruleset"), named(&[("museum", &[1, 2, 3, 4])]));
    // The last kind of map: at least one and at most three in all.
    assert_eq!(pinned("rulesets/akrotiri/akrotiri.ruleset"), named(&[("buy_maps", &[2])]));
    assert_eq!(pinned("rulesets/archaeology/archaeology.ruleset"), named(&[]));
    // Thebes' actions have no such equality; a dig's weeks are bounded
    // by the chronoscope's entry, every row of which never falls.
    assert_eq!(pinned("rulesets/thebes/thebes.ruleset"), named(&[("dig", &[5])]));
}

/// A pin is exact (`Pin::exact`: the search does not run the next
/// depth's requirements on the values it leaves) when its comparisons,
/// of a table's entry (`Pin::reads_tables`) or plain arithmetic, are all
/// those requirements: `wait`'s and `halve`'s and `stack`'s; not `rest`'s,
/// whose second requirement is no such comparison and still runs.
#[test]
fn a_pin_is_exact_when_its_comparisons_are_all_the_next_depths_requirements() {
    let pin = |path: &str, action: &str, k: usize| -> (bool, bool) {
        let program = chronoscope_tests::scenario::load(path);
        let a = program.rules().actions.iter().position(|x| x.name == action).expect("the action");
        let p = program.trials().pins[a][k].clone().expect("a pin");
        (p.reads_tables(), p.exact())
    };
    assert_eq!(pin("tests/fixtures/valid/pins.ruleset", "wait", 1), (true, true));
    assert_eq!(pin("tests/fixtures/valid/pins.ruleset", "rest", 0), (true, false));
    assert_eq!(pin("tests/fixtures/valid/pins.ruleset", "halve", 2), (false, true));
    assert_eq!(pin("tests/fixtures/valid/pins.ruleset", "stack", 2), (false, true));
    assert_eq!(pin("rulesets/thebes/thebes.ruleset", "dig", 5), (true, true));
}

/// A pinned parameter's search lists exactly the choices each
/// combination, tried one by one, allows: the values a pin skips are
/// only those its requirements refuse, in random games of `pins.ruleset`
/// in which each pinned action is offered and taken.
#[test]
fn pinned_searches_list_exactly_the_choices_every_combination_allows() {
    let program = chronoscope_tests::scenario::load("tests/fixtures/valid/pins.ruleset");
    let action = |name: &str| program.rules().actions.iter().position(|a| a.name == name).unwrap();
    let pinned =
        [action("halve"), action("owe"), action("spare"), action("stack"), action("wait"), action("rest")];
    let mut taken = [0; 6];
    let positions = listings_match_full_runs(&program, 2..=3, 60, |_, c| {
        if let Some(k) = pinned.iter().position(|a| *a == c.action.index()) {
            taken[k] += 1;
        }
    });
    assert!(positions > 500, "{positions} positions");
    assert!(taken.iter().all(|n| *n > 20), "each pinned action taken often enough: {taken:?}");
}
