//! What `play` shows a seat, for every bundled game: each action told as
//! the seat may see it (`view::narrate`), the table with what it cannot see
//! counted (`unseen`), components with their `shown` attributes (`label`),
//! and the score as it stands by the rules everyone can count
//! (`score_now`).
//!
//! Narration depends only on what the seat may see: the same action, in two
//! games that differ only in components hidden from both the seat and the
//! player acting, is told in the same words whenever the seat observed the
//! same things (each component moved by name where it passed through a zone
//! the seat sees, and only where it came from and went otherwise). (When
//! the action turns up a hidden card for all to see, a different card may
//! turn up, and the words differ as they should.)

use chronoscope_cli::play::view::narrate;
use chronoscope_tests::scenario::{self, permuted};
use engine::{Event, Game};
use model::PlayerId;
use rand::{Rng, SeedableRng};

/// What seat `v` observed of an action: moves by name only through zones it
/// sees, and every other event as it is.
fn observed(g: &Game, v: PlayerId, events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| match e {
            Event::Move { card, from, to, .. } => {
                let seen = g.visible_to(*from, v) || g.visible_to(*to, v);
                format!("{from:?} {to:?} {:?}", seen.then(|| g.rules.components[*card].name.clone()))
            }
            Event::Reveal { player, cards, zone, .. } if *player != v => {
                format!("reveal {zone:?} {}", cards.len())
            }
            other => format!("{other:?}"),
        })
        .collect()
}

fn check(path: &str, players: usize, seeds: u64) -> usize {
    let program = scenario::load(path);
    let mut told = 0;
    for seed in 0..seeds {
        let (mut g, _) = Game::new(&program, players, seed).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        while let Some(actor) = g.current() {
            let choices = g.choices();
            let c = choices[rng.gen_range(0..choices.len())].clone();
            for v in PlayerId::all(players).filter(|v| *v != actor) {
                let mut a = g.clone();
                let mut b = permuted(&g, &[v, actor], &mut rng);
                let ea = a.apply(&c).unwrap();
                let eb = b.apply(&c).unwrap_or_else(|f| panic!("{path} seed {seed}: legal in both: {f:?}"));
                if observed(&a, v, &ea) != observed(&b, v, &eb) {
                    continue;
                }
                assert_eq!(
                    narrate(&a, Some(v), &ea),
                    narrate(&b, Some(v), &eb),
                    "{path} seed {seed}, told to {v}"
                );
                told += 1;
            }
            g.step(&c).unwrap();
        }
    }
    told
}

#[test]
fn narration_depends_only_on_what_the_seat_may_see_in_every_bundled_game() {
    let told = check("rulesets/thebes/thebes.ruleset", 3, 3)
        + check("rulesets/grabrauber/grabrauber.ruleset", 3, 3)
        + check("rulesets/archaeology/archaeology.ruleset", 3, 6);
    assert!(told > 500, "{told} actions told");
}

#[test]
fn a_player_is_told_what_they_drew_and_what_was_taken_from_them_and_others_are_not() {
    let program = scenario::load("rulesets/archaeology/archaeology.ruleset");
    let (mut g, _) = Game::new(&program, 3, 2).unwrap();
    let order = g.seat_order().to_vec();
    let (me, victim, other) = (order[0], order[1], order[2]);
    let deck = scenario::zone(&g, "deck", None, None);
    // A thief on top, then the drawer steals from `victim`.
    let thief = g.cards(deck).find(|c| program.components[*c].name == "Thief").unwrap();
    g.put(thief, deck, engine::At::Top);
    let dig = g.apply(&engine::notation::parse(&g, "dig").unwrap()).unwrap();
    assert_eq!(narrate(&g, Some(other), &dig)[0], format!("deck -> hand of {me}: a card"));
    assert_eq!(narrate(&g, Some(me), &dig)[0], format!("deck -> hand of {me}: Thief"));
    assert_eq!(narrate(&g, None, &dig)[1], format!("hand of {me} -> discard: Thief"));
    let steal = g.apply(&engine::notation::parse(&g, &format!("steal {victim}")).unwrap()).unwrap();
    let taken = g.cards(scenario::zone(&g, "hand", Some(me.index()), None)).next().unwrap();
    let name = &program.components[taken].name;
    let line = |v: Option<PlayerId>| narrate(&g, v, &steal).join("\n");
    assert_eq!(line(Some(me)), format!("hand of {victim} -> hand of {me}: {name}"));
    assert_eq!(line(Some(victim)), format!("hand of {victim} -> hand of {me}: {name}"));
    assert_eq!(line(Some(other)), format!("hand of {victim} -> hand of {me}: a card"));
}

#[test]
fn the_table_and_its_unseen_counts_depend_only_on_what_the_seat_may_see() {
    use chronoscope_cli::play::view::{table, unseen};
    let mut compared = 0;
    for (path, players) in [
        ("rulesets/thebes/thebes.ruleset", 3),
        ("rulesets/grabrauber/grabrauber.ruleset", 3),
        ("rulesets/archaeology/archaeology.ruleset", 4),
    ] {
        let program = scenario::load(path);
        let (mut g, _) = Game::new(&program, players, 9).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        while g.current().is_some() {
            for v in PlayerId::all(players) {
                let b = permuted(&g, &[v], &mut rng);
                assert_eq!(table(&g, v), table(&b, v), "{path}: the table of {v}");
                // Each line counts as many components as its zones hold.
                for line in unseen(&g, &g.view(v)) {
                    let (zones, names) = line.trim_start_matches("unseen in ").split_once(": ").unwrap();
                    let held: usize = zones
                        .split(", ")
                        .map(|z| z.rsplit(' ').next().unwrap().parse::<usize>().unwrap())
                        .sum();
                    let named: usize = names
                        .split(" · ")
                        .map(|n| n.rsplit_once(" x").and_then(|(_, k)| k.parse().ok()).unwrap_or(1))
                        .sum();
                    assert_eq!(held, named, "{path}: {line}");
                }
                compared += 1;
            }
            let choices = g.choices();
            g.step(&choices[rng.gen_range(0..choices.len())]).unwrap();
        }
    }
    assert!(compared > 300, "{compared}");
}

#[test]
fn components_are_shown_with_the_attributes_their_kind_marks_shown() {
    use chronoscope_cli::play::view::label;
    let thebes = scenario::load("rulesets/thebes/thebes.ruleset");
    let (g, _) = Game::new(&thebes, 2, 1).unwrap();
    let exhibition = scenario::component(&g, "Small exhibition, London");
    assert_eq!(
        label(g.rules, exhibition),
        "Small exhibition, London (weeks 3; points 4; needs Greece 1, Egypt 2)"
    );
    let grabrauber = scenario::load("rulesets/grabrauber/grabrauber.ruleset");
    let (g, _) = Game::new(&grabrauber, 2, 1).unwrap();
    let museum = scenario::component(&g, "Museum of 6 finds");
    assert_eq!(label(g.rules, museum), "Museum of 6 finds (hand_over 6; weeks 3; points 12)");
    let exhibition = scenario::component(&g, "Exhibition of Mesopotamia");
    assert_eq!(
        label(g.rules, exhibition),
        "Exhibition of Mesopotamia (base Mesopotamia 3; second Crete 2; third Egypt 1; weeks 9; weeks_second 5; \
         weeks_third 3; points 5)"
    );
    // A trade value shown; a 0 the kind gives by default is not.
    let archaeology = scenario::load("rulesets/archaeology/archaeology.ruleset");
    let (g, _) = Game::new(&archaeology, 2, 1).unwrap();
    assert_eq!(label(g.rules, scenario::component(&g, "Coin")), "Coin (trade 2)");
    assert_eq!(label(g.rules, scenario::component(&g, "Thief")), "Thief");
}

#[test]
fn the_score_now_counts_only_rules_that_read_no_hidden_zone() {
    use chronoscope_cli::play::view::{public_scores, score_now};
    let thebes = scenario::load("rulesets/thebes/thebes.ruleset");
    assert!(public_scores(&thebes).iter().all(|p| *p), "Thebes scores read only open zones");
    let (mut g, _) = Game::new(&thebes, 3, 8).unwrap();
    scenario::play_into(&mut g, 8, 40);
    let totals = g.scores().unwrap().totals;
    let each: Vec<String> = PlayerId::all(3).map(|p| format!("{p} {}", totals[p.index()])).collect();
    let line = score_now(&g).unwrap();
    assert!(line.starts_with(&format!("score now: {} (", each.join(" · "))), "{line}");
    // A rule that reads a hand waits for the end.
    let checked = chronoscope_tests::checked_variant(
        "rulesets/archaeology/archaeology.ruleset",
        "score sales = me.money",
        "score sales = me.money\nscore held = count(me.hand)",
    );
    let program = engine::Program::new(checked.ruleset.unwrap());
    assert_eq!(public_scores(&program), [true, false]);
    let (g, _) = Game::new(&program, 2, 1).unwrap();
    assert_eq!(score_now(&g).unwrap(), "score now: P1 0 · P2 0 (sales); at the end also held");
}

#[test]
fn thebes_shows_the_week_and_the_weeks_left_and_keeps_permit_years_as_bookkeeping() {
    let thebes = scenario::load("rulesets/thebes/thebes.ruleset");
    let (mut g, _) = Game::new(&thebes, 3, 8).unwrap();
    let p = g.current().unwrap();
    // Week 48 of the second year (time 100 = 52 + 48).
    scenario::set_time(&mut g, p.index(), 100);
    let table = chronoscope_cli::play::view::table(&g, p);
    let line = table.lines().find(|l| l.starts_with(&format!("{p} (you): "))).unwrap();
    assert!(line.contains("time 100 · week 48 · weeks_left 57 · year 1902"), "{line}");
    assert!(!table.contains("permit_year"), "{table}");
    assert!(line.contains("permit_valid ["), "{line}");
}

#[test]
fn the_table_is_wrapped_at_spaces_to_the_width_with_nothing_lost() {
    use chronoscope_cli::play::view::{table, wrap};
    let thebes = scenario::load("rulesets/thebes/thebes.ruleset");
    let (g, _) = Game::new(&thebes, 3, 5).unwrap();
    let text = table(&g, g.current().unwrap());
    for width in [40, 80, 120] {
        let wrapped = wrap(&text, width);
        for line in wrapped.lines() {
            let longest_word = line.split(' ').map(|w| w.chars().count()).max().unwrap_or(0);
            assert!(line.chars().count() <= width.max(longest_word + 8), "{width}: {line}");
        }
        let words = |t: &str| t.split_whitespace().map(String::from).collect::<Vec<_>>();
        assert_eq!(words(&wrapped), words(&text), "the same words in the same order");
    }
    // A line that fits is left alone.
    assert_eq!(wrap("  short line\n", 80), "  short line\n");
}

#[test]
fn a_preview_tells_the_points_the_destination_and_what_is_spent_that_the_move_does_not_name() {
    use chronoscope_cli::play::prompt::preview;
    use engine::notation;
    let archaeology = scenario::load("rulesets/archaeology/archaeology.ruleset");
    let (mut g, _) = Game::new(&archaeology, 2, 1).unwrap();
    let me = g.current().unwrap();
    let hand = scenario::zone(&g, "hand", Some(me.index()), None);
    let deck = scenario::zone(&g, "deck", None, None);
    for name in ["Talisman", "Talisman", "Map", "Pot shard"] {
        let c = g.cards(deck).find(|c| g.rules.components[*c].name == name).unwrap();
        g.put(c, hand, engine::At::Bottom);
    }
    let pot = g.cards(deck).find(|c| g.rules.components[*c].name == "Pot shard").unwrap();
    g.put(pot, deck, engine::At::Top);
    g.apply(&notation::parse(&g, "dig").unwrap()).unwrap();
    let sell = preview(&g, &notation::parse(&g, "sell [Talisman x2]").unwrap());
    assert!(sell.contains("money +7") && sell.contains("points +7"), "{sell}");
    let explore = preview(&g, &notation::parse(&g, "explore small Map").unwrap());
    assert!(explore.contains("draws 3 from chambers[small]") && !explore.contains("spends"), "{explore}");
    // Thebes: taking a card travels to its city.
    let thebes = scenario::load("rulesets/thebes/thebes.ruleset");
    let (g, _) = Game::new(&thebes, 3, 5).unwrap();
    let take = g.choices().into_iter().find(|c| g.rules.actions[c.action].name == "take").unwrap();
    let engine::V::Card(card) = take.args[0] else { panic!("a card") };
    let city = match g.rules.components[card].values[0] {
        model::Value::Place(p) => g.rules.places[p].name.clone(),
        ref other => panic!("{other:?}"),
    };
    let text = preview(&g, &take);
    assert!(text.contains(&format!("to {city}")), "{text}");
}

#[test]
fn a_long_list_shows_the_choices_that_make_the_most_points_first() {
    use chronoscope_cli::play::prompt::choice_list;
    let thebes = scenario::load("rulesets/thebes/thebes.ruleset");
    let (mut g, _) = Game::new(&thebes, 2, 8).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
    // Play on until the player to move has many digs at one site.
    loop {
        let choices = g.choices();
        let digs: Vec<String> = choices
            .iter()
            .filter(|c| g.rules.actions[c.action].name == "dig")
            .map(|c| engine::notation::format(&g, c))
            .collect();
        if digs.len() >= 8 {
            let listed = choice_list(&g, &choices, Some("dig"), 3);
            let lines: Vec<&str> = listed.lines().filter(|l| l.contains(". dig ")).collect();
            assert_eq!(lines.len(), 3, "{listed}");
            // Not the engine's first three (the shortest digs) but the
            // longest ones, which draw the most tokens.
            assert!(!lines[0].contains(&format!(". {} ", digs[0])), "{listed}");
            let longest = digs.iter().find(|d| d.split(' ').nth(2) == Some("12")).expect("a 12-week dig");
            assert!(lines.iter().any(|l| l.contains(&format!(". {longest} "))), "{longest}: {listed}");
            assert!(listed.contains(&format!("... {} more `dig` choices", digs.len() - 3)), "{listed}");
            break;
        }
        let c = choices[rng.gen_range(0..choices.len())].clone();
        g.step(&c).unwrap();
        assert!(g.current().is_some(), "no position with many digs");
    }
}

#[test]
fn a_flag_that_only_spends_a_card_is_left_out_of_the_short_list_and_changes_nothing_else() {
    use chronoscope_cli::play::prompt::{choice_list, listing};
    let thebes = scenario::load("rulesets/thebes/thebes.ruleset");
    let mut found = 0;
    for seed in 0..4 {
        let (mut g, _) = Game::new(&thebes, 3, seed).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        while g.current().is_some() && found < 40 {
            let choices = g.choices();
            for group in listing(&g, &choices, None) {
                for w in &group.wasted {
                    // `lone_shovel` spends Shovel, London for nothing: as 12
                    let (_, as_n) = w.note.rsplit_once("as ").unwrap();
                    let plain = &choices[as_n.parse::<usize>().unwrap() - 1];
                    let wasteful = &choices[w.number - 1];
                    // On the real game too, the two do the same but for the
                    // card spent: the same events once its moves are left out.
                    let (mut a, mut b) = (g.clone(), g.clone());
                    let spent: Vec<engine::Event> = a.apply(wasteful).unwrap();
                    let kept = b.apply(plain).unwrap();
                    let moved_card = |e: &engine::Event| match e {
                        engine::Event::Move { card, .. } => w.note.contains(&thebes.components[*card].name),
                        _ => false,
                    };
                    let rest: Vec<String> =
                        spent.iter().filter(|e| !moved_card(e)).map(|e| format!("{e:?}")).collect();
                    let other: Vec<String> = kept.iter().map(|e| format!("{e:?}")).collect();
                    assert_eq!(rest, other, "{}: {}", w.text, w.note);
                    assert!(spent.iter().any(moved_card), "{}: the card moves", w.text);
                    // Left out of the short list, counted in a note; `list` shows it.
                    let short = choice_list(&g, &choices, Some(&group.name), 8);
                    assert!(!short.contains(&format!(" {}. ", w.number)), "{short}");
                    assert!(short.contains("that spend a card for nothing"), "{short}");
                    let full = choice_list(&g, &choices, Some(&group.name), usize::MAX);
                    assert!(full.contains(&format!("{}. {}   ({})", w.number, w.text, w.note)), "{full}");
                    found += 1;
                }
            }
            let c = choices[rng.gen_range(0..choices.len())].clone();
            g.step(&c).unwrap();
        }
    }
    assert!(found >= 10, "{found} wasted choices checked");
}

#[test]
fn the_table_shows_the_standings_of_each_majority_with_what_each_player_has() {
    use chronoscope_cli::play::view::{standings, table};
    let thebes = scenario::load("rulesets/thebes/thebes.ruleset");
    let (mut g, _) = Game::new(&thebes, 3, 4).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
    for _ in 0..40 {
        let choices = g.choices();
        g.step(&choices[rng.gen_range(0..choices.len())]).unwrap();
    }
    let lines = standings(&g);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let line = &lines[0];
    assert!(table(&g, g.current().unwrap()).contains(line.as_str()));
    // One cell per site, each player with books there listed with their count.
    for site in ["Greece", "Crete", "Egypt", "Palestine", "Mesopotamia"] {
        let place = engine::V::Place(thebes.place_named(site).unwrap());
        let cell = line.split(" · ").find(|c| c.contains(site)).unwrap_or_else(|| panic!("{site}: {line}"));
        for p in PlayerId::all(3) {
            let books = match g.call_let("site_books", Some(p), vec![engine::V::Player(p), place]) {
                Some(Ok(engine::V::Int(n))) => n,
                other => panic!("{other:?}"),
            };
            assert_eq!(books != 0, cell.contains(&format!("{p} {books}")), "{site} {p} {books}: {line}");
        }
    }
}

#[test]
fn a_failed_require_all_names_the_first_element_it_fails_for() {
    let thebes = scenario::load("rulesets/thebes/thebes.ruleset");
    let (mut g, _) = Game::new(&thebes, 2, 1).unwrap();
    // "Small exhibition, London" needs artifacts the player lacks.
    let exhibition = scenario::component(&g, "Small exhibition, London");
    let row = scenario::zone(&g, "exhibitions", None, None);
    g.put(exhibition, row, engine::At::Top);
    let choice = engine::notation::parse(&g, "exhibit \"Small exhibition, London\"").unwrap();
    let Err(engine::Fail::Illegal { reason, .. }) = g.check(&choice) else {
        panic!("legal with no artifacts")
    };
    // The first site, in the class's order, whose need is not met.
    let sites = ["Greece", "Crete", "Egypt", "Palestine", "Mesopotamia"];
    let label = chronoscope_cli::play::view::label(&thebes, exhibition);
    let first = sites.iter().find(|s| label.contains(&format!("{s} "))).unwrap();
    assert_eq!(
        reason,
        format!("you lack the artifacts this exhibition needs (not met for {first})"),
        "{label}"
    );
}
