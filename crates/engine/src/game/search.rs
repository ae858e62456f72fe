//! The search for legal choices: each action's parameters bound depth by
//! depth, the leading statements pruning as soon as what they read is
//! bound, and each complete choice checked (by the precondition's steps,
//! the search's notes, or a trial on a copy of the state); compiled
//! searches walk the same tree through [`Searcher`].

use super::*;

impl<'p> Game<'p> {
    /// `legal`, into `out` (emptied first; on an error, empty too).
    pub fn legal_into(&self, out: &mut Vec<Choice>) -> Result<(), Fail> {
        // The sets of the choices `out` held keep their room for the
        // choices listed now.
        if self.program.chooses_sets {
            let mut spare = self.spare.borrow_mut();
            for c in out.drain(..) {
                // Sets kept in place give back no room.
                let room = c.sets.into_room();
                if room.capacity() == 0 || spare.set_rooms.len() >= SPARE_SET_ROOMS {
                    continue;
                }
                spare.set_rooms.push(room);
            }
        }
        out.clear();
        self.work.set(0);
        let Some(me) = self.current() else { return Ok(()) };
        let limit = self.rules.game.max_actions;
        if self.state.actions >= limit {
            // A game that has not ended by now never will: a broken rule,
            // not a long game (bots' play-outs stop here too).
            return Err(Fail::Rule {
                message: format!(
                    "the game has not ended after {limit} actions, the most `game` allows (`actions {limit}`); \
                     check `end when` and what the actions change"
                ),
                span: self.rules.game.span,
            });
        }
        // Trials run on one copy of the state (made at the first), put back
        // before each to what that trial starts from.
        let scratch = std::cell::RefCell::new(None);
        let broken = std::cell::RefCell::new(None);
        // The search reads `self.state` only: lets are worked out once.
        self.prepare_memo(me);
        let memo = &self.memo;
        // What the listing works in, from the spares (one borrow).
        let (mut listing, room, sets, mut args, mut domains, mut zone_lists) = {
            let mut spare = self.spare.borrow_mut();
            let spare = &mut *spare;
            use std::mem::take;
            (
                take(&mut spare.listing),
                take(&mut spare.room),
                take(&mut spare.sets),
                take(&mut spare.args),
                take(&mut spare.domains),
                take(&mut spare.zone_lists),
            )
        };
        // The let values compiled code keeps for this listing, none yet.
        listing.clear();
        listing.resize(self.program.listing, std::cell::Cell::new(None));
        let shared = std::cell::RefCell::new(SharedTrials::default());
        // Set again before each value by the loop that binds it.
        let held = std::cell::Cell::new(usize::MAX);
        // Emptied first: a listing cut short (`MAX_WORK`) leaves its own.
        let [passed, refused] = &self.notes.0;
        passed.borrow_mut().clear();
        refused.borrow_mut().clear();
        let asked = self.state.asks.first().map(|(_, a)| *a);
        // One frame for every action: each binds a local before it reads
        // it (the checker sees to that), so none reads another's.
        let mut frame = Frame::with_room(Some(me), room);
        frame.reserve(self.program.search_slots);
        frame.sets = sets;
        // The values bound so far, as the search goes down (the first
        // `depth` of them).
        args.resize(self.program.most_params, V::None);
        // The parameters' domains, action after action; `zone_lists`
        // notes which of them hold a zone's components, by zone: actions
        // that choose from the same zone (three from `me.hand`) copy its
        // list.
        domains.reserve(self.program.all_params);
        // One interpreter for every action's search.
        let it = &Interp { memo: Some(memo), listing: &listing, ..self.interp(false) };
        for (id, action) in self.rules.actions.iter().enumerate() {
            let id = ActionId::new(id);
            // While an ask waits, only its action; otherwise only actions
            // of their own.
            if asked.map_or(action.asked, |a| a != id) {
                continue;
            }
            let fixed = &self.program.fixed_domains[id.index()];
            // The actions' domains one after another in one list.
            let base = domains.len();
            if let Err(f) = self.listed_domains(action, fixed, me, memo, &mut domains, &mut zone_lists) {
                note_broken(&broken, f);
                continue;
            }
            let domains = &domains[base..];
            // A set may be empty, so an empty zone still offers one.
            let no_value = action
                .params
                .iter()
                .zip(domains)
                .any(|(p, d)| d.is_empty() && !matches!(p.domain, ParamDomain::SetOf(_)));
            if no_value {
                continue;
            }
            let plan = &self.program.trials.at_level[id.index()];
            // A choice that passes the leading requirements is legal unless
            // something after the first change may still refuse it; only
            // then is each complete choice tried, running just what can
            // matter to a later `require` (see `legality`).
            let start = self.program.trials.start[id.index()];
            let trial = self.program.trials.tried[id.index()];
            let search = Search {
                id,
                action,
                plan,
                domains,
                me,
                trial,
                start,
                scratch: &scratch,
                broken: &broken,
                it,
                shared: &shared,
                monotone: self.program.trials.monotone[id.index()]
                    .as_ref()
                    .filter(|_| trial)
                    .map(|m| (m, passed)),
                openings: &self.program.trials.openings[id.index()],
                refused,
                pre: self.program.trials.pre[id.index()].as_ref(),
                leads: match self.program.leading.get(id.index()) {
                    Some(leads) if it.trace.is_none() => leads,
                    _ => &[],
                },
                pins: &self.program.trials.pins[id.index()],
                held: &held,
            };
            refused.borrow_mut().clear();
            held.set(usize::MAX);
            match self.program.searches.get(id.index()) {
                Some(walk) if it.trace.is_none() => {
                    walk(&Searcher { game: self, search: &search }, &mut frame, &mut args, out)
                }
                _ => self.enumerate(&search, &mut frame, &mut args, 0, out),
            }
        }
        if self.work.get() > MAX_WORK {
            // Some choices were not tried to the end: the list would lie.
            out.clear();
            return Err(Fail::Rule {
                message: format!(
                    "listing the legal choices took more than {MAX_WORK} steps: an action changes the state \
                     before its `require`s, so each of its combinations is tried in full, or its rules blow up"
                ),
                span: self.rules.game.span,
            });
        }
        self.recycle_domains(&mut domains);
        // What the listing worked in goes back, emptied, for the next.
        {
            let mut spare = self.spare.borrow_mut();
            spare.domains = domains;
            zone_lists.clear();
            spare.zone_lists = zone_lists;
            args.clear();
            spare.args = args;
            frame.sets.truncate(0);
            spare.sets = std::mem::take(&mut frame.sets);
            spare.room = frame.take_room();
            spare.listing = listing;
        }
        if let Some((st, _)) = scratch.into_inner() {
            self.recycle(st);
        }
        for e in shared.into_inner().entries {
            self.recycle(e.state);
        }
        match broken.into_inner() {
            Some(f) if out.is_empty() => Err(f),
            _ => Ok(()),
        }
    }

    /// Depth-first through the parameter values: after binding parameter
    /// `k`, run the leading `require`s and `let`s that need no later
    /// parameter, and drop the whole subtree when one fails. Each complete
    /// choice that survives is tried for real. A compiled search
    /// (`native::SearchFn`) walks the same tree through [`Searcher`].
    fn enumerate(
        &self,
        search: &Search,
        frame: &mut Frame,
        args: &mut [V],
        depth: usize,
        out: &mut Vec<Choice>,
    ) {
        // Not run where the last parameter's pin found they hold.
        if search.held.get() != depth && !self.lead(search, depth, frame) {
            return;
        }
        let domains = search.domains;
        if depth == domains.len() {
            return self.complete(search, frame, &args[..depth], out);
        }
        let deeper =
            |f: &mut Frame, a: &mut [V], o: &mut Vec<Choice>| self.enumerate(search, f, a, depth + 1, o);
        if let ParamDomain::SetOf(_) = &search.action.params[depth].domain {
            return self.each_set(search, depth, frame, args, out, deeper);
        }
        if search.monotone.is_some_and(|(m, _)| m.param == depth) {
            return self.descending(search, depth, frame, args, out, deeper);
        }
        self.each_value(search, depth, frame, args, out, deeper)
    }

    /// A complete choice, every leading statement run on `frame`: listed
    /// when legal. A trial goes on from the first change. A smaller value
    /// of the monotone parameter than one that passed passes too; where a
    /// trial failed other than at a bound, every value fails.
    #[inline(always)]
    fn complete(&self, search: &Search, frame: &mut Frame, args: &[V], out: &mut Vec<Choice>) {
        self.complete_with(search, frame, args, out, None::<crate::native::PreFn>, None)
    }

    /// `complete`, with the action's compiled precondition `native` when
    /// the caller has it (a compiled search, in which it is then
    /// inlined), else the program's; and the number of the values after
    /// the monotone parameter (`Monotone::position`) when the caller
    /// worked it out (`None`: worked out here, where it is needed).
    #[inline(always)]
    fn complete_with<P>(
        &self,
        search: &Search,
        frame: &mut Frame,
        args: &[V],
        out: &mut Vec<Choice>,
        native: Option<P>,
        position: Option<u32>,
    ) where
        P: FnOnce(&Interp<'_>, &State, &mut Frame) -> crate::interp::R<Option<Result<(), Span>>>,
    {
        let Search { id, trial, broken, monotone, openings, refused, pre, .. } = search;
        let (id, trial, broken, monotone) = (*id, *trial, *broken, *monotone);
        // Refusals at an opening are noted and looked up only without a
        // compiled precondition: compiled, the precondition finds the
        // refusal again in fewer instructions than the notes take (one
        // bundled game's compiled games -3.3%, the others within 0.1%);
        // the interpreter's steps and trials gain from them (that game
        // interpreted +2.5% without them; docs/performance.md).
        let noting = native.is_none();
        let later = |m: &legality::Monotone| &args[m.param + 1..];
        // By the number the caller worked out, else worked out here (the
        // interpreter's search, whose code is then as it was without it).
        let known = monotone.and_then(|(m, found)| match position {
            Some(at) => found.borrow().found_at(at),
            None => found.borrow().find_later(m, later(m)),
        });
        let note = |m: &legality::Monotone, found: &Found, outcome: bool| match position {
            Some(at) => found.borrow_mut().note_at(at, outcome),
            None => found.borrow_mut().push_later(m, later(m), outcome),
        };
        if known == Some(false) {
            return;
        }
        let fails = || {
            if let Some((m, found)) = monotone {
                note(m, found, false);
            }
        };
        // A trial that failed at an opening requirement fails at the
        // same values of what that reads.
        let at = |k: usize| openings[k].params.iter().map(|p| args[*p]);
        // Compared value by value in a plain loop: `Iterator::eq` on the
        // mapped parameters cost 600,000 instructions in 20 compiled
        // 4-player games of a bundled ruleset (docs/performance.md).
        let refused_at = |k: usize, vals: &[V]| {
            let params = &openings[k].params;
            params.len() == vals.len() && params.iter().zip(vals).all(|(p, v)| args[*p] == *v)
        };
        if trial && known.is_none() && noting && refused.borrow().any(refused_at) {
            return fails();
        }
        // The trial's steps on the state as it is, when there are and
        // they meet no rule error; otherwise the trial itself.
        let legal = !trial || known == Some(true) || {
            // What refused it: the `require` at a span, and the trial's
            // failure when a trial ran (the steps make none: their refusal
            // is only a span).
            let refusal = match pre.and_then(|p| self.stepped(search, p, frame, native)) {
                Some(Ok(())) => None,
                Some(Err(span)) => Some((span, None)),
                None => self.trial(search, frame).err().map(|f| (f.span(), Some(f))),
            };
            match refusal {
                None => {
                    if let Some((m, found)) = monotone {
                        note(m, found, true);
                    }
                    true
                }
                Some((span, failed)) => {
                    if monotone.is_some_and(|(m, _)| !m.bounds.contains(&span)) {
                        fails();
                    }
                    // A rule error is no refusal at an opening.
                    let illegal = failed.as_ref().is_none_or(|f| matches!(f, Fail::Illegal { .. }));
                    if noting && illegal {
                        if let Some(k) = openings.iter().position(|o| o.span == span) {
                            refused.borrow_mut().push(k, at(k), false);
                        }
                    }
                    if let Some(f) = failed {
                        note_broken(broken, f);
                    }
                    false
                }
            }
        };
        if legal {
            if frame.sets.is_empty() {
                // Pushed empty and filled in place: one copy of the values.
                out.push(Choice::new(id, Args::new()));
                if let Some(c) = out.last_mut() {
                    c.args.fill_from(args);
                }
            } else {
                self.push_with_sets(id, frame, args, out);
            }
        }
    }

    /// List a legal choice with sets. Out of line: the searches of actions
    /// without sets, into which `complete_with` is inlined, keep their
    /// code as it was.
    #[inline(never)]
    fn push_with_sets(&self, id: ActionId, frame: &Frame, args: &[V], out: &mut Vec<Choice>) {
        // Set values index the search's table of every candidate set; a
        // choice carries only its own.
        let chosen = args.iter().filter_map(|v| match v {
            V::Set(j) => Some(frame.set_items(*j)),
            _ => None,
        });
        let room = || self.spare.borrow_mut().set_rooms.pop().unwrap_or_default();
        let sets = crate::ChoiceSets::from_slices_with(chosen, room);
        out.push(Choice { action: id, args: Args::new(), sets });
        if let Some(c) = out.last_mut() {
            c.args.fill_from(args);
            for (k, v) in c.args.iter_mut().filter(|v| matches!(v, V::Set(_))).enumerate() {
                *v = V::Set(k as u32);
            }
        }
    }

    /// Parameter `depth`, a `set of`: each candidate set bound in turn,
    /// then `deeper`. The sets are listed now that the requirements
    /// before this parameter have run: their bounds may read them.
    #[inline]
    fn each_set(
        &self,
        search: &Search,
        depth: usize,
        frame: &mut Frame,
        args: &mut [V],
        out: &mut Vec<Choice>,
        mut deeper: impl FnMut(&mut Frame, &mut [V], &mut Vec<Choice>),
    ) {
        // Only a `set of` has sets: a search is generated from the rules
        // it runs on (`Program::with_natives` checks the fingerprint).
        let ParamDomain::SetOf(e) = &search.action.params[depth].domain else { return };
        let bounds = &self.program.trials.set_bounds[search.id.index()][depth];
        let base = frame.sets.len();
        if let Err(f) = self.bounded_sets(&search.domains[depth], bounds, frame, e.span) {
            frame.sets.truncate(base);
            return note_broken(search.broken, f);
        }
        for j in base..frame.sets.len() {
            let v = V::Set(j as u32);
            frame.set(depth, v);
            args[depth] = v;
            deeper(frame, args, out);
        }
        frame.sets.truncate(base);
    }

    /// Parameter `depth`, the one the trials' outcome is monotone in:
    /// its values bound largest first, each followed by `deeper`, so
    /// that a value passing its trial spares the trials of the smaller
    /// ones; listed smallest first as always: the runs of choices per
    /// value, found in the reverse order, are put in order in place (the
    /// whole reversed, then each run). Any other parameter's values go in
    /// order (the same choices, without the savings). A compiled search
    /// walks the same values through `Searcher::descent`.
    #[inline]
    fn descending(
        &self,
        search: &Search,
        depth: usize,
        frame: &mut Frame,
        args: &mut [V],
        out: &mut Vec<Choice>,
        mut deeper: impl FnMut(&mut Frame, &mut [V], &mut Vec<Choice>),
    ) {
        if search.monotone.is_none_or(|(m, _)| m.param != depth) {
            return self.each_value(search, depth, frame, args, out, deeper);
        }
        let (values, holds) = self.values(search, depth, frame);
        let held = if holds { depth + 1 } else { usize::MAX };
        let settles = settles(search, holds);
        let mut run = self.descent(search, depth, out);
        for (k, v) in values.iter().rev().enumerate() {
            if settles != 0 && self.settled(search, &mut run, values, k, settles, frame, args, out) {
                break;
            }
            frame.set(depth, *v);
            args[depth] = *v;
            search.held.set(held);
            deeper(frame, args, out);
            run.passed(out);
        }
        self.descent_done(run, out);
    }

    /// The start of the monotone parameter's values (`descending`): its
    /// notes cleared, where the choices listed from here begin.
    #[inline]
    fn descent(&self, search: &Search, depth: usize, out: &[Choice]) -> Descent {
        let monotone = search.monotone.filter(|(m, _)| m.param == depth);
        if let Some((_, found)) = monotone {
            found.borrow_mut().clear();
        }
        let mut ends = std::mem::take(&mut self.spare.borrow_mut().ends);
        ends.clear();
        Descent { base: out.len(), ends, largest_first: monotone.is_some() }
    }

    /// The end of the monotone parameter's values: the runs of choices
    /// per value, found largest value first, put in order in place.
    #[inline]
    fn descent_done(&self, run: Descent, out: &mut [Choice]) {
        let Descent { base, ends, largest_first, .. } = run;
        if largest_first {
            let found_here = &mut out[base..];
            found_here.reverse();
            let total = found_here.len();
            let mut start = 0;
            for end in ends.iter().rev().skip(1).map(|e| total - e).chain([total]) {
                found_here[start..end].reverse();
                start = end;
            }
        }
        self.spare.borrow_mut().ends = ends;
    }

    /// At the monotone parameter's `k`-th value (see `descending`): when
    /// the trials so far have noted every combination of the later values
    /// (`all`, from `settles`: one passing at a larger value passes at
    /// every smaller one; one failing other than at a bound fails at
    /// all), the choices of the values from the `k`-th on are known
    /// without going down to them: listed here, in the order the walk down
    /// would list them, and `true`. The walk would run nothing else on the
    /// way (`Monotone::settles`), so nothing else is lost: no work
    /// counted, no rule error met. The interpreter's search only: the
    /// loops of a compiled search over the values left cost what listing
    /// them here does (docs/performance.md).
    #[allow(clippy::too_many_arguments)]
    fn settled(
        &self,
        search: &Search,
        run: &mut Descent,
        values: &[V],
        k: usize,
        all: u64,
        frame: &Frame,
        args: &mut [V],
        out: &mut Vec<Choice>,
    ) -> bool {
        let Some((m, found)) = search.monotone else { return false };
        let Some(later) = m.later.as_deref() else { return false };
        let passed = {
            let notes = found.borrow();
            if notes.noted != all {
                return false;
            }
            notes.passed
        };
        let n = search.action.params.len();
        let combinations = u64::from(all.count_ones());
        for kk in k..values.len() {
            args[m.param] = run.value(values, kk);
            for at in (0..combinations).filter(|at| passed >> at & 1 != 0) {
                // The later values numbered `at`, the last the fastest.
                let mut rest = at;
                for (d, r) in later.iter().enumerate().rev() {
                    args[m.param + 1 + d] = r.value(rest % r.size());
                    rest /= r.size();
                }
                if frame.sets.is_empty() {
                    out.push(Choice::new(search.id, &args[..n]));
                } else {
                    self.push_with_sets(search.id, frame, &args[..n], out);
                }
            }
            run.passed(out);
        }
        true
    }

    /// Parameter `depth`'s values bound in order, each followed by
    /// `deeper`.
    #[inline]
    fn each_value(
        &self,
        search: &Search,
        depth: usize,
        frame: &mut Frame,
        args: &mut [V],
        out: &mut Vec<Choice>,
        mut deeper: impl FnMut(&mut Frame, &mut [V], &mut Vec<Choice>),
    ) {
        let (values, held) = self.values(search, depth, frame);
        let held = if held { depth + 1 } else { usize::MAX };
        for v in values {
            frame.set(depth, *v);
            args[depth] = *v;
            search.held.set(held);
            deeper(frame, args, out);
        }
    }

    /// Parameter `depth`'s values to go through: its domain, or the part
    /// of it the comparisons the next leading requirements start with
    /// leave (`legality::Pin`): the values skipped are those one of them
    /// would refuse, with no rule error. With them, whether the leading
    /// statements at the next depth hold for every value left
    /// (`Pin::exact`, when the pin gave an answer).
    #[inline]
    fn values<'a>(&self, search: &Search<'a>, depth: usize, frame: &mut Frame) -> (&'a [V], bool) {
        let all: &'a [V] = &search.domains[depth];
        if search.pins.is_empty() {
            return (all, false);
        }
        match search.pins.get(depth) {
            Some(Some(pin)) if search.it.trace.is_none() => {
                match pin.values(search.it, &self.state, frame, depth, all) {
                    Some(part) => (part, pin.exact()),
                    None => (all, false),
                }
            }
            _ => (all, false),
        }
    }

    /// Try a complete choice (bound in `frame`) on the search's scratch
    /// copy of the state, put back to what the trial starts from.
    fn trial(&self, search: &Search, frame: &mut Frame) -> Result<(), Fail> {
        let Search { id, action, me, start, scratch, shared, .. } = *search;
        let mut slot = scratch.borrow_mut();
        let (st, as_game) = slot.get_or_insert_with(|| {
            let mut st = self.copy_of_state();
            st.journal_from(crate::state::GAME_STATE);
            (st, true)
        });
        // The trial binds only locals declared after the leading
        // statements, which the search never reads: it may run on the
        // search's own frame.
        let result = match &self.program.trials.prefix[id.index()] {
            None => {
                if !*as_game {
                    st.restore_to(&self.state, crate::state::GAME_STATE, self.layout.tally_at());
                }
                self.trial_range(st, action, id, me, frame, start, true)
            }
            // Puts `st` back to the shared part's state itself.
            Some(prefix) => self.trial_after_prefix(st, action, id, me, frame, start, prefix, shared),
        };
        *as_game = false;
        result
    }

    /// Run the leading statements of the search's action once `depth`
    /// parameters are bound: their compiled function where there is one
    /// and it gives an answer, else `leading`. Whether every requirement
    /// holds.
    fn lead(&self, search: &Search, depth: usize, frame: &mut Frame) -> bool {
        let native = match search.leads.get(depth) {
            Some(Some(lead)) => lead(search.it, &self.state, frame),
            _ => Ok(None),
        };
        self.led(search, depth, frame, native)
    }

    /// Whether the leading statements at `depth` hold, given what their
    /// compiled function found (`Ok(None)`: no answer, so `leading` runs
    /// them; a rule error is noted and prunes).
    #[inline]
    fn led(&self, search: &Search, depth: usize, frame: &mut Frame, native: R<Option<bool>>) -> bool {
        match native {
            Ok(Some(pass)) => pass,
            Err(f) => {
                note_broken(search.broken, *f);
                false
            }
            Ok(None) => {
                let Search { action, plan, it, broken, .. } = search;
                self.leading(it, plan[depth].iter().map(|i| &action.body.stmts[*i]), frame, broken)
            }
        }
    }

    /// What a trial would find, from the action's precondition: its
    /// compiled function where there is one (`native`, when a compiled
    /// search hands it over to be inlined there; else the program's),
    /// else its steps one by one (`holds`). `None` when they give no
    /// answer (a rule error, or a part the function leaves to the
    /// interpreter). Inlined into `complete_with`, with the compiled
    /// precondition in it: called, it cost a bundled game's compiled games
    /// 1.6% of their instructions in entering and leaving
    /// (docs/performance.md).
    #[inline(always)]
    fn stepped<P>(
        &self,
        search: &Search,
        pre: &legality::Precondition,
        frame: &mut Frame,
        native: Option<P>,
    ) -> Option<Result<(), Span>>
    where
        P: FnOnce(&Interp<'_>, &State, &mut Frame) -> crate::interp::R<Option<Result<(), Span>>>,
    {
        let it = search.it;
        if it.trace.is_none() {
            if let Some(native) = native {
                return native(it, &self.state, frame).ok().flatten();
            }
            if let Some(Some(native)) = self.program.preconditions.get(search.id.index()) {
                return native(it, &self.state, frame).ok().flatten();
            }
        }
        self.holds(it, &pre.steps, frame)
    }

    /// What a trial would find, from a precondition's steps
    /// (`legality::Precondition`) on the state as it is: passing, or
    /// refused at the requirement at a span (a trial's failure is made
    /// only where one runs). `None` at a rule error, which the trial then
    /// meets and reports.
    fn holds(&self, it: &Interp, steps: &[legality::Step], frame: &mut Frame) -> Option<Result<(), Span>> {
        for step in steps {
            match step {
                legality::Step::Bind { slot, value, place } => {
                    let v = self.root_eval(it, value, frame).ok()?;
                    if *place && !matches!(v, V::Place(_)) {
                        return None;
                    }
                    frame.set(*slot, v);
                }
                legality::Step::Check { cond, span } => {
                    if !self.root_bool(it, cond, frame).ok()? {
                        return Some(Err(*span));
                    }
                }
                legality::Step::Branch { cond, then, otherwise } => {
                    let branch = if self.root_bool(it, cond, frame).ok()? { then } else { otherwise };
                    let outcome = self.holds(it, branch, frame)?;
                    if outcome.is_err() {
                        return Some(outcome);
                    }
                }
            }
        }
        Some(Ok(()))
    }

    /// A statement's value on the state as it is, as `Interp::eval` finds
    /// it: a compiled one through `Interp::native` straight away, past the
    /// tree walk's dispatch.
    #[inline]
    fn root_eval(&self, it: &Interp, e: &Expr, frame: &mut Frame) -> Result<V, Box<Fail>> {
        match &e.kind {
            ExprKind::Native(..) => it.native(e, &self.state, frame, <V as crate::interp::AsV>::MODE),
            _ => it.eval(e, &self.state, frame),
        }
    }

    /// A statement's yes/no, as `root_eval`. A compiled value other than
    /// yes/no is read again by `Interp::bool`, for its error. Always
    /// inlined: as a call it cost 3 M instructions in 20 interpreted games
    /// of a bundled ruleset (docs/performance.md).
    #[inline(always)]
    fn root_bool(&self, it: &Interp, e: &Expr, frame: &mut Frame) -> Result<bool, Box<Fail>> {
        if let ExprKind::Native(..) = e.kind {
            if let V::Bool(b) = it.native(e, &self.state, frame, <bool as crate::interp::AsV>::MODE)? {
                return Ok(b);
            }
        }
        it.bool(e, &self.state, frame)
    }

    /// Run leading `let`s and `require`s on the state as it is: whether
    /// every `require` holds. As `Interp::pure`, but a failing `require`
    /// only prunes: no reason is built for the thousands of combinations
    /// ruled out. A rule error is noted and prunes too.
    fn leading<'s>(
        &self,
        it: &Interp,
        stmts: impl Iterator<Item = &'s Stmt>,
        frame: &mut Frame,
        broken: &std::cell::RefCell<Option<Fail>>,
    ) -> bool {
        for stmt in stmts {
            match &stmt.kind {
                StmtKind::Require { cond, .. } => match self.root_bool(it, cond, frame) {
                    Ok(true) => {}
                    Ok(false) => return false,
                    Err(f) => {
                        note_broken(broken, *f);
                        return false;
                    }
                },
                StmtKind::Let { slot, value } => match self.root_eval(it, value, frame) {
                    Ok(v) => frame.set(*slot, v),
                    Err(f) => {
                        note_broken(broken, *f);
                        return false;
                    }
                },
                _ => {}
            }
        }
        true
    }

    /// The values each parameter of an action may take now.
    pub fn domains(&self, action: &Action, me: PlayerId) -> Result<Vec<Vec<V>>, Fail> {
        self.work.set(0);
        action.params.iter().map(|p| Ok(self.domain(p, None, me, None)?.into_owned())).collect()
    }

    /// The domains of an action's parameters for a listing, after what
    /// `out` holds, with the program's fixed domains and the game's memo.
    /// A parameter chosen from a zone an earlier action's parameter chose
    /// from in this listing (`zone_lists`: the zone, where its list lies
    /// in `out`) gets a copy of that list, the same components in the
    /// same order, instead of going through the zone again.
    fn listed_domains(
        &self,
        action: &Action,
        fixed: &'p [Option<Vec<V>>],
        me: PlayerId,
        memo: &std::cell::RefCell<Memo>,
        out: &mut Vec<std::borrow::Cow<'p, [V]>>,
        zone_lists: &mut Vec<(ZoneInst, usize)>,
    ) -> Result<(), Fail> {
        use std::borrow::Cow;
        for (p, values) in action.params.iter().zip(fixed) {
            let d = match (values, &p.domain) {
                (Some(values), _) => Cow::Borrowed(&values[..]),
                (None, ParamDomain::In(e) | ParamDomain::SetOf(e)) => {
                    let z = self.param_zone(e, me, Some(memo))?;
                    match zone_lists.iter().find(|(seen, _)| *seen == z) {
                        Some((_, at)) => {
                            let mut list = self.spare.borrow_mut().lists.pop().unwrap_or_default();
                            list.extend_from_slice(&out[*at]);
                            Cow::Owned(list)
                        }
                        None => {
                            zone_lists.push((z, out.len()));
                            self.zone_domain(z)
                        }
                    }
                }
                (None, _) => self.domain(p, None, me, Some(memo))?,
            };
            out.push(d);
        }
        Ok(())
    }

    /// A zone's components, each a value, in a list an earlier listing
    /// left when there is one (`domain` of a parameter `in` or `set of`).
    #[inline(always)]
    fn zone_domain(&self, z: ZoneInst) -> std::borrow::Cow<'p, [V]> {
        let mut list = self.spare.borrow_mut().lists.pop().unwrap_or_default();
        // At most as many as the zone's slots, growing at most once.
        let cells = &self.state.zones[z];
        list.reserve(cells.len());
        list.extend(cells.iter().flatten().map(|c| V::Card(*c)));
        std::borrow::Cow::Owned(list)
    }

    /// One parameter's domain (`listed_domains`, `domains`): `fixed`, its
    /// values when they never change, borrowed; otherwise a list worked
    /// out now.
    #[inline(always)]
    pub(super) fn domain(
        &self,
        p: &model::Param,
        fixed: Option<&'p [V]>,
        me: PlayerId,
        memo: Option<&std::cell::RefCell<Memo>>,
    ) -> Result<std::borrow::Cow<'p, [V]>, Fail> {
        use std::borrow::Cow;
        if let Some(values) = fixed {
            return Ok(Cow::Borrowed(values));
        }
        // A set's domain here is what it is chosen from; `legal` lists
        // the sets (`bounded_sets`).
        if let ParamDomain::In(e) | ParamDomain::SetOf(e) = &p.domain {
            return Ok(self.zone_domain(self.param_zone(e, me, memo)?));
        }
        // Filled in a list an earlier listing worked out, when there is.
        let mut list = self.spare.borrow_mut().lists.pop().unwrap_or_default();
        match &p.domain {
            ParamDomain::Type(Type::Player) => list.extend(PlayerId::all(self.layout.players).map(V::Player)),
            ParamDomain::Type(_) => list.extend(fixed_domain(self.rules, &p.domain).unwrap_or_default()),
            // Listed above.
            ParamDomain::In(_) | ParamDomain::SetOf(_) => {}
            ParamDomain::Among(_, e) => {
                let it = Interp { memo, ..self.interp(false) };
                let places = it.places_of(e, &self.state, &mut Frame::new(Some(me)))?;
                list.extend(places.iter().map(|p| V::Place(*p)));
            }
        }
        Ok(Cow::Owned(list))
    }

    /// The zone a parameter `in` or `set of` chooses from: a zone of no
    /// one's or `me`'s, at no place, as `Interp::zone_inst` finds it,
    /// without an interpreter; any other, the interpreter's.
    #[inline(always)]
    pub(super) fn param_zone(
        &self,
        e: &Expr,
        me: PlayerId,
        memo: Option<&std::cell::RefCell<Memo>>,
    ) -> Result<ZoneInst, Fail> {
        if let ExprKind::Zone { zone, player, index: None } = &e.kind {
            match player.as_deref() {
                None => return Ok(self.layout.zone(*zone, None, None)),
                Some(Expr { kind: ExprKind::Me, .. }) => return Ok(self.layout.zone(*zone, Some(me), None)),
                Some(_) => {}
            }
        }
        let it = Interp { memo, ..self.interp(false) };
        Ok(it.zone_inst(e, &self.state, &mut Frame::new(Some(me)))?)
    }

    /// Whether a complete choice passes the requirements after the body's
    /// first change: on `st`, a copy of the state, run from `start` only the
    /// statements of the body and of `after action` that can matter to a
    /// `require` (`legality::TrialPlan`). With `fresh`, `st` is the state
    /// as the search reads it (so the let memo holds until the first
    /// change); otherwise a shared first part has already run on it.
    #[allow(clippy::too_many_arguments)]
    fn trial_range(
        &self,
        st: &mut State,
        action: &Action,
        id: ActionId,
        me: PlayerId,
        frame: &mut Frame,
        start: usize,
        fresh: bool,
    ) -> Result<(), Fail> {
        let memo = fresh.then_some(&self.memo);
        let mut it = Interp { reasons: false, memo, ..self.interp(false) };
        let body = action.body.stmts.iter().zip(&self.program.trials.body[id.index()]).skip(start);
        for (s, keep) in body {
            if *keep {
                it.exec(std::slice::from_ref(s), st, frame)?;
            }
        }
        let mut hook = Frame::new(Some(me));
        for (s, keep) in self.rules.after_action.stmts.iter().zip(&self.program.trials.hook[id.index()]) {
            if *keep {
                it.exec(std::slice::from_ref(s), st, &mut hook)?;
            }
        }
        Ok(())
    }

    /// A trial whose first part (`legality::TrialPrefix`) several choices
    /// share: that part runs once per value of the locals it reads, on a
    /// state kept in `shared`; `st` (the scratch, whatever it holds)
    /// becomes a copy of it, and the rest runs there.
    #[allow(clippy::too_many_arguments)]
    fn trial_after_prefix(
        &self,
        st: &mut State,
        action: &Action,
        id: ActionId,
        me: PlayerId,
        frame: &mut Frame,
        start: usize,
        prefix: &legality::TrialPrefix,
        shared: &std::cell::RefCell<SharedTrials>,
    ) -> Result<(), Fail> {
        let mut shared = shared.borrow_mut();
        let key = |e: &SharedTrial| {
            e.action == id && prefix.key.iter().zip(&e.key).all(|(s, v)| frame.get(*s) == *v)
        };
        let at = match shared.entries.iter().position(key) {
            Some(at) => at,
            None => {
                // Run the shared part on a state of its own: a new one, or
                // the oldest kept (two are kept).
                let mut entry = if shared.entries.len() < SHARED_TRIALS {
                    SharedTrial {
                        id: 0,
                        action: id,
                        key: Vec::new(),
                        outcome: Ok(()),
                        state: self.copy_of_state(),
                    }
                } else {
                    let mut e = shared.entries.remove(0);
                    e.state.restore(&self.state);
                    e
                };
                shared.next += 1;
                entry.id = shared.next;
                entry.action = id;
                entry.key.clear();
                entry.key.extend(prefix.key.iter().map(|s| frame.get(*s)));
                let mut it = Interp { reasons: false, memo: Some(&self.memo), ..self.interp(false) };
                let keep = &self.program.trials.body[id.index()];
                entry.outcome = (start..prefix.split)
                    .filter(|i| keep[*i])
                    .try_for_each(|i| {
                        it.exec(std::slice::from_ref(&action.body.stmts[i]), &mut entry.state, frame)
                    })
                    .map_err(|f| *f);
                shared.entries.push(entry);
                shared.entries.len() - 1
            }
        };
        let entry = &shared.entries[at];
        entry.outcome.clone()?;
        st.restore_to(&entry.state, entry.id, self.layout.tally_at());
        self.trial_range(st, action, id, me, frame, prefix.split, false)
    }
}

/// One action's parameter search (see `Game::enumerate`).
#[derive(Clone, Copy)]
struct Search<'a> {
    id: ActionId,
    action: &'a Action,
    /// Per number of bound parameters, the leading statements to run.
    plan: &'a [Vec<usize>],
    domains: &'a [std::borrow::Cow<'a, [V]>],
    me: PlayerId,
    /// Whether complete choices must be tried: something after the first
    /// change may refuse them.
    trial: bool,
    /// The body's first statement that changes the state.
    start: usize,
    /// A copy of the state for trials, and whether it is still equal to
    /// the game's (each trial puts it back to what it starts from).
    scratch: &'a std::cell::RefCell<Option<(Box<State>, bool)>>,
    /// The first rule error met while trying choices.
    broken: &'a std::cell::RefCell<Option<Fail>>,
    /// The interpreter the search runs leading statements with: no
    /// events, and the game's `Memo`.
    it: &'a Interp<'a>,
    /// The shared first parts of trials (`trial_after_prefix`).
    shared: &'a std::cell::RefCell<SharedTrials>,
    /// What the trials' outcome is monotone in (`TrialPlan::monotone`),
    /// and what the trials at the values of it listed so far (largest
    /// first) found, by the values of the later parameters.
    monotone: Option<(&'a legality::Monotone, &'a Found)>,
    /// The requirements a trial meets first (`TrialPlan::openings`), and
    /// the values of their parameters at which trials failed there.
    openings: &'a [legality::Opening],
    refused: &'a std::cell::RefCell<Keyed>,
    /// The trial as steps on the state the search reads
    /// (`TrialPlan::pre`), when there are.
    pre: Option<&'a legality::Precondition>,
    /// Per number of bound parameters, the compiled leading statements
    /// (`Program::leading`): none when the interpreter runs them.
    leads: &'a [Option<crate::native::LeadFn>],
    /// Per parameter, what the comparisons among the leading
    /// requirements leave of its range (`TrialPlan::pins`; empty for an
    /// action without any).
    pins: &'a [Option<legality::Pin>],
    /// The depth whose leading statements hold for the value just bound
    /// (`Pin::exact`; `usize::MAX`: none): the interpreter's search does
    /// not run them.
    held: &'a std::cell::Cell<usize>,
}

/// One action's search as a compiled search (`native::SearchFn`) walks
/// it: the same tree as `Game::enumerate`, each depth's loop and leading
/// statements in generated code, the rest through these methods.
pub struct Searcher<'s, 'p> {
    game: &'s Game<'p>,
    search: &'s Search<'s>,
}

impl<'s> Searcher<'s, '_> {
    /// Parameter `k`'s values.
    #[inline]
    pub fn domain(&self, k: usize) -> &'s [V] {
        &self.search.domains[k]
    }

    /// Parameter `k`'s values to go through, and whether the leading
    /// statements at the next depth hold for each (`Game::values`; the
    /// generator asks where an equality fixes one, `Pin::fixes`, a
    /// table's entry bounds it, `Pin::reads_tables`, or the pin is exact,
    /// `Pin::exact`).
    #[inline]
    pub fn values(&self, k: usize, f: &mut Frame) -> (&'s [V], bool) {
        self.game.values(self.search, k, f)
    }

    /// `values`, with the pin's comparisons worked out by its compiled
    /// function `pin` (the range they leave; `None` where the function
    /// gives no answer, and the pin works them out itself).
    #[inline]
    pub fn values_with(
        &self,
        k: usize,
        f: &mut Frame,
        pin: impl FnOnce(&Interp<'_>, &State, &mut Frame) -> R<Option<legality::PinRange>>,
    ) -> (&'s [V], bool) {
        let all: &'s [V] = &self.search.domains[k];
        let exact = || matches!(self.search.pins.get(k), Some(Some(p)) if p.exact());
        match pin(self.search.it, &self.game.state, f) {
            Ok(Some(legality::PinRange::Within(lo, hi))) => match legality::Pin::part(all, lo, hi) {
                Some(part) => (part, exact()),
                None => (all, false),
            },
            Ok(Some(legality::PinRange::Whole)) => (all, false),
            _ => self.values(k, f),
        }
    }

    /// Whether the leading statements at `depth` hold, given what their
    /// compiled function `lead` finds: run by the interpreter when it
    /// gives no answer; a rule error is noted and prunes.
    #[inline]
    pub fn lead_with(
        &self,
        depth: usize,
        f: &mut Frame,
        lead: impl FnOnce(&Interp<'_>, &State, &mut Frame) -> R<Option<bool>>,
    ) -> bool {
        let found = lead(self.search.it, &self.game.state, f);
        self.game.led(self.search, depth, f, found)
    }

    /// Whether the leading statements at `depth` hold, run by the
    /// interpreter (a depth without a compiled function).
    #[inline]
    pub fn lead(&self, depth: usize, f: &mut Frame) -> bool {
        self.game.led(self.search, depth, f, Ok(None))
    }

    /// A complete choice (`args`, bound in `f` too): listed in `out` when
    /// legal.
    #[inline]
    pub fn complete(&self, f: &mut Frame, args: &[V], out: &mut Vec<Choice>) {
        self.game.complete(self.search, f, args, out)
    }

    /// `complete`, with the action's compiled precondition `pre` (the
    /// program's own, `Natives::preconditions`), inlined here: a
    /// compiled search whose action has one calls this; and, when the
    /// action's trials are monotone in a parameter, the number of the
    /// values after it (`Monotone::position`), which the search works out
    /// from their values as it binds them (`None` when it does not, or for
    /// values the numbering does not cover).
    #[inline]
    pub fn complete_with(
        &self,
        f: &mut Frame,
        args: &[V],
        out: &mut Vec<Choice>,
        pre: impl FnOnce(&Interp<'_>, &State, &mut Frame) -> crate::interp::R<Option<Result<(), Span>>>,
        at: Option<u32>,
    ) {
        self.game.complete_with(self.search, f, args, out, Some(pre), at)
    }

    /// Parameter `depth`, a `set of`: each candidate set bound, then
    /// `deeper`.
    #[inline]
    pub fn each_set(
        &self,
        depth: usize,
        f: &mut Frame,
        args: &mut [V],
        out: &mut Vec<Choice>,
        deeper: impl FnMut(&mut Frame, &mut [V], &mut Vec<Choice>),
    ) {
        self.game.each_set(self.search, depth, f, args, out, deeper)
    }

    /// Parameter `depth`, the one the trials' outcome is monotone in
    /// (`TrialPlan::monotone`, when complete choices are tried): its
    /// values as `Game::descending` goes through them, largest first, the
    /// deeper code written in the loop. `descent` starts them,
    /// `descent_value` gives the `k`-th, `Descent::passed` follows each
    /// value's deeper code, `descent_done` puts the choices in order.
    #[inline]
    pub fn descent(&self, depth: usize, out: &[Choice]) -> Descent {
        self.game.descent(self.search, depth, out)
    }

    /// The `k`-th value of the run's parameter, of `values` (its domain,
    /// or the part of it `values` leaves).
    #[inline]
    pub fn descent_value(&self, run: &Descent, values: &[V], k: usize) -> V {
        run.value(values, k)
    }

    /// The end of the run (see `descent`).
    #[inline]
    pub fn descent_done(&self, run: Descent, out: &mut [Choice]) {
        self.game.descent_done(run, out)
    }
}

/// The monotone parameter's values under way (`Game::descending`,
/// `Searcher::descent`).
pub struct Descent {
    /// Where the choices listed from its first value begin.
    base: usize,
    /// Where each value's choices end, counted from `base`.
    ends: Vec<usize>,
    /// Whether the values go largest first (the parameter is the monotone
    /// one); otherwise in order.
    largest_first: bool,
}

impl Descent {
    /// The `k`-th value gone through, of `values`.
    #[inline]
    fn value(&self, values: &[V], k: usize) -> V {
        match self.largest_first {
            true => values[values.len() - 1 - k],
            false => values[k],
        }
    }

    /// A value's deeper code is done: where its choices end.
    #[inline]
    pub fn passed(&mut self, out: &[Choice]) {
        if self.largest_first {
            self.ends.push(out.len() - self.base);
        }
    }
}

/// Every combination of the values after the monotone parameter noted,
/// one bit each, when from then on the choices of its values left may be
/// listed from the notes (`Game::settled`); 0 when they may not: unless
/// `Monotone::settles`, or when leading statements run once it is bound
/// and its pin does not hold them for the values it left (`held`).
fn settles(search: &Search, held: bool) -> u64 {
    let Some((m, _)) = search.monotone.filter(|(m, _)| m.settles) else { return 0 };
    if !held && !search.plan.get(m.param + 1).is_none_or(Vec::is_empty) {
        return 0;
    }
    m.later.as_deref().map_or(0, |later| {
        let combinations: u32 = later.iter().map(|r| r.size() as u32).product();
        u64::MAX >> (64 - combinations)
    })
}

/// What trials found at a monotone parameter's values so far: by the values
/// of the parameters after it, whether the trial passed.
type Found = std::cell::RefCell<Keyed>;

/// Outcomes the search notes by a kind (an opening's index) and a few
/// values, kept in flat lists so that a note allocates nothing once the
/// lists have grown (one listing notes hundreds).
#[derive(Default)]
pub(super) struct Keyed {
    /// Per note: its kind, where its values lie in `values`, the
    /// outcome, and the values packed into one number
    /// (`interp::packed`, or `interp::UNPACKED`).
    notes: Vec<(usize, std::ops::Range<usize>, bool, u64)>,
    values: Vec<V>,
    /// The monotone parameter's notes by the number of the later
    /// parameters' values (`Monotone::position`), where they have one:
    /// which are noted, and which of those passed.
    noted: u64,
    passed: u64,
}

impl Keyed {
    fn clear(&mut self) {
        self.notes.clear();
        self.values.clear();
        self.noted = 0;
        self.passed = 0;
    }

    /// What a trial found at the monotone parameter's larger values with
    /// these later values (`key`): by their number in one bit when they
    /// have one, else as `find` finds it.
    #[inline]
    fn find_later(&self, m: &legality::Monotone, key: &[V]) -> Option<bool> {
        match m.position(key) {
            Some(at) => self.found_at(at),
            None => self.find(0, key),
        }
    }

    /// `find_later` of the later values numbered `at`
    /// (`Monotone::position`).
    #[inline]
    fn found_at(&self, at: u32) -> Option<bool> {
        (self.noted >> at & 1 != 0).then_some(self.passed >> at & 1 != 0)
    }

    /// Note what a trial found (see `find_later`); the first note of a key
    /// holds, as with `push`.
    #[inline]
    fn push_later(&mut self, m: &legality::Monotone, key: &[V], outcome: bool) {
        match m.position(key) {
            Some(at) => self.note_at(at, outcome),
            None => self.push(0, key.iter().copied(), outcome),
        }
    }

    /// `push_later` of the later values numbered `at`.
    #[inline]
    fn note_at(&mut self, at: u32, outcome: bool) {
        if self.noted >> at & 1 == 0 {
            self.noted |= 1 << at;
            self.passed |= u64::from(outcome) << at;
        }
    }

    fn push(&mut self, kind: usize, key: impl Iterator<Item = V>, outcome: bool) {
        let start = self.values.len();
        self.values.extend(key);
        let packed = crate::interp::packed(0, &self.values[start..]).unwrap_or(crate::interp::UNPACKED);
        self.notes.push((kind, start..self.values.len(), outcome, packed));
    }

    /// The outcome noted first for this kind and key: by the key packed
    /// into one number where it packs (`interp::packed`), else by value.
    fn find(&self, kind: usize, key: &[V]) -> Option<bool> {
        let values = &self.values;
        match crate::interp::packed(0, key) {
            Some(p) => self.notes.iter().find(|n| n.0 == kind && n.3 == p),
            None => self.notes.iter().find(|n| n.0 == kind && values[n.1.clone()] == *key),
        }
        .map(|n| n.2)
    }

    /// Whether some note meets `f` (given its kind and values).
    #[inline(always)]
    fn any(&self, mut f: impl FnMut(usize, &[V]) -> bool) -> bool {
        self.notes.iter().any(|(k, at, _, _)| f(*k, &self.values[at.clone()]))
    }
}

/// How many shared trial parts one listing keeps (`trial_after_prefix`):
/// the choices that differ in a flag after the widest parameter alternate
/// between two.
const SHARED_TRIALS: usize = 2;

/// The shared first parts of trials run during one listing.
#[derive(Default)]
struct SharedTrials {
    entries: Vec<SharedTrial>,
    /// The number the next shared part run gets (`SharedTrial::id`).
    next: u64,
}

struct SharedTrial {
    /// Which run of a shared part this is: a trial's copy put back to it
    /// (`State::restore_to`) knows whether it was the last one.
    id: u64,
    action: ActionId,
    /// The values of the locals the shared part read.
    key: Vec<V>,
    outcome: Result<(), Fail>,
    /// The state after it.
    state: Box<State>,
}

/// A parameter's values when they are the same in every position: a
/// flag's, a number range's, the places of a class (or every place outside
/// enumerations).
pub(super) fn fixed_domain(rules: &Ruleset, domain: &ParamDomain) -> Option<Vec<V>> {
    let ParamDomain::Type(t) = domain else { return None };
    Some(match t {
        Type::Bool => vec![V::Bool(false), V::Bool(true)],
        Type::Int { lo: Some(lo), hi: Some(hi) } => (*lo..=*hi).map(V::Int).collect(),
        Type::Place(Some(c)) => rules.classes[*c].places.iter().map(|p| V::Place(*p)).collect(),
        Type::Place(None) => PlaceId::all(rules.places.len())
            .filter(|p| !rules.classes[rules.places[*p].class].enumeration)
            .map(V::Place)
            .collect(),
        _ => return None,
    })
}

/// Keep the first rule error (not a failing `require`, which only means
/// "not this choice").
pub(super) fn note_broken(broken: &std::cell::RefCell<Option<Fail>>, f: Fail) {
    if matches!(f, Fail::Rule { .. }) {
        let mut b = broken.borrow_mut();
        if b.is_none() {
            *b = Some(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Keyed;
    use crate::state::V;

    /// The search's notes are found by kind and whole key, whether the key
    /// packs into one number or not: keys of more values than a packed
    /// key holds that differ only in their first value, and keys of values
    /// that do not pack, are told apart.
    #[test]
    fn notes_are_found_by_kind_and_whole_key_packed_or_not() {
        let mut notes = Keyed::default();
        let long = |first: i64| [V::Int(first), V::Int(1), V::Int(2), V::Int(3), V::Int(4)];
        notes.push(0, long(7).into_iter(), true);
        notes.push(0, long(23).into_iter(), false);
        notes.push(1, [V::Bool(true)].into_iter(), false);
        notes.push(1, [V::Int(-3)].into_iter(), true);
        assert_eq!(notes.find(0, &long(7)), Some(true));
        assert_eq!(notes.find(0, &long(23)), Some(false));
        assert_eq!(notes.find(0, &long(39)), None);
        assert_eq!(notes.find(1, &[V::Bool(true)]), Some(false));
        assert_eq!(notes.find(0, &[V::Bool(true)]), None, "another kind");
        assert_eq!(notes.find(1, &[V::Bool(false)]), None);
        assert_eq!(notes.find(1, &[V::Int(-3)]), Some(true));
        assert_eq!(notes.find(1, &[V::Int(3)]), None);
    }
}
