//! A tight reference simulator of Thebes written directly in Rust, for tests
//! and benchmarks only (the product never uses it): the yardstick the
//! engine's speed is measured against (`benches/games.rs`).
//!
//! It implements the rules of `rulesets/thebes/thebes.ruleset` by hand, with
//! the component data and tables read from the checked ruleset, and is
//! written for speed: fixed arrays, what the rules count (cards per tag,
//! books per site, artifacts) kept up to date as cards and tokens move
//! instead of scanned for, a dig's legal durations read off a bitmask of
//! its chronoscope row, and no allocation per turn. It has no
//! setup of its own and does not model the order of hidden piles: each draw
//! is chosen by a `pick` (the engine's draws, so the two can be compared
//! action by action — the same legal choices, the same weeks, the same final
//! score — or a random one).

use std::sync::Arc;

use chronoscope_cli::play::log::LogEvent;
use engine::{Game, V};
use model::{AttrId, CounterId, PieceId, PlaceId, PlayerId, Ruleset, Value, ZoneId};

const SITES: usize = 5;
/// The most players Thebes seats.
const MAX_PLAYERS: usize = 4;
const DISPLAY: usize = 4;
const EXHIBITIONS: usize = 3;
const TAGS: usize = 13;

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
const TAG_NAMES: [(&str, Tag); TAGS] = [
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
    needs: [i64; SITES],
    value: i64,
}

impl Card {
    fn has(&self, tag: Tag) -> bool {
        self.tags & (1 << tag as u32) != 0
    }
}

/// What a game never changes, shared by every copy of it.
#[derive(Debug)]
struct Fixed {
    cards: Vec<Card>,
    place_names: Vec<String>,
    site_place: [usize; SITES],
    warsaw: usize,
    /// Steps between two places: `dist[a * places + b]`.
    dist: Vec<i64>,
    places: usize,
    chrono: [[i64; 12]; 12],
    /// Per knowledge 1..=12 (index 0..12): the durations whose chronoscope
    /// cell is above 0, bit `w - 1` for `w` weeks.
    durations: [u16; 12],
    congress: [i64; 8],
    helper_bonus: [i64; 7],
    helper_cap: i64,
    car_stacks: bool,
    alone_can_dig: bool,
    refresh_when_crossing: bool,
    at_once: bool,
    majority_minimum: i64,
}

/// What the rules count of one player, kept up to date as cards and tokens
/// move.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    /// Tableau cards per tag.
    held: [i64; TAGS],
    /// Books of specialized tableau cards, plus book tokens found, per site.
    site_books: [i64; SITES],
    /// General knowledge of tableau cards, plus general books found.
    general: i64,
    /// Rumours cards on the tableau, per site.
    rumours: [i64; SITES],
    /// Artifacts found, per site, and their value.
    artifacts: [i64; SITES],
    artifact_value: i64,
    exhibition_points: i64,
}

/// The whole state, components by the engine's numbering.
#[derive(Clone, Debug)]
pub struct Thebes {
    fixed: Arc<Fixed>,
    pub players: usize,
    pub time: [i64; MAX_PLAYERS],
    arrival: [u64; MAX_PLAYERS],
    tick: u64,
    pos: [usize; MAX_PLAYERS],
    /// Hidden piles, in no particular order (a `pick` chooses each draw).
    deck: Vec<u16>,
    pile3: Vec<u16>,
    discard: Vec<u16>,
    /// Research cards (not exhibitions) in the deck, discards and pile 3.
    research: u32,
    display: [Option<u16>; DISPLAY],
    exhibitions: [Option<u16>; EXHIBITIONS],
    bags: [Vec<u16>; SITES],
    bonus: [Vec<u16>; SITES],
    /// Top first, as the engine keeps it: `first c in me.tableau` reads it.
    tableau: [Vec<u16>; MAX_PLAYERS],
    counts: [Counts; MAX_PLAYERS],
    permit_year: [[i64; SITES]; MAX_PLAYERS],
    first_year: i64,
    end_time: i64,
    last_changer: Option<usize>,
    streak: i64,
    /// Whose turn it is (`None`: the game is over), worked out after each move.
    mover: Option<usize>,
    /// The tokens of the dig being made (kept to reuse its allocation).
    drawn: Vec<u16>,
    /// The families of moves of the turn (kept to reuse its allocation).
    families: Vec<Family>,
}

/// A hidden zone a card is drawn from; a bag by its site's place name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hidden<'a> {
    Deck,
    Bag(&'a str),
}

/// Chooses which of the cards lying in a hidden zone is drawn next:
/// `(zone, cards there, all cards) -> position`.
pub type Pick<'a> = dyn FnMut(Hidden, &[u16], &[Card]) -> usize + 'a;

/// A move, as the notation writes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Move {
    Take {
        card: u16,
        zeppelin: bool,
    },
    Change {
        zeppelin: bool,
    },
    Dig {
        site: u8,
        special: bool,
        rumours: bool,
        lone_assistant: bool,
        lone_shovel: bool,
        weeks: u8,
        zeppelin: bool,
    },
    Exhibit {
        card: u16,
        zeppelin: bool,
    },
    Stop,
}

/// What a move that travels does once there.
#[derive(Clone, Copy, Debug)]
enum Trip {
    Take(u16),
    Change,
    Exhibit(u16),
}

/// Legal moves that differ only in how the player travels or how long
/// they dig: counted without listing each (`Thebes::random_move`).
#[derive(Clone, Copy, Debug)]
enum Family {
    /// The move by land, and by air.
    Trip {
        what: Trip,
        land: bool,
        air: bool,
    },
    /// A dig: the durations legal by land and by air (bit `w - 1`), listed
    /// by duration, land first.
    Dig {
        site: u8,
        flags: [bool; 4],
        land: u16,
        air: u16,
    },
    Stop,
}

impl Family {
    fn count(&self) -> u32 {
        match *self {
            Family::Trip { land, air, .. } => u32::from(land) + u32::from(air),
            Family::Dig { land, air, .. } => land.count_ones() + air.count_ones(),
            Family::Stop => 1,
        }
    }

    /// The `k`-th move of the family (`k < count`).
    fn nth(&self, k: u32) -> Move {
        match *self {
            Family::Trip { what, land, .. } => {
                let zeppelin = k > 0 || !land;
                match what {
                    Trip::Take(card) => Move::Take { card, zeppelin },
                    Trip::Change => Move::Change { zeppelin },
                    Trip::Exhibit(card) => Move::Exhibit { card, zeppelin },
                }
            }
            Family::Dig { site, flags: [special, rumours, lone_assistant, lone_shovel], land, air } => {
                // Through the durations in order, land before air.
                let mut k = k;
                for w in bits(land | air) {
                    for (zeppelin, mask) in [(false, land), (true, air)] {
                        if mask & 1 << w != 0 {
                            if k == 0 {
                                return Move::Dig {
                                    site,
                                    special,
                                    rumours,
                                    lone_assistant,
                                    lone_shovel,
                                    weeks: w + 1,
                                    zeppelin,
                                };
                            }
                            k -= 1;
                        }
                    }
                }
                unreachable!("k is below the count")
            }
            Family::Stop => Move::Stop,
        }
    }
}

/// The most families of moves a turn has: 4 cards on display, a change, 5
/// sites with 16 combinations of flags, 3 exhibitions and stopping.
const MAX_FAMILIES: usize = DISPLAY + 1 + SITES * 16 + EXHIBITIONS + 1;

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

fn take_from_row(row: &mut [Option<u16>], card: u16) {
    let slot = row.iter().position(|c| *c == Some(card)).expect("the card lies in the row");
    row[slot] = None;
}

/// The set bits of a mask, lowest first.
fn bits(mut mask: u16) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            b
        })
    })
}

impl Thebes {
    /// The reference state equal to a freshly set-up engine game.
    pub fn from_game(g: &Game) -> Thebes {
        let r = g.rules;
        let attr = |name: &str| r.attr_names.iter().position(|a| a == name).map(AttrId::new);
        let site_class = r.classes.iter().position(|c| c.name == "site").expect("class site");
        let site_ids = &r.classes[site_class].places;
        assert_eq!(site_ids.len(), SITES, "five sites");
        let site_place: [usize; SITES] = std::array::from_fn(|i| site_ids[i].index());
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
                let mut needs = [0; SITES];
                if let Some(Value::Map(m)) = get("needs") {
                    for (p, n) in m {
                        needs[site_of_place[p.index()].expect("a site")] = *n;
                    }
                }
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
            .collect::<Vec<Card>>();
        assert!(cards.len() <= usize::from(u16::MAX), "components fit in 16 bits");
        let zone = |name: &str, player: Option<usize>, place: Option<usize>| -> Vec<u16> {
            let z = ZoneId::new(r.zones.iter().position(|z| z.name == name).expect(name));
            let inst = g.layout.zone(z, player.map(PlayerId::new), place.map(PlaceId::new));
            g.cards(inst).map(|c| c.index() as u16).collect()
        };
        let row = |name: &str| -> Vec<Option<u16>> {
            let z = ZoneId::new(r.zones.iter().position(|z| z.name == name).expect(name));
            g.zone(g.layout.zone(z, None, None)).iter().map(|c| c.map(|c| c.index() as u16)).collect()
        };
        let counter = |name: &str, player: Option<usize>, place: Option<usize>| -> i64 {
            let c = CounterId::new(r.counters.iter().position(|c| c.name == name).expect(name));
            match g.counter(c, player.map(PlayerId::new), place.map(PlaceId::new)) {
                V::Int(n) => n,
                _ => 0,
            }
        };
        let n = g.players();
        assert!(n <= MAX_PLAYERS);
        let chrono_t = table(r, "chronoscope");
        let chrono: [[i64; 12]; 12] = std::array::from_fn(|k| {
            std::array::from_fn(|w| chrono_t.get(&[k as i64 + 1, w as i64 + 1]).expect("cell"))
        });
        let durations =
            chrono.map(|row| row.iter().enumerate().filter(|(_, t)| **t > 0).fold(0, |m, (w, _)| m | 1 << w));
        let places = r.places.len();
        let dist = r.distances.iter().flat_map(|row| row.iter().map(|d| d.map_or(99, i64::from))).collect();
        let piece = PieceId::new(r.pieces.iter().position(|p| p.name == "archaeologist").expect("piece"));
        let fixed = Fixed {
            cards,
            place_names: r.places.iter().map(|p| p.name.clone()).collect(),
            site_place,
            warsaw: r.place_named("Warsaw").expect("Warsaw").index(),
            dist,
            places,
            chrono,
            durations,
            congress: std::array::from_fn(|k| table(r, "congress_points").get(&[k as i64]).expect("cell")),
            helper_bonus: std::array::from_fn(|k| table(r, "helper_bonus").get(&[k as i64]).expect("cell")),
            helper_cap: option_int(r, "helper_cap"),
            car_stacks: option_int(r, "car_stacks") == 1,
            alone_can_dig: option_int(r, "assistants_alone_can_dig") == 1,
            refresh_when_crossing: option_int(r, "refresh_permit_when_dig_crosses_year") == 1,
            at_once: option_int(r, "permits_refresh_at_once") == 1,
            majority_minimum: option_int(r, "majority_minimum"),
        };
        let first_year = counter("first_year", None, None);
        let mut t = Thebes {
            players: n,
            time: std::array::from_fn(|p| if p < n { counter("time", Some(p), None) } else { 0 }),
            arrival: std::array::from_fn(|p| if p < n { g.arrival(PlayerId::new(p)) } else { 0 }),
            tick: g.tick(),
            pos: std::array::from_fn(
                |p| if p < n { g.piece(piece, Some(PlayerId::new(p))).index() } else { 0 },
            ),
            deck: zone("deck", None, None),
            pile3: zone("pile3", None, None),
            discard: zone("discard", None, None),
            research: 0,
            display: row("display").try_into().expect("a display of four"),
            exhibitions: row("exhibitions").try_into().expect("three exhibition slots"),
            bags: std::array::from_fn(|s| zone("bag", None, Some(site_place[s]))),
            bonus: std::array::from_fn(|s| zone("bonus", None, Some(site_place[s]))),
            tableau: std::array::from_fn(|_| Vec::new()),
            counts: [Counts::default(); MAX_PLAYERS],
            permit_year: std::array::from_fn(|p| {
                std::array::from_fn(|s| {
                    if p < n {
                        counter("permit_year", Some(p), Some(site_place[s]))
                    } else {
                        0
                    }
                })
            }),
            first_year,
            end_time: (1903 + 1 - first_year) * 52 + 1,
            last_changer: None,
            streak: 0,
            mover: None,
            drawn: Vec::new(),
            families: Vec::with_capacity(MAX_FAMILIES),
            fixed: Arc::new(fixed),
        };
        let research = |c: &u16| !t.fixed.cards[usize::from(*c)].has(Tag::Exhibition);
        t.mover = t.whose_turn();
        t.research = t.deck.iter().chain(&t.discard).chain(&t.pile3).filter(|c| research(c)).count() as u32;
        for p in 0..n {
            // Bottom first, so that each card lands on top in turn.
            for c in zone("tableau", Some(p), None).into_iter().rev() {
                t.add_to_tableau(p, c);
            }
            for c in zone("finds", Some(p), None) {
                t.add_find(p, c);
            }
        }
        t
    }

    // ------------------------------------------------------------ counts

    fn card(&self, c: u16) -> &Card {
        &self.fixed.cards[usize::from(c)]
    }

    /// A card onto the top of a tableau, counted.
    fn add_to_tableau(&mut self, p: usize, c: u16) {
        self.tableau[p].insert(0, c);
        self.count_tableau(p, c, 1);
    }

    fn count_tableau(&mut self, p: usize, c: u16, sign: i64) {
        let fixed = Arc::clone(&self.fixed);
        let card = &fixed.cards[usize::from(c)];
        let n = &mut self.counts[p];
        let mut tags = card.tags;
        while tags != 0 {
            n.held[tags.trailing_zeros() as usize] += sign;
            tags &= tags - 1;
        }
        if let Some(s) = card.site {
            if card.has(Tag::Specialized) {
                n.site_books[s] += sign * card.books;
            }
            if card.has(Tag::Rumours) {
                n.rumours[s] += sign;
            }
        }
        n.general += sign * card.general;
        if card.has(Tag::Exhibition) {
            n.exhibition_points += sign * card.points;
        }
    }

    /// A token into a player's finds: only what the rules count of it.
    fn add_find(&mut self, p: usize, t: u16) {
        let fixed = Arc::clone(&self.fixed);
        let token = &fixed.cards[usize::from(t)];
        let n = &mut self.counts[p];
        if token.has(Tag::GeneralBook) {
            n.general += 1;
        }
        if let Some(s) = token.site {
            if token.has(Tag::Book) {
                n.site_books[s] += 1;
            }
            if token.has(Tag::Artifact) {
                n.artifacts[s] += 1;
            }
        }
        if token.has(Tag::Artifact) {
            n.artifact_value += token.value;
        }
    }

    fn add_to_discard(&mut self, c: u16) {
        if !self.card(c).has(Tag::Exhibition) {
            self.research += 1;
        }
        self.discard.push(c);
    }

    // ------------------------------------------------------------ rules

    pub fn current(&self) -> Option<usize> {
        self.mover
    }

    /// The player furthest behind on the time track moves; on a tie, the
    /// one who arrived there last.
    fn whose_turn(&self) -> Option<usize> {
        let players = 0..self.players;
        if players.clone().all(|p| self.time[p] >= self.end_time) {
            return None;
        }
        players.min_by(|a, b| self.time[*a].cmp(&self.time[*b]).then(self.arrival[*b].cmp(&self.arrival[*a])))
    }

    fn year_at(&self, time: i64) -> i64 {
        self.first_year + (time - 1).max(0) / 52
    }

    fn year(&self, p: usize) -> i64 {
        self.year_at(self.time[p])
    }

    fn holding(&self, p: usize, tag: Tag) -> i64 {
        self.counts[p].held[tag as usize]
    }

    fn helper(&self, n: i64) -> i64 {
        self.fixed.helper_cap.min(self.fixed.helper_bonus[n.clamp(0, 6) as usize])
    }

    fn chrono(&self, k: i64, w: i64) -> i64 {
        self.fixed.chrono[(k.clamp(1, 12) - 1) as usize][(w - 1) as usize]
    }

    /// The weeks a trip costs, or `None` when the zeppelin cannot be used.
    fn trip(&self, p: usize, to: usize, zeppelin: bool) -> Option<i64> {
        let steps = self.fixed.dist[self.pos[p] * self.fixed.places + to];
        if zeppelin {
            return (self.holding(p, Tag::Zeppelin) > 0 && steps > 0).then_some(0);
        }
        let cars = self.holding(p, Tag::Car);
        let saving = match (cars > 0 && steps >= 3, self.fixed.car_stacks) {
            (false, _) => 0,
            (true, true) => cars,
            (true, false) => 1,
        };
        Some((steps - saving).max(0))
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
                let name = &self.card(card).name;
                let same: Vec<u16> =
                    self.display.iter().flatten().copied().filter(|o| self.card(*o).name == *name).collect();
                let copy = if same.len() > 1 {
                    format!("#{}", same.iter().position(|o| *o == card).map_or(0, |k| k + 1))
                } else {
                    String::new()
                };
                format!("take {}{copy}{}", quote(name), by(zeppelin))
            }
            Move::Change { zeppelin } => format!("change{}", by(zeppelin)),
            Move::Dig { site, special, rumours, lone_assistant, lone_shovel, weeks, zeppelin } => {
                let place = &self.fixed.place_names[self.fixed.site_place[usize::from(site)]];
                let mut text = format!("dig {place} {weeks}");
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
                format!("exhibit {}{}", quote(&self.card(card).name), by(zeppelin))
            }
            Move::Stop => "stop".into(),
        }
    }

    /// Every legal move into `out` (cleared first), in the order `legal`
    /// lists them.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let mut families = Vec::with_capacity(MAX_FAMILIES);
        self.families(&mut families);
        for f in &families {
            out.extend((0..f.count()).map(|k| f.nth(k)));
        }
    }

    /// One legal move chosen uniformly at random: the `k`-th of
    /// `legal_moves` for `k = choose(how many)`, found by counting each
    /// family of moves without listing them. `None` once the game is over.
    pub fn random_move(&mut self, choose: impl FnOnce(u32) -> u32) -> Option<Move> {
        let mut families = std::mem::take(&mut self.families);
        families.clear();
        self.families(&mut families);
        let total: u32 = families.iter().map(Family::count).sum();
        let mut k = if total == 0 { 0 } else { choose(total) };
        let mut chosen = None;
        for f in families.iter().filter(|_| total > 0) {
            let n = f.count();
            if k < n {
                chosen = Some(f.nth(k));
                break;
            }
            k -= n;
        }
        self.families = families;
        chosen
    }

    /// The legal moves as families, in the order `legal` lists them: a
    /// card or a change with its trip by land or by air, a dig's site and
    /// flags with the durations each trip leaves room for. Everything a
    /// dig's legality reads is a count kept up to date, worked out once a
    /// site (trips, permits) and once a combination of flags (knowledge);
    /// its durations are the bits of one chronoscope row below the weeks
    /// left.
    fn families(&self, out: &mut Vec<Family>) {
        let Some(me) = self.current() else { return };
        let fixed = &*self.fixed;
        let end = self.end_time;
        let now = self.time[me];
        let n = &self.counts[me];
        // A trip from here: its weeks by car or on foot (a zeppelin costs
        // none, and needs a card and a place other than this one).
        let dist = &fixed.dist[self.pos[me] * fixed.places..][..fixed.places];
        let cars = n.held[Tag::Car as usize];
        let saving = if cars == 0 {
            0
        } else if fixed.car_stacks {
            cars
        } else {
            1
        };
        let zeppelins = n.held[Tag::Zeppelin as usize] > 0;
        let by_land = |to: usize| {
            let steps = dist[to];
            if steps >= 3 {
                (steps - saving).max(0)
            } else {
                steps
            }
        };
        let by_air = |to: usize| zeppelins && dist[to] > 0;
        let trip = |what: Trip, to: usize, weeks: i64| Family::Trip {
            what,
            land: now + by_land(to) + weeks <= end,
            air: by_air(to) && now + weeks <= end,
        };
        for c in self.display.iter().flatten() {
            let card = self.card(*c);
            out.push(trip(Trip::Take(*c), card.city, card.weeks));
        }
        let streak = if self.last_changer == Some(me) { self.streak + 1 } else { 1 };
        out.push(trip(Trip::Change, fixed.warsaw, streak));
        let specials = n.held[Tag::SpecialPermit as usize];
        let assistants = n.held[Tag::Assistant as usize];
        let shovels = n.held[Tag::Shovel as usize];
        let this_year = self.year_at(now);
        for s in 0..SITES {
            let to = fixed.site_place[s];
            let permit_year = self.permit_year[me][s];
            let valid = permit_year < this_year;
            // After the trip to the site by land and by air: the weeks left
            // (none when the trip cannot be made), and whether the permit
            // holds then (a new year may have begun on the way).
            let land = now + by_land(to);
            let trips = [
                (end - land, permit_year < self.year_at(land)),
                (if by_air(to) { end - now } else { 0 }, valid),
            ];
            for special in [false, true] {
                if !(valid || special || fixed.at_once) || special && (specials == 0 || valid) {
                    continue;
                }
                // The durations each trip leaves room for, bit `w - 1`.
                let room =
                    trips.map(
                        |(left, permit)| {
                            if (permit || special) && left >= 1 {
                                (1u16 << left.min(12)) - 1
                            } else {
                                0
                            }
                        },
                    );
                if room == [0, 0] {
                    continue;
                }
                for rumours in [false, true] {
                    if rumours && n.rumours[s] == 0 {
                        continue;
                    }
                    let books = n.site_books[s] + if rumours { 2 } else { 0 };
                    for lone_assistant in [false, true] {
                        if lone_assistant && assistants != 1 {
                            continue;
                        }
                        let helpers = self.helper(if lone_assistant { 2 } else { assistants });
                        let specialized = books + helpers;
                        if (if fixed.alone_can_dig { specialized } else { books }) < 1 {
                            continue;
                        }
                        let knowledge = specialized + n.general.min(specialized);
                        let durations = fixed.durations[(knowledge.clamp(1, 12) - 1) as usize];
                        let (land, air) = (durations & room[0], durations & room[1]);
                        // A lone shovel changes what is drawn, never what is legal.
                        for lone_shovel in [false, true] {
                            if lone_shovel && shovels != 1 {
                                continue;
                            }
                            let flags = [special, rumours, lone_assistant, lone_shovel];
                            out.push(Family::Dig { site: s as u8, flags, land, air });
                        }
                    }
                }
            }
        }
        for c in self.exhibitions.iter().flatten() {
            let card = self.card(*c);
            if (0..SITES).all(|s| n.artifacts[s] >= card.needs[s]) {
                out.push(trip(Trip::Exhibit(*c), card.city, card.weeks));
            }
        }
        if this_year == 1903 {
            out.push(Family::Stop);
        }
    }

    // ------------------------------------------------------------ moves

    /// Apply a legal move. `pick(zone, cards)` chooses which of the cards
    /// lying in a hidden zone is drawn next (the engine's draw, or a random
    /// one).
    pub fn apply(&mut self, m: &Move, pick: &mut Pick) {
        let me = self.current().expect("a player to move");
        let before = self.time;
        let fixed = Arc::clone(&self.fixed);
        match *m {
            Move::Take { card, zeppelin } => {
                self.travel(me, self.card(card).city, zeppelin);
                self.time[me] += self.card(card).weeks;
                take_from_row(&mut self.display, card);
                self.add_to_tableau(me, card);
                self.refill(pick);
            }
            Move::Change { zeppelin } => {
                self.travel(me, fixed.warsaw, zeppelin);
                if self.last_changer == Some(me) {
                    self.streak += 1;
                } else {
                    self.last_changer = Some(me);
                    self.streak = 1;
                }
                self.time[me] += self.streak;
                for slot in 0..DISPLAY {
                    if let Some(c) = self.display[slot].take() {
                        self.add_to_discard(c);
                    }
                }
                self.refill(pick);
            }
            Move::Dig { site, special, rumours, lone_assistant, lone_shovel, weeks, zeppelin } => {
                let s = usize::from(site);
                let weeks = i64::from(weeks);
                let start_year = self.year(me);
                let books = self.counts[me].site_books[s] + if rumours { 2 } else { 0 };
                let helpers = self.helper(if lone_assistant { 2 } else { self.holding(me, Tag::Assistant) });
                let specialized = books + helpers;
                let knowledge = specialized + self.counts[me].general.min(specialized);
                let shovels = self.helper(if lone_shovel { 2 } else { self.holding(me, Tag::Shovel) });
                self.travel(me, fixed.site_place[s], zeppelin);
                let dig_year = self.year(me);
                self.time[me] += weeks;
                // Every token is drawn before the blanks go back.
                let n = self.chrono(knowledge, weeks) + shovels;
                let bag = Hidden::Bag(&fixed.place_names[fixed.site_place[s]]);
                self.drawn.clear();
                for _ in 0..n {
                    if self.bags[s].is_empty() {
                        break;
                    }
                    let i = pick(bag, &self.bags[s], &fixed.cards);
                    let t = self.bags[s].swap_remove(i);
                    self.drawn.push(t);
                }
                for i in 0..self.drawn.len() {
                    let t = self.drawn[i];
                    if fixed.cards[usize::from(t)].has(Tag::Blank) {
                        self.bags[s].push(t);
                    } else {
                        self.add_find(me, t);
                    }
                }
                while let Some(t) = self.bonus[s].pop() {
                    self.add_find(me, t);
                }
                if special {
                    self.discard_first(me, |c| c.has(Tag::SpecialPermit));
                } else {
                    let used_in = if fixed.at_once { dig_year } else { start_year };
                    self.permit_year[me][s] =
                        if fixed.refresh_when_crossing { used_in } else { self.year(me) };
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
                self.travel(me, self.card(card).city, zeppelin);
                self.time[me] += self.card(card).weeks;
                take_from_row(&mut self.exhibitions, card);
                self.add_to_tableau(me, card);
            }
            Move::Stop => self.time[me] = self.end_time,
        }
        if self.last_changer != Some(me) {
            self.last_changer = None;
        }
        // Whoever moved lands on top of the stack: others first, the mover last.
        for p in (0..self.players).filter(|p| *p != me).chain([me]) {
            if self.time[p] != before[p] {
                self.tick += 1;
                self.arrival[p] = self.tick;
            }
        }
        self.mover = self.whose_turn();
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
        let i = self.tableau[p].iter().position(|c| pred(self.card(*c))).expect("the card is held");
        let c = self.tableau[p].remove(i);
        self.count_tableau(p, c, -1);
        self.add_to_discard(c);
    }

    fn refill(&mut self, pick: &mut Pick) {
        let fixed = Arc::clone(&self.fixed);
        while self.display.iter().flatten().count() < DISPLAY && self.research > 0 {
            if self.deck.is_empty() {
                // The discards and pile 3 become the deck.
                self.deck.append(&mut self.discard);
                self.deck.append(&mut self.pile3);
            }
            let i = pick(Hidden::Deck, &self.deck, &fixed.cards);
            let c = self.deck.swap_remove(i);
            if fixed.cards[usize::from(c)].has(Tag::Exhibition) {
                if let Some(out) = self.exhibitions[EXHIBITIONS - 1].take() {
                    self.add_to_discard(out);
                }
                self.exhibitions.rotate_right(1);
                self.exhibitions[0] = Some(c);
            } else {
                self.research -= 1;
                let slot = self.display.iter().position(Option::is_none).expect("a free slot");
                self.display[slot] = Some(c);
            }
        }
    }

    /// Score rows in the ruleset's order: artifacts, exhibitions,
    /// congresses, then the majority per site.
    pub fn scores(&self) -> Vec<Vec<i64>> {
        let players = 0..self.players;
        let mut rows = vec![
            players.clone().map(|p| self.counts[p].artifact_value).collect(),
            players.clone().map(|p| self.counts[p].exhibition_points).collect(),
            players
                .clone()
                .map(|p| self.fixed.congress[self.holding(p, Tag::Congress).min(7) as usize])
                .collect(),
        ];
        for s in 0..SITES {
            let books: Vec<i64> = players.clone().map(|p| self.counts[p].site_books[s]).collect();
            let best = books.iter().copied().max().unwrap_or(0);
            let leaders = books.iter().filter(|b| **b == best).count();
            rows.push(
                books
                    .iter()
                    .map(|b| match (*b != best || best < self.fixed.majority_minimum, leaders) {
                        (true, _) => 0,
                        (false, 1) => 5,
                        (false, _) => 3,
                    })
                    .collect(),
            );
        }
        rows
    }
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
) -> impl FnMut(Hidden, &[u16], &[Card]) -> usize {
    move |zone, cards, all| {
        let (from, name) = draws.pop_front().expect("the engine drew as many");
        let zone = match zone {
            Hidden::Deck => "deck".to_string(),
            Hidden::Bag(place) => format!("bag[{place}]"),
        };
        assert_eq!(from, zone, "the engine drew from the same place");
        cards.iter().position(|c| all[usize::from(*c)].name == name).expect("the drawn card lies there")
    }
}

/// A `pick` that draws at random (for playing on its own).
pub fn random(rng: &mut impl rand::Rng) -> impl FnMut(Hidden, &[u16], &[Card]) -> usize + '_ {
    move |_, cards, _| rng.gen_range(0..cards.len())
}
