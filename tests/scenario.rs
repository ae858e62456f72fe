//! Helpers for scenario tests on real rulesets: load a bundled ruleset,
//! arrange a position by moving components and setting counters in a freshly
//! set-up game, apply actions written in the notation, and play random games
//! that check the engine's invariants after every action.

use chronoscope_cli::play::log::LogEvent;
use engine::{notation, At, Choice, Event, Game, Program, ZoneInst, V};
use model::{ActionId, ComponentId, CounterId, PlayerId, ZoneId};
use rand::{Rng, SeedableRng};

/// A bundled ruleset by its path under the repository root, with its
/// editions' bases; it must check clean.
pub fn load(path: &str) -> Program {
    let full = crate::repo_root().join(path).display().to_string();
    let checked = ruleset::check_file(&full, &mut |p| std::fs::read(p).map_err(|e| e.to_string()));
    Program::new(checked.ruleset.unwrap_or_else(|| panic!("{path} checks clean")))
}

/// The instance of a zone, for a player and/or a place.
pub fn zone(g: &Game, name: &str, player: Option<usize>, place: Option<&str>) -> ZoneInst {
    let r = g.rules;
    let z = ZoneId::new(r.zones.iter().position(|z| z.name == name).expect(name));
    g.layout.zone(z, player.map(PlayerId::new), place.map(|p| r.place_named(p).expect(p)))
}

/// A counter by name.
pub fn counter_id(g: &Game, name: &str) -> CounterId {
    g.rules.counter_named(name).unwrap_or_else(|| panic!("no counter `{name}`"))
}

/// A counter's value, for a player.
pub fn counter(g: &Game, name: &str, player: Option<usize>) -> V {
    g.counter(counter_id(g, name), player.map(PlayerId::new), None)
}

/// A player's `time` counter.
pub fn time(g: &Game, p: usize) -> i64 {
    match g.counter(counter_id(g, "time"), Some(PlayerId::new(p)), None) {
        V::Int(n) => n,
        ref other => panic!("{other:?}"),
    }
}

pub fn set_time(g: &mut Game, p: usize, t: i64) {
    let time = counter_id(g, "time");
    g.set_counter(time, Some(PlayerId::new(p)), None, V::Int(t));
}

/// The first component called `name`.
pub fn component(g: &Game, name: &str) -> ComponentId {
    let found = g.rules.components.iter().position(|c| c.name == name);
    ComponentId::new(found.unwrap_or_else(|| panic!("no component `{name}`")))
}

/// A component called `name` that is not in zone instance `not_in`: one
/// lying in a shared zone if there is one, so that arranging a scenario
/// never takes a copy from a player who was given it earlier.
pub fn pick(g: &Game, name: &str, not_in: ZoneInst) -> ComponentId {
    let candidates: Vec<ComponentId> = ComponentId::all(g.rules.components.len())
        .filter(|c| g.rules.components[*c].name == name && !g.zone(not_in).contains(&Some(*c)))
        .collect();
    let shared = |c: ComponentId| {
        let inst = g.where_is(c);
        inst.is_some_and(|i| g.layout.instance(i).player.is_none())
    };
    candidates
        .iter()
        .copied()
        .find(|c| shared(*c))
        .or(candidates.first().copied())
        .unwrap_or_else(|| panic!("no component `{name}`"))
}

/// Move a component called `name` (see `pick`) into a zone instance.
pub fn give(g: &mut Game, name: &str, to: ZoneInst) {
    let c = pick(g, name, to);
    g.put(c, to, At::Bottom);
}

/// Move a component into a player's (or a shared) zone.
pub fn give_to(g: &mut Game, name: &str, zone_name: &str, player: Option<usize>) {
    let z = zone(g, zone_name, player, None);
    give(g, name, z);
}

/// Make `p` the player to move at time `t`: everyone else far ahead.
pub fn to_move(g: &mut Game, p: usize, t: i64) {
    for q in 0..g.players() {
        set_time(g, q, if q == p { t } else { t + 40 });
    }
}

/// Events by name, as the log tells them.
pub fn named(g: &Game, events: &[Event]) -> Vec<LogEvent> {
    LogEvent::all(g, &[], events)
}

/// Apply an action written in the notation; it must be legal. Its events,
/// by name.
pub fn act(g: &mut Game, text: &str) -> Vec<LogEvent> {
    let choice = notation::parse(g, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let events = g.apply(&choice).unwrap_or_else(|f| panic!("{text}: {f:?}"));
    named(g, &events)
}

/// How many components the events moved out of a zone.
pub fn drawn_from(events: &[LogEvent], zone: &str) -> usize {
    events.iter().filter(|e| matches!(e, LogEvent::Move { from, .. } if from == zone)).count()
}

/// Events one per line, for snapshots: moves, counters, pieces, reveals.
pub fn event_lines(events: &[LogEvent]) -> String {
    let lines: Vec<String> = events
        .iter()
        .map(|e| match e {
            LogEvent::Move { card, from, to, .. } => format!("move {card}: {from} -> {to}"),
            LogEvent::Counter { name, player, place, from, to, .. } => {
                format!(
                    "{name}{} P{}: {from} -> {to}",
                    place.as_ref().map_or(String::new(), |p| format!("[{p}]")),
                    player.unwrap_or(0)
                )
            }
            LogEvent::Piece { name, from, to, steps, .. } => {
                format!("{name}: {from} -> {to} ({steps:?} steps)")
            }
            LogEvent::Reveal { zone, player, cards, .. } => {
                format!("P{player} sees {zone}: {}", cards.join(", "))
            }
            // As these lines read before events were typed.
            LogEvent::Shuffle { zone, .. } => format!("Shuffle {{ zone: {zone:?} }}"),
            LogEvent::PlayerOrder { order, .. } => format!("PlayerOrder {{ order: {order:?} }}"),
            LogEvent::Ask { player, action, .. } => format!("{player} is asked to {action}"),
        })
        .collect();
    lines.join("\n")
}

/// The names of the components in a zone instance, top first.
pub fn names(g: &Game, inst: ZoneInst) -> Vec<String> {
    g.cards(inst).map(|c| g.rules.components[c].name.clone()).collect()
}

pub fn total_components(g: &Game) -> usize {
    g.layout.zone_insts().map(|z| g.count(z)).sum()
}

/// Play `n` uniformly random legal actions (from a stream seeded by
/// `seed`), so that components are spread out before a test looks.
pub fn play_into(g: &mut Game, seed: u64, n: usize) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..n {
        let choices = g.choices();
        g.step(&choices[rng.gen_range(0..choices.len())]).unwrap();
    }
}

/// Play a game with uniformly random legal choices (drawn from a stream
/// seeded by `seed`), checking after every action that nothing was created
/// or lost and that no `time` went back. Returns the finished game and the
/// choices made.
pub fn play_random(
    rules: &Program,
    players: usize,
    seed: u64,
    max_actions: usize,
) -> (Game<'_>, Vec<Choice>) {
    let (mut g, _) = Game::new(rules, players, seed).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0xABCD);
    let mut history = Vec::new();
    let n = rules.components.len();
    let mut last_time: Vec<i64> = (0..players).map(|p| time(&g, p)).collect();
    while g.current().is_some() {
        let choices = g.choices();
        assert!(!choices.is_empty(), "seed {seed}: a player has no legal action");
        let c = choices[rng.gen_range(0..choices.len())].clone();
        g.step(&c).unwrap();
        history.push(c);
        assert_eq!(total_components(&g), n, "seed {seed}: components created or lost");
        for (p, last) in last_time.iter_mut().enumerate() {
            let t = time(&g, p);
            assert!(t >= *last, "seed {seed}: P{} went back from {last} to {t}", p + 1);
            *last = t;
        }
        assert!(history.len() < max_actions, "seed {seed}: the game does not end");
    }
    (g, history)
}

/// Replay a game from its seed and choices: it must reproduce `g` exactly.
pub fn assert_replays(rules: &Program, g: &Game, history: &[Choice]) {
    let (mut again, _) = Game::new(rules, g.players(), g.seed).unwrap();
    for c in history {
        again.step(c).unwrap();
    }
    assert_eq!(again.snapshot(), g.snapshot(), "seed {}: the replay differs", g.seed);
    assert_eq!(again.scores().unwrap(), g.scores().unwrap());
}

/// Each component lies in exactly one zone, and the score totals are the
/// sums of their rule lines.
pub fn assert_finished_sound(g: &Game) {
    let mut cards: Vec<ComponentId> = g.layout.zone_insts().flat_map(|z| g.cards(z)).collect();
    cards.sort();
    cards.dedup();
    assert_eq!(cards.len(), g.rules.components.len(), "each component in exactly one zone");
    let sheet = g.scores().unwrap();
    for p in 0..g.players() {
        assert_eq!(sheet.totals[p], sheet.rows.iter().map(|(_, v)| v[p]).sum::<i64>());
    }
}

/// Every combination of parameter values, filtered by `check`: the slow,
/// obviously right list that `choices` must match. A `set of` parameter
/// takes each set `Game::sets_of` lists.
pub fn brute_force_choices(g: &Game) -> Vec<Choice> {
    let me = g.current().unwrap();
    let mut out = Vec::new();
    for (id, action) in g.rules.actions.iter().enumerate() {
        let id = ActionId::new(id);
        let domains = g.domains(action, me).unwrap();
        // Each value with the set it stands for, if any.
        type Arg = (V, Option<Vec<ComponentId>>);
        let mut combos: Vec<Vec<Arg>> = vec![Vec::new()];
        for (p, d) in action.params.iter().zip(&domains) {
            let values: Vec<Arg> = match &p.domain {
                model::ParamDomain::SetOf(_) => match g.sets_of(d, model::Span::default()) {
                    Ok(sets) => sets.into_iter().map(|s| (V::Set(0), Some(s))).collect(),
                    Err(_) => Vec::new(),
                },
                _ => d.iter().map(|v| (*v, None)).collect(),
            };
            combos = combos
                .into_iter()
                .flat_map(|c| values.iter().map(move |v| [c.clone(), vec![v.clone()]].concat()))
                .collect();
        }
        for args in combos {
            let mut c = Choice::new(id, Vec::new());
            for (v, set) in args {
                match set {
                    Some(s) => {
                        c.sets.push(s);
                        c.args.push(V::Set(c.sets.len() as u32 - 1));
                    }
                    None => c.args.push(v),
                }
            }
            if g.check(&c).is_ok() {
                out.push(c);
            }
        }
    }
    out
}

/// Play a random game for each of (players, seed) and check, every `every`
/// actions, that the engine's pruned search finds exactly the choices
/// `brute_force_choices` finds.
pub fn assert_pruned_choices_are_exact(rules: &Program, every: usize) {
    for (players, seed) in [(2, 41), (3, 42), (4, 43)] {
        let (mut g, _) = Game::new(rules, players, seed).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut step = 0;
        while g.current().is_some() {
            let choices = g.choices();
            if step % every == 0 {
                assert_eq!(choices, brute_force_choices(&g), "{players}p seed {seed}, action {step}");
            }
            g.step(&choices[rng.gen_range(0..choices.len())]).unwrap();
            step += 1;
        }
    }
}

/// Two games that differ only in what seat `me` cannot see: the seat's
/// view, the legal choices, greedy's and mcts's picks and the samples dealt
/// from the same bot seed are all the same. Returns the samples of `a`.
pub fn assert_no_peek<'r>(a: &Game<'r>, b: &Game<'r>, me: PlayerId) -> Vec<Game<'r>> {
    use bots::{Bot, Budget, GreedyBot, MctsBot, Seat};
    assert_ne!(a.snapshot().zones, b.snapshot().zones, "the two games differ");
    assert_eq!(a.view(me), b.view(me), "the seat sees no difference");
    let choices = a.choices();
    assert_eq!(b.choices(), choices);
    let mut samples = Vec::new();
    for seed in 0..5 {
        let pick_a = GreedyBot::new(seed).choose(&Seat::new(a, me), &choices);
        let pick_b = GreedyBot::new(seed).choose(&Seat::new(b, me), &choices);
        assert_eq!(pick_a, pick_b, "greedy, bot seed {seed}");
        if seed < 2 {
            let budget = Budget::Iterations(3);
            let pick_a = MctsBot::new(seed, budget).choose(&Seat::new(a, me), &choices);
            let pick_b = MctsBot::new(seed, budget).choose(&Seat::new(b, me), &choices);
            assert_eq!(pick_a, pick_b, "mcts, bot seed {seed}");
        }
        let sa = Seat::new(a, me).sample(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
        let sb = Seat::new(b, me).sample(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
        assert_eq!(sa.snapshot().zones, sb.snapshot().zones, "samples depend only on what the seat may know");
        samples.push(sa);
    }
    samples
}

/// A copy of `g` with the components no one of `who` may see shuffled among
/// the places that hide them from all of `who`, each only with one showing
/// the same back.
pub fn permuted<'r>(g: &Game<'r>, who: &[PlayerId], rng: &mut impl Rng) -> Game<'r> {
    let mut b = g.clone();
    let hidden: Vec<ZoneInst> =
        g.layout.zone_insts().filter(|z| who.iter().all(|p| !g.visible_to(*z, *p))).collect();
    let cards: Vec<ComponentId> = hidden.iter().flat_map(|z| g.cards(*z)).collect();
    for _ in 0..cards.len() {
        let (x, y) = (cards[rng.gen_range(0..cards.len())], cards[rng.gen_range(0..cards.len())]);
        if x != y && g.back_of(x) == g.back_of(y) {
            b.exchange(x, y);
        }
    }
    b
}
