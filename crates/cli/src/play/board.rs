//! Grids drawn as maps (`place cell grid W x H`): for each grid, the part
//! of it where something lies, one column per x and one row per y, each
//! place showing in short what the viewer may see there: the components of
//! the zones kept per place, the pieces standing on it and the counters kept
//! per place that are not empty. A legend gives the short names in full.

use engine::{Game, ZoneView, V};
use model::{PlaceId, Ruleset};

/// A name this long or shorter is shown whole on a map.
const SHORT_NAME: usize = 6;

/// The widest a place's column gets; longer contents end in `…`.
const MAX_COLUMN: usize = 10;

/// The maps of every grid where something lies, as lines (a heading, the
/// column numbers, a row per y, the legend), for a viewer whose view of the
/// zones is `view` (hidden zones show how many components lie there).
pub fn maps(game: &Game, zones: &[ZoneView]) -> Vec<String> {
    let r = game.rules;
    let mut out = Vec::new();
    for class in r.classes.iter().filter(|c| c.grid.is_some()) {
        let contents: Vec<Vec<Item>> = class.places.iter().map(|p| items_at(game, zones, *p)).collect();
        let filled: Vec<(i64, i64)> = class
            .places
            .iter()
            .zip(&contents)
            .filter(|(_, c)| !c.is_empty())
            .filter_map(|(p, _)| r.places[*p].at)
            .collect();
        let (Some(x0), Some(x1)) = (filled.iter().map(|a| a.0).min(), filled.iter().map(|a| a.0).max())
        else {
            continue;
        };
        let (y0, y1) =
            (filled.iter().map(|a| a.1).min().unwrap_or(0), filled.iter().map(|a| a.1).max().unwrap_or(0));
        let names = short_names(contents.iter().flatten());
        let text = |i: usize| -> String {
            let mut counted: Vec<(String, usize)> = Vec::new();
            for item in &contents[i] {
                let short =
                    |n: &String| names.iter().find(|(m, _)| m == n).map_or(n.clone(), |(_, s)| s.clone());
                let whose = |p: usize| if p == 0 { String::new() } else { p.to_string() };
                let s = match item {
                    Item::Component(name) => short(name),
                    Item::Hidden(n) => format!("?{n}"),
                    Item::Piece(name, p) => format!("{}{}", short(name), whose(*p)),
                    Item::Counter(name, p, value) => format!("{}{}{value}", whose(*p), short(name)),
                };
                match counted.iter_mut().find(|(t, _)| *t == s) {
                    Some((_, k)) => *k += 1,
                    None => counted.push((s, 1)),
                }
            }
            let parts: Vec<String> =
                counted.into_iter().map(|(s, k)| if k > 1 { format!("{k}{s}") } else { s }).collect();
            clip(&parts.join(" "))
        };
        let width = |x: i64| {
            (y0..=y1)
                .map(|y| index(class, x, y).map_or(1, |i| text(i).chars().count()))
                .chain(std::iter::once(x.to_string().len()))
                .max()
                .unwrap_or(1)
        };
        let widths: Vec<usize> = (x0..=x1).map(width).collect();
        let margin = y1.to_string().len();
        out.push(format!("{} map (x across, y down):", class.name));
        let head: Vec<String> = (x0..=x1).zip(&widths).map(|(x, w)| format!("{x:>w$}")).collect();
        out.push(format!("{:margin$} │ {}", "", head.join(" │ ")));
        for y in y0..=y1 {
            let row: Vec<String> = (x0..=x1)
                .zip(&widths)
                .map(|(x, w)| {
                    let t =
                        index(class, x, y).map(text).filter(|t| !t.is_empty()).unwrap_or_else(|| "·".into());
                    format!("{t:w$}")
                })
                .collect();
            out.push(format!("{y:>margin$} │ {}", row.join(" │ ")));
        }
        let legend: Vec<String> =
            names.iter().filter(|(n, s)| n != s).map(|(n, s)| format!("{s} {n}")).collect();
        if !legend.is_empty() {
            out.push(format!("  ({})", legend.join(", ")));
        }
    }
    out
}

/// What a map shows on one place.
#[derive(Clone, Debug, PartialEq)]
enum Item {
    /// A component the viewer sees, by name.
    Component(String),
    /// How many components lie in a zone the viewer does not see.
    Hidden(usize),
    /// A piece standing there: its name and owner's number (0: shared).
    Piece(String, usize),
    /// A counter kept per place that is not empty: its name, owner's
    /// number (0: shared) and value in words.
    Counter(String, usize, String),
}

fn items_at(game: &Game, zones: &[ZoneView], place: PlaceId) -> Vec<Item> {
    let r = game.rules;
    let mut out = Vec::new();
    for (inst, zone) in game.layout.instances.iter().zip(zones) {
        if inst.place != Some(place) {
            continue;
        }
        match zone {
            ZoneView::Open(cards) => {
                out.extend(cards.iter().flatten().map(|c| Item::Component(r.components[*c].name.clone())))
            }
            ZoneView::Hidden(0) => {}
            ZoneView::Hidden(n) => out.push(Item::Hidden(*n)),
        }
    }
    for (id, piece) in r.pieces.iter().enumerate() {
        let id = model::PieceId::new(id);
        for who in owners(piece.per_player, game.players()) {
            if game.piece(id, who) == place {
                out.push(Item::Piece(piece.name.clone(), who.map_or(0, |p| p.index() + 1)));
            }
        }
    }
    for (id, counter) in r.counters.iter().enumerate() {
        if counter.index != Some(r.places[place].class) || counter.bookkeeping {
            continue;
        }
        let id = model::CounterId::new(id);
        for who in owners(counter.per_player, game.players()) {
            let value = match game.counter(id, who, Some(place)) {
                V::None | V::Int(0) | V::Bool(false) => continue,
                V::Player(p) => p.to_string(),
                V::Place(p) => r.places[p].name.clone(),
                V::Int(n) => n.to_string(),
                V::Bool(true) => String::new(),
                other => format!("{other:?}"),
            };
            out.push(Item::Counter(counter.name.clone(), who.map_or(0, |p| p.index() + 1), value));
        }
    }
    out
}

/// Whose instances of a piece or counter there are: each player's, or the
/// one shared.
fn owners(per_player: bool, players: usize) -> Vec<Option<model::PlayerId>> {
    match per_player {
        true => model::PlayerId::all(players).map(Some).collect(),
        false => vec![None],
    }
}

/// A short name for each name on a map, unique on it: a component's
/// initials and numbers (`Mountain 3` M3, `Red cube` Rc), or its name when
/// that is short and one word, else the shortest start of its name
/// (spaces left out, 2 letters at least) no other shares; a piece's or a
/// counter's shortest unique start (`b` for boat, `t` for turned).
fn short_names<'a>(items: impl Iterator<Item = &'a Item>) -> Vec<(String, String)> {
    let (mut components, mut marks): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    for item in items {
        let (list, name) = match item {
            Item::Component(n) => (&mut components, n),
            Item::Piece(n, _) | Item::Counter(n, _, _) => (&mut marks, n),
            Item::Hidden(_) => continue,
        };
        if !list.contains(name) {
            list.push(name.clone());
        }
    }
    let initials = |n: &str| -> String {
        n.split_whitespace()
            .map(|w| {
                if w.chars().all(|c| c.is_ascii_digit()) {
                    w.to_string()
                } else {
                    w.chars().take(1).collect()
                }
            })
            .collect()
    };
    let mut out: Vec<(String, String)> = Vec::new();
    for name in &components {
        let init = initials(name);
        let clash = components.iter().any(|o| o != name && initials(o) == init);
        let short = match (name.split_whitespace().count(), clash) {
            (1, _) if name.chars().count() <= SHORT_NAME => name.clone(),
            (2.., false) => init,
            _ => unique_start(name, &components, 2),
        };
        out.push((name.clone(), short));
    }
    for name in &marks {
        out.push((name.clone(), unique_start(name, &marks, 1)));
    }
    out
}

/// The shortest start of `name` (spaces left out, `least` letters or more)
/// that no other of `all` begins with.
fn unique_start(name: &str, all: &[String], least: usize) -> String {
    let compact = |n: &str| -> Vec<char> { n.chars().filter(|c| *c != ' ').collect() };
    let c = compact(name);
    let others: Vec<Vec<char>> = all.iter().filter(|o| o.as_str() != name).map(|o| compact(o)).collect();
    let len = (least.min(c.len())..=c.len())
        .find(|k| !others.iter().any(|o| o.len() >= *k && o[..*k] == c[..*k]))
        .unwrap_or(c.len());
    c[..len].iter().collect()
}

fn index(class: &model::PlaceClass, x: i64, y: i64) -> Option<usize> {
    let g = class.grid?;
    ((0..g.width as i64).contains(&x) && (0..g.height as i64).contains(&y))
        .then(|| (y * g.width as i64 + x) as usize)
}

fn clip(s: &str) -> String {
    if s.chars().count() <= MAX_COLUMN {
        return s.to_string();
    }
    let mut t: String = s.chars().take(MAX_COLUMN - 1).collect();
    t.push('…');
    t
}

/// Whether a ruleset has a grid to draw.
pub fn has_grid(r: &Ruleset) -> bool {
    r.classes.iter().any(|c| c.grid.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shorts(items: &[Item]) -> Vec<String> {
        short_names(items.iter()).into_iter().map(|(_, s)| s).collect()
    }

    #[test]
    fn short_names_are_initials_unless_two_clash_then_the_shortest_unique_start() {
        let c = |n: &str| Item::Component(n.to_string());
        let items =
            [c("Mountain 3"), c("Red cube"), c("Green cube"), c("Grey cube"), c("Thera"), c("Tree 3")];
        assert_eq!(shorts(&items), ["M3", "Rc", "Gree", "Grey", "Thera", "T3"]);
        let marks = [Item::Piece("boat".into(), 1), Item::Counter("turned".into(), 0, "1".into())];
        assert_eq!(shorts(&marks), ["b", "t"]);
        let clash =
            [Item::Counter("turned".into(), 0, "1".into()), Item::Counter("temple".into(), 0, "P1".into())];
        assert_eq!(shorts(&clash), ["tu", "te"]);
    }
}
