//! Every diagnostic the checker reports, built in one place.
//!
//! One constructor per diagnostic, grouped by code (a code such as
//! `type_mismatch` covers several situations, each with its own wording).
//! The rest of the checker finds problems and calls these; the words live
//! here, so the message style (`diagnostic.rs`) is kept in one file.

use crate::ast;
use crate::diagnostic::{Code, Diagnostic};
use crate::span::{Ident, Span};

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

// ------------------------------------------------------------------ game

pub fn duplicate_game(name: Span, prev: Span) -> Diagnostic {
    Diagnostic::error(Code::DuplicateGame, name, "a ruleset describes one game")
        .label("second `game`")
        .related(prev, "first `game`")
        .help("put each game in its own file")
}

pub fn bad_player_range(span: Span) -> Diagnostic {
    Diagnostic::error(Code::BadPlayerRange, span, "player counts must be a range within 1..16")
        .label("not a valid range of player counts")
        .help("write the supported counts as `players 2..4`")
}

pub fn no_player_range(name: Span) -> Diagnostic {
    Diagnostic::error(Code::BadPlayerRange, name, "the game does not say how many play")
        .label("no `players` line")
        .help("add `players 2..4` inside the braces")
}

pub fn action_limit_out_of_range(span: Span, n: i64, max: u64) -> Diagnostic {
    Diagnostic::error(Code::OutOfRange, span, format!("a game may take 1 to {max} actions, not {n}"))
        .label("out of range")
        .help("give the most actions a whole game can take; a game that runs past it is broken")
}

pub fn empty_file(start: Span) -> Diagnostic {
    Diagnostic::error(Code::MissingGame, start, "the file has no rules")
        .label("empty")
        .help("a ruleset starts with `game NAME \"Title\" { players 2..4 }`")
}

pub fn missing_game(at: Span) -> Diagnostic {
    Diagnostic::error(Code::MissingGame, at, "the ruleset has no `game`")
        .label("expected `game` before this")
        .help("start the file with `game NAME \"Title\" { players 2..4 }`")
}

pub fn missing_turns(at: Span) -> Diagnostic {
    Diagnostic::error(Code::MissingTurns, at, "the ruleset does not say who moves next")
        .label("no `turns` in this file")
        .help("add `turns clockwise` or `turns by lowest COUNTER`")
}

pub fn missing_end(at: Span) -> Diagnostic {
    Diagnostic::error(Code::MissingEnd, at, "the ruleset never ends")
        .label("no `end when` in this file")
        .help("add `end when CONDITION`")
}

pub fn no_actions(at: Span) -> Diagnostic {
    Diagnostic::error(Code::NoActions, at, "players have nothing to do")
        .label("no `action` in this file")
        .help("add `action NAME(...) { ... }`")
}

pub fn no_score(at: Span) -> Diagnostic {
    Diagnostic::error(Code::NoScore, at, "nobody can score")
        .label("no `score` in this file")
        .help("add `score NAME = EXPRESSION`")
}

// ------------------------------------------------------------- duplicates

pub fn builtin_name(name: &Ident) -> Diagnostic {
    Diagnostic::error(Code::Duplicate, name.span, format!("`{}` is a built-in name", name.name))
        .label("cannot be redefined")
        .help("choose another name")
}

pub fn defined_twice(name: &Ident, noun: &str, prev: Span, prev_noun: &str) -> Diagnostic {
    // "an action", "an enumeration"; "a zone".
    let a = |noun: &str| if noun.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    Diagnostic::error(Code::Duplicate, name.span, format!("`{}` is defined twice", name.name))
        .label(format!("second definition, as {} {noun}", a(noun)))
        .related(prev, format!("first defined here, as {} {prev_noun}", a(prev_noun)))
        .help("rename one of them, or delete the copy")
}

pub fn single_item_twice(what: &str, second: Span, first: Span) -> Diagnostic {
    Diagnostic::error(Code::Duplicate, second, format!("a ruleset has one `{what}`"))
        .label("second one")
        .related(first, "first one")
        .help("merge the two into one")
}

pub fn attribute_declared_twice(name: &Ident, prev: Span) -> Diagnostic {
    Diagnostic::error(Code::Duplicate, name.span, format!("attribute `{}` is declared twice", name.name))
        .label("second declaration")
        .related(prev, "first declaration")
        .help("delete one of them")
}

pub fn map_key_twice(key: &Ident, what: &str) -> Diagnostic {
    Diagnostic::error(Code::Duplicate, key.span, format!("`{}` appears twice in `{what}`", key.name))
        .label("second entry")
        .help("give each key once")
}

pub fn component_listed_twice(name: &Ident, group: &str, prev: Span) -> Diagnostic {
    Diagnostic::error(Code::Duplicate, name.span, format!("`{}` is listed twice in `{group}`", name.name))
        .label("second listing")
        .related(prev, "first listing")
        .help("give the copies one line with a count such as `x2`, or distinct names")
}

pub fn attribute_given_twice(name: &Ident) -> Diagnostic {
    Diagnostic::error(Code::Duplicate, name.span, format!("`{}` is given twice", name.name))
        .label("second value")
        .help("give each attribute once")
}

pub fn parameter_named_twice(name: &Ident) -> Diagnostic {
    Diagnostic::error(Code::Duplicate, name.span, format!("parameter `{}` is named twice", name.name))
        .label("second parameter with this name")
        .help("rename one of them")
}

pub fn reserved_word(name: &Ident) -> Diagnostic {
    Diagnostic::error(Code::ReservedWord, name.span, format!("`{}` is a reserved word", name.name))
        .label("cannot be a name")
        .help(format!("choose another name, such as `{}s` or `my_{}`", name.name, name.name))
}

// ---------------------------------------------------------- unknown names

/// A name no declaration gives; `code` says which namespace was searched.
pub fn unknown(code: Code, what: &str, name: &Ident, help: Option<String>) -> Diagnostic {
    Diagnostic::error(code, name.span, format!("unknown {what} `{}`", name.name))
        .label("not defined anywhere")
        .help(help.unwrap_or_else(|| "define it, or check the spelling".into()))
}

pub fn unknown_place(name: &Ident, help: Option<String>) -> Diagnostic {
    Diagnostic::error(Code::UnknownPlace, name.span, format!("unknown place `{}`", name.name))
        .label("no place has this name")
        .help(help.unwrap_or_else(|| "declare it with `place CLASS NAME`".into()))
}

pub fn unknown_place_class(name: &Ident, help: Option<String>) -> Diagnostic {
    Diagnostic::error(Code::UnknownName, name.span, format!("unknown place class `{}`", name.name))
        .label("not a class of places")
        .help(help.unwrap_or_else(|| "place classes are declared by `place CLASS A, B, C`".into()))
}

pub fn unknown_zone(name: &Ident, help: Option<String>) -> Diagnostic {
    Diagnostic::error(Code::UnknownName, name.span, format!("unknown zone `{}`", name.name))
        .label("no zone has this name")
        .maybe_help(help)
}

pub fn unknown_counter(name: &Ident, help: Option<String>) -> Diagnostic {
    Diagnostic::error(Code::UnknownName, name.span, format!("unknown counter `{}`", name.name))
        .label("no counter has this name")
        .help(help.unwrap_or_else(|| "declare it with `counter NAME per player = 0`".into()))
}

pub fn unknown_procedure(name: &Ident, help: Option<String>) -> Diagnostic {
    Diagnostic::error(Code::UnknownName, name.span, format!("unknown procedure `{}`", name.name))
        .label("no procedure has this name")
        .help(help.unwrap_or_else(|| format!("declare it with `procedure {}(...) {{ ... }}`", name.name)))
}

pub fn not_owned_by_players(field: &Ident, owned: &[&str], help: Option<String>) -> Diagnostic {
    Diagnostic::error(
        Code::UnknownName,
        field.span,
        format!("players have no zone, counter or piece `{}`", field.name),
    )
    .label("not something each player has")
    .help(help.unwrap_or_else(|| {
        format!("each player has: {}", if owned.is_empty() { "nothing yet".into() } else { owned.join(", ") })
    }))
}

pub fn unknown_kind(name: &Ident, help: Option<String>) -> Diagnostic {
    Diagnostic::error(Code::UnknownKind, name.span, format!("unknown kind `{}`", name.name))
        .label("no kind has this name")
        .help(help.unwrap_or_else(|| format!("declare it with `kind {} {{ ... }}`", name.name)))
}

pub fn group_without_kind(name: &Ident, noun: &str) -> Diagnostic {
    Diagnostic::error(Code::UnknownKind, name.span, format!("`{}` does not say its kind", name.name))
        .label("which kind of component?")
        .help(format!("write `{noun} {} of KIND {{ ... }}`", name.name))
}

pub fn unknown_type(name: &Ident, help: Option<String>) -> Diagnostic {
    Diagnostic::error(Code::UnknownType, name.span, format!("unknown type `{}`", name.name))
        .label("not a type")
        .help(help.unwrap_or_else(|| {
            "types are `int`, `a..b`, `flag`, `text`, `tag`, `tags`, `player`, `place`, `card`, a place class, or `class -> type`".into()
        }))
}

pub fn unknown_zone_kind(name: &Ident, help: Option<String>) -> Diagnostic {
    Diagnostic::error(Code::UnknownZoneKind, name.span, format!("unknown kind of zone `{}`", name.name))
        .label("not a kind of zone")
        .help(
            help.unwrap_or_else(|| {
                "zones are `deck`, `pile`, `row`, `bag`, `hand`, `tableau` or `box`".into()
            }),
        )
}

pub fn undeclared_tag(name: &str, span: Span, help: Option<String>) -> Diagnostic {
    Diagnostic::error(Code::UnknownTag, span, format!("tag `{name}` is not in the ruleset's `tag` list"))
        .label("not a declared tag")
        .help(help.unwrap_or_else(|| format!("add it: `tag {name}`")))
}

pub fn unknown_tag(name: &Ident, span: Span, help: Option<String>) -> Diagnostic {
    Diagnostic::error(Code::UnknownTag, span, format!("unknown tag `{}`", name.name))
        .label("no component has this tag")
        .help(help.unwrap_or_else(|| "tags come from the `tags` of components".into()))
}

pub fn kind_lacks_attribute(field: &Ident, kind_name: &str, kind: Span, help: Option<String>) -> Diagnostic {
    Diagnostic::error(
        Code::UnknownAttribute,
        field.span,
        format!("kind `{kind_name}` has no attribute `{}`", field.name),
    )
    .label("unknown attribute")
    .related(kind, format!("`{kind_name}` is declared here"))
    .help(help.unwrap_or_else(|| format!("add `{}: TYPE` to the kind", field.name)))
}

pub fn unknown_majority_field(field: &Ident, help: Option<String>) -> Diagnostic {
    Diagnostic::error(Code::UnknownAttribute, field.span, format!("a majority has no `{}`", field.name))
        .label("unknown field")
        .help(help.unwrap_or_else(|| "a majority has `alone`, `tied` and `minimum`".into()))
}

pub fn unknown_attribute(field: &Ident, help: Option<String>) -> Diagnostic {
    Diagnostic::error(
        Code::UnknownAttribute,
        field.span,
        format!("no kind has an attribute `{}`", field.name),
    )
    .label("unknown attribute")
    .help(help.unwrap_or_else(|| "attributes are declared in `kind`".into()))
}

pub fn missing_attribute(component: &Ident, attr: &str, kind: Span) -> Diagnostic {
    Diagnostic::error(Code::MissingAttribute, component.span, format!("`{}` has no `{attr}`", component.name))
        .label(format!("`{attr}` is missing"))
        .related(kind, "the kind requires it")
        .help(format!("add `{attr}: ...`, or give the attribute a default in the kind"))
}

pub fn majority_missing_field(name: &str, span: Span) -> Diagnostic {
    Diagnostic::error(Code::MissingAttribute, span, format!("majority has no `{name}`"))
        .label(format!("`{name}` is missing"))
        .help(format!("add `{name}: POINTS` inside the braces"))
}

pub fn aggregate_unknown(func: &Ident, help: Option<String>) -> Diagnostic {
    Diagnostic::error(
        Code::UnknownFunction,
        func.span,
        format!("`{}` cannot go through a collection", func.name),
    )
    .label("not count, sum, min, max, any, all or first")
    .help(help.unwrap_or_else(|| "use count, sum, min, max, any, all or first".into()))
}

pub fn not_a_function(name: &Ident, noun: &str) -> Diagnostic {
    Diagnostic::error(
        Code::UnknownFunction,
        name.span,
        format!("`{}` is a {noun}, not a function", name.name),
    )
    .label("cannot be called")
    .help("functions are lets with parameters and the built-ins min, max, abs, distance, count")
}

pub fn unknown_function(name: &Ident, help: Option<String>) -> Diagnostic {
    Diagnostic::error(Code::UnknownFunction, name.span, format!("unknown function `{}`", name.name))
        .label("no let or built-in has this name")
        .help(help.unwrap_or_else(|| format!("define it with `let {}(...) = ...`", name.name)))
}

// ---------------------------------------------------------------- types

pub fn option_value(span: Span) -> Diagnostic {
    Diagnostic::error(Code::TypeMismatch, span, "an option is a number, yes/no or a text")
        .label("not a number, yes/no or text")
        .help("write a value such as `2`, `yes` or `\"first\"`")
}

pub fn not_a_place(name: &Ident, noun: &str, help: Option<String>) -> Diagnostic {
    Diagnostic::error(Code::TypeMismatch, name.span, format!("`{}` is a {noun}, not a place", name.name))
        .label("expected a place")
        .maybe_help(help)
}

pub fn value_expected(v: &ast::Value, what: &str, expected: &str, found: &str) -> Diagnostic {
    Diagnostic::error(Code::TypeMismatch, v.span, format!("`{what}` expects {expected}, found {found}"))
        .label(format!("expected {expected}"))
        .help(format!("write {expected} here"))
}

pub fn place_of_wrong_class(
    span: Span,
    what: &str,
    place: &str,
    expected: &str,
    actual: &str,
    help: String,
) -> Diagnostic {
    Diagnostic::error(
        Code::TypeMismatch,
        span,
        format!("`{what}` expects a {expected}, but `{place}` is a {actual}"),
    )
    .label(format!("a {actual}, not a {expected}"))
    .help(help)
}

pub fn parameter_without_choices(name: &Ident) -> Diagnostic {
    Diagnostic::error(
        Code::TypeMismatch,
        name.span,
        format!("action parameter `{}` has no list of choices", name.name),
    )
    .label("players could type anything here")
    .help("give it a range such as `1..12`, a place class, `flag`, `player`, or `in ZONE`")
}

pub fn set_parameter_outside_action(name: &Ident, place: &str) -> Diagnostic {
    Diagnostic::error(
        Code::TypeMismatch,
        name.span,
        format!("`{}: set of ...` is a choice a player makes; {place} cannot take one", name.name),
    )
    .label("only an action's parameters may be sets")
    .help("make this an action's parameter, or pass the components one at a time with `in ZONE`")
}

pub fn turn_counter_not_per_player(name: &Ident, declared: Span) -> Diagnostic {
    Diagnostic::error(
        Code::TypeMismatch,
        name.span,
        format!("turn order needs a number each player has; `{}` is not one", name.name),
    )
    .label("not a plain per-player number")
    .related(declared, "declared here")
    .help("declare it as `counter NAME per player = 0`")
}

pub fn score_index_not_a_class(name: Span) -> Diagnostic {
    Diagnostic::error(Code::TypeMismatch, name, "a score is indexed by a place class")
        .label("not a place class")
        .help("write `score NAME[s: site] ...`")
}

pub fn number_option_expected(span: Span, what: &str, found: &str, help: Option<String>) -> Diagnostic {
    Diagnostic::error(
        Code::TypeMismatch,
        span,
        format!("`{what}` takes a number or a number option, found `{found}`"),
    )
    .label("not a number option")
    .help(help.unwrap_or_else(|| "write a number".into()))
}

pub fn number_expected(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(Code::TypeMismatch, span, format!("`{what}` takes a number"))
        .label("not a number")
        .help("write a number")
}

pub fn not_a_domain(span: Span, what: &str, found: &str) -> Diagnostic {
    Diagnostic::error(
        Code::TypeMismatch,
        span,
        format!("{what} ranges over a zone, `players` or a place class, found {found}"),
    )
    .label("cannot go through this")
    .help("write a zone (`me.tableau`), `players`, or a place class (`site`)")
}

pub fn type_mismatch(span: Span, what: &str, expected: &str, got: &str) -> Diagnostic {
    Diagnostic::error(Code::TypeMismatch, span, format!("{what} expects {expected}, found {got}"))
        .label(format!("this is {got}"))
        .help(format!("write {expected} here"))
}

pub fn not_a_value(span: Span, name: &Ident, noun: &str) -> Diagnostic {
    Diagnostic::error(Code::TypeMismatch, span, format!("`{}` is a {noun}, which has no value", name.name))
        .label("not a value")
        .help("refer to values: counters, zones, places, options, lets")
}

pub fn never_equal(span: Span, left: &str, right: &str) -> Diagnostic {
    Diagnostic::error(Code::TypeMismatch, span, format!("cannot compare {left} with {right}"))
        .label("these never match")
        .help("compare values of the same type")
}

pub fn no_field(field: &Ident, base: &str) -> Diagnostic {
    Diagnostic::error(Code::TypeMismatch, field.span, format!("{base} has no `.{}`", field.name))
        .label("nothing to look up here")
        .help("`.` follows a player (`me.tableau`) or a component (`c.weeks`)")
}

pub fn not_assignable(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(Code::NotAssignable, span, format!("`{what}` changes a counter or a piece"))
        .label("not a counter or a piece")
        .help("declare it with `counter` to change it; `let` values are fixed")
}

pub fn enum_and_place_class(class: &Ident, now_enum: bool, first: Span) -> Diagnostic {
    let (now, before) =
        if now_enum { ("an enumeration", "a place class") } else { ("a place class", "an enumeration") };
    Diagnostic::error(
        Code::Duplicate,
        class.span,
        format!("`{}` is declared as {now} here and as {before} before", class.name),
    )
    .label(format!("as {now}"))
    .related(first, format!("as {before}"))
    .help("places stand on a board (`place`); named values do not (`enum`): pick one")
}

pub fn rotate_needs_class(span: Span, got: &str) -> Diagnostic {
    Diagnostic::error(
        Code::TypeMismatch,
        span,
        format!("`rotate` turns a value of a class or enum, not {got}"),
    )
    .label("not a value with a class")
    .help("`rotate(n, 1)` is the value after `n` in its `enum` or `place` line, going round")
}

pub fn not_a_grid(span: Span, name: &Ident) -> Diagnostic {
    Diagnostic::error(Code::TypeMismatch, span, format!("`{}` needs a grid's name first", name.name))
        .label("not a class declared with `grid`")
        .help("declare the class as `place cell grid 9 x 9`, then write `at(cell, x, y)`")
}

pub fn link_not_a_let(span: Span) -> Diagnostic {
    Diagnostic::error(Code::TypeMismatch, span, "`connected` needs the name of a let that links two places")
        .label("not a let's name")
        .help("declare `let land(a: quad, b: quad) = ...` and write `connected(p, land)`")
}

pub fn link_params(span: Span, name: &str) -> Diagnostic {
    Diagnostic::error(
        Code::TypeMismatch,
        span,
        format!("`{name}` must take two places of one class to link them"),
    )
    .label("not a let of two places of one class")
    .help(format!(
        "declare it as `let {name}(a: CLASS, b: CLASS) = ...`, yes when a step from a to b joins them"
    ))
}

pub fn region_as_value(span: Span) -> Diagnostic {
    Diagnostic::error(Code::TypeMismatch, span, "`around` and `connected` are gone through, not kept")
        .label("used as a value")
        .help("use it where it is gone through: `count(q in connected(p, land))`, `for q in around(p) { }`")
}

pub fn among_not_places(span: Span) -> Diagnostic {
    Diagnostic::error(Code::TypeMismatch, span, "`TYPE in ...` chooses a place among a set of places")
        .label("not a set of places of this type")
        .help("write `to: quad in around(me.boat)` or `q: quad in connected(me.boat, land)`; for a component, `c: in ZONE`")
}

pub fn among_outside_action(name: &Ident, place: &str) -> Diagnostic {
    Diagnostic::error(
        Code::TypeMismatch,
        name.span,
        format!("`{}: TYPE in ...` is a choice a player makes; {place} cannot take one", name.name),
    )
    .label("only an action's parameters may be chosen among a set")
    .help("give this parameter its type alone, and `require` what it must be")
}

pub fn grid_class_extended(class: &Ident, first: Span) -> Diagnostic {
    Diagnostic::error(
        Code::Duplicate,
        class.span,
        format!("`{}` is declared twice, and one of the two is a grid", class.name),
    )
    .label("declared again here")
    .related(first, "first declared here")
    .help("a grid's places are all its cells; declare other places in a class of their own")
}

pub fn bad_grid_size(span: Span, width: i64, height: i64, room: usize, max: usize) -> Diagnostic {
    let (message, label) = if width < 1 || height < 1 {
        ("a grid needs a width and a height from 1 up".to_string(), "no cells".to_string())
    } else {
        (
            format!("a grid of {width} x {height} has more places than the ruleset has room for"),
            format!("{} places; {room} more fit", width.saturating_mul(height)),
        )
    };
    Diagnostic::error(Code::OutOfRange, span, message)
        .label(label)
        .help(format!("a grid of W x H holds W times H places, and a ruleset at most {max} in all"))
}

pub fn enum_value_not_a_place(name: &Ident, class: &str) -> Diagnostic {
    Diagnostic::error(
        Code::TypeMismatch,
        name.span,
        format!("`{}` is a value of the enumeration `{class}`, not a place", name.name),
    )
    .label("not on the board")
    .help("routes, pieces and distances are for places declared with `place`")
}

pub fn enum_value_where_place_is_meant(span: Span, enumeration: &str, what: &str) -> Diagnostic {
    Diagnostic::error(
        Code::TypeMismatch,
        span,
        format!("{what} needs a place, and this is a `{enumeration}`"),
    )
    .label(format!("a value of the enumeration `{enumeration}`"))
    .help("places stand on a board (`place`); an enumeration's values do not")
}

pub fn not_an_enumeration(name: &Ident) -> Diagnostic {
    Diagnostic::error(Code::UnknownType, name.span, format!("`{}` is not an enumeration", name.name))
        .label("a table is indexed by a range (`1..5`) or an enumeration")
        .help(format!("declare its values with `enum {} A, B, C`", name.name))
}

pub fn not_a_value_of(name: &Ident, enumeration: &str, help: Option<String>) -> Diagnostic {
    Diagnostic::error(
        Code::UnknownName,
        name.span,
        format!("`{}` is not a value of the enumeration `{enumeration}`", name.name),
    )
    .label("no such value")
    .help(help.unwrap_or_else(|| format!("the rows name the values of `{enumeration}`, in order")))
}

pub fn row_key_kind(span: Span, by_name: bool, dim: &str) -> Diagnostic {
    let (found, want) = if by_name { ("a name", "a number") } else { ("a number", "a value's name") };
    Diagnostic::error(Code::TableShape, span, format!("this row is keyed by {found}; `{dim}` needs {want}"))
        .label(format!("{found} here"))
        .help("rows follow the first dimension: numbers for a range, names for an enumeration")
}

pub fn shuffle_players_from(span: Span) -> Diagnostic {
    Diagnostic::error(Code::TypeMismatch, span, "`shuffle` shuffles the whole player order")
        .label("`players from` is an order to go through, not one to shuffle")
        .help("write `shuffle players`")
}

pub fn unknown_asked_action(name: &Ident, help: Option<String>) -> Diagnostic {
    Diagnostic::error(Code::UnknownName, name.span, format!("unknown action `{}`", name.name))
        .label("no action has this name")
        .help(
            help.unwrap_or_else(|| {
                format!("declare it with `action {}(...) when asked {{ ... }}`", name.name)
            }),
        )
}

pub fn ask_needs_asked_action(name: &Ident, declared: Span) -> Diagnostic {
    Diagnostic::error(
        Code::TurnStructure,
        name.span,
        format!("`{}` is an action of its own, not one a player is asked to take", name.name),
    )
    .label("asked here")
    .related(declared, "declared here without `when asked`")
    .help(format!("write `action {}(...) when asked {{ ... }}`", name.name))
}

pub fn end_turn_outside_turn(span: Span, place: &str) -> Diagnostic {
    Diagnostic::error(Code::TurnStructure, span, format!("`end turn` has no meaning in {place}"))
        .label("no turn is going on here")
        .help("end a turn in an action (or a procedure an action runs)")
}

pub fn end_turn_without_policy(span: Span) -> Diagnostic {
    Diagnostic::error(Code::TurnStructure, span, "`end turn` needs turns that last until it")
        .label("every action already ends the turn")
        .help("write `turns clockwise until end turn`, or remove this statement")
}

pub fn turn_never_ends(span: Span) -> Diagnostic {
    Diagnostic::error(Code::TurnStructure, span, "a turn lasts until `end turn`, and nothing runs it")
        .label("turns that never end")
        .help("add an action that ends the turn, e.g. `action pass { end turn }`")
}

pub fn only_asked_actions(span: Span) -> Diagnostic {
    Diagnostic::error(Code::TurnStructure, span, "every action is `when asked`: nobody can take a turn")
        .label("the first action")
        .help("a turn needs at least one action without `when asked`")
}

pub fn me_outside_turn(span: Span, place: &str) -> Diagnostic {
    Diagnostic::error(Code::MeOutsideTurn, span, format!("`me` has no meaning in {place}"))
        .label("nobody is acting here")
        .help("go through the players: `for p in players { ... p ... }`")
}

/// A zone each player has, named without saying whose.
pub fn whose_zone(span: Span, zone: &str) -> Diagnostic {
    Diagnostic::error(Code::PerPlayerZone, span, format!("each player has a `{zone}`; say whose"))
        .label("whose?")
        .help(format!("write `me.{zone}` or `p.{zone}`"))
}

/// A counter each player has, named without saying whose.
pub fn whose_counter(span: Span, counter: &str) -> Diagnostic {
    Diagnostic::error(Code::PerPlayerCounter, span, format!("each player has a `{counter}`; say whose"))
        .label("whose?")
        .help(format!("write `me.{counter}` or `p.{counter}`"))
}

/// A piece each player has, named without saying whose.
pub fn whose_piece(span: Span, piece: &str) -> Diagnostic {
    Diagnostic::error(Code::PerPlayerPiece, span, format!("each player has a `{piece}`; say whose"))
        .label("whose?")
        .help(format!("write `me.{piece}` or `p.{piece}`"))
}

// --------------------------------------------------------------- ranges

pub fn negative_draw(span: Span) -> Diagnostic {
    Diagnostic::error(Code::OutOfRange, span, "`draw` takes a count of 0 or more")
        .label("a negative count")
        .help("to put components back, `move` them")
}

pub fn route_too_short(span: Span) -> Diagnostic {
    Diagnostic::error(Code::OutOfRange, span, "a route is at least 1 step long")
        .label("must be 1 or more")
        .help("leave the number out for a 1-step route")
}

pub fn value_out_of_range(span: Span, what: &str, range: &str, n: i64) -> Diagnostic {
    Diagnostic::error(Code::OutOfRange, span, format!("`{what}` must be in {range}, found {n}"))
        .label(format!("outside {range}"))
        .help(format!("use a value in {range}, or widen the range in the kind"))
}

pub fn too_many_components(span: Span, max: usize) -> Diagnostic {
    Diagnostic::error(Code::OutOfRange, span, format!("the ruleset has more than {max} components"))
        .label("this line goes past the limit")
        .help("a game's components, every copy counted, fit in this; check the counts (`x...`)")
}

pub fn too_many_places(span: Span, max: usize) -> Diagnostic {
    Diagnostic::error(Code::OutOfRange, span, format!("the ruleset has more than {max} places"))
        .label("this place goes past the limit")
        .help("a board's places fit in this; the distance between every two is worked out")
}

pub fn too_many_routes(span: Span, max: usize) -> Diagnostic {
    Diagnostic::error(Code::OutOfRange, span, format!("the ruleset has more than {max} routes"))
        .label("this route goes past the limit")
        .help("a board's routes fit in this; the distance between every two places is worked out")
}

pub fn zero_copies(span: Span) -> Diagnostic {
    Diagnostic::error(Code::OutOfRange, span, "a component has at least 1 copy")
        .label("`x0` makes nothing")
        .help("delete the line to remove the component")
}

pub fn row_slots_out_of_range(span: Span) -> Diagnostic {
    Diagnostic::error(Code::OutOfRange, span, "a row has 1 to 1000 slots")
        .label("out of range")
        .help("give the number of slots the board shows")
}

pub fn player_count_outside_game(span: Span, lo: u32, hi: u32, n: i64) -> Diagnostic {
    Diagnostic::error(Code::OutOfRange, span, format!("the game is for {lo} to {hi} players, not {n}"))
        .label("no such player count")
        .help(format!("use counts from {lo} to {hi}, or widen `players` in `game`"))
}

pub fn backwards_range(span: Span, lo: i64, hi: i64) -> Diagnostic {
    Diagnostic::error(Code::BadRange, span, "range runs backwards")
        .label(format!("{lo} is greater than {hi}"))
        .help(format!("write `{hi}..{lo}`"))
}

pub fn open_dimension(span: Span, lo: i64) -> Diagnostic {
    Diagnostic::error(Code::BadRange, span, "a table dimension needs both ends")
        .label("open-ended")
        .help(format!("write `{lo}..N`"))
}

pub fn total_mismatch(span: Span, group: &Ident, noun: &str, declared: i64, total: i64) -> Diagnostic {
    Diagnostic::error(
        Code::TotalMismatch,
        span,
        format!("`{}` is declared with {declared} {noun}, but its lines add up to {total}", group.name),
    )
    .label(format!("declared {declared}"))
    .related(group.span, format!("the listed counts add up to {total}"))
    .help("fix the counts (`x2`) or the declared total")
}

pub fn too_many_values(name: &Ident, values: u128, max: u128) -> Diagnostic {
    Diagnostic::error(
        Code::TooManyChoices,
        name.span,
        format!("`{}` can take {values} values, more than {max}", name.name),
    )
    .label("too many values to try")
    .help("narrow the range: the engine tries every value to find the legal choices")
}

pub fn too_many_combinations(name: &Ident, combinations: u128, max: u128) -> Diagnostic {
    Diagnostic::error(
        Code::TooManyChoices,
        name.span,
        format!("`{}` has up to {combinations} combinations of parameter values, more than {max}", name.name),
    )
    .label("too many choices to try")
    .help("narrow the parameters' ranges, or split the action in two")
}

// ---------------------------------------------------------------- zones

pub fn unknown_visibility(name: &Ident) -> Diagnostic {
    Diagnostic::error(Code::BadZoneOption, name.span, format!("unknown visibility `{}`", name.name))
        .label("not a visibility")
        .help("write `visible to all`, `visible to owner` or `visible to none`")
}

pub fn owner_without_owner(span: Span) -> Diagnostic {
    Diagnostic::error(
        Code::BadZoneOption,
        span,
        "only a zone that each player has can be visible to its owner",
    )
    .label("this zone has no owner")
    .help("add `per player`, or make it `visible to all` or `visible to none`")
}

pub fn slots_on_a_non_row(span: Span, kind: &str) -> Diagnostic {
    Diagnostic::error(Code::BadZoneOption, span, format!("a {kind} has no slots"))
        .label("`slots` is only for rows")
        .help("make the zone a `row`, or drop `slots`")
}

pub fn row_without_slots(span: Span) -> Diagnostic {
    Diagnostic::error(Code::BadZoneOption, span, "a row needs its slots")
        .label("how many slots?")
        .help("add `slots 4` or `slots a, b, c`")
}

pub fn overflow_on_a_non_row(span: Span) -> Diagnostic {
    Diagnostic::error(Code::BadZoneOption, span, "only a row can overflow")
        .label("this zone has no slots to push along")
        .help("make the zone a `row`, or drop `overflow to`")
}

// ---------------------------------------------------------------- routes

pub fn self_route(span: Span, place: &str) -> Diagnostic {
    Diagnostic::error(Code::SelfRoute, span, format!("route from `{place}` to itself"))
        .label("both ends are the same place")
        .help("a route joins two different places")
}

pub fn duplicate_route(span: Span, a: &str, b: &str, prev: Span) -> Diagnostic {
    Diagnostic::error(Code::DuplicateRoute, span, format!("route `{a} - {b}` is listed twice"))
        .label("second listing")
        .related(prev, "first listing")
        .help("delete one; routes go both ways")
}

pub fn class_off_the_board(span: Span, class: &str, names: &[&str], start: &str) -> Diagnostic {
    Diagnostic::error(Code::Unreachable, span, format!("no route reaches any `{class}` from `{start}`"))
        .label(format!("no route touches `{class}` ({})", names.join(", ")))
        .help(format!(
            "if these are not places on the board, declare them with `enum {class} {}`; \
             otherwise add routes, such as `route {} - {start}`",
            names.join(", "),
            names.first().copied().unwrap_or(class)
        ))
}

pub fn unreachable(span: Span, name: &str, start: &str) -> Diagnostic {
    Diagnostic::error(Code::Unreachable, span, format!("no route reaches `{name}` from `{start}`"))
        .label("unreachable place")
        .help(format!("add a route such as `route {name} - {start}`"))
}

// ---------------------------------------------------------------- tables

pub fn too_many_cells(name: &Ident, cells: i64, max: i64) -> Diagnostic {
    Diagnostic::error(Code::TableShape, name.span, format!("table `{}` would have {cells} cells", name.name))
        .label(format!("more than {max} cells"))
        .help("narrow the dimensions")
}

pub fn row_outside(span: Span, key: i64, dim: &str, lo: i64, hi: i64) -> Diagnostic {
    Diagnostic::error(Code::TableShape, span, format!("row {key} is outside `{dim}` {lo}..{hi}"))
        .label("no such row")
        .help(format!("rows run from {lo} to {hi}"))
}

pub fn row_out_of_order(span: Span, key: i64, what: &str, expected: i64, dim: &str) -> Diagnostic {
    Diagnostic::error(Code::TableShape, span, format!("row {key} is {what}; expected row {expected}"))
        .label(format!("expected row {expected} here"))
        .help(format!("list the rows of `{dim}` in order, each once"))
}

pub fn rows_missing(span: Span, table: &str, expected: i64, dim: &str, hi: i64) -> Diagnostic {
    Diagnostic::error(
        Code::TableShape,
        span,
        format!("table `{table}` stops at row {}; `{dim}` runs to {hi}", expected - 1),
    )
    .label(format!("row {expected} should follow"))
    .help(if expected == hi {
        format!("add row {expected}")
    } else {
        format!("add rows {expected} to {hi}")
    })
}

pub fn flat_list_for_rows(span: Span, dims: usize) -> Diagnostic {
    Diagnostic::error(Code::TableShape, span, format!("a table with {dims} dimensions is written as rows"))
        .label("one flat list")
        .help("write `{ 1: [...]  2: [...] }`, one row per key")
}

pub fn unsupported_table_shape(name: &Ident, n: usize) -> Diagnostic {
    Diagnostic::error(
        Code::TableShape,
        name.span,
        format!("table `{}` has {n} dimension{}; tables have 1 (a list) or 2 (rows)", name.name, plural(n)),
    )
    .label("unsupported shape")
    .help(if n == 1 {
        "write a 1-dimension table as `= [a, b, c]`"
    } else {
        "split it into 2-dimension tables"
    })
}

pub fn row_length(span: Span, table: &str, dim: &str, expected: i64, n: i64) -> Diagnostic {
    Diagnostic::error(
        Code::TableShape,
        span,
        format!("table `{table}` needs {expected} values along `{dim}`, this row has {n}"),
    )
    .label(if n > expected { "extra values".to_string() } else { format!("{} missing", expected - n) })
    .help(format!("give exactly {expected} values, one per `{dim}`"))
}

pub fn which_place(span: Span, class: &str, example: &str) -> Diagnostic {
    Diagnostic::error(Code::TableIndex, span, format!("there is one of these per {class}; say which"))
        .label(format!("needs `[{class}]`"))
        .help(format!("write `...[{example}]` or `...[s]` with `s` a {class}"))
}

pub fn table_needs_keys(span: Span, name: &str, dims: usize, given: usize, keys: &str) -> Diagnostic {
    Diagnostic::error(
        Code::TableIndex,
        span,
        format!("table `{name}` has {dims} dimension{}, given {given}", plural(dims)),
    )
    .label("not a number yet")
    .help(format!("write `{name}{keys}`"))
}

pub fn too_many_keys(span: Span, name: &str, dims: usize) -> Diagnostic {
    Diagnostic::error(
        Code::TableIndex,
        span,
        format!("table `{name}` has only {dims} dimension{}", plural(dims)),
    )
    .label("one index too many")
    .help("remove this index")
}

pub fn not_indexable(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(Code::TableIndex, span, format!("{what} cannot be indexed"))
        .label("`[...]` does not apply here")
        .help("index tables, per-place zones and counters, and maps")
}

// ------------------------------------------------- calls and aggregates

pub fn split_needs_two_piles(span: Span) -> Diagnostic {
    Diagnostic::error(Code::Arity, span, "`split` needs at least two piles")
        .label("one pile is a move")
        .help("write `split deck into pile1, pile2`, or use `move all`")
}

pub fn wrong_argument_count(span: Span, name: &Ident, want: usize, got: usize) -> Diagnostic {
    Diagnostic::error(
        Code::Arity,
        span,
        format!("`{}` takes {want} argument{}, found {got}", name.name, plural(want)),
    )
    .label(format!("{got} given"))
    .help(format!("pass {want} value{}", plural(want)))
}

pub fn called_without_arguments(span: Span, name: &Ident, want: usize) -> Diagnostic {
    Diagnostic::error(Code::Arity, span, format!("`{}` takes {want} argument{}", name.name, plural(want)))
        .label("called without arguments")
        .help(format!("write `{}(...)`", name.name))
}

pub fn nothing_to_compare(span: Span, name: &Ident) -> Diagnostic {
    Diagnostic::error(Code::Arity, span, format!("`{}` needs at least one value", name.name))
        .label("nothing to compare")
        .help(format!("write `{}(a, b)`", name.name))
}

pub fn aggregate_without_value(span: Span, func: &Ident) -> Diagnostic {
    Diagnostic::error(Code::AggregateForm, span, format!("`{}` needs what to add up", func.name))
        .label(format!("`{}` of what?", func.name))
        .help(format!("write `{}(c.value for c in ZONE)`", func.name))
}

pub fn aggregate_with_value(span: Span, func: &Ident) -> Diagnostic {
    Diagnostic::error(Code::AggregateForm, span, format!("`{}` takes no value before `for`", func.name))
        .label("not used")
        .help(format!("write `{}(x in DOMAIN where CONDITION)`", func.name))
}

pub fn aggregate_without_condition(span: Span, func: &Ident) -> Diagnostic {
    Diagnostic::error(Code::AggregateForm, span, format!("`{}` needs a condition", func.name))
        .label("no `where`")
        .help(format!("write `{}(x in DOMAIN where CONDITION)`", func.name))
}

// ------------------------------------------------------ recursion, setup

pub fn let_recursion(name: &Ident) -> Diagnostic {
    Diagnostic::error(Code::Recursion, name.span, format!("`{}` is defined in terms of itself", name.name))
        .label("this definition needs its own value")
        .help("a let cannot call itself, directly or through others")
}

pub fn call_chain_too_long(span: Span, name: &str, max: usize) -> Diagnostic {
    Diagnostic::error(
        Code::Recursion,
        span,
        format!("`{name}` starts a chain of more than {max} procedure calls"),
    )
    .label("calls a procedure that calls another, and so on")
    .help("each call runs inside the one before; merge procedures so that chains stay short")
}

pub fn evaluation_too_deep(name: &Ident, max: usize) -> Diagnostic {
    Diagnostic::error(
        Code::Recursion,
        name.span,
        format!("reading `{}` goes more than {max} levels deep", name.name),
    )
    .label("a let that reads lets that read lets, and the expressions around them")
    .help("each let read runs inside the expression that reads it; shorten the chain of lets")
}

pub fn procedure_recursion(span: Span, name: &str) -> Diagnostic {
    Diagnostic::error(Code::Recursion, span, format!("`{name}` ends up calling itself"))
        .label("this call closes a loop")
        .help("procedures may not call themselves, directly or through others; use `repeat while`")
}

pub fn player_count_twice(span: Span, n: i64, prev: Span) -> Diagnostic {
    Diagnostic::error(Code::SetupCoverage, span, format!("{n} players is covered twice"))
        .label("second block for this count")
        .related(prev, "first block for this count")
        .help("each player count gets exactly one block")
}

/// `from_edition`: the statement is in a base file (`Some`), with its name
/// if it has one.
pub fn player_counts_missing(
    span: Span,
    missing: &[String],
    covered: &str,
    from_edition: Option<Option<&str>>,
) -> Diagnostic {
    let list = missing.join(", ");
    let s = if missing.len() == 1 && missing[0] == "1" { "" } else { "s" };
    let help = match from_edition {
        None => format!("add a block `{list}: {{ ... }}` (a block may be empty)"),
        Some(Some(name)) => {
            format!("in your file, add `override by players {name} {list}: {{ ... }}` (a block may be empty)")
        }
        Some(None) => format!(
            "in your file, add `override by players {list}: {{ ... }}` (a block may be empty); if the base \
             has several `by players`, the one to change needs a name there (`by players NAME {{ ... }}`)"
        ),
    };
    Diagnostic::error(Code::SetupCoverage, span, format!("`by players` has no block for {list} player{s}"))
        .label(format!("covers {covered}"))
        .help(help)
}

/// A warning: the engine tries such choices in full and plays them right,
/// but which choices are legal then tells a player what was drawn.
pub fn require_after_chance(span: Span, chance: Span) -> Diagnostic {
    Diagnostic::warning(
        Code::RequireAfterChance,
        span,
        "a `require` after a draw by chance or from a hidden zone",
    )
    .label("legality depends on what is drawn")
    .related(chance, "chance, or a hidden zone, here")
    .help(
        "the list of legal choices would tell players what was drawn: move the `require` above the draw, \
         or turn it into an `if` that does something else",
    )
}

pub fn row_fill(span: Span, zone: &str, slots: i64, drawn: i64, declared: Span) -> Diagnostic {
    let (what, help) = if drawn < slots {
        let empty = slots - drawn;
        (
            format!(
                "{empty} slot{} stay{} empty",
                if empty == 1 { "" } else { "s" },
                if empty == 1 { "s" } else { "" }
            ),
            format!("draw {slots} to fill the row, or declare `slots {drawn}`"),
        )
    } else {
        ("more than the row holds".to_string(), format!("draw {slots}, or declare `slots {drawn}`"))
    };
    Diagnostic::warning(
        Code::RowFill,
        span,
        format!("setup draws {drawn} into `{zone}`, which has {slots} slots: {what}"),
    )
    .label(format!("{drawn} drawn"))
    .related(declared, format!("{slots} slots"))
    .help(help)
}

/// A warning: a local named like a place or an enumeration's value reads
/// as the local everywhere it is in scope (`if d == s` with a parameter
/// `s` compares with the parameter, not with the value `s`).
pub fn hides_value(name: &Ident, class: &str, declared: Span) -> Diagnostic {
    Diagnostic::warning(
        Code::HidesValue,
        name.span,
        format!("`{}` hides the {class} value `{}` wherever it is in scope", name.name, name.name),
    )
    .label("a local of this name")
    .related(declared, "the value it hides")
    .help("rename the local: inside its scope, the name means the local, never the value")
}

pub fn unused(span: Span, noun: &str, name: &str, help: &str) -> Diagnostic {
    Diagnostic::warning(Code::Unused, span, format!("{noun} `{name}` is never used"))
        .label("defined but not used")
        .help(help)
}
