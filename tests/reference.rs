//! A reference simulator of Thebes written directly in Rust, for tests and
//! benchmarks only (the product never uses it).
//!
//! It implements the rules of `rulesets/thebes/thebes.ruleset` by hand, with
//! the component data and tables read from the checked ruleset. It does not
//! model the order of hidden piles: it is fed the draws (which card came off
//! the deck, which tokens out of a bag) that the engine made, so the two can
//! be compared action by action: the same legal choices, the same weeks, the
//! same final score.

use std::sync::Arc;

use chronoscope_cli::play::log::LogEvent;
use engine::{Game, V};
use model::{AttrId, ComponentId, CounterId, PieceId, PlaceId, PlayerId, Ruleset, Value, ZoneId};

const SITES: usize = 5;

/// The tags the rules read, one bit each on a card.
#[derive(Clone, Copy, Debug)]
enum Tag {
    Artifact,
    Assistant,
    Blank,
    Book,
    Car,
    Congress,
    Exhibition,
    GeneralBook,
    Rumours,
    Shovel,
    SpecialPermit,
    Specialized,
    Zeppelin,
}

/// Each tag's name in the ruleset.
const TAG_NAMES: [(&str, Tag); 13] = [
    ("artifact", Tag::Artifact),
    ("assistant", Tag::Assistant),
    ("blank", Tag::Blank),
    ("book", Tag::Book),
    ("car", Tag::Car),
    ("congress", Tag::Congress),
    ("exhibition", Tag::Exhibition),
    ("general_book", Tag::GeneralBook),
    ("rumours", Tag::Rumours),
    ("shovel", Tag::Shovel),
    ("special_permit", Tag::SpecialPermit),
    ("specialized", Tag::Specialized),
    ("zeppelin", Tag::Zeppelin),
];

#[derive(Clone, Debug)]
pub struct Card {
    pub name: String,
    /// A bit per `Tag`.
    tags: u32,
    city: usize,
    weeks: i64,
    site: Option<usize>,
    books: i64,
    general: i64,
    points: i64,
    needs: Vec<(usize, i64)>,
    value: i64,
}

impl Card {
    fn has(&self, tag: Tag) -> bool {
        self.tags & (1 << tag as u32) != 0
    }
}

/// The whole state, components by the engine's numbering.
#[derive(Clone, Debug)]
pub struct Thebes {
    /// The fixed data, shared by every copy of a game.
    pub cards: Arc<[Card]>,
    place_names: Arc<[String]>,
    site_place: Vec<usize>,
    warsaw: usize,
    dist: Arc<[Vec<i64>]>,
    chrono: Arc<[Vec<i64>]>,
    congress: Arc<[i64]>,
    helper_bonus: Arc<[i64]>,
    helper_cap: i64,
    car_stacks: bool,
    alone_can_dig: bool,
    refresh_when_crossing: bool,
    at_once: bool,
    majority_minimum: i64,
    pub players: usize,
    pub time: Vec<i64>,
    arrival: Vec<u64>,
    tick: u64,
    pub pos: Vec<usize>,
    deck: Vec<usize>,
    pile3: Vec<usize>,
    discard: Vec<usize>,
    display: Vec<Option<usize>>,
    exhibitions: Vec<Option<usize>>,
    bags: Vec<Vec<usize>>,
    bonus: Vec<Vec<usize>>,
    tableau: Vec<Vec<usize>>,
    finds: Vec<Vec<usize>>,
    permit_year: Vec<Vec<i64>>,
    first_year: i64,
    last_changer: Option<usize>,
    streak: i64,
}

/// Chooses which of the cards lying in a hidden zone is drawn next:
/// `(zone name, cards there, all cards) -> position`.
pub type Pick<'a> = dyn FnMut(&str, &[usize], &[Card]) -> usize + 'a;

/// A move, as the notation writes it.
#[derive(Clone, Debug, PartialEq)]
pub enum Move {
    Take {
        card: usize,
        zeppelin: bool,
    },
    Change {
        zeppelin: bool,
    },
    Dig {
        site: usize,
        special: bool,
        rumours: bool,
        lone_assistant: bool,
        lone_shovel: bool,
        weeks: i64,
        zeppelin: bool,
    },
    Exhibit {
        card: usize,
        zeppelin: bool,
    },
    Stop,
}

fn quote(name: &str) -> String {
    if name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        name.to_string()
    } else {
        format!("\"{name}\"")
    }
}

fn table<'r>(r: &'r Ruleset, name: &str) -> &'r model::Table {
    r.tables.iter().find(|t| t.name == name).expect("the ruleset has the table")
}

fn option_int(r: &Ruleset, name: &str) -> i64 {
    match r.option_named(name).map(|o| &o.value) {
        Some(Value::Int(n)) => *n,
        Some(Value::Bool(b)) => i64::from(*b),
        _ => panic!("option {name}"),
    }
}

impl Thebes {
    /// The reference state equal to a freshly set-up engine game.
    pub fn from_game(g: &Game) -> Thebes {
        let r = g.rules;
        let attr = |name: &str| r.attr_names.iter().position(|a| a == name).map(AttrId::new);
        let site_class = r.classes.iter().position(|c| c.name == "site").expect("class site");
        let site_ids = r.classes[site_class].places.clone();
        let site_place: Vec<usize> = site_ids.iter().map(|p| p.index()).collect();
        let mut site_of_place = vec![None; r.places.len()];
        for (i, p) in site_place.iter().enumerate() {
            site_of_place[*p] = Some(i);
        }
        let cards = r
            .components
            .iter()
            .map(|c| {
                let kind = &r.kinds[c.kind];
                let get = |name: &str| attr(name).and_then(|a| kind.slot_of(a)).map(|s| &c.values[s]);
                let int = |name: &str| match get(name) {
                    Some(Value::Int(n)) => *n,
                    _ => 0,
                };
                let place = |name: &str| match get(name) {
                    Some(Value::Place(p)) => Some(p.index()),
                    _ => None,
                };
                let needs = match get("needs") {
                    Some(Value::Map(m)) => {
                        m.iter().map(|(p, n)| (site_of_place[p.index()].expect("a site"), *n)).collect()
                    }
                    _ => Vec::new(),
                };
                Card {
                    name: c.name.clone(),
                    tags: c
                        .tags
                        .iter()
                        .filter_map(|t| TAG_NAMES.iter().find(|(n, _)| *n == r.tags[*t]))
                        .fold(0, |bits, (_, tag)| bits | 1 << *tag as u32),
                    city: place("city").unwrap_or(0),
                    weeks: int("weeks"),
                    site: place("site").and_then(|p| site_of_place[p]),
                    books: int("books"),
                    general: int("general"),
                    points: int("points"),
                    needs,
                    value: int("value"),
                }
            })
            .collect();
        let zone = |name: &str, player: Option<usize>, place: Option<usize>| -> Vec<usize> {
            let z = ZoneId::new(r.zones.iter().position(|z| z.name == name).expect(name));
            let inst = g.layout.zone(z, player.map(PlayerId::new), place.map(PlaceId::new));
            g.cards(inst).map(ComponentId::index).collect()
        };
        let row = |name: &str| -> Vec<Option<usize>> {
            let z = ZoneId::new(r.zones.iter().position(|z| z.name == name).expect(name));
            g.zone(g.layout.zone(z, None, None)).iter().map(|c| c.map(ComponentId::index)).collect()
        };
        let counter = |name: &str, player: Option<usize>, place: Option<usize>| -> i64 {
            let c = CounterId::new(r.counters.iter().position(|c| c.name == name).expect(name));
            match g.counter(c, player.map(PlayerId::new), place.map(PlaceId::new)) {
                V::Int(n) => n,
                _ => 0,
            }
        };
        let n = g.players();
        let chrono_t = table(r, "chronoscope");
        let chrono =
            (1..=12).map(|k| (1..=12).map(|w| chrono_t.get(&[k, w]).expect("cell")).collect()).collect();
        let dist =
            r.distances.iter().map(|row| row.iter().map(|d| d.map_or(99, i64::from)).collect()).collect();
        let piece = PieceId::new(r.pieces.iter().position(|p| p.name == "archaeologist").expect("piece"));
        Thebes {
            cards,
            place_names: r.places.iter().map(|p| p.name.clone()).collect(),
            site_place: site_place.clone(),
            warsaw: r.place_named("Warsaw").expect("Warsaw").index(),
            dist,
            chrono,
            congress: (0..=7).map(|k| table(r, "congress_points").get(&[k]).expect("cell")).collect(),
            helper_bonus: (0..=6).map(|k| table(r, "helper_bonus").get(&[k]).expect("cell")).collect(),
            helper_cap: option_int(r, "helper_cap"),
            car_stacks: option_int(r, "car_stacks") == 1,
            alone_can_dig: option_int(r, "assistants_alone_can_dig") == 1,
            refresh_when_crossing: option_int(r, "refresh_permit_when_dig_crosses_year") == 1,
            at_once: option_int(r, "permits_refresh_at_once") == 1,
            majority_minimum: option_int(r, "majority_minimum"),
            players: n,
            time: (0..n).map(|p| counter("time", Some(p), None)).collect(),
            arrival: PlayerId::all(n).map(|p| g.arrival(p)).collect(),
            tick: g.tick(),
            pos: PlayerId::all(n).map(|p| g.piece(piece, Some(p)).index()).collect(),
            deck: zone("deck", None, None),
            pile3: zone("pile3", None, None),
            discard: zone("discard", None, None),
            display: row("display"),
            exhibitions: row("exhibitions"),
            bags: site_place.iter().map(|p| zone("bag", None, Some(*p))).collect(),
            bonus: site_place.iter().map(|p| zone("bonus", None, Some(*p))).collect(),
            tableau: (0..n).map(|p| zone("tableau", Some(p), None)).collect(),
            finds: (0..n).map(|p| zone("finds", Some(p), None)).collect(),
            permit_year: (0..n)
                .map(|p| site_place.iter().map(|s| counter("permit_year", Some(p), Some(*s))).collect())
                .collect(),
            first_year: counter("first_year", None, None),
            last_changer: None,
            streak: 0,
        }
    }

    // ------------------------------------------------------------ rules

    pub fn current(&self) -> Option<usize> {
        let end = self.end_time();
        if (0..self.players).all(|p| self.time[p] >= end) {
            return None;
        }
        (0..self.players)
            .min_by(|a, b| self.time[*a].cmp(&self.time[*b]).then(self.arrival[*b].cmp(&self.arrival[*a])))
    }

    fn year(&self, p: usize) -> i64 {
        self.first_year + (self.time[p] - 1).max(0) / 52
    }

    fn end_time(&self) -> i64 {
        (1903 + 1 - self.first_year) * 52 + 1
    }

    fn holding(&self, p: usize, tag: Tag) -> i64 {
        self.tableau[p].iter().filter(|c| self.cards[**c].has(tag)).count() as i64
    }

    fn helper(&self, n: i64) -> i64 {
        self.helper_cap.min(self.helper_bonus[n.clamp(0, 6) as usize])
    }

    fn site_books(&self, p: usize, s: usize) -> i64 {
        let cards: i64 = self.tableau[p]
            .iter()
            .map(|c| &self.cards[*c])
            .filter(|c| c.site == Some(s) && c.has(Tag::Specialized))
            .map(|c| c.books)
            .sum();
        cards
            + self.finds[p]
                .iter()
                .filter(|t| self.cards[**t].has(Tag::Book) && self.cards[**t].site == Some(s))
                .count() as i64
    }

    fn general(&self, p: usize) -> i64 {
        self.tableau[p].iter().map(|c| self.cards[*c].general).sum::<i64>()
            + self.finds[p].iter().filter(|t| self.cards[**t].has(Tag::GeneralBook)).count() as i64
    }

    fn permit_valid(&self, p: usize, s: usize) -> bool {
        self.permit_year[p][s] < self.year(p)
    }

    fn chrono(&self, k: i64, w: i64) -> i64 {
        self.chrono[(k.clamp(1, 12) - 1) as usize][(w - 1) as usize]
    }

    /// The weeks a trip costs, or `None` when the zeppelin cannot be used.
    fn trip(&self, p: usize, to: usize, zeppelin: bool) -> Option<i64> {
        let steps = self.dist[self.pos[p]][to];
        if zeppelin {
            return (self.holding(p, Tag::Zeppelin) > 0 && steps > 0).then_some(0);
        }
        let cars = self.holding(p, Tag::Car);
        let saving = if cars > 0 && steps >= 3 {
            if self.car_stacks {
                cars
            } else {
                1
            }
        } else {
            0
        };
        Some((steps - saving).max(0))
    }

    fn research_left(&self) -> bool {
        let research = |c: &usize| !self.cards[*c].has(Tag::Exhibition);
        self.deck.iter().any(research) || self.discard.iter().any(research) || self.pile3.iter().any(research)
    }

    /// Every legal move, in the engine's notation.
    pub fn legal(&self) -> Vec<(String, Move)> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.into_iter().map(|m| (self.notation(&m), m)).collect()
    }

    /// A move as the engine's notation writes it.
    pub fn notation(&self, m: &Move) -> String {
        let by = |z: bool| if z { " by_zeppelin" } else { "" };
        match *m {
            Move::Take { card, zeppelin } => {
                // Copies of one name on display are numbered, as the notation does.
                let name = &self.cards[card].name;
                let same: Vec<usize> =
                    self.display.iter().flatten().copied().filter(|o| self.cards[*o].name == *name).collect();
                let copy = if same.len() > 1 {
                    format!("#{}", same.iter().position(|o| *o == card).map_or(0, |k| k + 1))
                } else {
                    String::new()
                };
                format!("take {}{copy}{}", quote(name), by(zeppelin))
            }
            Move::Change { zeppelin } => format!("change{}", by(zeppelin)),
            Move::Dig { site, special, rumours, lone_assistant, lone_shovel, weeks, zeppelin } => {
                let mut text = format!("dig {} {weeks}", self.place_names[self.site_place[site]]);
                for (on, name) in [
                    (special, "use_special_permit"),
                    (rumours, "use_rumours"),
                    (lone_assistant, "lone_assistant"),
                    (lone_shovel, "lone_shovel"),
                    (zeppelin, "by_zeppelin"),
                ] {
                    if on {
                        text.push(' ');
                        text.push_str(name);
                    }
                }
                text
            }
            Move::Exhibit { card, zeppelin } => {
                format!("exhibit {}{}", quote(&self.cards[card].name), by(zeppelin))
            }
            Move::Stop => "stop".into(),
        }
    }

    /// Every legal move into `out` (cleared first), in the order `legal`
    /// lists them. What a dig's legality reads is worked out once a turn
    /// (holdings), once a site (books, permit, trips) and once a
    /// combination of flags (knowledge); the durations are then one row of
    /// the chronoscope.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let Some(me) = self.current() else { return };
        let end = self.end_time();
        let flags = [false, true];
        let trip_fits = |to: usize, z: bool, weeks: i64| {
            self.trip(me, to, z).is_some_and(|t| self.time[me] + t + weeks <= end)
        };
        for c in self.display.iter().flatten() {
            let card = &self.cards[*c];
            for z in flags {
                if trip_fits(card.city, z, card.weeks) {
                    out.push(Move::Take { card: *c, zeppelin: z });
                }
            }
        }
        let streak = if self.last_changer == Some(me) { self.streak + 1 } else { 1 };
        for z in flags {
            if trip_fits(self.warsaw, z, streak) {
                out.push(Move::Change { zeppelin: z });
            }
        }
        let specials = self.holding(me, Tag::SpecialPermit);
        let assistants = self.holding(me, Tag::Assistant);
        let shovels = self.holding(me, Tag::Shovel);
        let general = self.general(me);
        for s in 0..SITES {
            let valid = self.permit_valid(me, s);
            let site_books = self.site_books(me, s);
            let has_rumours = self.tableau[me]
                .iter()
                .any(|c| self.cards[*c].has(Tag::Rumours) && self.cards[*c].site == Some(s));
            // The trip to the site, and whether the permit holds after it
            // (a new year may have begun on the way), with and without a
            // zeppelin.
            let after_trip = flags.map(|z| {
                self.trip(me, self.site_place[s], z).map(|t| {
                    let time = self.time[me] + t;
                    let year = self.first_year + (time - 1).max(0) / 52;
                    (time, self.permit_year[me][s] < year)
                })
            });
            for special in flags {
                if !(valid || special || self.at_once) || special && (specials == 0 || valid) {
                    continue;
                }
                for rumours in flags {
                    if rumours && !has_rumours {
                        continue;
                    }
                    for lone_assistant in flags {
                        if lone_assistant && assistants != 1 {
                            continue;
                        }
                        for lone_shovel in flags {
                            if lone_shovel && shovels != 1 {
                                continue;
                            }
                            let books = site_books + if rumours { 2 } else { 0 };
                            let helpers = self.helper(if lone_assistant { 2 } else { assistants });
                            let specialized = books + helpers;
                            if (if self.alone_can_dig { specialized } else { books }) < 1 {
                                continue;
                            }
                            let knowledge = specialized + general.min(specialized);
                            for weeks in 1..=12 {
                                if self.chrono(knowledge, weeks) <= 0 {
                                    continue;
                                }
                                for (zeppelin, trip) in flags.into_iter().zip(after_trip) {
                                    let Some((time, permit)) = trip else { continue };
                                    if (permit || special) && time + weeks <= end {
                                        out.push(Move::Dig {
                                            site: s,
                                            special,
                                            rumours,
                                            lone_assistant,
                                            lone_shovel,
                                            weeks,
                                            zeppelin,
                                        });
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        for c in self.exhibitions.iter().flatten() {
            let card = &self.cards[*c];
            let enough = (0..SITES).all(|s| {
                let have = self.finds[me]
                    .iter()
                    .filter(|t| self.cards[**t].has(Tag::Artifact) && self.cards[**t].site == Some(s))
                    .count() as i64;
                have >= card.needs.iter().find(|(q, _)| *q == s).map_or(0, |(_, n)| *n)
            });
            if !enough {
                continue;
            }
            for z in flags {
                if trip_fits(card.city, z, card.weeks) {
                    out.push(Move::Exhibit { card: *c, zeppelin: z });
                }
            }
        }
        if self.year(me) == 1903 {
            out.push(Move::Stop);
        }
    }

    // ------------------------------------------------------------ moves

    /// Apply a legal move. `pick(zone, cards)` chooses which of the cards
    /// lying in a hidden zone is drawn next (the engine's draw, or a random
    /// one).
    pub fn apply(&mut self, m: &Move, pick: &mut Pick) {
        let me = self.current().expect("a player to move");
        let before = self.time.clone();
        match *m {
            Move::Take { card, zeppelin } => {
                self.travel(me, self.cards[card].city, zeppelin);
                self.time[me] += self.cards[card].weeks;
                take_from_row(&mut self.display, card);
                self.tableau[me].insert(0, card);
                self.refill(pick);
            }
            Move::Change { zeppelin } => {
                self.travel(me, self.warsaw, zeppelin);
                if self.last_changer == Some(me) {
                    self.streak += 1;
                } else {
                    self.last_changer = Some(me);
                    self.streak = 1;
                }
                self.time[me] += self.streak;
                let shown: Vec<usize> = self.display.iter().flatten().copied().collect();
                self.discard.splice(0..0, shown);
                self.display.iter_mut().for_each(|s| *s = None);
                self.refill(pick);
            }
            Move::Dig { site: s, special, rumours, lone_assistant, lone_shovel, weeks, zeppelin } => {
                let start_year = self.year(me);
                let books = self.site_books(me, s) + if rumours { 2 } else { 0 };
                let helpers = if lone_assistant {
                    self.helper(2)
                } else {
                    self.helper(self.holding(me, Tag::Assistant))
                };
                let specialized = books + helpers;
                let knowledge = specialized + self.general(me).min(specialized);
                let shovels =
                    if lone_shovel { self.helper(2) } else { self.helper(self.holding(me, Tag::Shovel)) };
                self.travel(me, self.site_place[s], zeppelin);
                let dig_year = self.year(me);
                self.time[me] += weeks;
                let n = self.chrono(knowledge, weeks) + shovels;
                let bag = format!("bag[{}]", self.place_names[self.site_place[s]]);
                let mut drawn = Vec::new();
                for _ in 0..n {
                    if self.bags[s].is_empty() {
                        break;
                    }
                    let i = pick(&bag, &self.bags[s], &self.cards);
                    drawn.push(self.bags[s].remove(i));
                }
                for t in drawn {
                    if self.cards[t].has(Tag::Blank) {
                        self.bags[s].push(t);
                    } else {
                        self.finds[me].insert(0, t);
                    }
                }
                let bonus = std::mem::take(&mut self.bonus[s]);
                self.finds[me].extend(bonus);
                if special {
                    self.discard_first(me, |c| c.has(Tag::SpecialPermit));
                } else {
                    let used_in = if self.at_once { dig_year } else { start_year };
                    self.permit_year[me][s] =
                        if self.refresh_when_crossing { used_in } else { self.year(me) };
                }
                if rumours {
                    self.discard_first(me, |c| c.has(Tag::Rumours) && c.site == Some(s));
                }
                if lone_assistant {
                    self.discard_first(me, |c| c.has(Tag::Assistant));
                }
                if lone_shovel {
                    self.discard_first(me, |c| c.has(Tag::Shovel));
                }
            }
            Move::Exhibit { card, zeppelin } => {
                self.travel(me, self.cards[card].city, zeppelin);
                self.time[me] += self.cards[card].weeks;
                take_from_row(&mut self.exhibitions, card);
                self.tableau[me].insert(0, card);
            }
            Move::Stop => self.time[me] = self.end_time(),
        }
        if self.last_changer != Some(me) {
            self.last_changer = None;
        }
        let mut moved: Vec<usize> = (0..self.players).filter(|p| self.time[*p] != before[*p]).collect();
        moved.sort_by_key(|p| *p == me);
        for p in moved {
            self.tick += 1;
            self.arrival[p] = self.tick;
        }
    }

    fn travel(&mut self, p: usize, to: usize, zeppelin: bool) {
        let weeks = self.trip(p, to, zeppelin).expect("a legal trip");
        self.pos[p] = to;
        if zeppelin {
            self.discard_first(p, |c| c.has(Tag::Zeppelin));
        } else {
            self.time[p] += weeks;
        }
    }

    fn discard_first(&mut self, p: usize, pred: impl Fn(&Card) -> bool) {
        let i = self.tableau[p].iter().position(|c| pred(&self.cards[*c])).expect("the card is held");
        let c = self.tableau[p].remove(i);
        self.discard.insert(0, c);
    }

    fn refill(&mut self, pick: &mut Pick) {
        while self.display.iter().flatten().count() < 4 && self.research_left() {
            if self.deck.is_empty() {
                let mut d = std::mem::take(&mut self.discard);
                d.append(&mut self.pile3);
                self.deck = d;
            }
            let i = pick("deck", &self.deck, &self.cards);
            let c = self.deck.remove(i);
            if self.cards[c].has(Tag::Exhibition) {
                if let Some(out) = self.exhibitions[2].take() {
                    self.discard.insert(0, out);
                }
                self.exhibitions.rotate_right(1);
                self.exhibitions[0] = Some(c);
            } else {
                let slot = self.display.iter().position(Option::is_none).expect("a free slot");
                self.display[slot] = Some(c);
            }
        }
    }

    /// Score rows in the ruleset's order: artifacts, exhibitions,
    /// congresses, then the majority per site.
    pub fn scores(&self) -> Vec<Vec<i64>> {
        let n = self.players;
        let mut rows = Vec::new();
        rows.push(
            (0..n)
                .map(|p| {
                    self.finds[p]
                        .iter()
                        .filter(|t| self.cards[**t].has(Tag::Artifact))
                        .map(|t| self.cards[*t].value)
                        .sum()
                })
                .collect(),
        );
        rows.push(
            (0..n)
                .map(|p| {
                    self.tableau[p]
                        .iter()
                        .filter(|c| self.cards[**c].has(Tag::Exhibition))
                        .map(|c| self.cards[*c].points)
                        .sum()
                })
                .collect(),
        );
        rows.push((0..n).map(|p| self.congress[self.holding(p, Tag::Congress).min(7) as usize]).collect());
        for s in 0..SITES {
            let books: Vec<i64> = (0..n).map(|p| self.site_books(p, s)).collect();
            let best = books.iter().copied().max().unwrap_or(0);
            let leaders = books.iter().filter(|b| **b == best).count();
            rows.push(
                books
                    .iter()
                    .map(|b| {
                        if *b != best || best < self.majority_minimum {
                            0
                        } else if leaders == 1 {
                            5
                        } else {
                            3
                        }
                    })
                    .collect(),
            );
        }
        rows
    }
}

fn take_from_row(row: &mut [Option<usize>], card: usize) {
    let slot = row.iter().position(|c| *c == Some(card)).expect("the card lies in the row");
    row[slot] = None;
}

/// The draws an engine action made: cards off the deck and tokens out of
/// bags, in order.
pub fn draws_of(events: &[LogEvent]) -> std::collections::VecDeque<(String, String)> {
    events
        .iter()
        .filter_map(|e| match e {
            LogEvent::Move { card, from, to, .. }
                if to == "revealed" && (from == "deck" || from.starts_with("bag[")) =>
            {
                Some((from.clone(), card.clone()))
            }
            _ => None,
        })
        .collect()
}

/// A `pick` that replays the engine's draws.
pub fn replay(
    mut draws: std::collections::VecDeque<(String, String)>,
) -> impl FnMut(&str, &[usize], &[Card]) -> usize {
    move |zone, cards, all| {
        let (from, name) = draws.pop_front().expect("the engine drew as many");
        assert_eq!(from, zone, "the engine drew from the same place");
        cards.iter().position(|c| all[*c].name == name).expect("the drawn card lies there")
    }
}

/// A `pick` that draws at random (for playing on its own).
pub fn random(rng: &mut impl rand::Rng) -> impl FnMut(&str, &[usize], &[Card]) -> usize + '_ {
    move |_, cards, _| rng.gen_range(0..cards.len())
}
