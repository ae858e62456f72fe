//! Editions and house rules: merge a file that `extends` a base into one
//! syntax tree, which is then checked as a whole.
//!
//! Items are matched by kind and name. A new name adds an item; `override`
//! replaces the base item (or, for a component list or a table, changes the
//! components or rows it lists); `remove` takes an item or a component out.
//! Every merged item remembers the base item it changed, so diagnostics can
//! point at both files.

use crate::ast::{Block, File, Item, ItemKind, PlayerCase, StmtKind, TableBody};
use crate::diagnostic::{Code, Diagnostic};
use crate::span::{Ident, Span};
use crate::suggest::help_for;

pub use crate::origin::Change;

/// The kind word and name an item is matched by; `None` for items that only
/// add (places, routes).
fn key(item: &Item) -> Option<(&'static str, String)> {
    Some(match &item.kind {
        ItemKind::Game(_) => ("game", String::new()),
        ItemKind::Option(o) => ("option", o.name.name.clone()),
        ItemKind::Kind(k) => ("kind", k.name.name.clone()),
        ItemKind::Group(g) => ("cards", g.name.name.clone()),
        ItemKind::Zone(z) => ("zone", z.name.name.clone()),
        ItemKind::Counter(c) => ("counter", c.name.name.clone()),
        ItemKind::Piece(p) => ("piece", p.name.name.clone()),
        ItemKind::Table(t) => ("table", t.name.name.clone()),
        ItemKind::Let(l) => ("let", l.name.name.clone()),
        ItemKind::Procedure(p) => ("procedure", p.name.name.clone()),
        ItemKind::Action(a) => ("action", a.name.name.clone()),
        ItemKind::Score(s) => ("score", s.name.name.clone()),
        ItemKind::Setup(_) => ("setup", String::new()),
        ItemKind::Turns(_) => ("turns", String::new()),
        ItemKind::AfterAction(_) => ("after action", String::new()),
        ItemKind::End(_) => ("end", String::new()),
        ItemKind::Tiebreak(_) => ("tiebreak", String::new()),
        ItemKind::Place(_) | ItemKind::Route(_) | ItemKind::Tags(_) => return None,
        ItemKind::Extends(..)
        | ItemKind::Remove { .. }
        | ItemKind::TableCell { .. }
        | ItemKind::PlayersCase(..)
        | ItemKind::Rule(..) => return None,
    })
}

/// The kind word a `remove` names, normalised: `tokens` and `tiles` are
/// `cards`.
fn kind_word(word: &str) -> Option<&'static str> {
    Some(match word {
        "option" => "option",
        "kind" => "kind",
        "cards" | "tokens" | "tiles" => "cards",
        "zone" => "zone",
        "counter" => "counter",
        "piece" => "piece",
        "table" => "table",
        "let" => "let",
        "procedure" => "procedure",
        "action" => "action",
        "score" => "score",
        _ => return None,
    })
}

fn describe(kind: &str, name: &str) -> String {
    if name.is_empty() {
        format!("`{kind}`")
    } else {
        format!("{kind} `{name}`")
    }
}

/// Items of a file that only make sense in an edition, when the file has no
/// `extends`: each is an error, and is dropped.
pub fn reject_edition_items(file: &mut File, diags: &mut Vec<Diagnostic>) {
    file.items.retain(|item| {
        let (span, what) = match &item.kind {
            ItemKind::Remove { what, .. } => (what.span, "`remove`"),
            ItemKind::TableCell { name, .. } => (name.span, "`override table ...[...]`"),
            ItemKind::PlayersCase(..) => (item.span, "`override by players`"),
            ItemKind::Rule(..) => (item.span, "`override rule`"),
            _ => match item.overrides {
                Some(span) => (span, "`override`"),
                None => return true,
            },
        };
        diags.push(
            Diagnostic::error(Code::NoBase, span, format!("{what} needs a base ruleset to change"))
                .label("nothing to change: this file extends nothing")
                .help("start the file with `extends \"base.ruleset\"`, or define the item plainly"),
        );
        false
    });
}

/// Merge `child` onto the already merged `base`.
pub fn merge(base: File, child: File, diags: &mut Vec<Diagnostic>) -> (File, Vec<Change>) {
    let mut items = base.items;
    let mut changes = Vec::new();
    for item in child.items {
        match &item.kind {
            ItemKind::Extends(..) => continue,
            ItemKind::Remove { what, name, instance } => {
                remove(&mut items, what, name, instance.as_ref(), item.span, diags, &mut changes);
                continue;
            }
            ItemKind::TableCell { name, keys, value } => {
                table_cell(&mut items, name, keys, *value, item.span, diags, &mut changes);
                continue;
            }
            ItemKind::PlayersCase(name, case) => {
                players_case(&mut items, name.as_ref(), case.clone(), item.span, diags, &mut changes);
                continue;
            }
            ItemKind::Rule(name, body) => {
                named_rule(&mut items, name, Some(body.clone()), item.span, diags, &mut changes);
                continue;
            }
            _ => {}
        }
        let Some((kind, name)) = key(&item) else {
            // Places, routes and tags add to the base's: there is nothing
            // to override, only more to add.
            if let Some(kw) = item.overrides {
                let what = match &item.kind {
                    ItemKind::Tags(_) => "tags",
                    ItemKind::Route(_) => "routes",
                    _ => "places and enumerations",
                };
                diags.push(
                    Diagnostic::error(
                        Code::NothingToOverride,
                        kw,
                        format!("{what} cannot be overridden: they add up"),
                    )
                    .label("drop `override`")
                    .help(format!(
                        "a line of {what} in an edition adds to the base's; write it without `override`"
                    )),
                );
                continue;
            }
            // Places and routes add to the board.
            changes.push(Change { item: item_label(&item), how: "added", span: item.span });
            items.push(item);
            continue;
        };
        let found = items.iter().position(|b| key(b).is_some_and(|(k, n)| k == kind && n == name));
        match (found, item.overrides) {
            (None, None) => {
                changes.push(Change { item: describe(kind, &name), how: "added", span: item.span });
                items.push(item);
            }
            (Some(i), None) if kind == "game" => {
                // An edition names itself: its `game` replaces the base's.
                let mut item = item;
                item.base = Some(item_name_span(&items[i]));
                // What the edition's `game` leaves out stays the base's: a
                // house rule that names itself keeps the player counts and
                // the action limit.
                if let (ItemKind::Game(new), ItemKind::Game(old)) = (&mut item.kind, &items[i].kind) {
                    new.players = new.players.or(old.players);
                    new.actions = new.actions.or(old.actions);
                }
                changes.push(Change { item: "game".into(), how: "overridden", span: item.span });
                items[i] = item;
            }
            (Some(i), None) => {
                let name_span = item_name_span(&item);
                diags.push(
                    Diagnostic::error(
                        Code::AlreadyInBase,
                        name_span,
                        format!("{} is already in the base ruleset", describe(kind, &name)),
                    )
                    .label("defined again")
                    .related(item_name_span(&items[i]), "the base defines it here")
                    .help(format!("write `override {kind} {name} ...` to change it, or choose another name")),
                );
            }
            (None, Some(kw)) => {
                let names: Vec<String> =
                    items.iter().filter_map(key).filter(|(k, _)| *k == kind).map(|(_, n)| n).collect();
                let help = help_for(&name, names.iter().map(String::as_str));
                diags.push(
                    Diagnostic::error(
                        Code::NothingToOverride,
                        item_name_span(&item),
                        format!("the base has no {} to override", describe(kind, &name)),
                    )
                    .label("not in the base ruleset")
                    .related(kw, "overridden here")
                    .help(help.unwrap_or_else(|| format!("drop `override` to add a new {kind}"))),
                );
            }
            (Some(i), Some(_)) => {
                let base_span = item_name_span(&items[i]);
                if let (ItemKind::Option(b), ItemKind::Option(o)) = (&items[i].kind, &item.kind) {
                    let sort = |v: &crate::ast::ValueKind| match v {
                        crate::ast::ValueKind::Int(_) => "a number",
                        crate::ast::ValueKind::Bool(_) => "yes/no",
                        crate::ast::ValueKind::Text(_) => "a text",
                        _ => "something else",
                    };
                    let (was, now) = (sort(&b.value.kind), sort(&o.value.kind));
                    if was != now {
                        diags.push(
                            Diagnostic::error(
                                Code::WrongOverride,
                                o.value.span,
                                format!("option `{}` is {was} in the base, not {now}", o.name.name),
                            )
                            .label(now.to_string())
                            .related(b.value.span, format!("the base value, {was}"))
                            .help("an override keeps the option's type; the rules read it as before"),
                        );
                        continue;
                    }
                }
                match (&mut items[i].kind, item.kind) {
                    (ItemKind::Kind(b), ItemKind::Kind(k)) => {
                        // Only the attributes listed change: one wider range
                        // is one line, not the whole kind again.
                        for attr in k.attrs {
                            let how = match b.attrs.iter_mut().find(|a| a.name.name == attr.name.name) {
                                Some(a) => {
                                    *a = attr.clone();
                                    "overridden"
                                }
                                None => {
                                    b.attrs.push(attr.clone());
                                    "added"
                                }
                            };
                            changes.push(Change {
                                item: format!("kind {} attribute {}", b.name.name, attr.name.name),
                                how,
                                span: attr.name.span,
                            });
                        }
                        items[i].changed_by.push(item.span);
                    }
                    (ItemKind::Group(b), ItemKind::Group(g)) => {
                        merge_group(b, g, diags, &mut changes);
                        items[i].changed_by.push(item.span);
                    }
                    (ItemKind::Table(b), ItemKind::Table(t)) if t.dims.is_empty() => {
                        match (&mut b.body, t.body) {
                            (TableBody::Rows(base_rows), TableBody::Rows(rows)) => {
                                for row in rows {
                                    let label = |r: &crate::ast::TableRow| {
                                        r.name.as_ref().map_or(r.key.0.to_string(), |n| n.name.clone())
                                    };
                                    let same = |r: &crate::ast::TableRow| label(r) == label(&row);
                                    match base_rows.iter_mut().find(|r| same(r)) {
                                        Some(r) => {
                                            changes.push(Change {
                                                item: format!("table {} row {}", b.name.name, label(&row)),
                                                how: "overridden",
                                                span: row.span,
                                            });
                                            *r = row;
                                        }
                                        None => diags.push(
                                            Diagnostic::error(
                                                Code::NothingToOverride,
                                                row.key.1,
                                                format!("table `{}` has no row {}", b.name.name, label(&row)),
                                            )
                                            .label("no such row in the base")
                                            .related(b.name.span, "the base table")
                                            .help("override only rows the table has"),
                                        ),
                                    }
                                }
                            }
                            (body, flat) => {
                                *body = flat;
                                changes.push(Change {
                                    item: format!("table {}", b.name.name),
                                    how: "overridden",
                                    span: item.span,
                                });
                            }
                        }
                        items[i].changed_by.push(item.span);
                    }
                    (_, kind_) => {
                        changes.push(Change {
                            item: describe(kind, &name),
                            how: "overridden",
                            span: item.span,
                        });
                        let notes = item.notes;
                        items[i] = Item {
                            kind: kind_,
                            span: item.span,
                            notes,
                            overrides: item.overrides,
                            base: Some(base_span),
                            changed_by: Vec::new(),
                        };
                    }
                }
            }
        }
    }
    (File { items }, changes)
}

fn item_label(item: &Item) -> String {
    match &item.kind {
        ItemKind::Place(p) => format!("place {}", p.class.name),
        ItemKind::Route(_) => "route".into(),
        ItemKind::Tags(_) => "tag".into(),
        _ => "item".into(),
    }
}

/// Where an item's name is written (its first character for unnamed items).
pub fn item_name_span(item: &Item) -> Span {
    match &item.kind {
        ItemKind::Game(g) => g.name.span,
        ItemKind::Option(o) => o.name.span,
        ItemKind::Kind(k) => k.name.span,
        ItemKind::Group(g) => g.name.span,
        ItemKind::Zone(z) => z.name.span,
        ItemKind::Counter(c) => c.name.span,
        ItemKind::Piece(p) => p.name.span,
        ItemKind::Table(t) => t.name.span,
        ItemKind::Let(l) => l.name.span,
        ItemKind::Procedure(p) => p.name.span,
        ItemKind::Action(a) => a.name.span,
        ItemKind::Score(s) => s.name.span,
        _ => Span { start: item.span.start, end: item.span.start + 1, file: item.span.file },
    }
}

fn merge_group(
    base: &mut crate::ast::GroupDecl,
    over: crate::ast::GroupDecl,
    diags: &mut Vec<Diagnostic>,
    changes: &mut Vec<Change>,
) {
    let group = base.name.name.clone();
    if let Some(k) = &over.kind {
        if base.kind.as_ref().is_some_and(|b| b.name != k.name) {
            diags.push(
                Diagnostic::error(
                    Code::WrongOverride,
                    k.span,
                    format!(
                        "`{group}` holds components of kind `{}`",
                        base.kind.as_ref().map_or("", |b| b.name.as_str())
                    ),
                )
                .label("a different kind")
                .related(base.kind.as_ref().map_or(base.name.span, |b| b.span), "the base's kind")
                .help("leave `of KIND` out of an override"),
            );
        }
    }
    if let Some(total) = over.total {
        base.total = Some(total);
        changes.push(Change { item: format!("cards {group} total"), how: "overridden", span: total.1 });
    }
    for r in over.removals {
        match base.instances.iter().position(|i| i.name.name == r.name) {
            Some(i) => {
                base.instances.remove(i);
                changes.push(Change {
                    item: format!("cards {group} \"{}\"", r.name),
                    how: "removed",
                    span: r.span,
                });
            }
            None => missing_instance(base, &r, diags),
        }
    }
    for inst in over.instances {
        match base.instances.iter_mut().find(|i| i.name.name == inst.name.name) {
            Some(b) => {
                if inst.count.is_some() {
                    b.count = inst.count;
                }
                for f in inst.fields {
                    match b.fields.iter_mut().find(|bf| bf.name.name == f.name.name) {
                        Some(bf) => *bf = f,
                        None => b.fields.push(f),
                    }
                }
                b.notes.extend(inst.notes);
                changes.push(Change {
                    item: format!("cards {group} \"{}\"", inst.name.name),
                    how: "changed",
                    span: inst.span,
                });
            }
            None => {
                changes.push(Change {
                    item: format!("cards {group} \"{}\"", inst.name.name),
                    how: "added",
                    span: inst.span,
                });
                base.instances.push(inst);
            }
        }
    }
}

fn missing_instance(base: &crate::ast::GroupDecl, r: &Ident, diags: &mut Vec<Diagnostic>) {
    let help = help_for(&r.name, base.instances.iter().map(|i| i.name.name.as_str()));
    diags.push(
        Diagnostic::error(
            Code::NothingToOverride,
            r.span,
            format!("`{}` has no component \"{}\"", base.name.name, r.name),
        )
        .label("not in the base list")
        .related(base.name.span, "the base list")
        .help(help.unwrap_or_else(|| "name a component the base lists".into())),
    );
}

fn remove(
    items: &mut Vec<Item>,
    what: &Ident,
    name: &Ident,
    instance: Option<&Ident>,
    span: Span,
    diags: &mut Vec<Diagnostic>,
    changes: &mut Vec<Change>,
) {
    if what.name == "rule" && instance.is_none() {
        named_rule(items, name, None, span, diags, changes);
        return;
    }
    let Some(kind) = kind_word(&what.name) else {
        diags.push(
            Diagnostic::error(
                Code::WrongOverride,
                what.span,
                format!("`remove` cannot take out a `{}`", what.name),
            )
            .label("not a removable kind of item")
            .help(
                "remove an option, kind, cards, zone, counter, piece, table, let, procedure, action, score or rule",
            ),
        );
        return;
    };
    let found = items.iter().position(|b| key(b).is_some_and(|(k, n)| k == kind && n == name.name));
    let Some(i) = found else {
        let names: Vec<String> =
            items.iter().filter_map(key).filter(|(k, _)| *k == kind).map(|(_, n)| n).collect();
        let help = help_for(&name.name, names.iter().map(String::as_str));
        diags.push(
            Diagnostic::error(
                Code::NothingToOverride,
                name.span,
                format!("the base has no {} to remove", describe(kind, &name.name)),
            )
            .label("not in the base ruleset")
            .help(help.unwrap_or_else(|| "remove only what the base defines".into())),
        );
        return;
    };
    match instance {
        Some(inst) => match &mut items[i].kind {
            ItemKind::Group(g) => match g.instances.iter().position(|x| x.name.name == inst.name) {
                Some(j) => {
                    g.instances.remove(j);
                    changes.push(Change {
                        item: format!("cards {} \"{}\"", name.name, inst.name),
                        how: "removed",
                        span,
                    });
                    items[i].changed_by.push(span);
                }
                None => {
                    let g = g.clone();
                    missing_instance(&g, inst, diags);
                }
            },
            _ => diags.push(
                Diagnostic::error(
                    Code::WrongOverride,
                    inst.span,
                    "only a component list has parts to remove",
                )
                .label("not a component")
                .help(format!("write `remove {} {}`", what.name, name.name)),
            ),
        },
        None => {
            changes.push(Change { item: describe(kind, &name.name), how: "removed", span });
            items.remove(i);
        }
    }
}

fn table_cell(
    items: &mut [Item],
    name: &Ident,
    keys: &[(i64, Span)],
    value: (i64, Span),
    span: Span,
    diags: &mut Vec<Diagnostic>,
    changes: &mut Vec<Change>,
) {
    let found = items.iter().position(|b| matches!(&b.kind, ItemKind::Table(t) if t.name.name == name.name));
    let Some(i) = found else {
        let names: Vec<&str> = items
            .iter()
            .filter_map(|b| match &b.kind {
                ItemKind::Table(t) => Some(t.name.name.as_str()),
                _ => None,
            })
            .collect();
        diags.push(
            Diagnostic::error(
                Code::NothingToOverride,
                name.span,
                format!("the base has no table `{}`", name.name),
            )
            .label("not in the base ruleset")
            .maybe_help(help_for(&name.name, names)),
        );
        return;
    };
    let ItemKind::Table(t) = &mut items[i].kind else { return };
    let dims = t.dims.clone();
    let out_of_range = |d: &crate::ast::Dimension, k: &(i64, Span)| {
        Diagnostic::error(
            Code::OutOfRange,
            k.1,
            format!(
                "`{}` runs from {} to {}, not {}",
                d.name.name,
                d.range.lo,
                d.range.hi.unwrap_or(d.range.lo),
                k.0
            ),
        )
        .label("outside the table")
        .related(d.range_span, "the base table's range")
        .help("name a cell the table has")
    };
    if keys.len() != dims.len() {
        diags.push(
            Diagnostic::error(
                Code::TableIndex,
                name.span,
                format!("table `{}` has {} dimensions, the cell names {}", name.name, dims.len(), keys.len()),
            )
            .label("wrong number of indexes")
            .help("give one index per dimension"),
        );
        return;
    }
    let col = |d: &crate::ast::Dimension, k: i64| (k - d.range.lo) as usize;
    let inside = |d: &crate::ast::Dimension, k: i64| k >= d.range.lo && k <= d.range.hi.unwrap_or(d.range.lo);
    for (d, k) in dims.iter().zip(keys) {
        if !inside(d, k.0) {
            diags.push(out_of_range(d, k));
            return;
        }
    }
    let cell = match (&mut t.body, dims.as_slice()) {
        (TableBody::Flat(row), [d]) => row.values.get_mut(col(d, keys[0].0)),
        (TableBody::Rows(rows), [_, d2]) => rows
            .iter_mut()
            .find(|r| r.key.0 == keys[0].0)
            .and_then(|r| r.row.values.get_mut(col(d2, keys[1].0))),
        _ => None,
    };
    match cell {
        Some(c) => {
            *c = value;
            let at: Vec<String> = keys.iter().map(|k| format!("[{}]", k.0)).collect();
            changes.push(Change {
                item: format!("table {}{}", name.name, at.join("")),
                how: "overridden",
                span,
            });
            items[i].changed_by.push(span);
        }
        None => diags.push(
            Diagnostic::error(Code::TableShape, name.span, "the base table has no such cell")
                .label("its rows are shorter")
                .help("fix the base table's shape first"),
        ),
    }
}

/// `override rule NAME { ... }` (with a body) or `remove rule NAME`
/// (without): the base's named block of that name, wherever it is, gets the
/// new statements or none.
fn named_rule(
    items: &mut [Item],
    name: &Ident,
    body: Option<Block>,
    span: Span,
    diags: &mut Vec<Diagnostic>,
    changes: &mut Vec<Change>,
) {
    for item in items.iter_mut() {
        let Some((within, block)) = item.body_mut() else { continue };
        let Some(found) = block.rule_mut(&name.name) else { continue };
        let how = if body.is_some() { "overridden" } else { "removed" };
        *found = body.unwrap_or(Block { stmts: Vec::new(), span: found.span });
        changes.push(Change { item: format!("{within}, rule {}", name.name), how, span });
        item.changed_by.push(span);
        return;
    }
    let mut names = Vec::new();
    for item in items.iter() {
        if let Some(b) = item.body() {
            b.rule_names(&mut names);
        }
    }
    let help = help_for(&name.name, names.iter().map(|n| n.name.as_str()));
    let verb = if body.is_some() { "override" } else { "remove" };
    diags.push(
        Diagnostic::error(
            Code::NothingToOverride,
            name.span,
            format!("the base has no rule `{}` to {verb}", name.name),
        )
        .label("no `rule` of this name in the base")
        .help(help.unwrap_or_else(|| {
            "the base names a block with `rule NAME { ... }` inside a setup, an action or a procedure; \
                 override the whole item if it has none"
                .into()
        })),
    );
}

/// Every `by players` statement in the items' bodies, with the item it is in.
type Found<'a> = (String, Option<String>, &'a mut Vec<PlayerCase>, Span);

fn by_players_in(items: &mut [Item]) -> Vec<Found<'_>> {
    fn walk<'a>(block: &'a mut Block, within: &str, out: &mut Vec<Found<'a>>) {
        for stmt in &mut block.stmts {
            match &mut stmt.kind {
                // Nested `by players` inside a case are not reached: a case
                // is the unit an override replaces.
                StmtKind::ByPlayers { name, cases, span } => {
                    out.push((within.to_string(), name.as_ref().map(|n| n.name.clone()), cases, *span));
                }
                other => {
                    for b in other.blocks_mut() {
                        walk(b, within, out);
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for item in items {
        if let Some((within, body)) = item.body_mut() {
            walk(body, &within, &mut out);
        }
    }
    out
}

/// `override by players 5: { ... }`: replace the case of the base's one
/// `by players` statement that covers exactly these counts, or take these
/// counts out of the case that covers them with others (`3, 4:` keeps `4:`),
/// or add the case for counts no case covers (a game raised to 5 players).
fn players_case(
    items: &mut [Item],
    name: Option<&Ident>,
    case: PlayerCase,
    span: Span,
    diags: &mut Vec<Diagnostic>,
    changes: &mut Vec<Change>,
) {
    let counts: Vec<i64> = case.counts.iter().map(|(n, _)| *n).collect();
    let first = name.map_or_else(|| case.counts.first().map_or(span, |(_, s)| *s), |n| n.span);
    let mut found = by_players_in(items);
    if let Some(n) = name {
        found.retain(|(_, m, _, _)| m.as_deref() == Some(n.name.as_str()));
    }
    let written = counts.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    if found.len() != 1 {
        let (message, help) = match (found.len(), name) {
            (0, Some(n)) => (
                format!("the base has no `by players {}`", n.name),
                "name the `by players` as the base names it (`by players NAME { ... }`)".to_string(),
            ),
            (0, None) => (
                "the base has no `by players` to change".to_string(),
                "override the item that should depend on the player count".to_string(),
            ),
            (k, _) => {
                let places: Vec<String> = found
                    .iter()
                    .map(|(w, n, _, _)| match n {
                        Some(n) => format!("`{n}` in {w}"),
                        None => format!("one without a name in {w}"),
                    })
                    .collect();
                (
                    format!("the base has {k} `by players` statements ({}): which one is unclear", places.join(", ")),
                    "name the one to change: `override by players NAME 5: { ... }` (the base gives it a name \
                     with `by players NAME { ... }`)"
                        .to_string(),
                )
            }
        };
        let mut d = Diagnostic::error(Code::NothingToOverride, first, message).label("this case").help(help);
        for (_, _, _, s) in found.iter().take(4) {
            d = d.related(*s, "a `by players` of the base");
        }
        diags.push(d);
        return;
    }
    let (within, _, cases, _) = found.remove(0);
    let item = format!("{within}, by players {written}");
    let same = |c: &PlayerCase| {
        let mut a: Vec<i64> = c.counts.iter().map(|(n, _)| *n).collect();
        let mut b = counts.clone();
        a.sort_unstable();
        b.sort_unstable();
        a == b
    };
    if let Some(c) = cases.iter_mut().find(|c| same(c)) {
        *c = case;
        changes.push(Change { item, how: "overridden", span });
        return;
    }
    // Counts taken from the cases that had them; a case left with none goes.
    let mut took = false;
    for c in cases.iter_mut() {
        let before = c.counts.len();
        c.counts.retain(|(n, _)| !counts.contains(n));
        took |= c.counts.len() != before;
    }
    cases.retain(|c| !c.counts.is_empty());
    cases.push(case);
    changes.push(Change { item, how: if took { "overridden" } else { "added" }, span });
}
