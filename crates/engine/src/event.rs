//! What happened during an action, for the log, the screen and replays.
//!
//! Events hold IDs, not names: whoever shows them (the CLI's log and table,
//! a test) names them through the game's ruleset and layout. Every event
//! carries `at`, the span of the statement that made it, so an outcome can
//! be traced to its file and line.

use model::{ActionId, ComponentId, CounterId, PieceId, PlaceId, PlayerId, Span};

use crate::state::{ZoneInst, V};

/// One change to the state.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A component changed zones.
    Move { card: ComponentId, from: ZoneInst, to: ZoneInst, at: Span },
    /// A counter changed value.
    Counter { counter: CounterId, player: Option<PlayerId>, place: Option<PlaceId>, from: V, to: V, at: Span },
    /// A piece moved.
    Piece { piece: PieceId, player: Option<PlayerId>, from: PlaceId, to: PlaceId, at: Span },
    /// A zone was shuffled.
    Shuffle { zone: ZoneInst, at: Span },
    /// A player is asked to take an action (`ask`) before play goes on.
    Ask { player: PlayerId, action: ActionId, at: Span },
    /// One player saw what lies in a zone (`reveal`), top first. Only that
    /// player is told the cards.
    Reveal { zone: ZoneInst, player: PlayerId, cards: Vec<ComponentId>, at: Span },
    /// `shuffle players` set the seat order.
    PlayerOrder { order: Vec<PlayerId>, at: Span },
}

impl Event {
    /// The span of the statement that made this change.
    pub fn at(&self) -> Span {
        match self {
            Event::Move { at, .. }
            | Event::Counter { at, .. }
            | Event::Piece { at, .. }
            | Event::Shuffle { at, .. }
            | Event::Reveal { at, .. }
            | Event::Ask { at, .. }
            | Event::PlayerOrder { at, .. } => *at,
        }
    }
}
