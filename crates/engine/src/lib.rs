//! The generic game engine: plays any checked [`model::Ruleset`].
//!
//! It knows the language (zones, counters, pieces, tables, expressions,
//! statements, turn policies, scoring forms), never a game: no game's words
//! appear here. A [`Program`] is a ruleset with what the engine works out
//! once for it; a [`Game`] is set up from a program, a player count and a
//! seed; all chance flows from that seed through ChaCha8, so the same seed
//! and the same choices give the same game on every machine.

#![forbid(unsafe_code)]

mod choice;
pub mod event;
mod fold;
pub mod game;
mod interp;
pub mod legality;
pub mod native;
pub mod notation;
pub mod position;
mod state;
mod tally;

pub use choice::{Args, ChoiceSets, Listing, INLINE_ARGS};
pub use event::Event;
pub use game::{Choice, Game, Program, ScoreSheet, View, ZoneView, MAX_SETS};
pub use interp::{Fail, Traced, TracedKind, MAX_WORK};
pub use position::{At, Snapshot};
pub use state::{Instance, Layout, Text, ZoneInst, V};
pub use tally::{Family as TallyFamily, Shape as TallyShape, Shapes as TallyShapes, TallyDef, TallyGroup};
