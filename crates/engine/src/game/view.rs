//! What a player may see of a game, and games as a player could imagine
//! them (a bot's samples).

use model::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::Game;
use crate::state::{shuffle, ZoneInst, V};

/// What one player may see.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub me: PlayerId,
    pub current: Option<PlayerId>,
    /// Per zone instance (same numbering as the state).
    pub zones: Vec<ZoneView>,
    pub counters: Vec<V>,
    pub pieces: Vec<PlaceId>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ZoneView {
    Open(Vec<Option<ComponentId>>),
    /// Only how many components lie there.
    Hidden(usize),
}

impl std::ops::Index<ZoneInst> for Vec<ZoneView> {
    type Output = ZoneView;
    fn index(&self, z: ZoneInst) -> &ZoneView {
        &self[z.index()]
    }
}

impl<'p> Game<'p> {
    /// What `player` may see.
    pub fn view(&self, player: PlayerId) -> View {
        let zones = self
            .layout
            .zone_insts()
            .map(|i| {
                if self.visible_to(i, player) {
                    ZoneView::Open(self.state.zones[i].to_vec())
                } else {
                    ZoneView::Hidden(self.state.count(i))
                }
            })
            .collect();
        View {
            me: player,
            current: self.current(),
            zones,
            counters: self.state.counters.clone(),
            pieces: self.state.pieces.clone(),
        }
    }

    /// Whether `viewer` may see what lies in a zone instance.
    pub fn visible_to(&self, inst: ZoneInst, viewer: PlayerId) -> bool {
        let i = self.layout.instance(inst);
        match i.source {
            Ok(z) => match self.rules.zones[z].visibility {
                Visibility::All => true,
                Visibility::Owner => i.player == Some(viewer),
                Visibility::Nobody => false,
            },
            Err(_) => false,
        }
    }

    /// The back a component shows face down (see `Kind::back`).
    pub fn back_of(&self, c: ComponentId) -> u32 {
        self.program.backs[c.index()]
    }

    /// A copy of the game as `viewer` could imagine it: every component
    /// `viewer` cannot see is dealt at random (from `rng`) among the hidden
    /// places showing the same back (`on back` attributes), keeping how many
    /// each holds, and the chance to come is reseeded from `rng`. The result
    /// depends only on what `viewer` may know (counts and backs), never on
    /// where the hidden components really are: a bot that plans on samples
    /// cannot peek.
    pub fn sample_for(&self, viewer: PlayerId, rng: &mut impl rand::Rng) -> Game<'p> {
        let mut g = self.clone();
        let hidden: Vec<ZoneInst> =
            self.layout.zone_insts().filter(|i| !self.visible_to(*i, viewer)).collect();
        let mut pool: Vec<ComponentId> = hidden.iter().flat_map(|i| g.state.cards(*i)).collect();
        // Sort first, so the deal depends on which components are hidden,
        // not on where they lie; then shuffle and deal each back's
        // components into the slots that show that back.
        pool.sort_unstable();
        shuffle(&mut pool, rng);
        let mut by_back: Vec<Vec<ComponentId>> = Vec::new();
        for c in pool {
            let b = self.program.backs[c.index()] as usize;
            if by_back.len() <= b {
                by_back.resize(b + 1, Vec::new());
            }
            by_back[b].push(c);
        }
        for i in hidden {
            for slot in g.state.zones[i].iter_mut() {
                if let Some(c) = *slot {
                    *slot = by_back[self.program.backs[c.index()] as usize].pop();
                }
            }
        }
        // The counts kept (tallies), of the components dealt: those
        // of the ones really hidden there would tell them.
        self.layout.recount(&mut g.state);
        *g.state.rng = ChaCha8Rng::seed_from_u64(rng.gen());
        g
    }
}
