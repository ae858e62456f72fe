//! What happened during an action, for the log and for replays.

use serde::Serialize;

/// One change to the state. `at` is where in the ruleset's files the
/// statement that made it is, so a log line can name the rule behind it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A component changed zones.
    Move {
        card: String,
        from: String,
        to: String,
        at: model::Span,
    },
    /// A counter changed value.
    Counter {
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        player: Option<usize>,
        #[serde(skip_serializing_if = "Option::is_none")]
        place: Option<String>,
        from: serde_json::Value,
        to: serde_json::Value,
        at: model::Span,
    },
    /// A piece moved; `steps` is the shortest route between the two places.
    Piece {
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        player: Option<usize>,
        from: String,
        to: String,
        steps: Option<u32>,
        at: model::Span,
    },
    Shuffle {
        zone: String,
    },
    /// One player saw what lies in a zone (`reveal`); `player` counts from 1.
    /// Only that player is told the cards.
    Reveal {
        zone: String,
        player: usize,
        cards: Vec<String>,
        at: model::Span,
    },
    PlayerOrder {
        order: Vec<String>,
    },
}
