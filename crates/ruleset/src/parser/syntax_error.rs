//! pest's errors as diagnostics: what was expected, in words, where.

use pest::error::{ErrorVariant, InputLocation};

use super::keywords::{is_item_keyword, is_statement_keyword, item_words};
use super::Rule;
use crate::diagnostic::{Code, Diagnostic};
use crate::span::Span;

/// A human name for what a grammar rule stands for, or `None` when the rule
/// should not be mentioned in an "expected ..." list.
fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "end of file",
        Rule::WHITESPACE
        | Rule::comment_body
        | Rule::file
        | Rule::ident_char
        | Rule::reserved
        | Rule::name
        | Rule::item
        | Rule::stmt
        | Rule::prefix
        | Rule::infix
        | Rule::postfix
        | Rule::primary => return None,
        Rule::kw_game => "`game`",
        Rule::kw_extends => "`extends`",
        Rule::kw_override => "`override`",
        Rule::kw_remove => "`remove`",
        Rule::extends_item | Rule::override_item | Rule::remove_item => "an item",
        Rule::table_cell => "a table cell such as `table chart[3][4] = 5`",
        Rule::instance_removal => "`remove \"Name\"`",
        Rule::kw_players => "`players`",
        Rule::kw_actions => "`actions`",
        Rule::kw_option => "`option`",
        Rule::kw_place => "`place`",
        Rule::kw_route => "`route`",
        Rule::kw_tag => "`tag`",
        Rule::kw_kind => "`kind`",
        Rule::kw_group => "`cards`, `tokens` or `tiles`",
        Rule::kw_of => "`of`",
        Rule::kw_total => "`total`",
        Rule::kw_zone => "`zone`",
        Rule::kw_per => "`per player`",
        Rule::kw_player => "`player`",
        Rule::kw_visible => "`visible to`",
        Rule::kw_to => "`to`",
        Rule::kw_slots => "`slots`",
        Rule::kw_overflow => "`overflow to`",
        Rule::kw_counter => "`counter`",
        Rule::kw_piece => "`piece`",
        Rule::kw_at => "`at`",
        Rule::kw_table => "`table`",
        Rule::kw_clamp => "`clamp`",
        Rule::kw_bookkeeping | Rule::bookkeeping => "`bookkeeping`",
        Rule::kw_shown | Rule::shown => "`shown`",
        Rule::kw_let => "`let`",
        Rule::kw_procedure => "`procedure`",
        Rule::kw_setup => "`setup`",
        Rule::kw_turns => "`turns`",
        Rule::kw_lowest => "`lowest`",
        Rule::kw_clockwise => "`clockwise`",
        Rule::kw_until => "`until`",
        Rule::kw_enum => "`enum`",
        Rule::kw_grid => "`grid`",
        Rule::grid_size => "a grid size such as `grid 13 x 13`",
        Rule::kw_turn => "`turn`",
        Rule::kw_ask => "`ask`",
        Rule::kw_asked => "`asked`",
        Rule::kw_random => "`random`",
        Rule::kw_action => "`action`",
        Rule::kw_after => "`after`",
        Rule::kw_end => "`end`",
        Rule::kw_when => "`when`",
        Rule::kw_score => "`score`",
        Rule::kw_majority => "`majority`",
        Rule::kw_tiebreak => "`tiebreak`",
        Rule::kw_highest => "`highest`",
        Rule::kw_on | Rule::kw_back | Rule::on_back => "`on back`",
        Rule::kw_reveal => "`reveal`",
        Rule::kw_source | Rule::kw_provisional | Rule::note | Rule::notes => {
            "a note (`source \"...\"` or `provisional \"...\"`)"
        }
        Rule::kw_require => "`require`",
        Rule::kw_else => "`else`",
        Rule::kw_set => "`set`",
        Rule::kw_advance => "`advance`",
        Rule::kw_by => "`by`",
        Rule::kw_rule => "`rule`",
        Rule::kw_move => "`move`",
        Rule::kw_draw => "`draw`",
        Rule::kw_from => "`from`",
        Rule::kw_shuffle => "`shuffle`",
        Rule::kw_split => "`split`",
        Rule::kw_into => "`into`",
        Rule::kw_if => "`if`",
        Rule::kw_then => "`then`",
        Rule::kw_for => "`for`",
        Rule::kw_in => "`in`",
        Rule::kw_where => "`where`",
        Rule::kw_repeat => "`repeat`",
        Rule::kw_while => "`while`",
        Rule::kw_do => "`do`",
        Rule::kw_all => "`all`",
        Rule::kw_first => "`first`",
        Rule::kw_top | Rule::kw_bottom | Rule::kw_front | Rule::position => {
            "a position (`top of`, `bottom of`, `front of`)"
        }
        Rule::kw_and
        | Rule::kw_or
        | Rule::kw_has
        | Rule::or_op
        | Rule::and_op
        | Rule::eq
        | Rule::ne
        | Rule::le
        | Rule::ge
        | Rule::lt
        | Rule::gt
        | Rule::add
        | Rule::sub
        | Rule::mul
        | Rule::div
        | Rule::rem
        | Rule::has_op
        | Rule::infix_start => "an operator",
        Rule::kw_not | Rule::not_op | Rule::neg | Rule::prefix_start => "an expression",
        Rule::kw_true | Rule::kw_false => "`yes` or `no`",
        Rule::kw_none => "`none`",
        Rule::ident => "a name",
        Rule::int | Rule::signed_int => "a number",
        Rule::string | Rule::string_body => "a quoted text",
        Rule::count => "a count such as `x4`",
        Rule::range => "a range such as `1..12`",
        Rule::ident_list => "a list of names",
        Rule::game_item
        | Rule::option_item
        | Rule::place_item
        | Rule::enum_item
        | Rule::tag_item
        | Rule::route_item
        | Rule::kind_item
        | Rule::group_item
        | Rule::zone_item
        | Rule::counter_item
        | Rule::piece_item
        | Rule::table_item
        | Rule::let_item
        | Rule::procedure_item
        | Rule::setup_item
        | Rule::turns_item
        | Rule::action_item
        | Rule::hook_item
        | Rule::end_item
        | Rule::score_item
        | Rule::tiebreak_item => "an item",
        Rule::tiebreak_key => "`lowest EXPRESSION` or `highest EXPRESSION`",
        Rule::game_field => "`players` or a note",
        Rule::route_edge => "a route such as `London - Paris`",
        Rule::attr_decl => "an attribute such as `weeks: 1..6`",
        Rule::type_expr | Rule::map_type => "a type",
        Rule::optional_mark => "`?`",
        Rule::instance => "a component such as `\"Car\" x2 { ... }`",
        Rule::field => "a field such as `weeks: 3`",
        Rule::value | Rule::map_value | Rule::list_value | Rule::literal => "a value",
        Rule::map_entry => "an entry such as `Egypt: 2`",
        Rule::index_decl => "`[class]`",
        Rule::zone_option => {
            "a zone option (`per player`, `visible to`, `slots`, `overflow to`, `shown \"...\"`)"
        }
        Rule::per_player => "`per player`",
        Rule::visibility => "`visible to`",
        Rule::slots => "`slots`",
        Rule::overflow => "`overflow to`",
        Rule::zone_label => "`shown \"words players read\"`",
        Rule::dimension => "a dimension such as `[weeks: 1..12]`",
        Rule::table_body => "`= [...]` or `{ rows }`",
        Rule::table_row => "a row such as `1: [0, 1, 2]`",
        Rule::int_row => "a list of numbers such as `[0, 1, 2]`",
        Rule::params => "parameters such as `(s: site)`",
        Rule::param => "a parameter such as `s: site`",
        Rule::param_in => "`in`",
        Rule::param_set => "`set of`",
        Rule::turn_policy => "`by lowest COUNTER` or `clockwise`",
        Rule::until_end_turn => "`until end turn`",
        Rule::when_asked => "`when asked`",
        Rule::at_random => "`at random`",
        Rule::score_index => "`[s: class]`",
        Rule::score_majority => "`majority`",
        Rule::block => "a block `{ ... }`",
        Rule::require_stmt
        | Rule::let_stmt
        | Rule::set_stmt
        | Rule::advance_stmt
        | Rule::move_stmt
        | Rule::draw_stmt
        | Rule::shuffle_stmt
        | Rule::split_stmt
        | Rule::reveal_stmt
        | Rule::ask_stmt
        | Rule::end_turn_stmt
        | Rule::if_stmt
        | Rule::for_stmt
        | Rule::repeat_stmt
        | Rule::do_stmt
        | Rule::by_players_stmt
        | Rule::rule_stmt => "a statement",
        Rule::player_case => "a player count such as `2, 3: { ... }`",
        Rule::players_case_item => "`by players 5: { ... }`",
        Rule::selection | Rule::select_all | Rule::select_first => "what to move",
        Rule::expr
        | Rule::paren
        | Rule::cond_expr
        | Rule::call
        | Rule::players_from
        | Rule::from_who
        | Rule::agg_bare
        | Rule::agg_for
        | Rule::field_access
        | Rule::index
        | Rule::postfix_start => "an expression",
    })
}

fn join_alternatives(mut names: Vec<&str>) -> String {
    names.dedup();
    match names.len() {
        0 => "something else".to_string(),
        1 => names[0].to_string(),
        n => format!("{} or {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// Convert a pest error on `source[offset..chunk_end]` into a diagnostic.
pub(super) fn syntax_error(
    error: &pest::error::Error<Rule>,
    source: &str,
    file: usize,
    offset: usize,
    chunk_end: usize,
) -> Diagnostic {
    let chunk = &source[offset..chunk_end];
    let pos = match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    if let ErrorVariant::CustomError { message } = &error.variant {
        // pest only reports custom errors for the call limit.
        let span = Span::in_file(file, offset + pos, offset + pos);
        return Diagnostic::error(Code::TooComplex, span, format!("too complex to parse: {message}"))
            .label("parsing gave up here")
            .help("simplify this part of the file");
    }
    let positives: Vec<Rule> = match &error.variant {
        ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        ErrorVariant::CustomError { .. } => Vec::new(),
    };
    // Only where an item may start are several item-only keywords expected.
    let item_keywords =
        positives.iter().filter(|r| is_item_keyword(**r) && !is_statement_keyword(**r)).count();
    let statement_keywords = positives.iter().filter(|r| is_statement_keyword(**r)).count();
    let mut names: Vec<&str> = Vec::new();
    let literals: Vec<String> = error
        .parse_attempts()
        .map(|a| a.expected_tokens())
        .unwrap_or_default()
        .into_iter()
        .map(|t| t.to_string())
        .filter(|t| is_structural_token(t))
        .map(|t| format!("`{t}`"))
        .collect();
    names.extend(literals.iter().map(String::as_str));
    if item_keywords >= 3 {
        names.push("an item (`game`, `place`, `kind`, `cards`, `zone`, `table`, `action`, ...)");
    }
    if statement_keywords >= 5 {
        names.push("a statement (`require`, `let`, `set`, `move`, `draw`, `if`, ...)");
    }
    for rule in &positives {
        let skip = (item_keywords >= 3 && is_item_keyword(*rule))
            || (statement_keywords >= 5 && is_statement_keyword(*rule));
        if skip {
            continue;
        }
        if let Some(name) = describe(*rule) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    // At the end of a piece the parser met the next item's keyword: the
    // item before it was left unfinished.
    let unfinished = offset + pos >= chunk_end && chunk_end < source.len();
    if names.contains(&"an expression") {
        // The pieces an expression can start with add nothing to "an expression".
        names.retain(|n| {
            !["`if`", "`yes` or `no`", "`none`", "`players`", "a name", "a number", "a quoted text"]
                .contains(n)
        });
    }
    let (found, len) = describe_found(source, offset + pos);
    let span = Span::in_file(file, offset + pos, offset + pos + len);
    let expected = join_alternatives(names);
    let mut d = Diagnostic::error(Code::Syntax, span, format!("expected {expected}, found {found}"))
        .label(format!("expected {expected}"));
    if unfinished {
        d = d
            .label("the item above is not finished when this one starts")
            .help(format!("finish the item above: it still expects {expected}"));
    }
    let rest = &chunk[pos.min(chunk.len())..];
    if rest.starts_with('"') && !rest[1..].split('\n').next().unwrap_or("").contains('"') {
        d = Diagnostic::error(Code::Syntax, span, "unterminated text".to_string())
            .label("this text has no closing `\"` on its line")
            .help("close the text with `\"` before the end of the line");
    } else if item_keywords >= 3 && rest.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
        let word: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        d = d.maybe_help(crate::suggest::help_for(&word, item_words()));
    } else if found == "`=`" && rest.starts_with('=') && !rest.starts_with("==") {
        d = d.help("to compare, write `==`; to change a value, write `set NAME = VALUE`");
    } else if let Some(word) = [("&&", "and"), ("||", "or"), ("!=", ""), ("!", "not")]
        .iter()
        .find(|(op, _)| rest.starts_with(op) && !(*op == "!" && rest.starts_with("!=")))
        .map(|(_, w)| *w)
        .filter(|w| !w.is_empty())
    {
        d = d.help(format!("the language writes this operator as a word: `{word}`"));
    } else if rest.starts_with('.') && for_over_numbers(&chunk[..pos.min(chunk.len())]) {
        d = Diagnostic::error(Code::Syntax, span, "`for` goes through things, not a range of numbers")
            .label("a range of numbers")
            .help(
                "`for` goes through players, the places of a class or the components of a zone \
                 (`for p in players`); to do something several times, count with a counter and \
                 `repeat while COUNTER < N { ... }`",
            );
    }
    d
}

/// Whether the text before an error ends in `for NAME in NUMBER` (and the
/// first dot of `..`, read as a field's).
fn for_over_numbers(before: &str) -> bool {
    let words: Vec<&str> = before.trim_end_matches('.').split_whitespace().rev().take(4).collect();
    matches!(words.as_slice(), [n, "in", _, "for"] if n.trim_start_matches('-').parse::<i64>().is_ok())
}

/// Punctuation worth naming in "expected ...": operators are summed up as
/// "an operator", whitespace and comment starts are never worth naming.
fn is_structural_token(token: &str) -> bool {
    matches!(token, ":" | "=" | "," | "{" | "}" | ")" | "]" | "->" | "?" | "..")
}

/// What the parser found where it failed, for the message, and how long it is.
fn describe_found(chunk: &str, pos: usize) -> (String, usize) {
    let rest = &chunk[pos.min(chunk.len())..];
    let Some(first) = rest.chars().next() else {
        return ("end of file".to_string(), 0);
    };
    if first.is_ascii_alphanumeric() || first == '_' {
        let word: String =
            rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').take(40).collect();
        let len = word.len();
        (format!("`{word}`"), len)
    } else if first == '\n' || first == '\r' {
        ("end of line".to_string(), 0)
    } else if first.is_control() || first == '\u{FFFD}' {
        (format!("character U+{:04X}", first as u32), first.len_utf8())
    } else {
        let two: String = rest.chars().take(2).collect();
        if ["==", "!=", "<=", ">=", "->", ".."].contains(&two.as_str()) {
            (format!("`{two}`"), 2)
        } else {
            (format!("`{first}`"), first.len_utf8())
        }
    }
}
