//! What the generator writes for given rules: which parts it compiles
//! itself, which it keeps for the listing, and which it hands to the
//! interpreter.

use super::*;

/// A let with parameters whose body the generator compiles whole
/// (`rotate` included) is worked out in place at each call, and so is a
/// small let without parameters, once the constants fixed after setup
/// (`Interp::consts`) give no value for it; one that goes through a
/// region (a walk, or its copy from the memo, costs more than a memo
/// lookup) stays a call of `Interp::call_values` in a root, and one with
/// a body larger than the generator inlines everywhere.
#[test]
fn generator_inlines_small_lets_and_calls_the_rest() {
    let calls = |path: &str, name: &str| {
        let rules = load(path);
        let id = rules.let_named(name).unwrap_or_else(|| panic!("{path}: no let {name}")).index();
        compile::generate(&rules).matches(&format!("it.call_values(LetId::new({id}), ")).count()
    };
    let lets = "tests/fixtures/valid/lets.ruleset";
    for name in ["golds", "weeks_in", "busiest", "behind", "lucky", "reward", "trip", "cost"] {
        assert_eq!(calls(lets, name), 0, "{name} is called, not worked out in place");
    }
    assert!(calls("tests/fixtures/valid/reef.ruleset", "reef_size") > 0, "a count over a region is called");
    let akrotiri = "rulesets/akrotiri/akrotiri.ruleset";
    assert_eq!(calls(akrotiri, "arm_land"), 0, "a let reading `rotate` is worked out in place");
    assert!(calls(akrotiri, "crossed") > 0, "a let larger than the generator inlines is called");
    // In leading statements a let going through a region is written out
    // too: `portage`'s requirement asks `portage_cost(me, to)` once per
    // destination, which the memo would not serve.
    let rules = load(akrotiri);
    let cost = rules.let_named("portage_cost").expect("Akrotiri has portage_cost").index();
    let portage = rules.actions.iter().position(|a| a.name == "portage").expect("Akrotiri has portage");
    let code = compile::generate(&rules);
    let lead = generated_fn(&code, &format!("lead_{portage}_1"));
    assert!(
        !lead.contains(&format!("call_values(LetId::new({cost}), ")),
        "portage_cost is written out in the lead"
    );
    assert!(calls(akrotiri, "portage_cost") > 0, "a root calls a let going through a region");
    let thebes = load("rulesets/thebes/thebes.ruleset");
    let id = thebes.let_named("research_left").expect("Thebes has research_left").index();
    assert_eq!(
        calls("rulesets/thebes/thebes.ruleset", "research_left"),
        0,
        "a let without parameters is inlined"
    );
    let consts_first = format!("match it.consts.get({id}) {{ Some(Some(v)) => *v, _ => {{ it.spend(1, ");
    assert!(compile::generate(&thebes).contains(&consts_first), "a constant is read before the body runs");
}

/// A `move`'s filter over a zone is a picking function of its own: one
/// loop over the zone, each component screened by the filter's leading tag
/// tests of it (passed by the statement) before the rest of the filter is
/// worked out, and the let calls whose arguments stay the same while the
/// move picks kept in locals made before the loop (once per move, not per
/// component). A filter of tag tests alone is only those tests, in the
/// statement's own loop.
#[test]
fn generator_picks_a_moves_components_in_one_function_screened_by_its_tag_tests() {
    let function = |code: &str, name: &str| generated_fn(code, name).to_string();
    let tag = |rules: &model::Ruleset, name: &str| {
        rules.tags.iter().position(|t| t == name).unwrap_or_else(|| panic!("no tag {name}"))
    };
    // Die Grabräuber's `award_professors`: `move all c in q.tableau where
    // c has professor and professor_measure(me, c) > ...`, then `move all c
    // in chairs where professor_measure(me, c) >= c.threshold`.
    let rules = load("rulesets/grabrauber/grabrauber.ruleset");
    let code = compile::generate(&rules);
    let k = rules.procedures.iter().position(|p| p.name == "award_professors").expect("award_professors");
    let award = function(&code, &format!("proc_{k}"));
    let professor = tag(&rules, "professor");
    let picks: Vec<&str> = award.match_indices("pick_").map(|(i, _)| &award[i..]).collect();
    assert_eq!(picks.len(), 2, "each move picks through its function: {award}");
    let screen = format!("&mut cards, |c: ComponentId| (TAGS[c.index()] >> {professor}u32 & 1 != 0))?;");
    assert!(picks[0].split('\n').next().unwrap().contains(&screen), "the professor test screens: {award}");
    assert!(picks[1].split('\n').next().unwrap().contains("&mut cards, |c: ComponentId| true)?;"), "{award}");
    assert!(!award.contains("for c in st.cards(src)"), "no loop of the statement's own: {award}");
    // The chairs' function: `professor_measure(me, c)` asks
    // `total_knowledge(me)` for a chair of no region, the same for every
    // chair: kept before the loop.
    let name = picks[1].split('(').next().unwrap();
    let chairs = function(&code, name);
    let (kept, looped) = (chairs.find("let mut once"), chairs.find("for c in st.cards(src)"));
    assert!(matches!((kept, looped), (Some(k), Some(l)) if k < l), "values kept for the move: {chairs}");
    assert!(chairs.contains("if !screen(c) { continue; }"), "{chairs}");
    // `effects`' tour: `move first c in me.hand where c has shiny`.
    let rules = load("tests/fixtures/valid/effects.ruleset");
    let tour = function(&compile::generate(&rules), "body_2");
    let shiny = tag(&rules, "shiny");
    let alone = format!("if (TAGS[c.index()] >> {shiny}u32 & 1 != 0) {{ cards.push(c); break; }}");
    assert!(tour.contains(&alone), "a lone tag test is the filter: {tour}");
    // Nothing there reads the frame: the component is not bound in it.
    assert!(!tour.contains(&format!("V::Card(c)); {alone}")), "{tour}");
    assert!(!tour.contains("pick_"), "{tour}");
}

/// In leading statements, a let call taking a player that an aggregate
/// over the players binds, or that player's piece, is kept for the listing
/// per player, as a call taking a parameter is per value: Akrotiri's
/// `portage_cost(me, to)`, written out for each destination, asks
/// `same_island(p.boat, o.boat)` for each other player `o`, which no
/// destination changes. Its other argument, the piece of `portage_cost`'s
/// `p` given `me`, is the same for the whole listing.
#[test]
fn generator_keeps_calls_taking_a_player_an_aggregate_binds_per_player_for_the_listing() {
    let (rules, lead) = generated_function("rulesets/akrotiri/akrotiri.ruleset", |r| {
        let portage = r.actions.iter().position(|a| a.name == "portage").expect("Akrotiri has portage");
        format!("lead_{portage}_1")
    });
    let per_player = format!(
        "V::Player(p) => Some(p.index()).filter(|i| *i < {}), _ => None }}).and_then(|o| it.listing.get(",
        rules.game.max_players
    );
    assert_eq!(
        lead.matches(&per_player).count(),
        1,
        "same_island(p.boat, o.boat) is kept per player: {lead}"
    );
}

/// A `for` over a region is the generated code's own loop over the places
/// the interpreter's walk lists (`Interp::places_of`), counted as the
/// interpreter counts them: Akrotiri's `take` (`for q in connected(me.boat,
/// land) { repeat while ... { move first ... } }`) leaves nothing to the
/// interpreter.
#[test]
fn generator_goes_through_a_region_in_a_for_itself() {
    let (_, take) = generated_function("rulesets/akrotiri/akrotiri.ruleset", |r| {
        format!("proc_{}", r.procedures.iter().position(|p| p.name == "take").expect("Akrotiri has take"))
    });
    assert_eq!(take.matches("it.places_of(").count(), 1, "{take}");
    assert_eq!(take.matches("it.stmt(").count(), 0, "{take}");
}

/// An action whose trial the engine writes as steps
/// (`legality::Precondition`) gets the steps compiled as one function,
/// and so do the leading statements the search runs once some parameters
/// are bound; an action without steps gets none, and a number of bound
/// parameters with no leading statement none.
#[test]
fn generator_compiles_each_actions_steps_and_leading_statements_as_one_function() {
    let preconditions = |path: &str| {
        let code = compile::generate(&load(path));
        let start = code.find("preconditions: &[").expect("the natives list their preconditions");
        code[start..].lines().next().unwrap_or_default().to_string()
    };
    let lets = preconditions("tests/fixtures/valid/lets.ruleset");
    assert!(lets.contains("preconditions: &[Some(pre_0), None]"), "take has steps, rest has none: {lets}");
    assert!(
        lets.contains("leading: &[&[None, Some(lead_0_1)], &[Some(lead_1_0)]]"),
        "take's first require once its card is bound, rest's before any parameter: {lets}"
    );
    let thebes = preconditions("rulesets/thebes/thebes.ruleset");
    assert_eq!(
        thebes.matches("Some(pre_").count(),
        load("rulesets/thebes/thebes.ruleset").actions.len(),
        "{thebes}"
    );
}

/// In leading statements, a let called with the place an aggregate over
/// a class goes through (`all(s in site where artifacts_from(me, s) >=
/// c.needs[s])` in Thebes' `exhibit`) is kept per place for the listing,
/// as one called with a place parameter would be: the aggregate's local
/// keys it.
#[test]
fn generator_keeps_let_calls_by_the_place_a_class_aggregate_goes_through() {
    // Exhibit's requirement once its card is bound.
    let (_, lead) = generated_function("rulesets/thebes/thebes.ruleset", |r| {
        format!("lead_{}_1", r.actions.iter().position(|a| a.name == "exhibit").expect("Thebes has exhibit"))
    });
    assert_eq!(lead.matches("it.listing.get(").count(), 1, "{lead}");
    assert!(lead.contains("V::Place(p) => PLACE_RANK.get(p.index())"), "{lead}");
}

/// An attribute every component holds a place or none in (`home` in
/// `filters.ruleset`, which dust lacks) gets a table of place numbers,
/// none as `u32::MAX`, and each `==` or `!=` between it and a value
/// reads that table instead of comparing values; one every component
/// holds a number or none in (`size`, `bonus`) gets a table of numbers,
/// none as 0, which reading it as a number reads. Their agreement with
/// the interpreter is what
/// `filters_tested_without_the_tree_walk_agree_with_the_compiled_rules`
/// holds.
#[test]
fn generator_reads_place_and_number_attributes_from_typed_tables() {
    let rules = load("tests/fixtures/valid/filters.ruleset");
    let code = compile::generate(&rules);
    let attr = |name: &str| rules.attr_named(name).expect("the fixture has it").index();
    let places: Vec<String> = rules
        .components
        .iter()
        .map(|c| {
            let slot = rules.kinds[c.kind].slot_of(model::AttrId::new(attr("home")));
            match slot.map(|s| &c.values[s]) {
                Some(model::Value::Place(p)) => p.index().to_string(),
                _ => u32::MAX.to_string(),
            }
        })
        .collect();
    let home = attr("home");
    let table = format!("static ATTRP_{home}: [u32; {}] = [{}];", places.len(), places.join(", "));
    assert!(code.contains(&table), "no {table} in\n{code}");
    assert!(places.iter().any(|p| *p == u32::MAX.to_string()) && places.iter().any(|p| p == "0"));
    // `from`, `homeless`, `not_from` and the score `others` compare `home`.
    assert!(code.matches(&format!("ATTRP_{home}[c.index()] == p.index() as u32")).count() >= 4, "{code}");
    let (size, bonus) = (attr("size"), attr("bonus"));
    let numbers = |a: usize| -> Vec<String> {
        rules
            .components
            .iter()
            .map(|c| match rules.kinds[c.kind].slot_of(model::AttrId::new(a)).map(|s| &c.values[s]) {
                Some(model::Value::Int(n)) => n.to_string(),
                _ => "0".to_string(),
            })
            .collect()
    };
    for a in [size, bonus] {
        let table = format!("static ATTRI_{a}: [i64; {}] = [{}];", places.len(), numbers(a).join(", "));
        assert!(code.contains(&table), "no {table} in\n{code}");
    }
    // `from` sums `size`, the score `others` reads `bonus`.
    assert!(code.contains(&format!("ATTRI_{size}[")) && code.contains(&format!("ATTRI_{bonus}[")), "{code}");
    assert!(
        !code.contains(&format!("static ATTRP_{size}:")) && !code.contains(&format!("static ATTRI_{home}:"))
    );
}

/// `count` of a zone the rules name is worked out by the zone's kind,
/// known when the code is generated: a row (Die Grabräuber's `display`)
/// counts its filled slots, any other zone (its `deck`) is its length.
/// Both engines agree on it in the lockstep games of every bundled game.
#[test]
fn generator_counts_a_named_zone_by_its_kind() {
    let rules = load("rulesets/grabrauber/grabrauber.ruleset");
    let code = compile::generate(&rules);
    let zone = |name: &str| rules.zone_named(name).expect("Die Grabräuber has it").index();
    let (display, deck) = (zone("display"), zone("deck"));
    assert_eq!(rules.zones[display].kind, model::ZoneKind::Row);
    assert_ne!(rules.zones[deck].kind, model::ZoneKind::Row);
    let row = format!("(st.count(it.lay.zone(ZoneId::new({display}), None, None)) as i64)");
    let pile = format!("(st.zones[it.lay.zone(ZoneId::new({deck}), None, None).index()].len() as i64)");
    assert!(code.contains(&row), "no {row}");
    assert!(code.contains(&pile), "no {pile}");
    assert!(!code.contains("it.count("), "a named zone counted by the interpreter's test of its kind");
}

/// Every statement list becomes a function: setup, each procedure, each
/// action, `after action`. A `move`, `draw`, `shuffle`, `set`, `advance`,
/// loop, branch or procedure call is the function's own code, and so are
/// the zones it names and the counters and pieces it sets (no one's,
/// `me`'s or a local player's, at no place or a local one), and so is a
/// move of a chosen set (the set read from the frame; a local holding
/// anything else hands the move to the interpreter); an `end turn` and a
/// failing `require` are left to the interpreter, one statement at a time.
#[test]
fn generator_compiles_every_statement_list_as_one_function() {
    let path = "tests/fixtures/valid/effects.ruleset";
    let rules = load(path);
    let code = compile::generate(&rules);
    let natives =
        code.lines().find(|l| l.starts_with("pub static NATIVES")).expect("the natives are exported");
    assert!(
        natives.contains("setup: setup, procedures: &[proc_0, proc_1], actions: &[body_0, body_1, body_2], after_action: after_action"),
        "{natives}"
    );
    let function = |name: &str| generated_fn(&code, name).to_string();
    let zones = |f: &str| f.matches("it.lay.zone(ZoneId::new(").count();
    let tour = function("body_2");
    // A move of one component, or of those a filter picks.
    let moves = tour.matches("it.move_cards(").count() + tour.matches("it.move_picked(").count();
    assert_eq!(moves, 3, "tour's moves are its own code: {tour}");
    assert_eq!(tour.matches("for i in 0..n").count(), 2, "tour's loops are its own code: {tour}");
    // The places of a class gone through without the interpreter's
    // `for_domain`: `for t in town`; `me.hand` and `players from me` by it.
    assert_eq!(tour.matches("for &p in places.iter()").count(), 1, "{tour}");
    assert_eq!(tour.matches("it.for_domain(").count(), 2, "{tour}");
    assert_eq!(tour.matches("proc_0(it, ").count(), 1, "tour calls pay directly: {tour}");
    assert_eq!(tour.matches("it.shuffle_zone(").count(), 1, "tour's shuffle is its own code: {tour}");
    // The zones of its three moves (me.hand, stall twice, discard three
    // times) and of its shuffle.
    assert_eq!(zones(&tour), 7, "{tour}");
    // Its `end turn` and the refusal of its `require`, and nothing else,
    // are the interpreter's.
    assert_eq!(tour.matches("it.stmt(").count(), 2, "{tour}");
    let restock = function("proc_1");
    assert!(restock.contains("too_many_repeats"), "restock's repeat is its own loop: {restock}");
    assert_eq!(restock.matches("it.draw(").count(), 1, "restock's draw is its own code: {restock}");
    assert_eq!(
        restock.matches("it.stmt(").count(),
        1,
        "only a negative count goes to the interpreter: {restock}"
    );
    let setup = function("setup");
    assert_eq!(setup.matches("it.draw(").count(), 3, "{setup}");
    // Its two `for p in players`: the players by seat in generated code.
    assert_eq!(setup.matches("V::Player(PlayerId::new(i))").count(), 2, "{setup}");
    assert!(!setup.contains("it.for_domain("), "{setup}");
    // `p.hand` of the loop's player, from the layout.
    assert!(setup.contains("{ V::Player(p) => Some(p), _ => break "), "{setup}");
    let sell = function("body_1");
    // Its two moves of the set it was given go through the set themselves,
    // each handing itself over only for a local that holds no set.
    assert_eq!(sell.matches("while let Some(&c) = f.set_items(set).get(i)").count(), 2, "{sell}");
    assert_eq!(sell.matches("_ => { it.stmt(").count(), 2, "{sell}");
    // Those two hand-overs, the refusal of its `require` and its `end turn`.
    assert_eq!(sell.matches("it.stmt(").count(), 4, "{sell}");
    // `advance p.coins by n` and `set p.coins = 6`: the instance found and
    // written in generated code (the interpreter's `assign` only for a
    // local of another kind).
    let pay = function("proc_0");
    assert_eq!(pay.matches("it.set_counter_at(CounterId::new(").count(), 2, "{pay}");
    assert_eq!(pay.matches("it.assign(").count(), 2, "{pay}");
    // `set me.cart = c.town` and `advance me.coins by ...` in generated
    // code; `advance visits[c.town] by 1`, whose place is an attribute,
    // through the interpreter.
    let buy = function("body_0");
    assert_eq!(buy.matches("it.set_piece_at(PieceId::new(").count(), 1, "{buy}");
    assert_eq!(buy.matches("it.set_counter_at(CounterId::new(").count(), 1, "{buy}");
    assert_eq!(buy.matches("it.assign(").count(), 3, "{buy}");
}

/// An aggregate over a set a player chose (`sum(c.value for c in give)`)
/// goes through the set in generated code: `sets.ruleset` has four (two
/// sums in `trade`, `first` and `all` in `sell`). A `count(SET)`, a
/// builtin, reads the set's length in generated code too: five of them
/// (`count(lost)`, `count(give)`, `count(take)`, `count(s)` twice). Each
/// appears in its root, and those in leading requirements again in their
/// action's leading function (which a part left to the interpreter would
/// have given up); `sum(c.value for c in give)` once more as the bound the
/// search reads for `take` (`set_bounds_are_compiled_roots`).
#[test]
fn generator_goes_through_chosen_sets_itself() {
    let code = compile::generate(&load("tests/fixtures/valid/sets.ruleset"));
    assert_eq!(code.matches("V::Set(j) => j").count(), 4 + 4 + 1, "{code}");
    assert_eq!(code.matches("V::Set(s) => f.set_items(s).len() as i64").count(), 5 + 4, "{code}");
}

/// A table keyed by an enumeration (`largest[k.colour]`,
/// `worth[k.colour][count(s)]` in `sets.ruleset`) is read in generated
/// code, with the value's position in its class as the key: in the root
/// of `sell`'s requirement and in its leading function (which repeats
/// it), and in the root of its `advance`.
#[test]
fn generator_reads_tables_keyed_by_an_enumeration_itself() {
    let code = compile::generate(&load("tests/fixtures/valid/sets.ruleset"));
    assert_eq!(
        code.matches(".places.iter().position(|q| *q == p).map_or(-1, |i| i as i64)").count(),
        3,
        "{code}"
    );
}

/// The bounds the search reads for a `set of` parameter (a weight per
/// component, the largest total) are compiled roots too: in
/// `sets.ruleset` and Archaeology, every bound's weight and right side
/// that is more than a literal or a local runs natively.
#[test]
fn set_bounds_are_compiled_roots() {
    let mut seen = 0;
    for path in ["tests/fixtures/valid/sets.ruleset", "rulesets/archaeology/archaeology.ruleset"] {
        let natives = compiled::natives(path).expect("compiled in the build");
        let program = Program::with_natives(load(path), natives).expect("its own compiled rules");
        for b in program.trials().set_bounds.iter().flatten().flatten() {
            let exprs = b.weight.iter().map(|(w, _)| w).chain([&b.rhs]);
            for e in exprs.filter(|e| !matches!(e.kind, model::ExprKind::Int(_) | model::ExprKind::Local(_)))
            {
                assert!(matches!(e.kind, model::ExprKind::Native(..)), "{path}: {:?}", e.kind);
                seen += 1;
            }
        }
    }
    assert!(seen >= 4, "only {seen} bound expressions");
}

/// Generated code reaches a part of its root by `child` steps: `child`
/// must give the parts in `for_each_child`'s order, for every kind of
/// expression the bundled rules use.
#[test]
fn child_gives_the_parts_of_an_expression_in_order() {
    fn walk(e: &model::Expr, seen: &mut usize) {
        let mut parts: Vec<*const model::Expr> = Vec::new();
        e.for_each_child(|c| parts.push(c as *const _));
        for (k, p) in parts.iter().enumerate() {
            assert!(std::ptr::eq(engine::native::child(e, k), *p), "part {k} of {:?}", e.kind);
        }
        assert!(std::ptr::eq(engine::native::child(e, parts.len()), e), "past the last part of {:?}", e.kind);
        *seen += 1;
        e.for_each_child(|c| walk(c, seen));
    }
    let mut seen = 0;
    for (path, _) in compiled::ALL {
        for root in engine::native::roots(&load(path)) {
            walk(&root, &mut seen);
        }
    }
    assert!(seen > 1000, "only {seen} expressions walked");
}

/// The generator writes one native function per root for every valid
/// fixture (each construct of the language among them), without failing.
#[test]
fn generator_writes_a_function_for_every_root_of_every_valid_fixture() {
    let dir = repo_root().join("tests/fixtures/valid");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/fixtures/valid exists") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_none_or(|x| x != "ruleset") {
            continue;
        }
        let checked = ruleset::check_file(&path.display().to_string(), &mut |p| {
            std::fs::read(p).map_err(|e| e.to_string())
        });
        let Some(rules) = checked.ruleset else { continue };
        let code = compile::generate(&rules);
        let roots = engine::native::roots(&rules).len();
        assert_eq!(code.matches("\nfn root_").count(), roots, "{}", path.display());
        files += 1;
    }
    assert!(files >= 7, "only {files} fixtures");
}

/// `any(r in REGION where r == b)`, `b` another local (Akrotiri's
/// `same_island(a, b)`), is one search of the region's places for `b` in
/// generated code, as the interpreter's `aggregate` does it; an `any`
/// whose filter is anything else (`thera_island`'s `on_thera(r)`) stays a
/// loop testing each place. The lockstep tests hold the values to the
/// interpreter's.
#[test]
fn generator_asks_whether_a_region_holds_a_place_in_one_search() {
    let rules = load("rulesets/akrotiri/akrotiri.ruleset");
    let code = compile::generate(&rules);
    let root_of = |name: &str| {
        let id = rules.let_named(name).unwrap_or_else(|| panic!("Akrotiri has {name}"));
        let k = engine::native::root_lets(&rules).iter().position(|l| *l == id).expect("a compiled let");
        generated_fn(&code, &format!("root_{k}")).to_string()
    };
    assert!(root_of("same_island").contains("places.contains(&q)"), "same_island searches once");
    let thera = root_of("thera_island");
    assert!(
        !thera.contains("places.contains(&q)") && thera.contains("for i in 0..len"),
        "thera_island loops"
    );
}

/// A link that asks another link first (`free_climb(a, b) = climb(a, b)
/// and not any(...)`, Akrotiri's `free_land`) has what it asks after that
/// call compiled as a root of its own, after the rules' and the plan's
/// roots, the conjuncts in the order written: a walk that has the first
/// link's step kept asks only that (`Interp::connected`), not the whole
/// link again. A ruleset whose links ask no link first has none. The
/// lockstep tests hold the walks' regions to the interpreter's.
#[test]
fn the_conjuncts_a_link_asks_after_another_link_are_a_compiled_root() {
    // Akrotiri's `land` asks `side_by_side(a, b)` first, `free_land`
    // asks `land`.
    let akrotiri_land = "tiled(b) and (cell_of(a) != cell_of(b) or arm_land(cell_of(a), arm(a, b)))";
    for (path, rests) in [
        ("tests/fixtures/valid/heights.ruleset", &["not any(p in players where p.walker == b)"][..]),
        ("rulesets/akrotiri/akrotiri.ruleset", &[akrotiri_land, "not occupied(b)"][..]),
    ] {
        let rules = load(path);
        let source = std::fs::read_to_string(repo_root().join(path)).expect("the ruleset reads");
        let roots = engine::native::roots(&rules);
        let mut copy = rules.clone();
        let mut of_rules = 0;
        engine::native::roots_mut(&mut copy, &mut |_| of_rules += 1);
        let mut plan = engine::legality::TrialPlan::new(&rules);
        engine::native::plan_roots_mut(&mut plan, &mut |_| of_rules += 1);
        let found: Vec<&str> = roots[of_rules..].iter().map(|r| &source[r.span.start..r.span.end]).collect();
        assert_eq!(found, rests, "{path}: what the links asking another first ask after it");
        assert!(compile::generate(&rules).contains(&format!("\nfn root_{}(", roots.len() - 1)), "{path}");
    }
    // Thebes' lets walk nothing: its roots are its rules' and its plan's.
    let rules = load("rulesets/thebes/thebes.ruleset");
    let mut counted = 0;
    engine::native::roots_mut(&mut rules.clone(), &mut |_| counted += 1);
    engine::native::plan_roots_mut(&mut engine::legality::TrialPlan::new(&rules), &mut |_| counted += 1);
    assert_eq!(engine::native::roots(&rules).len(), counted);
}

/// Each action's search is generated code (`Natives::searches`): Thebes'
/// `dig` (seven parameters, `weeks` the one its trials are monotone in)
/// loops six of its parameters itself and `weeks` too, largest first,
/// through the searcher's `descent` (its deeper code in the loop, not a
/// closure) over the part of its range the pin's function leaves, calls the leading functions of the six depths that have
/// compiled ones directly, and hands each complete choice its
/// precondition's function (`complete_with`, to be inlined there) with
/// the number of the value of `by_zeppelin`, the one parameter after
/// `weeks`; `exhibit`, whose trials are monotone in nothing, hands over
/// its precondition's and no number;
/// `sets.ruleset`'s `trade` hands both of its sets to `each_set`. The
/// lockstep tests hold what they list to the interpreter's search.
#[test]
fn generator_writes_each_actions_search() {
    let function = |code: &str, name: &str| generated_fn(code, name).to_string();
    let thebes = load("rulesets/thebes/thebes.ruleset");
    let code = compile::generate(&thebes);
    for a in 0..thebes.actions.len() {
        assert!(code.contains(&format!("\nfn search_{a}(")), "no search for action {a}");
    }
    let dig = function(&code, "search_2");
    assert_eq!(dig.matches("for &v in s.domain(").count(), 6, "{dig}");
    assert_eq!(dig.matches("let mut run = s.descent(5, out);").count(), 1, "{dig}");
    // `weeks` through the part of its range the chronoscope's entry leaves
    // (`Pin::reads_tables`), worked out by the pin's own function, whose
    // leading statement at the next depth then need not run.
    assert_eq!(dig.matches("let (values, held5) = s.values_with(5, f, pin_2_5);").count(), 1, "{dig}");
    assert_eq!(dig.matches("let v = s.descent_value(&run, values, k);").count(), 1, "{dig}");
    assert!(dig.contains("if !held5 && !s.lead_with(6, f, lead_2_6) {"), "{dig}");
    assert!(!dig.contains("|f, args, out|"), "no closure: {dig}");
    for depth in [0, 2, 3, 4, 5, 6] {
        assert!(dig.contains(&format!("s.lead_with({depth}, f, lead_2_{depth})")), "depth {depth}: {dig}");
    }
    assert_eq!(dig.matches("s.complete_with(f, &args[..7], out, pre_2, at)").count(), 1, "{dig}");
    assert!(
        dig.contains("let at = match args[6] { V::Bool(b) => at * 2 + b as u32, _ => break 'at None };"),
        "{dig}"
    );
    let exhibit = function(&code, "search_3");
    assert_eq!(exhibit.matches("s.complete_with(f, &args[..2], out, pre_3, None)").count(), 1, "{exhibit}");
    let sets = compile::generate(&load("tests/fixtures/valid/sets.ruleset"));
    let trade = function(&sets, "search_2");
    assert_eq!(trade.matches("s.each_set(").count(), 2, "{trade}");
    assert_eq!(trade.matches("for &v in s.domain(").count(), 0, "{trade}");
}

/// A grid place's column and row (`q.x`, `q.y`) and the place at a column
/// and row (`at(cell, x, y)`) are read in generated code, not handed to
/// the interpreter: `reef.ruleset` reads coordinates in `cell_of`, `arm`,
/// its link and `next_to_tile`, and `at` in `cell_of` and `tiled_at`
/// (both also where those lets are written out at their calls). `at`
/// reads a table of the grid's places, row by row, and a column or row
/// a table of every place's, each written once.
#[test]
fn generator_reads_grid_coordinates_and_places_itself() {
    let rules = load("tests/fixtures/valid/reef.ruleset");
    let code = compile::generate(&rules);
    let cell = rules.class_named("cell").expect("the reef has cells");
    let grid = rules.classes[cell].grid.expect("cells lie on a grid");
    let coordinates = code.matches("match PLACE_AT[p.index()] {").count();
    let places =
        code.matches(&format!("GRID_{}[(y * {}i64 + x) as usize]", cell.index(), grid.width)).count();
    assert!(coordinates >= 16, "{coordinates} coordinates read: {code}");
    assert!(places >= 3, "{places} places at a column and row: {code}");
    let table: Vec<String> = rules.classes[cell].places.iter().map(|p| p.index().to_string()).collect();
    assert_eq!((grid.width * grid.height) as usize, table.len());
    let table = format!("static GRID_{}: [u32; {}] = [{}];", cell.index(), table.len(), table.join(", "));
    assert_eq!(code.matches(&table).count(), 1, "no {table}");
    let at: Vec<String> = rules.places.iter().map(|p| format!("{:?}", p.at)).collect();
    let at = format!("static PLACE_AT: [Option<(i64, i64)>; {}] = [{}];", at.len(), at.join(", "));
    assert_eq!(code.matches(&at).count(), 1, "no {at}");
}

/// In leading statements and preconditions (which read the game's state
/// as it is, during one listing), a let call whose arguments no parameter
/// or local can change is kept for the listing, each in a place of its
/// own: `reward(me)` in `take`'s first requirement, and `golds(me)` in
/// the body of `reward` written out there, `behind(me)` and `golds(me)`
/// (the same place) in its steps, `busiest(me)` and `lucky(me)` in
/// `rest`'s requirement. A call reading more than a parameter as it is
/// (`trip(me, c.city)`) is worked out each time, and root expressions,
/// which also run on trial copies of the state, keep nothing.
#[test]
fn generator_keeps_calls_no_parameter_changes_for_the_listing() {
    let rules = load("tests/fixtures/valid/lets.ruleset");
    let code = compile::generate(&rules);
    let function = |name: &str| generated_fn(&code, name).to_string();
    // The places a function's kept calls use, each read then written.
    let kept = |name: &str| {
        let f = function(name);
        let mut places: Vec<usize> = f
            .split("it.listing.get(")
            .skip(1)
            .map(|rest| rest[..rest.find(')').expect("a place")].parse().expect("a number"))
            .collect();
        places.dedup();
        places
    };
    let natives =
        code.lines().find(|l| l.starts_with("pub static NATIVES")).expect("the natives are exported");
    assert!(natives.contains(", listing: 5, "), "five calls kept: {natives}");
    let (take, steps, rest) = (kept("lead_0_1"), kept("pre_0"), kept("lead_1_0"));
    assert_eq!(take.len(), 2, "reward(me) and golds(me) within it, not trip(me, c.city): {take:?}");
    assert_eq!(steps.len(), 2, "behind(me) and golds(me): {steps:?}");
    assert_eq!(rest.len(), 2, "busiest(me) and lucky(me): {rest:?}");
    let golds: Vec<usize> = take.iter().filter(|p| steps.contains(p)).copied().collect();
    assert_eq!(golds.len(), 1, "golds(me) has one place wherever it is called: {take:?} {steps:?}");
    let mut all: Vec<usize> = take.iter().chain(&steps).chain(&rest).copied().collect();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all, vec![0, 1, 2, 3, 4], "each call its own place");
    let roots: Vec<&str> =
        code.split("\nfn root_").skip(1).map(|r| &r[..r.find("\n}\n").expect("a function's end")]).collect();
    assert!(!roots.is_empty());
    assert!(roots.iter().all(|r| !r.contains("it.listing")), "a root keeps nothing");
}

/// A piece's place or a counter of `me` does not change while a listing
/// reads the state: a call taking one is kept for the listing too.
/// Akrotiri's `load` checks `island_cubes(me.boat, k)` for each colour
/// `k`, one requirement per depth of its search: each call has a place of
/// its own, filled at the first combination and read at the rest.
#[test]
fn generator_keeps_calls_reading_pieces_and_counters_as_they_are_for_the_listing() {
    let rules = load("rulesets/akrotiri/akrotiri.ruleset");
    let load_action = rules.actions.iter().position(|a| a.name == "load").expect("Akrotiri has load");
    let code = compile::generate(&rules);
    let mut places = Vec::new();
    for depth in 1..=4 {
        let name = format!("\nfn lead_{load_action}_{depth}");
        let start = code.find(&name).unwrap_or_else(|| panic!("no function{name}"));
        let end = code[start + 1..].find("\nfn lead_").map_or(code.len(), |e| start + 1 + e);
        let f = &code[start..end];
        let at = f.find("it.listing.get(").unwrap_or_else(|| panic!("{name}: island_cubes is kept"));
        let rest = &f[at + "it.listing.get(".len()..];
        places.push(rest[..rest.find(')').expect("a place")].to_string());
    }
    places.sort();
    places.dedup();
    assert_eq!(places.len(), 4, "one place per colour: {places:?}");
}

/// A let call in leading statements taking a parameter of the action as
/// it is, the other arguments as above, is kept for the listing per value
/// of that parameter: `kept.ruleset`'s `trip(me, q)` and `steps_to(me,
/// q)` in one place per city each (4, read by its rank among the
/// cities), `pace(me, fast)` in one per flag value (2), `late(me, n)` in
/// one per number of `1..3` (3), and `steps_to(me, s)` for a site in
/// places of its own (4), not the cities'.
#[test]
fn generator_keeps_calls_taking_a_parameter_per_value_of_it() {
    let code = compile::generate(&load("tests/fixtures/valid/kept.ruleset"));
    let natives =
        code.lines().find(|l| l.starts_with("pub static NATIVES")).expect("the natives are exported");
    assert!(natives.contains(", listing: 17, "), "4 + 4 + 2 + 3 + 4 places: {natives}");
    for (base, what) in [
        (0, "trip(me, q)"),
        (4, "steps_to(me, q)"),
        (8, "pace(me, fast)"),
        (10, "late(me, n)"),
        (13, "steps_to(me, s)"),
    ] {
        assert!(
            code.contains(&format!("it.listing.get({base} + o)")),
            "{what} kept from place {base}: {code}"
        );
    }
    assert!(code.contains("static PLACE_RANK: [u32; 8] = [0, 1, 2, 3, 0, 1, 2, 3];"), "{code}");
}

/// The calls kept per value of a parameter (`kept.ruleset`) list what the
/// interpreter lists, turn after turn: a place kept for the wrong value
/// (or for a place of the other class of as many places) lists a trip, a
/// hurry, a late move or a survey the rules refuse, or misses one they
/// allow. The games must move the pawns (`go` is chosen).
#[test]
fn compiled_calls_kept_per_parameter_value_list_what_the_interpreter_lists() {
    let path = "tests/fixtures/valid/kept.ruleset";
    let (reference, compiled) = programs(path, compiled::natives(path).expect("the fixture is compiled"));
    let go = reference.actions.iter().position(|a| a.name == "go").expect("the fixture has go");
    let mut gone = 0;
    let mut count_go = |_: &Game, _: &Game, legal: &[engine::Choice]| {
        gone += legal.iter().filter(|c| c.action.index() == go).count();
    };
    for players in 2..=4 {
        for seed in 0..60 {
            let played = lockstep_with(path, &reference, &compiled, players, seed, &mut count_go);
            assert!(!played.rule_error && !played.at_limit, "{players} players, seed {seed}");
        }
    }
    assert!(gone > 1000, "only {gone} trips were listed");
}

/// Every Thebes action's precondition compiles (its trials are steps)
/// and binds the locals it works out in variables of its own: no frame
/// slot is written, and each variable starts as its slot's value. The
/// lockstep tests hold the listings to the interpreter's, which binds
/// them in the frame.
#[test]
fn a_precondition_binds_its_locals_in_variables_of_its_own() {
    let rules = load("rulesets/thebes/thebes.ruleset");
    let code = compile::generate(&rules);
    for (i, action) in rules.actions.iter().enumerate() {
        let pre = generated_fn(&code, &format!("pre_{i}"));
        assert!(!pre.contains("f.set("), "{}: the frame is written", action.name);
        assert!(pre.contains(": V = f.get("), "{}: no local of its own", action.name);
    }
    // `take`'s trip: the distance, read by both of its requirements, is
    // a variable.
    let take = rules.actions.iter().position(|a| a.name == "take").expect("Thebes has take");
    let pre = generated_fn(&code, &format!("pre_{take}"));
    let distance = pre.find("it.r.distance(").expect("the distance");
    let bound = &pre[distance..];
    let var = bound[bound.find("; l").expect("bound to a variable") + 2..].split(' ').next().unwrap();
    assert!(pre[distance..].matches(&format!("match {var} {{")).count() >= 2, "{var} read twice");
}

/// A compiled search whose action's trials are monotone in a parameter
/// (`linger`'s `weeks` in `monotone.ruleset`) works out the number of the
/// later parameters' values (a flag, then a range from 0 of 3 values) as
/// `Monotone::position` does, and hands it to the complete choice. That
/// the notes filed under it are the interpreter's is what the lockstep
/// games of the fixture hold
/// (`compiled_small_generic_games_play_the_same_games_as_the_interpreter_within_their_action_limits`).
#[test]
fn generator_numbers_the_values_after_the_monotone_parameter_in_the_search() {
    let (_, search) = generated_function("tests/fixtures/valid/monotone.ruleset", |r| {
        format!(
            "search_{}",
            r.actions.iter().position(|a| a.name == "linger").expect("the fixture has linger")
        )
    });
    assert!(search.contains("s.descent(0, out)"), "weeks goes largest first: {search}");
    assert!(
        search.contains("let at = match args[1] { V::Bool(b) => at * 2 + b as u32, _ => break 'at None };"),
        "{search}"
    );
    assert!(
        search.contains(
            "let at = match args[2] { V::Int(n) if (0..3i128).contains(&(n as i128 - 0i128)) => at * 3 + (n as i128 - 0i128) as u32, _ => break 'at None };"
        ),
        "{search}"
    );
    assert!(search.contains("s.complete_with(f, &args[..3], out, pre_"), "{search}");
}

/// A compiled search goes through the values a pin leaves for exactly
/// the parameters an equality fixes (`engine::legality::Pin::fixes`), a
/// table's entry bounds (`Pin::reads_tables`) or whose pin's comparisons
/// are all the next depth's requirements (`Pin::exact`): in
/// `pins.ruleset`, `halve`'s third, `owe`'s and `spare`'s second,
/// `stack`'s second and third (comparisons joined by `and`), `wait`'s
/// second and `rest`'s first (the last two halving the range), each but
/// `rest`'s passing over the next depth's requirements, which hold for
/// every value left; `count_on`'s, whose equality reads a let, and
/// `roam`'s, whose table goes both ways, whole. Every term of these pins
/// compiles, so the searcher is handed the pin's own function
/// (`Searcher::values_with`), which works the comparisons out without the
/// interpreter: `owe`'s, with the parameter subtracted on the left,
/// turned round by its sign. That the values left are the right ones is
/// what the brute-force listings of `tests/tests/legality.rs` and the
/// lockstep games hold.
#[test]
fn generator_hands_the_searcher_a_pinned_parameters_own_function() {
    let path = "tests/fixtures/valid/pins.ruleset";
    let rules = load(path);
    let code = compile::generate(&rules);
    let pins: [(&str, &[usize]); 8] = [
        ("halve", &[2]),
        ("owe", &[1]),
        ("spare", &[1]),
        ("stack", &[1, 2]),
        ("count_on", &[]),
        ("wait", &[1]),
        ("rest", &[0]),
        ("roam", &[]),
    ];
    for (action, pinned) in pins {
        let a = rules.actions.iter().position(|x| x.name == action).expect("the fixture's action");
        let search = generated_fn(&code, &format!("search_{a}"));
        assert!(!search.contains("s.values("), "{action}: {search}");
        assert_eq!(search.matches("s.values_with(").count(), pinned.len(), "{action}: {search}");
        if pinned.is_empty() {
            assert!(!code.contains(&format!("fn pin_{a}_")), "{action}");
        }
        for &k in pinned {
            let pin = format!("pin_{a}_{k}");
            // Exact (all but `rest`'s): the next depth's lead passed over
            // where the pin answers.
            let held = if action == "rest" { "_".into() } else { format!("held{k}") };
            assert!(
                search.contains(&format!(
                    "let (values, {held}) = s.values_with({k}, f, {pin});\nfor &v in values {{"
                )),
                "{action}: {search}"
            );
            let lead = format!("if !held{k} && !s.lead_with({}, f, ", k + 1);
            assert_eq!(search.contains(&lead), action != "rest", "{action}: {search}");
            let function = generated_fn(&code, &pin);
            match action {
                "wait" | "rest" => {
                    // Halving the range, each value bound where it is tried.
                    assert!(
                        function.contains(&format!("f.set({k}, V::Int(1 + mid));")),
                        "{action}: {function}"
                    );
                    let narrow =
                        if action == "wait" { "lo = lo.max(1 + a);" } else { "hi = hi.min(1 + a - 1);" };
                    assert!(function.contains(narrow), "{action}: {function}");
                }
                "stack" => {
                    // `a <= c.cost and 1 < a`; `6 - b >= a and b > held - 1`
                    // (turned round by its sign): each an upper bound and a
                    // lower one.
                    for n in ["hi = hi.min(d);", "lo = lo.max(d + 1);"] {
                        assert!(function.contains(n), "{action} {k}: {function}");
                    }
                }
                _ => {
                    assert!(function.contains("lo = lo.max(d); hi = hi.min(d);"), "{action}: {function}");
                    let sign = if action == "owe" { "-1" } else { "1" };
                    assert!(
                        function.contains(&format!("let d = (t - sum) * {sign};")),
                        "{action}: {function}"
                    );
                }
            }
        }
    }
}

/// An action's body passes over its requirements before its first change
/// for a choice listed on the very state it is applied to
/// (`Interp::listed`, as the interpreter's `probe`): each of those, and
/// none after the first change, is wrapped in the test of it.
#[test]
fn generated_bodies_pass_over_only_the_leading_requirements_of_a_listed_choice() {
    use model::StmtKind;
    let require = |s: &&model::Stmt| matches!(s.kind, StmtKind::Require { .. });
    let rules = load("rulesets/thebes/thebes.ruleset");
    let code = compile::generate(&rules);
    let mut later = 0;
    for (i, action) in rules.actions.iter().enumerate() {
        let stmts = &action.body.stmts;
        let opening =
            stmts.iter().take_while(|s| matches!(s.kind, StmtKind::Require { .. } | StmtKind::Let { .. }));
        let leading = opening.clone().filter(require).count();
        later += stmts.iter().skip(opening.count()).filter(require).count();
        let body = generated_fn(&code, &format!("body_{i}"));
        assert_eq!(body.matches("if !it.listed {").count(), leading, "{}: {body}", action.name);
    }
    assert!(later > 0, "a requirement after a change, which a listed choice still meets");
}

/// A let fixed once the game is set up (`TrialPlan::constant_lets`:
/// Thebes' `end_time`, `weeks_per_year`) is read from its constant where
/// leading statements and preconditions call it, with no place of the
/// listing's: looking a kept value up cost more than the constant.
#[test]
fn generator_reads_a_constant_let_in_place_without_keeping_it_for_the_listing() {
    let rules = load("rulesets/thebes/thebes.ruleset");
    let code = compile::generate(&rules);
    let plan = engine::legality::TrialPlan::new(&rules);
    let constant: Vec<usize> = (0..rules.lets.len()).filter(|i| plan.constant_lets[*i]).collect();
    assert!(!constant.is_empty(), "Thebes has lets fixed after setup");
    let pre = generated_fn(&code, "pre_0");
    assert!(
        constant.iter().any(|i| pre.contains(&format!("match it.consts.get({i})"))),
        "take's steps read one: {pre}"
    );
    // Kept for the listing, after the look-up of the kept value; kept in
    // a root, after the look-up of its variable (`Gen::cse`).
    let kept = |i: usize| {
        let value = format!("let v: V = {{ match it.consts.get({i}) ");
        [format!("v; }} {value}"), format!("None => {{ {value}")]
    };
    for i in constant {
        assert!(kept(i).iter().all(|k| !code.contains(k)), "let {} is kept", rules.lets[i].name);
    }
    // A let that changes, argless too (`research_left()`), is kept.
    let changing = rules.lets.iter().position(|l| l.name == "research_left").expect("research_left");
    assert!(kept(changing).iter().any(|k| code.contains(k)), "research_left() is kept");
}

/// A `split` is the generated code's own: Thebes' setup deals its deck
/// into two or three piles (by edition and player count) through
/// `Interp::split`, the dealing the interpreter's `split` runs too, and
/// leaves none of its three `split`s to `Interp::stmt`.
#[test]
fn generator_deals_a_split_itself() {
    let path = "rulesets/thebes/thebes.ruleset";
    let text = std::fs::read_to_string(repo_root().join(path)).expect("Thebes' rules are readable");
    assert_eq!(text.matches("split deck into").count(), 3, "Thebes' setup writes three splits");
    let code = compile::generate(&load(path));
    let setup = generated_fn(&code, "setup");
    assert_eq!(setup.matches("it.split(").count(), 3, "{setup}");
}
