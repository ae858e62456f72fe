//! The generic game engine: plays any checked [`model::Ruleset`].
//!
//! It knows the language (zones, counters, pieces, tables, expressions,
//! statements, turn policies, scoring forms), never a game: no game's words
//! appear here. A [`Game`] is set up from a ruleset, a player count and a
//! seed; all chance flows from that seed through ChaCha8, so the same seed
//! and the same choices give the same game on every machine.

#![forbid(unsafe_code)]

pub mod event;
pub mod game;
pub mod interp;
pub mod legality;
pub mod notation;
pub mod state;

pub use event::Event;
pub use game::{Choice, Game, ScoreSheet, View, ZoneView};
pub use interp::Fail;
pub use state::V;
