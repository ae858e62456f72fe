//! Tallies (counts and sums kept as components move): which aggregates
//! the generator reads from them, that the interpreter keeps the same ones
//! and reads the walks' values from them, and that they follow every
//! move, by hand and in a bot's sample.

use super::*;
use engine::V;

/// A `count`, `sum` or `any` in a let's body over a zone of no place,
/// filtered by tag tests and at most one key (a place attribute equal to
/// a value, or a tag worked out then), is read from the tallies the engine
/// keeps as components move: `tallies.ruleset`'s five lets each name a
/// family, a keyed one keeps its walk for a key of another kind; `play`'s
/// count of heavy cards, written in its `require`, and a count of a whole
/// zone (`count(deck)`) are walked. Die Grabräuber's `region_books` is
/// one; Akrotiri's cubes per quad (a zone per place, many small ones) are
/// walked.
#[test]
fn generator_reads_counts_and_sums_by_tag_and_key_from_tallies() {
    let rules = load("tests/fixtures/valid/tallies.ruleset");
    let code = compile::generate(&rules);
    let natives =
        code.lines().find(|l| l.starts_with("pub static NATIVES")).expect("the natives are exported");
    let zone = |name: &str| rules.zone_named(name).expect("the fixture has it").index();
    let tag = |name: &str| rules.tags.iter().position(|t| t == name).expect("the fixture has it");
    let attr = |name: &str| rules.attr_named(name).expect("the fixture has it").index();
    let (hand, tableau) = (zone("hand"), zone("tableau"));
    let (red, blue, heavy) = (tag("red"), tag("blue"), tag("heavy"));
    let (site, value) = (attr("site"), attr("value"));
    let families = [
        // holding(p, t)
        format!("TallyDef {{ zone: {hand}, value: None, tags: &[], without: &[], group: TallyGroup::Tag }}"),
        // from_site(p, s)
        format!("TallyDef {{ zone: {tableau}, value: Some({value}), tags: &[], without: &[], group: TallyGroup::Place({site}) }}"),
        // heavy_red(p)
        format!("TallyDef {{ zone: {tableau}, value: None, tags: &[{red}, {heavy}], without: &[], group: TallyGroup::One }}"),
        // light(p)
        format!("TallyDef {{ zone: {hand}, value: Some({value}), tags: &[], without: &[{heavy}], group: TallyGroup::One }}"),
        // any_blue(p)
        format!("TallyDef {{ zone: {tableau}, value: None, tags: &[{blue}], without: &[{heavy}], group: TallyGroup::One }}"),
    ];
    for f in &families {
        assert!(natives.contains(f.as_str()), "no {f} in {natives}");
    }
    assert_eq!(natives.matches("TallyDef {").count(), families.len(), "only the lets' counts: {natives}");
    let play = rules.actions.iter().position(|a| a.name == "play").expect("the fixture plays");
    let lead = generated_fn(&code, &format!("lead_{play}_0"));
    let walk = format!("ZoneId::new({tableau}), Some((match f.me {{ Some(p) => p, None => return Ok(None) }})), None).index()]; let len = cells.len();");
    assert!(lead.contains(&walk) && lead.contains(&format!(".index()] >> {heavy}u32 & 1 != 0)")), "{lead}");
    assert!(!lead.contains("tally_base"), "{lead}");
    // A keyed read keeps the walk for another kind of key.
    let reads = code.matches("it.lay.tally_base(").count();
    assert!(reads >= families.len(), "{code}");
    assert!(code.contains("match it.lay.tally_place("), "{code}");
    assert!(code.contains("V::Tag(t) => {"), "{code}");
    // `count(deck) > 0` in `turn_up`, a whole zone: its length.
    let deck = zone("deck");
    assert!(code.contains(&format!("it.lay.zone(ZoneId::new({deck}), None, None)")), "{code}");
    // Die Grabräuber's dig asks `region_books(me, r) >= 1`: a tally.
    let (rules, lead) = generated_function("rulesets/grabrauber/grabrauber.ruleset", |r| {
        let dig = r.actions.iter().position(|a| a.name == "dig").expect("Die Grabräuber digs");
        format!("lead_{dig}_1")
    });
    let tableau = rules.zone_named("tableau").expect("a tableau").index();
    assert!(lead.contains(&format!("it.lay.zone(ZoneId::new({tableau}), ")), "{lead}");
    assert!(lead.contains("it.lay.tally_base("), "{lead}");
    // Akrotiri counts the cubes on a quad (`cubes_on[r]`, a zone per place)
    // by colour: walked, never tallied.
    let rules = load("rulesets/akrotiri/akrotiri.ruleset");
    let code = compile::generate(&rules);
    let cubes_on = rules.zone_named("cubes_on").expect("Akrotiri has it").index();
    assert!(!code.contains(&format!("TallyDef {{ zone: {cubes_on},")), "{code}");
}

/// Without compiled rules a program keeps the counts and sums its lets
/// ask (`engine::tally::chosen`): the shapes the generator reads from
/// tallies (one reading of them, `engine::TallyShapes`), taken from the
/// same let bodies. For every compiled ruleset, the same families (each
/// once; their order is each program's own). Thebes and Die Grabräuber keep some; the test fails if none of
/// the rulesets keeps any.
#[test]
fn the_interpreter_keeps_the_families_the_generator_reads() {
    let mut families = 0;
    for (path, natives) in compiled::ALL {
        let program = Program::new(load(path));
        let read: Vec<engine::TallyFamily> = natives.tallies.iter().map(Into::into).collect();
        let kept = program.tally_families();
        assert!(
            kept.len() == read.len() && read.iter().all(|f| kept.contains(f)),
            "{path}: the interpreter keeps {kept:?}, the compiled rules read {read:?}"
        );
        families += read.len();
    }
    assert!(families >= 10, "only {families} families kept in all");
    for path in ["rulesets/thebes/thebes.ruleset", "rulesets/grabrauber/grabrauber.ruleset"] {
        assert!(!Program::new(load(path)).tally_families().is_empty(), "{path} keeps none");
    }
}

/// The interpreter reads each count, sum or `any` of its lets that a
/// family kept counts (found by its address) from the tallies; every
/// such read gives what a walk of the zone gives. Seeded random games on a program
/// that keeps tallies and on one that keeps none (so every aggregate
/// walks), in lockstep: the same choices, events and positions after
/// every action, and in `tallies.ruleset` the same value of every let for
/// every player and argument before every action (its lets are the five
/// shapes, a key of `none` among them). Test builds also check the
/// tallies against the zones after every action.
#[test]
fn interpreted_counts_read_from_tallies_are_what_walks_of_the_zones_give() {
    let path = "tests/fixtures/valid/tallies.ruleset";
    let rules = load(path);
    let (walks, tallies) = (Program::new(rules.clone()).without_tallies(), Program::new(rules.clone()));
    assert!(walks.tally_families().is_empty() && !tallies.tally_families().is_empty());
    let tag =
        |name: &str| V::Tag(model::TagId::new(rules.tags.iter().position(|t| t == name).expect("a tag")));
    let site = |name: &str| V::Place(rules.place_named(name).expect("a site"));
    let mut calls: Vec<(&str, Vec<V>)> = Vec::new();
    for p in 0..4 {
        let p = V::Player(model::PlayerId::new(p));
        for t in ["red", "blue", "heavy"] {
            calls.push(("holding", vec![p, tag(t)]));
        }
        for s in [site("North"), site("South"), site("East"), V::None] {
            calls.push(("from_site", vec![p, s]));
        }
        for name in ["heavy_red", "light", "any_blue"] {
            calls.push((name, vec![p]));
        }
    }
    let mut asked = 0;
    for players in 2..=4 {
        for seed in 0..40 {
            lockstep_with(path, &walks, &tallies, players, seed, &mut |a, b, _| {
                for (name, args) in calls.iter().filter(|(_, args)| match &args[0] {
                    V::Player(p) => p.index() < players,
                    _ => true,
                }) {
                    let me = a.current();
                    let (x, y) = (a.call_let(name, me, args.clone()), b.call_let(name, me, args.clone()));
                    assert_eq!(x, y, "{name}{args:?}, {players} players, seed {seed}");
                    asked += 1;
                }
            });
        }
    }
    assert!(asked > 10_000, "only {asked} calls compared");
    for (path, games) in
        [("rulesets/grabrauber/grabrauber.ruleset", 15), ("rulesets/thebes/thebes.ruleset", 5)]
    {
        let rules = load(path);
        let (walks, tallies) = (Program::new(rules.clone()).without_tallies(), Program::new(rules));
        for players in walks.game.min_players as usize..=walks.game.max_players as usize {
            for seed in 0..games {
                lockstep(path, &walks, &tallies, players, seed);
            }
        }
    }
}

/// A ruleset whose lets have more shapes than a program keeps
/// (`TallyShapes::MOST_FAMILIES`) keeps the first of them and walks the
/// zones of the rest, on both engines: 100 lets, each counting the cards
/// of a hand with one of 100 tags. The interpreter keeps 64 families; its
/// games are those of a program that keeps none; the generator reads 64
/// families too.
#[test]
fn a_program_keeps_at_most_the_most_families_and_walks_the_rest() {
    let n = 100;
    let mut text =
        String::from("game many \"Many\" { players 2..3 }\nkind card { value: 1..4  tags: tags }\n");
    text += &format!("cards deck_cards of card total {n} {{\n");
    for i in 0..n {
        text += &format!("  \"C{i}\" {{ value: {}  tags: [t{i}] }}\n", 1 + i % 4);
    }
    text += "}\nzone deck: deck\nzone hand: hand per player\ncounter points per player = 0\n";
    text += "setup {\n  move all c in deck_cards to deck\n  shuffle deck\n  for p in players { draw 3 from deck to p.hand }\n}\nturns clockwise\n";
    for i in 0..n {
        text += &format!("let has_{i}(p: player) = count(c in p.hand where c has t{i})\n");
    }
    text += "action take() {\n  require count(deck) > 0 else \"the deck is empty\"\n  move first c in deck to me.hand\n";
    for i in 0..n {
        text += &format!("  advance me.points by has_{i}(me) * {}\n", i % 7);
    }
    text += "}\nend when count(deck) == 0\nscore total = me.points\n";
    let checked = ruleset::check_source(&text);
    let rules = checked.ruleset.unwrap_or_else(|| panic!("the ruleset checks: {:?}", checked.diagnostics));
    let most = engine::TallyShapes::MOST_FAMILIES;
    assert!(n > most);
    let (walks, tallies) = (Program::new(rules.clone()).without_tallies(), Program::new(rules.clone()));
    assert_eq!(tallies.tally_families().len(), most);
    for players in 2..=3 {
        for seed in 0..5 {
            let played = lockstep("many.ruleset", &walks, &tallies, players, seed);
            assert!(played.actions > 20 && !played.rule_error, "{players} players, seed {seed}");
        }
    }
    let code = compile::generate(&rules);
    let natives =
        code.lines().find(|l| l.starts_with("pub static NATIVES")).expect("the natives are exported");
    assert_eq!(natives.matches("TallyDef {").count(), most, "{natives}");
}

/// Components moved by hand (a position arranged for a test or a tool)
/// are counted in the tallies too: in `tallies.ruleset`, cards put into a
/// player's hand and tableau by hand change what both engines list and
/// score alike.
#[test]
fn tallies_follow_components_moved_by_hand() {
    let path = "tests/fixtures/valid/tallies.ruleset";
    let (reference, compiled) = programs(path, compiled::natives(path).expect("the fixture is compiled"));
    let rules = reference.rules();
    let (hand, tableau) = (rules.zone_named("hand").unwrap(), rules.zone_named("tableau").unwrap());
    for seed in 0..20u64 {
        let (mut a, _) = Game::new(&reference, 3, seed).expect("set up");
        let (mut b, _) = Game::new(&compiled, 3, seed).expect("set up");
        // Every card of the deck to the first player's hand or tableau,
        // by turns.
        let me = a.current().expect("someone moves");
        let deck = a.layout.zone(rules.zone_named("deck").unwrap(), None, None);
        let cards: Vec<model::ComponentId> = a.cards(deck).collect();
        for (i, c) in cards.into_iter().enumerate() {
            let to = if i % 2 == 0 { hand } else { tableau };
            let to = a.layout.zone(to, Some(me), None);
            a.put(c, to, engine::At::Bottom);
            b.put(c, to, engine::At::Bottom);
        }
        assert_eq!(a.choices(), b.choices(), "seed {seed}: the choices after cards moved by hand");
        assert_eq!(a.scores().ok(), b.scores().ok(), "seed {seed}");
        let choices = a.choices();
        let pick = &choices[seed as usize % choices.len()];
        assert_eq!(a.step(pick).is_ok(), b.step(pick).is_ok(), "seed {seed}");
        assert_eq!(a.snapshot(), b.snapshot(), "seed {seed}");
        assert_eq!(a.scores().ok(), b.scores().ok(), "seed {seed}");
    }
}

/// A bot's sample deals the hidden components anew; the counts both
/// engines keep are of the components dealt, never of those really
/// hidden there. In `tallies.ruleset`, two games that differ only in
/// another player's hand (swapped with cards of the deck, all alike face
/// down) give the same sample, and the samples played on list the same
/// choices whoever moves (`holding(me, red)` counts that hand), on the
/// compiled rules and on the interpreter.
#[test]
fn samples_count_the_components_dealt_not_those_hidden() {
    let path = "tests/fixtures/valid/tallies.ruleset";
    let (interpreted, compiled) = programs(path, compiled::natives(path).expect("the fixture is compiled"));
    assert!(!interpreted.tally_families().is_empty(), "the interpreter keeps tallies");
    for program in [&compiled, &interpreted] {
        samples_alike(program);
    }
}

fn samples_alike(program: &Program) {
    use rand::SeedableRng;
    let rules = program.rules();
    let (hand, deck) = (rules.zone_named("hand").unwrap(), rules.zone_named("deck").unwrap());
    for seed in 0..30u64 {
        let (a, _) = Game::new(program, 3, seed).expect("set up");
        let mut b = a.clone();
        let viewer = a.current().expect("someone moves");
        let other = model::PlayerId::new((viewer.index() + 1) % 3);
        let theirs: Vec<model::ComponentId> = b.cards(b.layout.zone(hand, Some(other), None)).collect();
        let unseen: Vec<model::ComponentId> = b.cards(b.layout.zone(deck, None, None)).collect();
        for (x, y) in theirs.iter().zip(unseen.iter().rev()) {
            b.exchange(*x, *y);
        }
        assert_ne!(a.snapshot(), b.snapshot(), "seed {seed}: the hidden cards differ");
        let mut sa = a.sample_for(viewer, &mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
        let mut sb = b.sample_for(viewer, &mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
        assert_eq!(sa.snapshot(), sb.snapshot(), "seed {seed}: the same sample");
        for turn in 0..12 {
            let (ca, cb) = (sa.choices(), sb.choices());
            assert_eq!(ca, cb, "seed {seed}, turn {turn}: the same choices in both samples");
            if ca.is_empty() {
                break;
            }
            let pick = &ca[(seed as usize + turn) % ca.len()];
            assert_eq!(sa.step(pick).is_ok(), sb.step(pick).is_ok(), "seed {seed}, turn {turn}");
        }
    }
}
