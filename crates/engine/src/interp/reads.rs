//! What each let reads of the state: which zones, counters and pieces (by
//! declaration), who `me` is, and the seat and turn order. The memo
//! (`Memo`) keeps a let's values past a change of the state that wrote
//! none of what the let reads: a region of the board stays known while
//! only cubes move, a player's holdings while another player moves.

use model::*;

use crate::state::{Layout, State, ZoneInst};

/// Parts of the state, as bits (`LetReads` numbers them).
pub type Parts = [u64; PART_WORDS];

/// Words of a `Parts`: a ruleset with more zones, groups, counters and
/// pieces than these bits hold has every let read everything (its memo
/// forgets all at every change, as before lets' reads were known).
const PART_WORDS: usize = 4;

/// Per let, the parts of the state its value may read, as bits: its own
/// body's and those of every let it calls (a region's link among them).
#[derive(Debug, Default)]
pub struct LetReads {
    /// Where each kind of part starts among the bits: zones, then groups'
    /// supplies, counters, pieces, then `me` and the turn.
    groups: usize,
    counters: usize,
    pieces: usize,
    me: usize,
    turn: usize,
    /// Whether the parts fit (see `PART_WORDS`).
    fits: bool,
    bits: Vec<Parts>,
}

impl LetReads {
    pub fn new(r: &Ruleset) -> LetReads {
        let groups = r.zones.len();
        let counters = groups + r.groups.len();
        let pieces = counters + r.counters.len();
        let me = pieces + r.pieces.len();
        let turn = me + 1;
        let fits = turn < 64 * PART_WORDS;
        let mut reads =
            LetReads { groups, counters, pieces, me, turn, fits, bits: vec![[!0; PART_WORDS]; r.lets.len()] };
        if !fits {
            return reads;
        }
        // Each let's own reads, and the lets it calls.
        let mut calls: Vec<Vec<LetId>> = Vec::with_capacity(r.lets.len());
        for id in LetId::all(r.lets.len()) {
            let mut called = Vec::new();
            let mut own = [0; PART_WORDS];
            reads.expr(&r.lets[id].body, &mut own, &mut called);
            reads.bits[id.index()] = own;
            calls.push(called);
        }
        // Then what the lets called read, until nothing more is added
        // (lets may call each other in a cycle).
        let mut grew = true;
        while grew {
            grew = false;
            for (id, called) in calls.iter().enumerate() {
                for callee in called {
                    for w in 0..PART_WORDS {
                        let more = reads.bits[callee.index()][w] & !reads.bits[id][w];
                        if more != 0 {
                            reads.bits[id][w] |= more;
                            grew = true;
                        }
                    }
                }
            }
        }
        reads
    }

    fn expr(&self, e: &Expr, out: &mut Parts, calls: &mut Vec<LetId>) {
        let bit = match &e.kind {
            ExprKind::Zone { zone, .. } => Some(zone.index()),
            ExprKind::Group(g) => Some(self.groups + g.index()),
            ExprKind::Counter { counter, .. } => Some(self.counters + counter.index()),
            ExprKind::Piece { piece, .. } => Some(self.pieces + piece.index()),
            ExprKind::Me => Some(self.me),
            // The seat order (`shuffle players`) and the turn order.
            ExprKind::Players | ExprKind::PlayersFrom(_) => Some(self.turn),
            ExprKind::Let { id, .. } => {
                calls.push(*id);
                None
            }
            _ => None,
        };
        if let Some(b) = bit {
            set(out, b);
        }
        e.for_each_child(|x| self.expr(x, out, calls));
    }

    /// What an action wrote, by its state's journal: the zones, counters
    /// and pieces, and the turn, which every action may move on without a
    /// note; who `me` is too when the next to move is someone else.
    /// `None` when the journal cannot tell (it was off, or something else
    /// was written): then anything may have changed.
    pub fn written(&self, lay: &Layout, st: &State, me_changes: bool) -> Option<Parts> {
        let (zones, counters, pieces) = st.written().filter(|_| self.fits)?;
        let mut out = [0; PART_WORDS];
        for z in zones {
            set(
                &mut out,
                match lay.instance(ZoneInst::new(*z as usize)).source {
                    Ok(zone) => zone.index(),
                    Err(group) => self.groups + group.index(),
                },
            );
        }
        for c in counters {
            set(&mut out, self.counters + lay.counter_decl(*c as usize));
        }
        for p in pieces {
            set(&mut out, self.pieces + lay.piece_decl(*p as usize));
        }
        set(&mut out, self.turn);
        if me_changes {
            set(&mut out, self.me);
        }
        Some(out)
    }

    /// Who `me` is, as changed parts.
    pub fn me(&self) -> Parts {
        let mut out = [0; PART_WORDS];
        if self.fits {
            set(&mut out, self.me);
        } else {
            out = [!0; PART_WORDS];
        }
        out
    }

    /// Whether let `id` reads any of `changed`.
    #[inline]
    pub fn touched(&self, id: LetId, changed: &Parts) -> bool {
        let own = self.bits.get(id.index()).unwrap_or(&[!0; PART_WORDS]);
        own.iter().zip(changed).any(|(a, b)| a & b != 0)
    }
}

#[inline]
fn set(parts: &mut Parts, b: usize) {
    parts[b / 64] |= 1 << (b % 64);
}
