//! `Program`: a checked ruleset with what the engine works out once for
//! it, shared by every game of it.

use model::*;

use super::search::fixed_domain;
use crate::legality::TrialPlan;
use crate::state::{Layout, V};

/// A checked ruleset with everything the engine works out once for it: the
/// legality plan, the zone layout for each player count, each component's
/// back, the empty value of each attribute. Games borrow it, so setting up a
/// game or copying one (bots copy thousands) repeats none of that work.
///
/// A `Program` reads as its ruleset (`program.components`, ...).
#[derive(Debug)]
pub struct Program {
    /// The rules games walk: for an interpreted program, with their
    /// constants folded (`crate::fold`); for a compiled one, wrapped.
    pub(super) rules: Ruleset,
    /// The rules as written, when folding changed them: what `rules()`
    /// gives, and what a compiled program is made from.
    written: Option<Box<Ruleset>>,
    pub(super) trials: TrialPlan,
    /// One per player count from the ruleset's minimum to its maximum.
    pub(super) layouts: Vec<Layout>,
    /// The value an attribute reads as on a component whose kind lacks it.
    pub(super) attr_empty: Vec<V>,
    /// Every component's value of every attribute, as `c.attr` reads it
    /// (`Interp::attrs`): component by component, `attr_empty.len()`
    /// each. Empty past `ATTR_TABLE` values.
    pub(super) attrs: Vec<V>,
    /// Per component, which back it shows face down (components with equal
    /// numbers look alike while hidden).
    pub(super) backs: Vec<u32>,
    /// Per component, which copies it is interchangeable with: components
    /// with equal numbers share group and name (`"Coin" x14`).
    pub(super) likeness: Vec<u32>,
    /// Compiled rules (`crate::native`), when built with them.
    pub(super) natives: Vec<crate::native::NativeFn>,
    /// Per action, its compiled precondition (`Natives::preconditions`);
    /// empty without compiled rules.
    pub(super) preconditions: Vec<Option<crate::native::PreFn>>,
    /// Per action, per number of parameters bound, its compiled leading
    /// statements (`Natives::leading`); empty without compiled rules.
    pub(super) leading: Vec<Vec<Option<crate::native::LeadFn>>>,
    /// Per action, its compiled search (`Natives::searches`); empty
    /// without compiled rules.
    pub(super) searches: Vec<crate::native::SearchFn>,
    /// Compiled statement lists (`Natives::actions` and the rest); none
    /// without compiled rules.
    pub(super) bodies: crate::native::Bodies,
    /// Per action, per parameter: its values when they are the same in
    /// every position (flags, number ranges, the places of a class).
    pub(super) fixed_domains: Vec<Vec<Option<Vec<V>>>>,
    /// The most frame slots the search for legal choices binds, in any
    /// action's parameters, leading statements or steps.
    pub(super) search_slots: usize,
    /// The most parameters of any action.
    pub(super) most_params: usize,
    /// The parameters of all actions.
    pub(super) all_params: usize,
    /// Whether some action has a `set of` parameter (whose choices carry
    /// their sets).
    pub(super) chooses_sets: bool,
    /// How many let values a listing keeps for compiled code
    /// (`Natives::listing`); 0 without compiled rules.
    pub(super) listing: usize,
    /// The families of counts and sums its layouts keep (`crate::tally`):
    /// those the compiled rules read, or without them those its lets ask.
    pub(super) tallies: Vec<crate::tally::Family>,
    /// The aggregates of its lets the interpreter reads from those
    /// families without reading their filters (`tally::sites`); none with
    /// compiled rules, whose lets run natively.
    pub(super) sites: Vec<(usize, crate::tally::Site)>,
    /// The places next to each place.
    pub(super) neighbours: crate::interp::Neighbours,
    /// What each let reads of the state (for the `Memo`).
    pub(super) reads: crate::interp::LetReads,
    /// Per player count, as `layouts`: what the setup's prelude leaves
    /// (`super::prelude`), worked out when the first game of that count
    /// starts; `None` inside when there is none.
    pub(super) preludes: Vec<std::sync::OnceLock<Option<super::prelude::Prelude>>>,
}

impl std::ops::Deref for Program {
    type Target = Ruleset;
    fn deref(&self) -> &Ruleset {
        self.rules()
    }
}

impl Program {
    /// A program interpreting `rules`: everything worked out from them
    /// (the legality plan among it) is worked out from them as written;
    /// then the rules games walk have their constants folded.
    pub fn new(rules: Ruleset) -> Program {
        let mut program = Program::build(rules);
        let written = program.rules.clone();
        if crate::fold::fold(&mut program.rules, &mut program.trials) {
            program.written = Some(Box::new(written));
        }
        // Found in the rules where the program keeps them: by address.
        program.sites = crate::tally::sites(&program.rules, &program.tallies);
        program
    }

    fn build(rules: Ruleset) -> Program {
        let attr_empty = crate::interp::attr_empty(&rules);
        let attrs = attr_table(&rules, &attr_empty);
        let mut back_faces: Vec<Vec<&Value>> = Vec::new();
        let backs = rules
            .components
            .iter()
            .map(|c| {
                let kind = &rules.kinds[c.kind];
                let face: Vec<&Value> =
                    kind.back.iter().filter_map(|a| kind.slot_of(*a).map(|s| &c.values[s])).collect();
                let id = back_faces.iter().position(|f| *f == face).unwrap_or_else(|| {
                    back_faces.push(face);
                    back_faces.len() - 1
                });
                id as u32
            })
            .collect();
        let (min, max) = (rules.game.min_players as usize, rules.game.max_players as usize);
        // The counts and sums the lets ask kept as components move.
        let families = crate::tally::chosen(&rules);
        let parts = crate::tally::parts(&rules, &families);
        let layouts: Vec<Layout> = (min..=max.max(min))
            .map(|n| {
                let mut layout = Layout::new(&rules, n);
                layout.keep_tallies(parts.as_ref());
                layout
            })
            .collect();
        let preludes = layouts.iter().map(|_| std::sync::OnceLock::new()).collect();
        let trials = TrialPlan::new(&rules);
        let mut names: std::collections::HashMap<(GroupId, &str), u32> = std::collections::HashMap::new();
        let likeness = rules
            .components
            .iter()
            .map(|c| {
                let next = names.len() as u32;
                *names.entry((c.group, c.name.as_str())).or_insert(next)
            })
            .collect();
        let fixed_domains = rules
            .actions
            .iter()
            .map(|a| a.params.iter().map(|p| fixed_domain(&rules, &p.domain)).collect())
            .collect();
        let action_slots = rules.actions.iter().map(|a| a.body.locals.max(a.params.len()));
        let search_slots =
            action_slots.chain(trials.pre.iter().flatten().map(|p| p.slots)).max().unwrap_or(0);
        let most_params = rules.actions.iter().map(|a| a.params.len()).max().unwrap_or(0);
        let all_params = rules.actions.iter().map(|a| a.params.len()).sum();
        let chooses_sets =
            rules.actions.iter().flat_map(|a| &a.params).any(|p| matches!(p.domain, ParamDomain::SetOf(_)));
        let neighbours = crate::interp::Neighbours::new(&rules);
        let reads = crate::interp::LetReads::new(&rules);
        Program {
            reads,
            neighbours,
            preludes,
            rules,
            written: None,
            trials,
            layouts,
            attr_empty,
            attrs,
            backs,
            likeness,
            natives: Vec::new(),
            preconditions: Vec::new(),
            leading: Vec::new(),
            searches: Vec::new(),
            bodies: Default::default(),
            tallies: families,
            sites: Vec::new(),
            fixed_domains,
            search_slots,
            most_params,
            all_params,
            chooses_sets,
            listing: 0,
        }
    }

    /// A program that runs compiled rules (`crate::native`) where the
    /// interpreter would walk their expressions: the same games, faster.
    /// Everything worked out from the rules (the legality plan among it)
    /// is worked out from them as written, before they are wrapped.
    /// Refused, with the reason, when the natives were generated from
    /// other rules.
    pub fn with_natives(rules: Ruleset, natives: &crate::native::Natives) -> Result<Program, String> {
        let found = crate::native::fingerprint(&rules);
        if found != natives.fingerprint {
            return Err(format!(
                "the compiled rules were made from other rules (fingerprint {:016x}, these rules {found:016x})",
                natives.fingerprint
            ));
        }
        // Not folded: the compiled roots are those of the rules as written.
        let mut program = Program::build(rules);
        program.reads.note_no_calls();
        let mut next = 0u32;
        crate::native::wrap_roots(&mut program.rules, &mut next);
        crate::native::wrap_plan_roots(&mut program.trials, &mut next);
        crate::native::wrap_link_rests(&mut program.neighbours, &mut next);
        if next as usize != natives.roots.len() {
            return Err(format!("the compiled rules have {} roots, these rules {next}", natives.roots.len()));
        }
        let actions = program.rules.actions.len();
        let procedures = program.rules.procedures.len();
        if natives.preconditions.len() != actions
            || natives.leading.len() != actions
            || natives.searches.len() != actions
            || natives.actions.len() != actions
            || natives.procedures.len() != procedures
        {
            return Err(format!(
                "the compiled rules have {} preconditions, {} lists of leading statements, {} searches, {} action bodies and {} procedures; these rules {actions} actions and {procedures} procedures",
                natives.preconditions.len(),
                natives.leading.len(),
                natives.searches.len(),
                natives.actions.len(),
                natives.procedures.len(),
            ));
        }
        let families: Vec<crate::tally::Family> = natives.tallies.iter().map(Into::into).collect();
        if let Some(bad) = families.iter().position(|d| !crate::tally::fits(d, &program.rules)) {
            return Err(format!(
                "the compiled rules keep counts these rules cannot have ({:?})",
                natives.tallies[bad]
            ));
        }
        // The families the compiled code reads, in its order, instead of
        // the interpreter's.
        let parts = crate::tally::parts(&program.rules, &families);
        for layout in &mut program.layouts {
            layout.keep_tallies(parts.as_ref());
        }
        program.tallies = families;
        program.natives = natives.roots.to_vec();
        program.preconditions = natives.preconditions.to_vec();
        program.leading = natives.leading.iter().map(|l| l.to_vec()).collect();
        program.searches = natives.searches.to_vec();
        program.listing = natives.listing;
        program.bodies = crate::native::Bodies {
            setup: Some(natives.setup),
            procedures: natives.procedures.to_vec(),
            actions: natives.actions.to_vec(),
            after_action: Some(natives.after_action),
        };
        Ok(program)
    }

    /// For tests: the families of counts and sums kept as components move
    /// (`crate::tally`).
    #[doc(hidden)]
    pub fn tally_families(&self) -> &[crate::tally::Family] {
        &self.tallies
    }

    /// For tests: the program keeping no counts, so that every aggregate
    /// walks its zone.
    #[doc(hidden)]
    pub fn without_tallies(mut self) -> Program {
        for layout in &mut self.layouts {
            layout.keep_tallies(None);
        }
        // A prelude kept with the counts would start games with them.
        self.preludes.iter_mut().for_each(|p| *p = std::sync::OnceLock::new());
        self.tallies.clear();
        self.sites.clear();
        self
    }

    /// Whether this program runs compiled rules.
    pub fn is_compiled(&self) -> bool {
        !self.natives.is_empty()
    }

    /// The rules as written (wrapped, in a compiled program): what tools
    /// show, and what compiled rules are made from.
    pub fn rules(&self) -> &Ruleset {
        self.written.as_deref().unwrap_or(&self.rules)
    }

    /// The rules games walk (`rules` with its constants folded).
    #[doc(hidden)]
    pub fn walked(&self) -> &Ruleset {
        &self.rules
    }

    /// For tests: a program interpreting `rules` walked as written, its
    /// constants not folded.
    #[doc(hidden)]
    pub fn unfolded(rules: Ruleset) -> Program {
        let mut program = Program::build(rules);
        program.sites = crate::tally::sites(&program.rules, &program.tallies);
        program
    }

    /// What a legality trial runs, per action.
    pub fn trials(&self) -> &TrialPlan {
        &self.trials
    }

    /// The layout for a player count the ruleset allows.
    pub fn layout(&self, players: usize) -> Option<&Layout> {
        let min = self.rules.game.min_players as usize;
        players.checked_sub(min).and_then(|i| self.layouts.get(i))
    }

    /// For tests: the program running every game's whole setup, keeping
    /// no prelude (`super::prelude`).
    #[doc(hidden)]
    pub fn without_prelude(mut self) -> Program {
        self.preludes = self.preludes.iter().map(|_| std::sync::OnceLock::from(None)).collect();
        self
    }
}

/// The most values `Program::attrs` holds (16 bytes each): a ruleset with
/// more components times attributes reads each from its component.
const ATTR_TABLE: usize = 1 << 20;

/// Every component's value of every attribute, as the interpreter reads
/// `c.attr` (a map as `V::Map`, an attribute its kind lacks as
/// `attr_empty`); empty when there would be more than `ATTR_TABLE`.
fn attr_table(rules: &Ruleset, attr_empty: &[V]) -> Vec<V> {
    if rules.components.len().saturating_mul(attr_empty.len()) > ATTR_TABLE {
        return Vec::new();
    }
    ComponentId::all(rules.components.len())
        .flat_map(|c| {
            AttrId::all(attr_empty.len()).map(move |a| crate::interp::attr_value(rules, attr_empty, c, a))
        })
        .collect()
}
