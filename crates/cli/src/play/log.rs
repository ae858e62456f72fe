//! The game log, one JSON object a line: these types *are*
//! `docs/log-format.md`. Events come from the engine with IDs; here they get
//! the names people read, the acting player's number from 1, and the file
//! and line of the rule that made them.

use engine::{Event, Game, ScoreSheet, V};
use model::{PlayerId, Span};
use ruleset::span::line_col;
use serde::Serialize;

/// One line of the log.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LogLine {
    Start {
        ruleset: String,
        game: String,
        players: u32,
        seed: u64,
        seats: Vec<String>,
        order: Vec<String>,
    },
    Setup {
        events: Vec<LogEvent>,
    },
    Action {
        n: u64,
        player: String,
        action: String,
        notation: String,
        params: serde_json::Map<String, serde_json::Value>,
        before: serde_json::Value,
        after: serde_json::Value,
        events: Vec<LogEvent>,
    },
    /// A human took back their last decisions: the actions after `to` are
    /// gone, and the game goes on from the position after action `to`.
    Undo {
        to: u64,
    },
    End {
        actions: u64,
        scores: Vec<ScoreRow>,
        totals: Vec<i64>,
        winners: Vec<String>,
    },
}

/// One score rule's points, per player in seat order.
#[derive(Debug, Serialize)]
pub struct ScoreRow {
    pub rule: String,
    pub points: Vec<i64>,
}

/// Where in the ruleset's files a rule is: the file as given on the
/// command line (or as its `extends` names it) and the line, from 1.
#[derive(Debug, Serialize)]
pub struct Origin {
    pub file: String,
    pub line: usize,
}

/// One change, by name.
#[derive(Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum LogEvent {
    Move {
        card: String,
        from: String,
        to: String,
        #[serde(flatten)]
        at: Origin,
    },
    Counter {
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        player: Option<usize>,
        #[serde(skip_serializing_if = "Option::is_none")]
        place: Option<String>,
        from: serde_json::Value,
        to: serde_json::Value,
        #[serde(flatten)]
        at: Origin,
    },
    Piece {
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        player: Option<usize>,
        from: String,
        to: String,
        steps: Option<u32>,
        #[serde(flatten)]
        at: Origin,
    },
    Shuffle {
        zone: String,
        #[serde(flatten)]
        at: Origin,
    },
    Reveal {
        zone: String,
        player: usize,
        cards: Vec<String>,
        #[serde(flatten)]
        at: Origin,
    },
    PlayerOrder {
        order: Vec<String>,
        #[serde(flatten)]
        at: Origin,
    },
    Ask {
        player: String,
        action: String,
        #[serde(flatten)]
        at: Origin,
    },
}

/// The file name and line of a span.
pub fn origin(sources: &[(String, String)], span: Span) -> Origin {
    match sources.get(span.file) {
        Some((name, text)) => Origin { file: name.clone(), line: line_col(text, span.start).0 },
        None => Origin { file: String::new(), line: 0 },
    }
}

impl LogEvent {
    /// An engine event, named through the game's ruleset and layout.
    pub fn new(game: &Game, sources: &[(String, String)], e: &Event) -> LogEvent {
        let r = game.rules;
        let zone = |z| game.layout.zone_name(r, z);
        let card = |c: model::ComponentId| r.components[c].name.clone();
        let at = origin(sources, e.at());
        match e {
            Event::Move { card: c, from, to, .. } => {
                LogEvent::Move { card: card(*c), from: zone(*from), to: zone(*to), at }
            }
            Event::Counter { counter, player, place, from, to, .. } => LogEvent::Counter {
                name: r.counters[*counter].name.clone(),
                player: player.map(PlayerId::number),
                place: place.map(|p| r.places[p].name.clone()),
                from: value_json(game, from),
                to: value_json(game, to),
                at,
            },
            Event::Piece { piece, player, from, to, .. } => LogEvent::Piece {
                name: r.pieces[*piece].name.clone(),
                player: player.map(PlayerId::number),
                from: r.places[*from].name.clone(),
                to: r.places[*to].name.clone(),
                steps: r.distance(*from, *to),
                at,
            },
            Event::Shuffle { zone: z, .. } => LogEvent::Shuffle { zone: zone(*z), at },
            Event::Reveal { zone: z, player, cards, .. } => LogEvent::Reveal {
                zone: zone(*z),
                player: player.number(),
                cards: cards.iter().map(|c| card(*c)).collect(),
                at,
            },
            Event::Ask { player, action, .. } => {
                LogEvent::Ask { player: player.to_string(), action: r.actions[*action].name.clone(), at }
            }
            Event::PlayerOrder { order, .. } => {
                LogEvent::PlayerOrder { order: order.iter().map(PlayerId::to_string).collect(), at }
            }
        }
    }

    /// Every event of a list.
    pub fn all(game: &Game, sources: &[(String, String)], events: &[Event]) -> Vec<LogEvent> {
        events.iter().map(|e| LogEvent::new(game, sources, e)).collect()
    }
}

impl LogLine {
    /// The last line: every score rule, the totals and the winners.
    pub fn end(actions: u64, sheet: &ScoreSheet) -> LogLine {
        LogLine::End {
            actions,
            scores: sheet
                .rows
                .iter()
                .map(|(rule, points)| ScoreRow { rule: rule.clone(), points: points.clone() })
                .collect(),
            totals: sheet.totals.clone(),
            winners: sheet.winners.iter().map(PlayerId::to_string).collect(),
        }
    }
}

/// A runtime value as the log writes it: numbers and yes/no as JSON, places,
/// components and tags by name, players as `P1`.
pub fn value_json(game: &Game, v: &V) -> serde_json::Value {
    use serde_json::Value as J;
    let r = game.rules;
    match v {
        V::Int(n) => J::from(*n),
        V::Bool(b) => J::from(*b),
        V::None => J::Null,
        V::Text(t) => J::from(t.as_str()),
        V::Place(p) => J::from(r.places[*p].name.as_str()),
        V::Player(p) => J::from(p.to_string()),
        V::Card(c) => J::from(r.components[*c].name.as_str()),
        V::Tag(t) => J::from(r.tags[*t].as_str()),
        V::Zone(z) => J::from(game.layout.zone_name(r, *z)),
        // A set is written by `params_json`, which has the choice's sets.
        V::Map(..) | V::Players | V::PlayersFrom(_) | V::Class(_) | V::Set(_) => J::Null,
    }
}
