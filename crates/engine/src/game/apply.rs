//! Applying a choice: its values checked against what its action takes,
//! then the action run on the game's twin copy of the state, which
//! becomes the state when it succeeds (the game unchanged when it does
//! not); previews and checks run the same way on a copy.

use super::*;

impl<'p> Game<'p> {
    /// Run a choice on a copy of the state: the copy afterwards, or why not.
    pub(super) fn try_choice(&self, choice: &Choice, me: PlayerId) -> Result<(Box<State>, Vec<Event>), Fail> {
        self.try_on(choice, me, false, None, false, false)
    }

    /// Run a choice on a copy of the state (see `run_from`; `applied`:
    /// the copy becomes the game's state; `listed`: the game listed it on
    /// this very state, so its leading requirements held, `Interp::listed`).
    pub(super) fn try_on(
        &self,
        choice: &Choice,
        me: PlayerId,
        record: bool,
        trace: Option<&std::cell::RefCell<Vec<Traced>>>,
        applied: bool,
        listed: bool,
    ) -> Result<(Box<State>, Vec<Event>), Fail> {
        let action = self
            .rules
            .actions
            .get(choice.action.index())
            .ok_or_else(|| Fail::Illegal { reason: "no such action".into(), span: model::Span::default() })?;
        let (room, sets) = {
            let mut spare = self.spare.borrow_mut();
            (std::mem::take(&mut spare.room), std::mem::take(&mut spare.sets))
        };
        let mut frame = Frame::with_room(Some(me), room);
        frame.bind_choice(sets, &choice.args, &choice.sets);
        frame.reserve(action.body.locals);
        // Most refused choices fail on a `require` before anything
        // changes: the interpreter finds out on the real state, without
        // copying it. Lets called there are worked out once, as in the
        // search (unless each call is traced).
        self.prepare_memo(me);
        let mut it =
            Interp { trace, memo: trace.is_none().then_some(&self.memo), listed, ..self.interp(record) };
        // A compiled body runs its leading statements itself, on the copy
        // (equal to the state until its first change).
        let compiled = trace.is_none() && !self.program.bodies.actions.is_empty();
        let start = if compiled { 0 } else { it.probe(&action.body.stmts, &self.state, &mut frame)? };
        self.run_from(&mut it, choice.action, me, &mut frame, start, applied)
    }

    /// Run an action's body from statement `start` on (those before it
    /// changed nothing and left their lets in `frame`) on a copy of the
    /// state, then `after action`, the turn bookkeeping and the end check.
    /// The copy is the one to apply (`copy_to_apply`) when `applied`: the
    /// caller makes it the game's state.
    fn run_from(
        &self,
        it: &mut Interp,
        id: ActionId,
        me: PlayerId,
        frame: &mut Frame,
        start: usize,
        applied: bool,
    ) -> Result<(Box<State>, Vec<Event>), Fail> {
        let action = &self.rules.actions[id];
        let mut st = if applied { self.copy_to_apply() } else { self.copy_of_state() };
        if action.asked {
            // The ask this answers; asks the body makes queue behind the rest.
            st.asks.remove(0);
            it.memo = None;
        }
        let bodies = &self.program.bodies;
        let compiled = bodies.actions.get(id.index()).copied();
        it.run(compiled, &action.body.stmts, start, &mut st, frame)?;
        {
            let mut spare = self.spare.borrow_mut();
            spare.room = frame.take_room();
            frame.sets.truncate(0);
            spare.sets = std::mem::take(&mut frame.sets);
        }
        let mut hook = Frame::new(Some(me));
        it.run(bodies.after_action, &self.rules.after_action.stmts, 0, &mut st, &mut hook)?;
        match self.rules.turns {
            TurnPolicy::LowestCounter(c) => {
                // Whoever moved lands on top of the stack: others first,
                // the acting player last.
                let others = PlayerId::all(self.players()).filter(|p| *p != me);
                for p in others.chain([me]) {
                    if self.turn_value(&st, c, p) != self.turn_value(&self.state, c, p) {
                        st.tick += 1;
                        st.arrival[p.index()] = st.tick;
                    }
                }
            }
            TurnPolicy::Clockwise { until_end_turn } => {
                // An answer to an ask is not a turn of its own; `end turn`
                // ends the turn whoever runs it.
                if st.turn_ended || (!until_end_turn && !action.asked) {
                    st.turn_seat = (st.turn_seat + 1) % self.players();
                }
            }
        }
        st.turn_ended = false;
        st.actions += 1;
        // Questions asked are part of the action that asked them: the game
        // ends only once every one is answered.
        st.finished = st.asks.is_empty() && self.ended(&st)?;
        Ok((st, it.events.take().unwrap_or_default()))
    }

    /// Who would make `choice` now, its values checked against what its
    /// action takes (the start of `check`, `preview` and applying, each
    /// with a fresh work budget).
    pub(super) fn mover_of(&self, choice: &Choice) -> Result<PlayerId, Fail> {
        let me = self.mover()?;
        self.valid_args(choice, me)?;
        Ok(me)
    }

    /// Who would act now (with a fresh work budget).
    fn mover(&self) -> Result<PlayerId, Fail> {
        self.work.set(0);
        self.current()
            .ok_or_else(|| Fail::Illegal { reason: "the game is over".into(), span: model::Span::default() })
    }

    fn valid_args(&self, choice: &Choice, me: PlayerId) -> Result<(), Fail> {
        let illegal = |reason: String| Fail::Illegal { reason, span: model::Span::default() };
        let action =
            self.rules.actions.get(choice.action.index()).ok_or_else(|| illegal("no such action".into()))?;
        match self.state.asks.first() {
            Some((p, a)) if *a != choice.action => {
                let name = &self.rules.actions[*a].name;
                return Err(illegal(format!("{p} is asked to `{name}` first")));
            }
            None if action.asked => {
                return Err(illegal(format!("`{}` is taken only when a rule asks for it", action.name)));
            }
            _ => {}
        }
        if action.params.len() != choice.args.len() {
            return Err(illegal(format!("`{}` takes {} choices", action.name, action.params.len())));
        }
        // What the listing worked out on this state serves here too.
        self.prepare_memo(me);
        let fixed = &self.program.fixed_domains[choice.action.index()];
        let memo = Some(&self.memo);
        for (k, (p, a)) in action.params.iter().zip(&choice.args).enumerate() {
            let fixed = fixed.get(k).and_then(Option::as_deref);
            let fits = match (&p.domain, a) {
                (ParamDomain::SetOf(_), V::Set(i)) => {
                    let d = self.domain(p, fixed, me, memo)?;
                    let fits = choice.sets.get(*i as usize).is_some_and(|set| self.is_set_of(&d, set));
                    self.recycle_domain(d);
                    fits
                }
                (ParamDomain::SetOf(_), _) | (_, V::Set(_)) => false,
                // A number of a range and a yes/no, without their list.
                (ParamDomain::Type(Type::Int { lo: Some(lo), hi: Some(hi) }), V::Int(n)) => {
                    (*lo..=*hi).contains(n)
                }
                (ParamDomain::Type(Type::Bool), V::Bool(_)) => true,
                // A component is looked for in its zone, without a list.
                (ParamDomain::In(e), _) => match a {
                    V::Card(c) => self.state.zones[self.param_zone(e, me, memo)?].contains(&Some(*c)),
                    _ => false,
                },
                // Fixed values as they are; places among a region listed.
                _ => {
                    let d = self.domain(p, fixed, me, memo)?;
                    let fits = d.contains(a);
                    self.recycle_domain(d);
                    fits
                }
            };
            if !fits {
                return Err(illegal(format!("`{}` cannot be that now", p.name)));
            }
        }
        Ok(())
    }

    pub(super) fn apply_recording(&mut self, choice: &Choice, record: bool) -> Result<Vec<Event>, Fail> {
        self.apply_with(choice, record, None, true)
    }

    /// Apply `choice`; its values checked against what its action takes
    /// when `check` (a choice this game listed on this very state needs
    /// no check: `Game::step_listed`).
    pub(super) fn apply_with(
        &mut self,
        choice: &Choice,
        record: bool,
        trace: Option<&std::cell::RefCell<Vec<Traced>>>,
        check: bool,
    ) -> Result<Vec<Event>, Fail> {
        let me = if check { self.mover_of(choice)? } else { self.mover()? };
        // Not checked: listed on this very state, its leading requirements
        // held (`Interp::listed`).
        let (st, events) = self.try_on(choice, me, record, trace, true, !check)?;
        let from = self.state.changes;
        let mut before = self.state.replace(st);
        self.advance_memo(from, &before);
        // The state replaced is what the new one was copied from: brought
        // up to date by what the action wrote, it is the next copy.
        if before.catch_up(&self.state, self.layout.tally_at()) {
            *self.twin.borrow_mut() = Twin(Some((self.state.changes, before)));
        } else {
            self.recycle(before);
        }
        // Not through `DerefMut`: the state has not changed.
        self.state.state.journal_off();
        #[cfg(debug_assertions)]
        self.layout.assert_tallies(&self.state);
        Ok(events)
    }
}
