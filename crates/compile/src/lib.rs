//! The compiled backend's generator: Rust source for a checked ruleset's
//! expressions and statements, which `engine::native` runs in place of
//! the interpreter's tree walk.
//!
//! `generate` writes one native function per root expression
//! (`engine::native::roots_mut`), one per action's precondition and
//! leading statements, one per statement list (`stmts`), and the tables
//! they read (each component's tags and attributes, each rule table) as
//! constants. The code knows the rules it was made from, never a game by
//! name: it is made from the ruleset text each time, and nothing is
//! written by hand per game.
//!
//! What a native function computes is what the interpreter computes for
//! the same expression. Where the generated code meets a value it does not
//! expect or a construct it leaves to the interpreter, it evaluates that
//! part with the interpreter (`it.eval(child(e, ..), ..)`), so results and
//! error messages are the interpreter's. The lockstep tests
//! (`tests/tests/compiled/`) hold the two to the same games.

#![forbid(unsafe_code)]

use std::fmt::Write;

use engine::legality::{Monotone, Radix};
use model::*;

mod aggregates;
mod calls;
mod numbers;
mod stmts;
mod tallies;
mod values;

/// Rust source for `rules`' compiled expressions: a module body that
/// `include!`s into a crate depending on the engine (as `engine`), and
/// exports `NATIVES` for `engine::Program::with_natives`.
pub fn generate(rules: &Ruleset) -> String {
    let roots = engine::native::roots(rules);
    let plan = engine::legality::TrialPlan::new(rules);
    let mut g = Gen {
        r: rules,
        shapes: engine::TallyShapes::new(rules),
        out: String::new(),
        label: 0,
        tables_used: vec![false; rules.tables.len()],
        inlinable: vec![None; rules.lets.len()],
        gave_up: false,
        depth: 0,
        unit: Unit::Root,
        listing: Vec::new(),
        listing_len: 0,
        params: Vec::new(),
        needed: Vec::new(),
        cse: Vec::new(),
        bound: Vec::new(),
        tallies: Vec::new(),
        in_let: false,
        noting: false,
        constant: plan.constant_lets.clone(),
    };
    let mut body = String::new();
    // The rules with their roots wrapped as the program runs them: the
    // statements below are generated from them, and the moves whose
    // filter gets a picking function found in them.
    let mut wrapped = rules.clone();
    engine::native::wrap_roots(&mut wrapped, &mut 0);
    let picks = stmts::picks(&wrapped);
    let let_roots = engine::native::root_lets(rules);
    let noting = engine::native::noting_lets(rules);
    for (i, e) in roots.iter().enumerate() {
        g.in_let = i < let_roots.len();
        g.noting = let_roots.get(i).is_some_and(|id| noting[id.index()]);
        let (code, vars) = g.root(e, None);
        // The values of calls worked out once, none yet.
        let (allow, kept) = if vars.is_empty() {
            ("", String::new())
        } else {
            ("#[allow(unused_assignments, unused_mut, unused_variables)]\n", format!("    {vars}\n"))
        };
        let signature = "(it: &Interp<'_>, e: &Root<'_>, st: &State, f: &mut Frame) -> R<V>";
        let code = format!("{kept}    Ok({code})\n");
        // Inlined where its statement reads it (one place each; the
        // program's table points at a copy): compiled Thebes
        // -2.3%, Die Grabräuber -1.8%, Archaeology -1.0%, Akrotiri -0.4%,
        // the worker built in as long (docs/performance.md).
        write!(
            body,
            "{allow}#[inline(always)]\nfn root_{i}{signature} {{\n    let _ = (&it, &e, &st, &f);\n"
        )
        .unwrap();
        writeln!(body, "{}}}\n", tallied(&code)).unwrap();
    }
    // Each `move` filter's picking function (`stmts::picks`): the filter
    // of every component of a zone in turn, in one loop (the component
    // screened first by the filter's leading tag tests, which the caller
    // passes), its let calls whose arguments stay the same while the move
    // picks (`Gen::cse`, the picked component's slot bound) worked out once
    // for the whole move: the state does not change while a move picks.
    g.in_let = false;
    g.noting = false;
    for &(i, var) in &picks {
        let (code, vars) = g.root(&roots[i], Some(var));
        let one = tallied(&format!("    Ok({code})\n"));
        writeln!(
            body,
            "#[allow(unused_assignments, unused_mut, unused_variables)]\nfn pick_{i}(it: &Interp<'_>, flt: &Root<'_>, st: &State, f: &mut Frame, src: ZoneInst, first: bool, cards: &mut Vec<ComponentId>, screen: impl Fn(ComponentId) -> bool) -> R<()> {{\n    let e = flt;\n    {vars}\n    for c in st.cards(src) {{\n    if !screen(c) {{ continue; }}\n    f.set({var}, V::Card(c));\n    let v: R<V> = (|| {{\n{one}    }})();\n    let pass = match v? {{ V::Bool(b) => b, _ => it.bool(flt, st, f)? }};\n    if pass {{ cards.push(c); if first {{ break; }} }}\n    }}\n    Ok(())\n}}\n"
        )
        .unwrap();
    }
    // Each action's precondition as one function, where every part of it
    // compiles.
    g.unit = Unit::Precondition;
    let mut pres = Vec::new();
    for (i, pre) in plan.pre.iter().enumerate() {
        g.params = rules.actions[i].params.iter().map(|p| Keying::of(rules, &p.domain)).collect();
        let code = pre.as_ref().and_then(|p| g.precondition(&p.steps));
        let code = code.map(|c| own_locals(&c).unwrap_or(c));
        pres.push(function(&mut body, &format!("pre_{i}"), "Option<Result<(), Span>>", code, "Some(Ok(()))"));
    }
    // The leading statements of each action, per number of parameters
    // bound, as one function each.
    g.unit = Unit::Leading;
    let mut leads = Vec::new();
    let mut searches = Vec::new();
    for (a, levels) in plan.at_level.iter().enumerate() {
        g.params = rules.actions[a].params.iter().map(|p| Keying::of(rules, &p.domain)).collect();
        let mut row = Vec::new();
        // Each depth's leading statements, as the search runs them.
        let mut lead_at = Vec::new();
        for (depth, stmts) in levels.iter().enumerate() {
            let stmts: Vec<&Stmt> = stmts.iter().map(|k| &rules.actions[a].body.stmts[*k]).collect();
            let code = g.leading(&stmts);
            let name = format!("lead_{a}_{depth}");
            lead_at.push(match &code {
                Some(_) => Lead::Native(name.clone()),
                None if stmts.is_empty() => Lead::Nothing,
                None => Lead::Interpreted,
            });
            let lead = function(&mut body, &name, "Option<bool>", code, "Some(true)");
            row.push(entry(lead.as_deref()));
        }
        let monotone = plan.monotone[a].as_ref().filter(|_| plan.tried[a]);
        // The precondition's function, inlined where a complete choice
        // needs it (compiled Thebes -1.0%, the other bundled games as
        // before, docs/performance.md).
        let pre = pres.get(a).and_then(Option::as_deref);
        // Only where an equality fixes the value, a table's entry bounds
        // it (`legality::Rise`: halved in a few evaluations where the leads
        // would refuse value after value), or the pin is exact (the next
        // depth's leads then not run on the values left): a bound alone
        // skips few values, each refused by the generated leads for less
        // than the pin's arithmetic costs (Die Grabräuber compiled 34.57
        // -> 34.62 M, Akrotiri 52.33 -> 52.46 with every pin asked, when
        // no pin was exact; docs/performance.md).
        // Each such pin's comparisons worked out by a function of their
        // own where every part compiles (Die Grabräuber compiled -1.6%,
        // docs/performance.md), else by the pin through the interpreter.
        let pinned: Vec<Pinned> = plan.pins[a]
            .iter()
            .enumerate()
            .map(|(depth, p)| match p.as_ref().filter(|p| p.fixes() || p.reads_tables() || p.exact()) {
                None => Pinned::No,
                Some(p) => {
                    let range = match rules.actions[a].params[depth].domain {
                        ParamDomain::Type(Type::Int { lo: Some(lo), hi: Some(hi) }) => Some((lo, hi)),
                        _ => None,
                    };
                    let code = range.and_then(|range| g.pin(p, depth, range));
                    let (name, end) = (format!("pin_{a}_{depth}"), "Some(PinRange::Within(lo, hi))");
                    match function(&mut body, &name, "Option<PinRange>", code, end) {
                        Some(name) => Pinned::Native { name, exact: p.exact() },
                        None => Pinned::Interpreted { exact: p.exact() },
                    }
                }
            })
            .collect();
        let code = search(&rules.actions[a], &lead_at, monotone, pre, &pinned, 0);
        writeln!(
            body,
            "fn search_{a}(s: &Searcher<'_, '_>, f: &mut Frame, args: &mut [V], out: &mut Vec<Choice>) {{\n    let _ = (&s, &f, &args, &out);\n{code}}}\n"
        )
        .unwrap();
        searches.push(format!("search_{a}"));
        leads.push(format!("&[{}]", row.join(", ")));
    }
    // Setup, the procedures, the actions and `after action`, each as one
    // function, from the rules with their roots wrapped as the program
    // runs them.
    let lists = stmts::generate(&wrapped, &picks);
    body.push_str(&lists.code);
    let mut out = String::new();
    writeln!(
        out,
        "// Generated by chronoscope-compile from the rules `{}` (fingerprint {:016x}). Do not edit: it is made anew from the ruleset.\n",
        rules.game.name,
        engine::native::fingerprint(rules)
    )
    .unwrap();
    out.push_str("#[allow(unused_imports)]\nuse engine::native::*;\n\n");
    let list: Vec<String> = (0..roots.len()).map(|i| format!("root_{i}")).collect();
    writeln!(
        out,
        "pub static NATIVES: Natives = Natives {{ fingerprint: 0x{:016x}, roots: &[{}], preconditions: &[{}], leading: &[{}], searches: &[{}], setup: {}, procedures: &[{}], actions: &[{}], after_action: {}, listing: {}, tallies: {} }};\n",
        engine::native::fingerprint(rules),
        list.join(", "),
        pres.iter().map(|p| entry(p.as_deref())).collect::<Vec<_>>().join(", "),
        leads.join(", "),
        searches.join(", "),
        lists.setup,
        lists.procedures.join(", "),
        lists.actions.join(", "),
        lists.after_action,
        g.listing_len,
        g.tally_defs(),
    )
    .unwrap();
    out.push_str(&g.constants());
    out.push_str(&g.out);
    out.push_str(&body);
    out
}

/// Write function `name` (on the state and the search's frame, giving
/// `R<ret>`) of the statements `code` then `Ok(end)` into `out`, when
/// there is code: its name, if written. Its search inlines it (a leading
/// statements' function is called at each value of the parameter before,
/// a precondition at each complete choice): its values stay in registers
/// and the call's saves go (compiled Thebes -2.0% for leading
/// statements, -1.0% for preconditions, docs/performance.md); the
/// program's tables point at a copy.
fn function(out: &mut String, name: &str, ret: &str, code: Option<String>, end: &str) -> Option<String> {
    let code = code?;
    let signature = format!("(it: &Interp<'_>, st: &State, f: &mut Frame) -> R<{ret}>");
    // Each inlined let's step checked at once (`it.spend`), not counted
    // apart (`tallied`): the closure that counting needs would stay a
    // call of its own in the search that inlines this function (compiled
    // Thebes 2.2% slower, docs/performance.md).
    let code = format!("{code}    Ok({end})\n");
    writeln!(out, "#[inline(always)]\nfn {name}{signature} {{\n    let _ = (&it, &st, &f);\n{code}}}\n")
        .unwrap();
    Some(name.to_string())
}

/// A function's entry in a list of the natives: `Some(name)`, or `None`
/// where none was written.
fn entry(name: Option<&str>) -> String {
    name.map_or_else(|| "None".to_string(), |n| format!("Some({n})"))
}

/// A precondition's body with the locals it binds held in variables of
/// its own (`l4`: no name `Gen::fresh` makes starts with `l`) instead of
/// the frame's slots: `f.set(4, x)` becomes
/// `l4 = x`, `f.get(4)` `l4`, and each variable starts as the frame's
/// value, so that a read before the body binds it reads what it read
/// before. The frame's slots are left as they were: nothing reads a
/// precondition's locals after it (a trial, when one runs, binds its own
/// as it runs the statements again). The compiler keeps such variables in
/// registers and reads a value it has just built without a match on its
/// kind: compiled Thebes -2.1% (docs/performance.md). `None` when the
/// body uses the frame otherwise (hands it to a root's function or the
/// interpreter), binds nothing, or holds a string or a bracket's
/// character, whose text this reading would not follow.
fn own_locals(code: &str) -> Option<String> {
    let quoted = "()[]{}".chars().any(|b| code.contains(&format!("'{b}'")));
    if code.contains('"') || quoted {
        return None;
    }
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let bytes = code.as_bytes();
    // The frame's reads and writes: where each starts, its slot, where
    // its `(k` ends, and whether it writes.
    let mut uses = Vec::new();
    for (at, _) in code.match_indices('f') {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        if before.is_some_and(|b| is_ident(b) || b == b'.') || bytes.get(at + 1).is_some_and(|b| is_ident(*b))
        {
            continue;
        }
        let rest = &code[at + 1..];
        let call = |prefix: &str, then: u8| -> Option<(usize, usize)> {
            let digits = rest.strip_prefix(prefix)?;
            let len = digits.find(|c: char| !c.is_ascii_digit())?;
            (digits.as_bytes()[len] == then)
                .then_some((digits[..len].parse().ok()?, at + 1 + prefix.len() + len))
        };
        if let Some((k, end)) = call(".get(", b')') {
            uses.push((at, k, end, false));
        } else if let Some((k, end)) = call(".set(", b',') {
            uses.push((at, k, end, true));
        } else {
            // `f.me` reads the frame's player; anything else hands the
            // frame on or reads it another way.
            let me = rest.starts_with(".me") && !rest.as_bytes().get(3).is_some_and(|b| is_ident(*b));
            if !me {
                return None;
            }
        }
    }
    let mut bound: Vec<usize> = uses.iter().filter(|u| u.3).map(|u| u.1).collect();
    bound.sort_unstable();
    bound.dedup();
    if bound.is_empty() {
        return None;
    }
    // The text's edits, none inside another's span: a bound slot's read
    // becomes its variable; a write, an assignment (its value, with the
    // reads in it, stays; the call's `)` goes).
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for &(at, k, end, write) in &uses {
        if !write {
            if bound.contains(&k) {
                edits.push((at, end + 1, format!("l{k}")));
            }
            continue;
        }
        let value = end + 1 + code[end + 1..].find(|c: char| c != ' ')?;
        let mut depth = 1usize;
        let close = value
            + code[value..].bytes().position(|b| {
                match b {
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })?;
        edits.push((at, value, format!("l{k} = ")));
        edits.push((close, close + 1, String::new()));
    }
    edits.sort_by_key(|e| e.0);
    let mut out = String::with_capacity(code.len() + 40 * bound.len());
    for k in &bound {
        writeln!(out, "    let mut l{k}: V = f.get({k});").unwrap();
    }
    let mut next = 0;
    for (start, end, with) in edits {
        out.push_str(&code[next..start]);
        out.push_str(&with);
        next = end;
    }
    out.push_str(&code[next..]);
    Some(out)
}

/// How generated code spends the step of an inlined let's call (then its
/// span and `)?;`), checked at once as the interpreter checks it.
pub(crate) const LET_STEP: &str = "it.spend(1, ";

/// The body of a root's or a picking function (`code`, giving `R<V>`),
/// with its inlined lets' steps counted in a local (`steps += 1`, no
/// check) when it has at least `TALLIES` of them: the body then runs in a
/// closure, and the function adds the steps to the work once, at its end
/// (`Interp::add_steps`). Over the limit, it gives the interpreter's run
/// of the same rules (`it.eval(e, ..)`) from the count before instead,
/// which stops at the step and span where it would have stopped alone.
/// Checking each step (and the early return each check may take) cost up
/// to 14% of a compiled game (Akrotiri; 1-3% of the others),
/// docs/performance.md.
/// Not for the functions a search inlines (`function`).
fn tallied(code: &str) -> String {
    if code.matches(LET_STEP).count() < TALLIES {
        return code.to_string();
    }
    let mut out = String::with_capacity(code.len() + 200);
    out.push_str("    let w = it.work_done(); let mut steps = 0u64;\n");
    out.push_str("    let v: R<V> = (|| {\n");
    let mut rest = code;
    while let Some(at) = rest.find(LET_STEP) {
        // A step is `it.spend(1, Span { .. })?;`: nothing inside ends it.
        let Some(len) = rest[at..].find(")?;") else { break };
        out.push_str(&rest[..at]);
        out.push_str("steps += 1;");
        rest = &rest[at + len + 3..];
    }
    out.push_str(rest);
    out.push_str(
        "    })();\n    if steps != 0 && !it.add_steps(steps, w) { return it.eval(e, st, f); }\n    v\n",
    );
    out
}

/// How many inlined lets' steps a function has before it counts them
/// apart (`tallied`). With fewer, its own check at the end costs about
/// what it saves: counting apart from 1 step on made compiled Thebes 1.1%
/// slower, from 4 on 0.2%; from 6 on it is unchanged. Die Grabräuber's
/// filters, most of whose calls stop at a tag test before any let, stay
/// 0.3% slower at every threshold tried (docs/performance.md).
const TALLIES: usize = 6;

/// How a compiled search runs the leading statements at one depth.
enum Lead {
    /// Their compiled function (its name), with the interpreter where it
    /// gives no answer.
    Native(String),
    /// The interpreter (no function was generated).
    Interpreted,
    /// There are none.
    Nothing,
}

/// The body of a compiled search (`engine::native::SearchFn`) from
/// `depth` parameters bound on: the leading statements at `depth`, then
/// the complete choice, or each value of the next parameter (a `set of`
/// through the `Searcher`, whose loop calls the deeper code as a closure;
/// the monotone parameter largest first, its values from the `Searcher`,
/// the deeper code in the loop), as `Game::enumerate` walks them. A
/// complete choice is handed the action's precondition function `pre`
/// when it has one, to be inlined there. A parameter an equality fixes
/// (`pinned`, `legality::Pin`) goes through the values the searcher
/// leaves, worked out by the pin's function where it has one.
fn search(
    action: &Action,
    leads: &[Lead],
    monotone: Option<&Monotone>,
    pre: Option<&str>,
    pinned: &[Pinned],
    depth: usize,
) -> String {
    let label = format!("'d{depth}");
    // Not run where the last parameter's pin found they hold for every
    // value it left (`Pin::exact`).
    let held = match depth.checked_sub(1).and_then(|k| pinned.get(k)) {
        Some(p) if p.exact() => format!("!held{} && ", depth - 1),
        _ => String::new(),
    };
    let lead = match &leads[depth] {
        Lead::Native(name) => format!("if {held}!s.lead_with({depth}, f, {name}) {{ break {label}; }}\n"),
        Lead::Interpreted => format!("if {held}!s.lead({depth}, f) {{ break {label}; }}\n"),
        Lead::Nothing => String::new(),
    };
    let rest = if depth == action.params.len() {
        // With the number of the values after the monotone parameter
        // written out, not worked out by `Monotone::position`'s loop at
        // each complete choice (compiled Thebes 28.70 -> 27.83 M,
        // docs/performance.md).
        match (pre, monotone.and_then(|m| Some((m.param, m.later.as_deref()?)))) {
            (Some(pre), Some((param, later))) => format!(
                "let at = {};\ns.complete_with(f, &args[..{depth}], out, {pre}, at);\n",
                position(param, later)
            ),
            (Some(pre), None) => format!("s.complete_with(f, &args[..{depth}], out, {pre}, None);\n"),
            (None, _) => format!("s.complete(f, &args[..{depth}], out);\n"),
        }
    } else {
        let deeper = search(action, leads, monotone, pre, pinned, depth + 1);
        if matches!(action.params[depth].domain, ParamDomain::SetOf(_)) {
            format!("s.each_set({depth}, f, args, out, |f, args, out| {{\n{deeper}}});\n")
        } else {
            // The values; with a pin, the part it leaves, and whether the
            // next depth's leading statements hold for each (`held{depth}`,
            // read by the deeper code where the pin is exact).
            let held = if pinned.get(depth).is_some_and(Pinned::exact) {
                format!("held{depth}")
            } else {
                "_".into()
            };
            let values = match pinned.get(depth) {
                Some(Pinned::Native { name, .. }) => {
                    format!("let (values, {held}) = s.values_with({depth}, f, {name});\n")
                }
                Some(Pinned::Interpreted { .. }) => format!("let (values, {held}) = s.values({depth}, f);\n"),
                _ => format!("let values = s.domain({depth});\n"),
            };
            if monotone.is_some_and(|m| m.param == depth) {
                format!(
                    "{values}let mut run = s.descent({depth}, out);\nfor k in 0..values.len() {{\nlet v = s.descent_value(&run, values, k);\nf.set({depth}, v);\nargs[{depth}] = v;\n{deeper}run.passed(out);\n}}\ns.descent_done(run, out);\n"
                )
            } else if matches!(pinned.get(depth), None | Some(Pinned::No)) {
                format!(
                    "for &v in s.domain({depth}) {{\nf.set({depth}, v);\nargs[{depth}] = v;\n{deeper}}}\n"
                )
            } else {
                format!("{values}for &v in values {{\nf.set({depth}, v);\nargs[{depth}] = v;\n{deeper}}}\n")
            }
        }
    };
    format!("{label}: {{\n{lead}{rest}}}\n")
}

/// How a compiled search goes through a parameter's values: its domain
/// (`No`), or the part of it an equality, a table's entry or an exact pin
/// leaves (`legality::Pin::fixes`, `Pin::reads_tables`, `Pin::exact`),
/// worked out by the pin through the interpreter or by the pin's
/// function, named.
/// `exact`: the next depth's leading statements hold for every value the
/// pin leaves when it gives an answer (`Pin::exact`).
enum Pinned {
    No,
    Interpreted { exact: bool },
    Native { name: String, exact: bool },
}

impl Pinned {
    fn exact(&self) -> bool {
        match self {
            Pinned::No => false,
            Pinned::Interpreted { exact } | Pinned::Native { exact, .. } => *exact,
        }
    }
}

/// The number of the values of the parameters after the monotone one
/// (`param`), each numbered by its radix, as `Monotone::position` works it
/// out: written out for the parameters this action has, `None` for a value
/// outside the numbering.
fn position(param: usize, later: &[Radix]) -> String {
    let mut code = String::from("'at: { let at = 0u32;");
    for (k, r) in later.iter().enumerate() {
        let arg = format!("args[{}]", param + 1 + k);
        match r {
            Radix::Flag => write!(code, " let at = match {arg} {{ V::Bool(b) => at * 2 + b as u32, _ => break 'at None }};"),
            Radix::Range { lo, size } => write!(
                code,
                " let at = match {arg} {{ V::Int(n) if (0..{size}i128).contains(&(n as i128 - {lo}i128)) => at * {size} + (n as i128 - {lo}i128) as u32, _ => break 'at None }};"
            ),
        }
        .unwrap();
    }
    code.push_str(" Some(at) }");
    code
}

/// What the generated code knows about locals: slots bound by an
/// aggregate it runs natively hold a component in a Rust variable; in the
/// body of a let inlined at its call (`own_locals`), every local is a Rust
/// variable (`vals`: the arguments, and the values aggregates bind), since
/// the frame `f` is the root's, not the let's.
#[derive(Clone, Default)]
struct Env {
    cards: Vec<(usize, String)>,
    vals: Vec<(usize, String)>,
    /// Per parameter of an inlined let whose argument nothing a search
    /// binds can change: that argument's key (`listing_invariant`), so
    /// that calls in the body taking it are kept for a listing too.
    keys: Vec<(usize, String)>,
    /// Per local an aggregate over the players binds in leading statements
    /// or a precondition: the code of its value, so that calls taking that
    /// player (or its piece) are kept for a listing per player.
    players: Vec<(usize, String)>,
    own_locals: bool,
    /// Whether a part left to the interpreter leaves the whole function
    /// (`Gen::escape`) rather than evaluating that part: in an inlined
    /// let's body (its parts have no path from the root) and in a
    /// precondition's function (which has no root). Such a part met while
    /// generating is noted in `Gen::gave_up`.
    escapes: bool,
}

impl Env {
    fn card(&self, slot: usize) -> Option<&str> {
        self.cards.iter().rev().find(|(s, _)| *s == slot).map(|(_, v)| v.as_str())
    }

    fn with_card(&self, slot: usize, var: String) -> Env {
        let mut e = self.clone();
        e.cards.push((slot, var));
        e
    }

    fn val(&self, slot: usize) -> Option<&str> {
        self.vals.iter().rev().find(|(s, _)| *s == slot).map(|(_, v)| v.as_str())
    }

    fn key(&self, slot: usize) -> Option<&str> {
        self.keys.iter().rev().find(|(s, _)| *s == slot).map(|(_, k)| k.as_str())
    }

    fn keyed_player(&self, slot: usize) -> Option<&str> {
        self.players.iter().rev().find(|(s, _)| *s == slot).map(|(_, v)| v.as_str())
    }

    fn with_keyed_player(&self, slot: usize, code: String) -> Env {
        let mut e = self.clone();
        e.players.push((slot, code));
        e
    }

    fn with_val(&self, slot: usize, code: String) -> Env {
        let mut e = self.clone();
        e.vals.push((slot, code));
        e
    }
}

struct Gen<'r> {
    r: &'r Ruleset,
    /// Which aggregates tallies keep (`tallies.rs`).
    shapes: engine::TallyShapes<'r>,
    /// Helper functions (tables).
    out: String,
    /// For unique labels and variables.
    label: usize,
    tables_used: Vec<bool>,
    /// Per let: whether its calls inline its body (worked out on first
    /// call).
    inlinable: Vec<Option<bool>>,
    /// Set when code where fallbacks escape meets a part it leaves to the
    /// interpreter: such a let is called, not inlined; such steps or
    /// leading statements get no function.
    gave_up: bool,
    /// Inlined bodies open at this point of generation.
    depth: usize,
    /// The kind of function being generated.
    unit: Unit,
    /// The let calls kept for a listing (`Interp::listing`), by let and
    /// arguments, with their first place in the list: one place, or one
    /// per value of the parameter they take (`Keying`).
    listing: Vec<(LetId, Vec<String>, usize)>,
    /// How many places the calls kept for a listing take in all.
    listing_len: usize,
    /// Per parameter of the action whose leading statements or
    /// precondition are generated (and, while an aggregate over the places
    /// of a class is generated there, per its local): how a call taking it
    /// is kept for a listing, when it can be.
    params: Vec<Option<Keying>>,
    /// The constant tables generated code reads, besides tags, attributes
    /// and rule tables (written by `Gen::constants`).
    needed: Vec<Constant>,
    /// In a root's function: the let calls whose arguments stay the same
    /// while it runs, each worked out once (by let and arguments' keys,
    /// with the variable that keeps the value).
    cse: Vec<(LetId, Vec<String>, String)>,
    /// In a root's function: the frame slots the root itself binds (its
    /// aggregates' and walks' locals), which change while it runs.
    bound: Vec<usize>,
    /// The families of tallies generated code reads (`tallies`), in the
    /// order of `Natives::tallies`.
    tallies: Vec<engine::TallyFamily>,
    /// Whether the root being generated is a let's body.
    in_let: bool,
    /// Whether it is the body of a let a walk may call while it notes
    /// what a link reads (`engine::native::noting_lets`): its reads of
    /// zones and counters per place are noted (`Interp::read_zone`).
    noting: bool,
    /// Per let, whether it is fixed once the game is set up
    /// (`TrialPlan::constant_lets`): read from `Interp::consts`.
    constant: Vec<bool>,
}

/// A constant table generated code may read (`Gen::need`).
#[derive(Clone, Copy, PartialEq, Debug)]
enum Constant {
    /// An attribute's values as plain numbers (`ATTRP_n`, `ATTRI_n`, see
    /// `Gen::typed_attr`).
    Attr(AttrId, Typed),
    /// A grid's places, row by row (`GRID_n`).
    Grid(ClassId),
    /// Each place's column and row on its grid (`PLACE_AT`).
    PlaceAt,
    /// Each place's position in its class (`PLACE_RANK`).
    PlaceRank,
}

/// An attribute's values as plain numbers in a table of their own
/// (`Gen::typed_attr`).
#[derive(Clone, Copy, PartialEq, Debug)]
enum Typed {
    /// Places, none as `u32::MAX` (`ATTRP_n`, of `u32`).
    Places,
    /// Numbers, none as 0 (`ATTRI_n`, of `i64`).
    Ints,
}

impl Typed {
    fn stem(self) -> &'static str {
        match self {
            Typed::Places => "ATTRP_",
            Typed::Ints => "ATTRI_",
        }
    }

    fn rust_type(self) -> &'static str {
        match self {
            Typed::Places => "u32",
            Typed::Ints => "i64",
        }
    }
}

/// How a let call taking a parameter of the action as an argument is kept
/// for a listing: one place per value the parameter's domain holds.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Keying {
    /// `flag`: two places.
    Flag,
    /// A range of numbers, from `lo`, `n` of them.
    Range { lo: i64, n: usize },
    /// A place of class `class`, of `n` places: by its rank in the class
    /// (places of two classes of as many places share no place).
    Place { class: usize, n: usize },
    /// A player, of at most `n`: by seat.
    Player { n: usize },
}

/// At most this many places are kept for one call taking a parameter: a
/// listing empties every place at its start.
const KEYED_PLACES: usize = 64;

impl Keying {
    fn of(rules: &Ruleset, domain: &model::ParamDomain) -> Option<Keying> {
        use model::{ParamDomain, Type};
        let k = match domain {
            ParamDomain::Type(Type::Bool) => Keying::Flag,
            ParamDomain::Type(Type::Int { lo: Some(lo), hi: Some(hi) }) => {
                Keying::Range { lo: *lo, n: usize::try_from(hi.checked_sub(*lo)?).ok()?.checked_add(1)? }
            }
            ParamDomain::Type(Type::Place(Some(c))) => {
                Keying::Place { class: c.index(), n: rules.classes[*c].places.len() }
            }
            _ => return None,
        };
        (k.places() <= KEYED_PLACES).then_some(k)
    }

    fn places(self) -> usize {
        match self {
            Keying::Flag => 2,
            Keying::Range { n, .. } | Keying::Place { n, .. } | Keying::Player { n } => n,
        }
    }

    /// Part of a kept call's key: what its parameter argument is.
    fn key(self) -> String {
        match self {
            Keying::Flag => "flag".into(),
            Keying::Range { lo, n } => format!("range {lo} {n}"),
            Keying::Place { class, .. } => format!("place of class {class}"),
            Keying::Player { .. } => "player".into(),
        }
    }

    /// Code of the offset of value `v` among the places (`None` for a
    /// value of another kind, which is then not kept).
    fn offset(self, v: &str) -> String {
        match self {
            Keying::Flag => format!("match {v} {{ V::Bool(b) => Some(b as usize), _ => None }}"),
            Keying::Range { lo, n } => format!(
                "match {v} {{ V::Int(x) => x.checked_sub({lo}i64).and_then(|d| usize::try_from(d).ok()).filter(|d| *d < {n}), _ => None }}"
            ),
            // The parameter's values are its class's places (the search
            // binds its domain): the class is in the key, not checked here.
            Keying::Place { n, .. } => format!(
                "match {v} {{ V::Place(p) => PLACE_RANK.get(p.index()).map(|r| *r as usize).filter(|r| *r < {n}), _ => None }}"
            ),
            Keying::Player { n } => format!("match {v} {{ V::Player(p) => Some(p.index()).filter(|i| *i < {n}), _ => None }}"),
        }
    }
}

/// The functions the generator writes.
#[derive(Clone, Copy, PartialEq)]
enum Unit {
    /// A root expression's value (`engine::native::NativeFn`).
    Root,
    /// An action's precondition, all its steps in one function
    /// (`engine::native::PreFn`).
    Precondition,
    /// The leading statements the search runs once some parameters are
    /// bound (`engine::native::LeadFn`).
    Leading,
}

/// The frame slots an expression binds itself: its aggregates' locals and
/// its walks' (not those of the lets it calls, which have frames of their
/// own).
fn bound_slots(e: &Expr, out: &mut Vec<usize>) {
    match &e.kind {
        ExprKind::Aggregate { var, .. } => out.push(*var),
        ExprKind::Region(region, _) => {
            if let Region::Connected { from, to, .. } = &**region {
                out.extend([*from, *to]);
            }
        }
        _ => {}
    }
    e.for_each_child(|c| bound_slots(c, out));
}

/// Whether generated `code` may read local `slot` from the frame: it
/// reads the slot itself, or hands the frame to code that may (the
/// interpreter, a compiled root or let, which all take `st, f`).
/// Conservative: any other slot read so, or any mention of the frame
/// given on, counts. Generated code hands the frame on only as `st, f`
/// and `st, &f` today; a new way of handing it on must be added here
/// (the lockstep tests of compiled against interpreted games fail
/// otherwise).
pub(crate) fn reads_local(code: &str, slot: usize) -> bool {
    code.contains("st, f")
        || code.contains("st, &f")
        || code.contains(&format!("f.get({slot})"))
        || code.contains(&format!("f.peek({slot})"))
}

/// Code reaching the sub-expression at `path` from the root `e`.
fn path_code(path: &[usize]) -> String {
    path.iter().fold("e".to_string(), |acc, k| format!("child({acc}, {k})"))
}

fn span_code(s: Span) -> String {
    format!("Span {{ start: {}, end: {}, file: {} }}", s.start, s.end, s.file)
}

fn sub(path: &[usize], k: usize) -> Vec<usize> {
    let mut p = path.to_vec();
    p.push(k);
    p
}

impl Gen<'_> {
    /// A root's code, its frame slots that change while it runs bound
    /// (its own aggregates' and walks', and `picked`, the component a
    /// move picks, in a picking function), and the locals of the calls it
    /// keeps (`Gen::cse`) declared, none yet.
    fn root(&mut self, e: &Expr, picked: Option<usize>) -> (String, String) {
        self.bound.clear();
        bound_slots(e, &mut self.bound);
        self.bound.extend(picked);
        let code = self.val(e, &[], &Env::default());
        let vars: Vec<String> =
            self.cse.drain(..).map(|(_, _, var)| format!("let mut {var}: Option<V> = None;")).collect();
        (code, vars.join(" "))
    }

    fn fresh(&mut self, stem: &str) -> String {
        // `own_locals` names a precondition's variables `l` and a slot.
        debug_assert!(!stem.starts_with('l'), "a fresh name clashes with own_locals' `l{{slot}}`");
        self.label += 1;
        format!("{stem}{}", self.label)
    }

    /// The interpreter's value, number or yes/no for the part at `path`,
    /// where the generated code meets a value it does not expect. Where
    /// fallbacks escape (an inlined let, whose parts have no path from the
    /// root; a function of steps or statements, which has no root), the
    /// whole function leaves instead ([`Gen::escape`]).
    fn fallback(&self, path: &[usize], mode: &str, env: &Env) -> String {
        if env.escapes {
            self.escape()
        } else {
            format!("it.{mode}({}, st, f)?", path_code(path))
        }
    }

    /// The interpreter's value for a construct the generator leaves to it
    /// (as [`Gen::fallback`]); an inlined body or a precondition that needs
    /// one is not generated.
    fn interpreted(&mut self, path: &[usize], mode: &str, env: &Env) -> String {
        if env.escapes {
            self.gave_up = true;
        }
        self.fallback(path, mode, env)
    }

    /// The constants every root may read: tags and attributes per
    /// component.
    fn constants(&self) -> String {
        let r = self.r;
        let n = r.components.len();
        let mut out = String::new();
        if r.tags.len() <= 64 {
            let bits: Vec<String> = r
                .components
                .iter()
                .map(|c| format!("0x{:x}", c.tags.iter().fold(0u64, |acc, t| acc | (1u64 << t.index()))))
                .collect();
            writeln!(out, "static TAGS: [u64; {n}] = [{}];\n", bits.join(", ")).unwrap();
        }
        for a in 0..r.attr_names.len() {
            let vals: Option<Vec<String>> = (0..n).map(|c| self.attr_value(c, AttrId::new(a))).collect();
            if let Some(vals) = vals {
                writeln!(out, "static ATTR_{a}: [V; {n}] = [{}];", vals.join(", ")).unwrap();
            }
        }
        // Attribute tables by attribute, then grids by class, then the
        // places' tables.
        let mut attrs: Vec<(AttrId, Typed)> = self
            .needed
            .iter()
            .filter_map(|c| if let Constant::Attr(a, t) = c { Some((*a, *t)) } else { None })
            .collect();
        attrs.sort_by_key(|(a, t)| (a.index(), *t as u8));
        for (attr, t) in attrs {
            if let Some(values) = self.typed_attr(attr, t) {
                let values: Vec<String> = values.iter().map(i64::to_string).collect();
                let (stem, a, ty) = (t.stem(), attr.index(), t.rust_type());
                writeln!(out, "static {stem}{a}: [{ty}; {n}] = [{}];", values.join(", ")).unwrap();
            }
        }
        let mut grids: Vec<ClassId> = self
            .needed
            .iter()
            .filter_map(|c| if let Constant::Grid(g) = c { Some(*g) } else { None })
            .collect();
        grids.sort_by_key(|c| c.index());
        for class in grids {
            let places: Vec<String> = r.classes[class].places.iter().map(|p| p.index().to_string()).collect();
            writeln!(
                out,
                "static GRID_{}: [u32; {}] = [{}];",
                class.index(),
                places.len(),
                places.join(", ")
            )
            .unwrap();
        }
        if self.needed.contains(&Constant::PlaceAt) {
            let at: Vec<String> = r.places.iter().map(|p| format!("{:?}", p.at)).collect();
            writeln!(out, "static PLACE_AT: [Option<(i64, i64)>; {}] = [{}];", r.places.len(), at.join(", "))
                .unwrap();
        }
        if self.needed.contains(&Constant::PlaceRank) {
            // Each place's position among its class's places.
            let mut ranks = vec![0usize; r.places.len()];
            for class in &r.classes {
                for (k, p) in class.places.iter().enumerate() {
                    ranks[p.index()] = k;
                }
            }
            let ranks: Vec<String> = ranks.iter().map(|k| k.to_string()).collect();
            writeln!(out, "static PLACE_RANK: [u32; {}] = [{}];", r.places.len(), ranks.join(", ")).unwrap();
        }
        out.push('\n');
        out
    }

    /// What `c.attr` reads for component `c`, as constant code; `None`
    /// for a value kind left to the interpreter.
    fn attr_value(&self, c: usize, attr: AttrId) -> Option<String> {
        let r = self.r;
        let comp = &r.components[c];
        let kind = &r.kinds[comp.kind];
        match kind.slot_of(attr) {
            Some(slot) => match &comp.values[slot] {
                Value::Int(n) => Some(format!("V::Int({n})")),
                Value::Bool(b) => Some(format!("V::Bool({b})")),
                Value::None | Value::Tags(_) => Some("V::None".into()),
                Value::Place(p) => Some(format!("V::Place(PlaceId::new({}))", p.index())),
                Value::Tag(t) => Some(format!("V::Tag(TagId::new({}))", t.index())),
                Value::Map(_) => Some(format!("V::Map(ComponentId::new({c}), {slot})")),
                Value::Text(_) => None,
            },
            // The empty value of the attribute, as the engine works it out.
            None => {
                let ty =
                    r.kinds.iter().find_map(|k| k.slots.iter().find(|(id, _, _)| *id == attr).map(|s| &s.1));
                Some(match ty {
                    Some(Type::Int { .. }) => "V::Int(0)".into(),
                    Some(Type::Bool) => "V::Bool(false)".into(),
                    _ => "V::None".into(),
                })
            }
        }
    }

    fn attr_compiled(&self, attr: AttrId) -> bool {
        (0..self.r.components.len()).all(|c| self.attr_value(c, attr).is_some())
    }

    /// Per component, what attribute `attr` holds as a plain number, when
    /// every component holds a value `typed` reads so (for `ATTRP_n` and
    /// `ATTRI_n`): a place's number, none as `u32::MAX`; or a number, none
    /// as 0 (as a number reads it).
    fn typed_attr(&self, attr: AttrId, typed: Typed) -> Option<Vec<i64>> {
        let r = self.r;
        (0..r.components.len())
            .map(|c| {
                let comp = &r.components[c];
                let value = r.kinds[comp.kind].slot_of(attr).map(|slot| &comp.values[slot]);
                // Without the attribute, its empty value as the engine
                // works it out (`attr_value`).
                let empty = || self.attr_value(c, attr);
                match typed {
                    Typed::Places => match value {
                        Some(Value::Place(p)) => {
                            u32::try_from(p.index()).ok().filter(|i| *i != u32::MAX).map(i64::from)
                        }
                        Some(Value::None) => Some(i64::from(u32::MAX)),
                        Some(_) => None,
                        None => (empty().as_deref() == Some("V::None")).then_some(i64::from(u32::MAX)),
                    },
                    Typed::Ints => match value {
                        Some(Value::Int(n)) => Some(*n),
                        Some(Value::None) => Some(0),
                        Some(_) => None,
                        None => matches!(empty().as_deref(), Some("V::None" | "V::Int(0)")).then_some(0),
                    },
                }
            })
            .collect()
    }

    /// Code reading attribute `attr` of component `c` from its typed
    /// table, which the constants then include (the caller has seen that
    /// `typed_attr` gives one).
    fn typed_read(&mut self, attr: AttrId, typed: Typed, c: &str) -> String {
        self.need(Constant::Attr(attr, typed));
        format!("{}{}[{c}.index()]", typed.stem(), attr.index())
    }

    /// Note that generated code reads a constant table.
    fn need(&mut self, table: Constant) {
        if !self.needed.contains(&table) {
            self.needed.push(table);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::own_locals;

    /// A precondition's writes become its own variables, with every read
    /// of a slot it binds (before the write too, and inside a write's
    /// value); other slots' reads and `f.me` stay the frame's.
    #[test]
    fn own_locals_binds_what_the_body_writes_in_variables_and_reads_the_rest_from_the_frame() {
        let body = "    { let v: V = f.get(0); f.set(2, v); }\n    if g(f.get(2), f.me) { f.set(3, V::Int(match f.get(2) { V::Int(n) => n, _ => h(f.get(1)) })); }\n";
        let expected = "    let mut l2: V = f.get(2);\n    let mut l3: V = f.get(3);\n    { let v: V = f.get(0); l2 = v; }\n    if g(l2, f.me) { l3 = V::Int(match l2 { V::Int(n) => n, _ => h(f.get(1)) }); }\n";
        assert_eq!(own_locals(body).as_deref(), Some(expected));
    }

    /// A body that hands the frame on, reads it otherwise, binds nothing
    /// or holds a quote is left as it is; names that only end in `f` are
    /// not the frame.
    #[test]
    fn own_locals_leaves_a_body_that_uses_the_frame_otherwise() {
        assert_eq!(own_locals("    f.set(2, root_3(it, e, st, f));\n"), None, "handed on");
        assert_eq!(own_locals("    f.set(2, V::Int(f.len()));\n"), None, "read another way");
        assert_eq!(own_locals("    g(f.get(1));\n"), None, "nothing bound");
        assert_eq!(own_locals("    f.set(2, text(\"(\"));\n"), None, "a string");
        assert_eq!(own_locals("    f.set(2, g('{'));\n"), None, "a bracket's character");
        let named = "    f.set(2, self_f.get(1)); elf.get(3);\n";
        assert_eq!(
            own_locals(named).as_deref(),
            Some("    let mut l2: V = f.get(2);\n    l2 = self_f.get(1); elf.get(3);\n")
        );
    }
}
