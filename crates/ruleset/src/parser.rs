//! Text to syntax tree: pest parse, error conversion and error recovery.
//!
//! Parsing never fails outright: it returns every item it could build plus a
//! diagnostic for each part it could not. When the whole file does not parse,
//! the file is cut at each line that starts (in column 0) with an item
//! keyword and every piece is parsed on its own, so one typo does not hide the
//! mistakes after it.

use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser as _;

use crate::ast::*;
use crate::diagnostic::{Code, Diagnostic};
use crate::span::{Ident, Span};

#[derive(pest_derive::Parser)]
#[grammar = "../../grammar/ruleset.pest"]
struct RulesetParser;

/// Files larger than this are refused before parsing.
pub const MAX_FILE_BYTES: usize = 16 * 1024 * 1024;
/// Brackets, braces and parentheses nested deeper than this are refused.
pub const MAX_NESTING: usize = 64;
/// Bound on pest's work, so hostile input cannot make it backtrack forever.
const CALL_LIMIT: usize = 400_000_000;

const ITEM_KEYWORDS: &[&str] = &[
    "extends",
    "override",
    "remove",
    "game",
    "option",
    "place",
    "route",
    "kind",
    "cards",
    "tokens",
    "tiles",
    "zone",
    "counter",
    "piece",
    "table",
    "let",
    "procedure",
    "setup",
    "turns",
    "action",
    "after",
    "end",
    "score",
    "tiebreak",
];

/// Parse one ruleset file (file number 0).
pub fn parse(source: &str) -> (File, Vec<Diagnostic>) {
    parse_file(source, 0)
}

/// Parse one file of a ruleset; every span carries `file`.
pub fn parse_file(source: &str, file_id: usize) -> (File, Vec<Diagnostic>) {
    // A byte-order mark is blank: blank it out, keeping every offset.
    if let Some(rest) = source.strip_prefix('\u{FEFF}') {
        let blanked = format!("   {rest}");
        return parse_file(&blanked, file_id);
    }
    let mut diags = Vec::new();
    if source.len() > MAX_FILE_BYTES {
        diags.push(
            Diagnostic::error(
                Code::TooLarge,
                Span::new(0, 0),
                format!(
                    "file is {} bytes, more than the {} MiB a ruleset may have",
                    source.len(),
                    MAX_FILE_BYTES / (1024 * 1024)
                ),
            )
            .label("file starts here")
            .help("split the game into a base ruleset and smaller files that extend it"),
        );
        return (File::default(), diags);
    }
    if let Some(d) = nesting_error(source, file_id) {
        diags.push(d);
        return (File::default(), diags);
    }
    pest::set_call_limit(std::num::NonZeroUsize::new(CALL_LIMIT));

    match RulesetParser::parse(Rule::file, source) {
        Ok(pairs) => {
            let mut lower = Lower { offset: 0, file: file_id, diags: &mut diags };
            let file = lower.file(pairs);
            (file, diags)
        }
        Err(whole) => {
            // Recovery: collect detailed expectations (literal tokens such as
            // `:` or `}` too), which costs time only on broken files.
            pest::set_error_detail(true);
            let mut file = File::default();
            let starts = chunk_starts(source);
            for (i, &start) in starts.iter().enumerate() {
                let end = starts.get(i + 1).copied().unwrap_or(source.len());
                let chunk = &source[start..end];
                match RulesetParser::parse(Rule::file, chunk) {
                    Ok(pairs) => {
                        let mut lower = Lower { offset: start, file: file_id, diags: &mut diags };
                        file.items.extend(lower.file(pairs).items);
                    }
                    Err(e) => diags.push(syntax_error(&e, source, file_id, start, end)),
                }
            }
            pest::set_error_detail(false);
            if !diags.iter().any(Diagnostic::is_error) {
                // Every piece parsed alone (the whole file hit a limit, say):
                // the whole-file error still stands.
                diags.push(syntax_error(&whole, source, file_id, 0, source.len()));
            }
            (file, diags)
        }
    }
}

/// Offsets of the lines that begin an item, plus 0.
fn chunk_starts(source: &str) -> Vec<usize> {
    let mut starts = vec![0];
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        if offset > 0 {
            let word: String = line.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if ITEM_KEYWORDS.contains(&word.as_str()) {
                starts.push(offset);
            }
        }
        offset += line.len();
    }
    starts
}

/// Refuse input nested deeper than `MAX_NESTING`, before pest recurses into it.
fn nesting_error(source: &str, file: usize) -> Option<Diagnostic> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut in_comment = false;
    let bytes = source.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if in_comment {
            in_comment = b != b'\n';
            continue;
        }
        if in_string {
            in_string = !(b == b'"' || b == b'\n');
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'/' if bytes.get(i + 1) == Some(&b'/') => in_comment = true,
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(
                        Diagnostic::error(
                            Code::TooDeep,
                            Span::in_file(file, i, i + 1),
                            format!("brackets nested more than {MAX_NESTING} deep"),
                        )
                        .label("this one is too deep")
                        .help("name the inner part with `let` and use the name"),
                    );
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// A human name for what a grammar rule stands for, or `None` when the rule
/// should not be mentioned in an "expected ..." list.
fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "end of file",
        Rule::WHITESPACE
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
        Rule::kw_let => "`let`",
        Rule::kw_procedure => "`procedure`",
        Rule::kw_setup => "`setup`",
        Rule::kw_turns => "`turns`",
        Rule::kw_lowest => "`lowest`",
        Rule::kw_clockwise => "`clockwise`",
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
        | Rule::has_op => "an operator",
        Rule::kw_not | Rule::not_op | Rule::neg => "an expression",
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
        Rule::zone_option => "a zone option (`per player`, `visible to`, `slots`, `overflow to`)",
        Rule::per_player => "`per player`",
        Rule::visibility => "`visible to`",
        Rule::slots => "`slots`",
        Rule::overflow => "`overflow to`",
        Rule::dimension => "a dimension such as `[weeks: 1..12]`",
        Rule::table_body => "`= [...]` or `{ rows }`",
        Rule::table_row => "a row such as `1: [0, 1, 2]`",
        Rule::int_row => "a list of numbers such as `[0, 1, 2]`",
        Rule::params => "parameters such as `(s: site)`",
        Rule::param => "a parameter such as `s: site`",
        Rule::param_in => "`in`",
        Rule::turn_policy => "`by lowest COUNTER` or `clockwise`",
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
        | Rule::if_stmt
        | Rule::for_stmt
        | Rule::repeat_stmt
        | Rule::do_stmt
        | Rule::by_players_stmt => "a statement",
        Rule::player_case => "a player count such as `2, 3: { ... }`",
        Rule::selection | Rule::select_all | Rule::select_first => "what to move",
        Rule::expr
        | Rule::paren
        | Rule::cond_expr
        | Rule::aggregate
        | Rule::call
        | Rule::field_access
        | Rule::index => "an expression",
    })
}

const STATEMENT_KEYWORDS: &[Rule] = &[
    Rule::kw_require,
    Rule::kw_let,
    Rule::kw_set,
    Rule::kw_advance,
    Rule::kw_move,
    Rule::kw_draw,
    Rule::kw_shuffle,
    Rule::kw_split,
    Rule::kw_reveal,
    Rule::kw_if,
    Rule::kw_for,
    Rule::kw_repeat,
    Rule::kw_do,
    Rule::kw_by,
];

fn join_alternatives(mut names: Vec<&str>) -> String {
    names.dedup();
    match names.len() {
        0 => "something else".to_string(),
        1 => names[0].to_string(),
        n => format!("{} or {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// Convert a pest error on `source[offset..chunk_end]` into a diagnostic.
fn syntax_error(
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
    let item_keywords = positives
        .iter()
        .filter(|r| {
            matches!(r, Rule::kw_game | Rule::kw_option | Rule::kw_kind | Rule::kw_zone | Rule::kw_action)
        })
        .count();
    let statement_keywords = positives.iter().filter(|r| STATEMENT_KEYWORDS.contains(r)).count();
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
            || (statement_keywords >= 5 && STATEMENT_KEYWORDS.contains(rule));
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
            !["`if`", "`yes` or `no`", "`none`", "a name", "a number", "a quoted text"].contains(n)
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
        d = d.maybe_help(crate::suggest::help_for(&word, ITEM_KEYWORDS.iter().copied()));
    } else if found == "`=`" && rest.starts_with('=') && !rest.starts_with("==") {
        d = d.help("to compare, write `==`; to change a value, write `set NAME = VALUE`");
    }
    d
}

/// Punctuation worth naming in "expected ...": operators are summed up as
/// "an operator", whitespace and comment starts are never worth naming.
fn is_structural_token(token: &str) -> bool {
    matches!(token, ":" | "=" | "," | "{" | "}" | ")" | "]" | "->" | "?" | "..")
}

fn is_item_keyword(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::kw_extends
            | Rule::kw_override
            | Rule::kw_remove
            | Rule::kw_game
            | Rule::kw_option
            | Rule::kw_place
            | Rule::kw_route
            | Rule::kw_tag
            | Rule::kw_kind
            | Rule::kw_group
            | Rule::kw_zone
            | Rule::kw_counter
            | Rule::kw_piece
            | Rule::kw_table
            | Rule::kw_let
            | Rule::kw_procedure
            | Rule::kw_setup
            | Rule::kw_turns
            | Rule::kw_action
            | Rule::kw_after
            | Rule::kw_end
            | Rule::kw_score
            | Rule::kw_tiebreak
    )
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

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: std::sync::OnceLock<PrattParser<Rule>> = std::sync::OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::or_op, Assoc::Left))
            .op(Op::infix(Rule::and_op, Assoc::Left))
            .op(Op::prefix(Rule::not_op))
            .op(Op::infix(Rule::eq, Assoc::Left)
                | Op::infix(Rule::ne, Assoc::Left)
                | Op::infix(Rule::lt, Assoc::Left)
                | Op::infix(Rule::le, Assoc::Left)
                | Op::infix(Rule::gt, Assoc::Left)
                | Op::infix(Rule::ge, Assoc::Left)
                | Op::infix(Rule::has_op, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left)
                | Op::infix(Rule::div, Assoc::Left)
                | Op::infix(Rule::rem, Assoc::Left))
            .op(Op::prefix(Rule::neg))
            .op(Op::postfix(Rule::field_access) | Op::postfix(Rule::index))
    })
}

/// Pairs to AST: one function per grammar construct.
struct Lower<'d> {
    offset: usize,
    file: usize,
    diags: &'d mut Vec<Diagnostic>,
}

impl Lower<'_> {
    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        Span::in_file(self.file, self.offset + s.start(), self.offset + s.end())
    }

    fn ident(&self, pair: Pair<Rule>) -> Ident {
        Ident { name: pair.as_str().to_string(), span: self.span(&pair) }
    }

    fn int(&mut self, pair: Pair<Rule>) -> (i64, Span) {
        let span = self.span(&pair);
        match pair.as_str().parse::<i64>() {
            Ok(v) if v.abs() <= 1_000_000_000 => (v, span),
            _ => {
                self.diags.push(
                    Diagnostic::error(Code::BadNumber, span, "number is too large")
                        .label("not between -1000000000 and 1000000000")
                        .help("rulesets count cards, weeks and points; use a smaller number"),
                );
                (0, span)
            }
        }
    }

    fn string(&self, pair: Pair<Rule>) -> String {
        pair.into_inner().next().map_or("", |p| p.as_str()).to_string()
    }

    fn file(&mut self, mut pairs: Pairs<Rule>) -> File {
        let mut file = File::default();
        let Some(top) = pairs.next() else { return file };
        for pair in top.into_inner() {
            if pair.as_rule() == Rule::EOI {
                continue;
            }
            file.items.push(self.item(pair));
        }
        file
    }

    fn note(&self, pair: Pair<Rule>) -> Note {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let kw = inner.next().expect("grammar: note starts with a keyword");
        let kind = if kw.as_rule() == Rule::kw_source { NoteKind::Source } else { NoteKind::Provisional };
        let text = inner.next().map(|s| self.string(s)).unwrap_or_default();
        Note { kind, text, span }
    }

    fn item(&mut self, pair: Pair<Rule>) -> Item {
        if pair.as_rule() == Rule::override_item {
            let span = self.span(&pair);
            let mut inner = pair.into_inner();
            let kw = inner.next().expect("grammar: override keyword");
            let kw_span = self.span(&kw);
            let mut item = self.item(inner.next().expect("grammar: overridden item"));
            item.span = span;
            item.overrides = Some(kw_span);
            return item;
        }
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut notes = Vec::new();
        // Keywords carry no information once the rule is known.
        let mut inner: Vec<Pair<Rule>> = pair.into_inner().filter(|p| !is_keyword(p.as_rule())).collect();
        while let Some(pos) = inner.iter().position(|p| p.as_rule() == Rule::note) {
            let note = self.note(inner.remove(pos));
            notes.push(note);
        }
        let mut it = inner.into_iter();
        let kind = match rule {
            Rule::extends_item => {
                let path = it.next().expect("grammar: extends path");
                let pspan = self.span(&path);
                ItemKind::Extends(self.string(path), pspan)
            }
            Rule::remove_item => {
                let what = self.ident(it.next().expect("grammar: remove what"));
                let name = self.ident(it.next().expect("grammar: remove name"));
                let instance = it.next().map(|p| {
                    let span = self.span(&p);
                    let name =
                        if p.as_rule() == Rule::string { self.string(p) } else { p.as_str().to_string() };
                    Ident { name, span }
                });
                ItemKind::Remove { what, name, instance }
            }
            Rule::table_cell => {
                let name = self.ident(it.next().expect("grammar: table name"));
                let mut ints: Vec<(i64, Span)> = it.map(|p| self.int(p)).collect();
                let value = ints.pop().expect("grammar: cell value");
                ItemKind::TableCell { name, keys: ints, value }
            }
            Rule::game_item => {
                let name = self.ident(it.next().expect("grammar: game name"));
                let mut title = None;
                let mut players = None;
                for p in it {
                    match p.as_rule() {
                        Rule::string => title = Some(self.string(p)),
                        Rule::game_field => {
                            let f = p.into_inner().find(|p| !is_keyword(p.as_rule()));
                            if let Some(f) = f {
                                if f.as_rule() == Rule::note {
                                    notes.push(self.note(f));
                                } else {
                                    let s = self.span(&f);
                                    players = Some((self.range(f), s));
                                }
                            }
                        }
                        _ => {}
                    }
                }
                ItemKind::Game(Game { name, title, players })
            }
            Rule::option_item => {
                let name = self.ident(it.next().expect("grammar: option name"));
                let value = self.literal(it.next().expect("grammar: option value"));
                ItemKind::Option(OptionDecl { name, value })
            }
            Rule::place_item => {
                let class = self.ident(it.next().expect("grammar: place class"));
                let places = self.ident_list(it.next().expect("grammar: place names"));
                ItemKind::Place(PlaceDecl { class, places })
            }
            Rule::route_item => ItemKind::Route(it.map(|e| self.route_edge(e)).collect()),
            Rule::tag_item => ItemKind::Tags(self.ident_list(it.next().expect("grammar: tag names"))),
            Rule::kind_item => {
                let name = self.ident(it.next().expect("grammar: kind name"));
                let attrs = it.map(|a| self.attr_decl(a)).collect();
                ItemKind::Kind(KindDecl { name, attrs })
            }
            Rule::group_item => self.group(it),
            Rule::zone_item => self.zone(it),
            Rule::counter_item => {
                let name = self.ident(it.next().expect("grammar: counter name"));
                let mut index = None;
                let mut per_player = false;
                let mut ty = None;
                let mut init = None;
                for p in it {
                    match p.as_rule() {
                        Rule::index_decl => index = Some(self.index_decl(p)),
                        Rule::per_player => per_player = true,
                        Rule::type_expr => ty = Some(self.type_expr(p)),
                        Rule::expr => init = Some(self.expr(p)),
                        _ => {}
                    }
                }
                let init = init.expect("grammar: counter initial value");
                ItemKind::Counter(CounterDecl { name, index, per_player, ty, init })
            }
            Rule::piece_item => {
                let name = self.ident(it.next().expect("grammar: piece name"));
                let mut per_player = false;
                let mut start = None;
                for p in it {
                    match p.as_rule() {
                        Rule::per_player => per_player = true,
                        Rule::ident => start = Some(self.ident(p)),
                        _ => {}
                    }
                }
                let start = start.expect("grammar: piece start place");
                ItemKind::Piece(PieceDecl { name, per_player, start })
            }
            Rule::table_item => self.table(it),
            Rule::let_item => {
                let name = self.ident(it.next().expect("grammar: let name"));
                let mut params = None;
                let mut body = None;
                for p in it {
                    match p.as_rule() {
                        Rule::params => params = Some(self.params(p)),
                        Rule::expr => body = Some(self.expr(p)),
                        _ => {}
                    }
                }
                let body = body.expect("grammar: let body");
                ItemKind::Let(LetDecl { name, params, body })
            }
            Rule::procedure_item => {
                let name = self.ident(it.next().expect("grammar: procedure name"));
                let params = self.params(it.next().expect("grammar: procedure params"));
                let body = self.block(it.next().expect("grammar: procedure body"));
                ItemKind::Procedure(ProcedureDecl { name, params, body })
            }
            Rule::setup_item => ItemKind::Setup(self.block(it.next().expect("grammar: setup body"))),
            Rule::turns_item => {
                let policy = it.next().expect("grammar: turn policy");
                let pspan = self.span(&policy);
                let counter = policy.into_inner().find(|p| p.as_rule() == Rule::ident);
                match counter {
                    Some(c) => ItemKind::Turns(TurnPolicy::LowestCounter(self.ident(c))),
                    None => ItemKind::Turns(TurnPolicy::Clockwise(pspan)),
                }
            }
            Rule::action_item => {
                let name = self.ident(it.next().expect("grammar: action name"));
                let mut params = Vec::new();
                let mut body = None;
                for p in it {
                    match p.as_rule() {
                        Rule::params => params = self.params(p),
                        Rule::block => body = Some(self.block(p)),
                        _ => {}
                    }
                }
                let body = body.expect("grammar: action body");
                ItemKind::Action(ActionDecl { name, params, body })
            }
            Rule::hook_item => ItemKind::AfterAction(self.block(it.next().expect("grammar: hook body"))),
            Rule::end_item => ItemKind::End(self.expr(it.next().expect("grammar: end condition"))),
            Rule::tiebreak_item => ItemKind::Tiebreak(
                it.filter(|p| p.as_rule() == Rule::tiebreak_key)
                    .map(|k| {
                        let mut kk = k.into_inner();
                        let lowest =
                            kk.next().expect("grammar: lowest or highest").as_rule() == Rule::kw_lowest;
                        TiebreakKey { lowest, by: self.expr(kk.next().expect("grammar: tiebreak key")) }
                    })
                    .collect(),
            ),
            Rule::score_item => {
                let name = self.ident(it.next().expect("grammar: score name"));
                let mut index = None;
                let mut form = None;
                for p in it {
                    match p.as_rule() {
                        Rule::score_index => {
                            let param = p.into_inner().next().expect("grammar: score index");
                            index = Some(self.param(param));
                        }
                        Rule::expr => form = Some(ScoreForm::Expr(self.expr(p))),
                        Rule::score_majority => {
                            let span = self.span(&p);
                            let mut inner = p.into_inner().filter(|p| !is_keyword(p.as_rule()));
                            let measure = self.expr(inner.next().expect("grammar: majority measure"));
                            let fields = inner.map(|f| self.field(f)).collect();
                            form = Some(ScoreForm::Majority { measure, fields, span });
                        }
                        _ => {}
                    }
                }
                let form = form.expect("grammar: score form");
                ItemKind::Score(ScoreDecl { name, index, form })
            }
            other => unreachable!("grammar: {other:?} is not an item"),
        };
        Item::new(kind, span, notes)
    }

    fn range(&mut self, pair: Pair<Rule>) -> RangeLit {
        let mut inner = pair.into_inner();
        let lo = inner.next().map(|p| self.int(p).0).unwrap_or(0);
        let hi = inner.next().map(|p| self.int(p).0);
        RangeLit { lo, hi }
    }

    fn ident_list(&self, pair: Pair<Rule>) -> Vec<Ident> {
        pair.into_inner().map(|p| self.ident(p)).collect()
    }

    fn route_edge(&mut self, pair: Pair<Rule>) -> RouteEdge {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let a = self.ident(inner.next().expect("grammar: route start"));
        let b = self.ident(inner.next().expect("grammar: route end"));
        let steps = inner.next().map(|p| self.int(p));
        RouteEdge { a, b, steps, span }
    }

    fn attr_decl(&mut self, pair: Pair<Rule>) -> AttrDecl {
        let mut inner = pair.into_inner();
        let name = self.ident(inner.next().expect("grammar: attribute name"));
        let ty = self.type_expr(inner.next().expect("grammar: attribute type"));
        let mut on_back = false;
        let mut default = None;
        for p in inner {
            match p.as_rule() {
                Rule::on_back => on_back = true,
                _ => default = Some(self.value(p)),
            }
        }
        AttrDecl { name, ty, default, on_back }
    }

    fn type_expr(&mut self, pair: Pair<Rule>) -> TypeExpr {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let first = inner.next().expect("grammar: type");
        let kind = match first.as_rule() {
            Rule::range => TypeKind::Range(self.range(first)),
            Rule::map_type => {
                let mut m = first.into_inner();
                let key = self.ident(m.next().expect("grammar: map key"));
                let value = self.type_expr(m.next().expect("grammar: map value"));
                TypeKind::Map(key, Box::new(value))
            }
            _ => {
                let named = TypeExpr { kind: TypeKind::Named(self.ident(first)), span };
                if inner.next().is_some() {
                    TypeKind::Optional(Box::new(named))
                } else {
                    named.kind
                }
            }
        };
        TypeExpr { kind, span }
    }

    fn group<'i>(&mut self, mut it: impl Iterator<Item = Pair<'i, Rule>>) -> ItemKind {
        let noun = it.next().expect("grammar: group noun").as_str().to_string();
        let name = self.ident(it.next().expect("grammar: group name"));
        let mut kind = None;
        let mut total = None;
        let mut instances = Vec::new();
        let mut removals = Vec::new();
        for p in it {
            match p.as_rule() {
                Rule::ident => kind = Some(self.ident(p)),
                Rule::int => total = Some(self.int(p)),
                Rule::instance => instances.push(self.instance(p)),
                Rule::instance_removal => {
                    let target = p.into_inner().find(|p| matches!(p.as_rule(), Rule::string | Rule::ident));
                    if let Some(t) = target {
                        let span = self.span(&t);
                        let name =
                            if t.as_rule() == Rule::string { self.string(t) } else { t.as_str().to_string() };
                        removals.push(Ident { name, span });
                    }
                }
                _ => {}
            }
        }
        ItemKind::Group(GroupDecl { noun, name, kind, total, instances, removals })
    }

    fn instance(&mut self, pair: Pair<Rule>) -> Instance {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let first = inner.next().expect("grammar: instance name");
        let name = if first.as_rule() == Rule::string {
            let span = self.span(&first);
            Ident { name: self.string(first), span }
        } else {
            self.ident(first)
        };
        let mut count = None;
        let mut fields = Vec::new();
        let mut notes = Vec::new();
        for p in inner {
            match p.as_rule() {
                Rule::count => {
                    let span = self.span(&p);
                    let n = p.as_str()[1..].parse::<i64>().unwrap_or(i64::MAX);
                    if n > 100_000 {
                        self.diags.push(
                            Diagnostic::error(Code::BadNumber, span, "count is too large")
                                .label("more than 100000 copies")
                                .help("a component may have at most 100000 copies"),
                        );
                        count = Some((1, span));
                    } else {
                        count = Some((n, span));
                    }
                }
                Rule::field => fields.push(self.field(p)),
                Rule::note => notes.push(self.note(p)),
                _ => {}
            }
        }
        Instance { name, count, fields, notes, span }
    }

    fn zone<'i>(&mut self, mut it: impl Iterator<Item = Pair<'i, Rule>>) -> ItemKind {
        let name = self.ident(it.next().expect("grammar: zone name"));
        let mut index = None;
        let mut zone_kind = None;
        let mut per_player = None;
        let mut visible = None;
        let mut slots = None;
        let mut overflow = None;
        for p in it {
            match p.as_rule() {
                Rule::index_decl => index = Some(self.index_decl(p)),
                Rule::ident => zone_kind = Some(self.ident(p)),
                Rule::zone_option => {
                    let opt = p.into_inner().next().expect("grammar: zone option");
                    let span = self.span(&opt);
                    let rule = opt.as_rule();
                    let mut inner = opt.into_inner().filter(|p| !is_keyword(p.as_rule()));
                    match rule {
                        Rule::per_player => per_player = Some(span),
                        Rule::visibility => {
                            visible = inner.next().map(|p| self.ident(p));
                        }
                        Rule::overflow => overflow = inner.next().map(|p| self.ident(p)),
                        Rule::slots => {
                            let v = inner.next().expect("grammar: slots value");
                            slots = Some(if v.as_rule() == Rule::int {
                                let (n, s) = self.int(v);
                                Slots::Count(n, s)
                            } else {
                                Slots::Named(self.ident_list(v))
                            });
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        let zone_kind = zone_kind.expect("grammar: zone kind");
        ItemKind::Zone(ZoneDecl { name, index, zone_kind, per_player, visible, slots, overflow })
    }

    fn table<'i>(&mut self, mut it: impl Iterator<Item = Pair<'i, Rule>>) -> ItemKind {
        let name = self.ident(it.next().expect("grammar: table name"));
        let mut dims = Vec::new();
        let mut body = None;
        for p in it {
            match p.as_rule() {
                Rule::dimension => {
                    let mut inner = p.into_inner();
                    let dname = self.ident(inner.next().expect("grammar: dimension name"));
                    let r = inner.next().expect("grammar: dimension range");
                    let range_span = self.span(&r);
                    let range = self.range(r);
                    let clamp = inner.next().is_some();
                    dims.push(Dimension { name: dname, range, range_span, clamp });
                }
                Rule::table_body => {
                    let inner: Vec<_> = p.into_inner().collect();
                    body = Some(match inner.first().map(|p| p.as_rule()) {
                        Some(Rule::int_row) => {
                            TableBody::Flat(self.int_row(inner.into_iter().next().expect("row")))
                        }
                        _ => TableBody::Rows(inner.into_iter().map(|r| self.table_row(r)).collect()),
                    });
                }
                _ => {}
            }
        }
        let body = body.unwrap_or(TableBody::Rows(Vec::new()));
        ItemKind::Table(TableDecl { name, dims, body })
    }

    fn int_row(&mut self, pair: Pair<Rule>) -> IntRow {
        let span = self.span(&pair);
        let values = pair.into_inner().map(|p| self.int(p)).collect();
        IntRow { values, span }
    }

    fn table_row(&mut self, pair: Pair<Rule>) -> TableRow {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let key = self.int(inner.next().expect("grammar: row key"));
        let row = self.int_row(inner.next().expect("grammar: row values"));
        let notes = inner.map(|n| self.note(n)).collect();
        TableRow { key, row, notes, span }
    }

    fn index_decl(&self, pair: Pair<Rule>) -> Ident {
        self.ident(pair.into_inner().next().expect("grammar: index class"))
    }

    /// A value: the pair is a map, a list, or one of a literal's pieces.
    fn value(&mut self, inner: Pair<Rule>) -> Value {
        match inner.as_rule() {
            Rule::map_value => {
                let span = self.span(&inner);
                let entries = inner
                    .into_inner()
                    .map(|e| {
                        let mut e = e.into_inner();
                        let key = self.ident(e.next().expect("grammar: map key"));
                        let value = self.value(e.next().expect("grammar: map value"));
                        (key, value)
                    })
                    .collect();
                Value { kind: ValueKind::Map(entries), span }
            }
            Rule::list_value => {
                let span = self.span(&inner);
                let items = inner.into_inner().map(|v| self.value(v)).collect();
                Value { kind: ValueKind::List(items), span }
            }
            _ => self.literal(inner),
        }
    }

    /// A number, a text, or a word (`yes`, `no`, `true`, `false` and `none`
    /// are told apart here rather than tried first by the grammar).
    fn literal(&mut self, inner: Pair<Rule>) -> Value {
        let span = self.span(&inner);
        let kind = match inner.as_rule() {
            Rule::signed_int => ValueKind::Int(self.int(inner).0),
            Rule::string => ValueKind::Text(self.string(inner)),
            _ => match inner.as_str() {
                "yes" | "true" => ValueKind::Bool(true),
                "no" | "false" => ValueKind::Bool(false),
                "none" => ValueKind::None,
                word => ValueKind::Name(word.to_string()),
            },
        };
        Value { kind, span }
    }

    fn field(&mut self, pair: Pair<Rule>) -> Field {
        let mut inner = pair.into_inner();
        let name = self.ident(inner.next().expect("grammar: field name"));
        let value = self.value(inner.next().expect("grammar: field value"));
        Field { name, value }
    }

    fn params(&mut self, pair: Pair<Rule>) -> Vec<Param> {
        pair.into_inner().map(|p| self.param(p)).collect()
    }

    fn param(&mut self, pair: Pair<Rule>) -> Param {
        let mut inner = pair.into_inner();
        let name = self.ident(inner.next().expect("grammar: parameter name"));
        let ty = inner.next().expect("grammar: parameter type");
        let ty = if ty.as_rule() == Rule::param_in {
            let e = ty.into_inner().find(|p| p.as_rule() == Rule::expr).expect("grammar: domain");
            ParamType::In(self.expr(e))
        } else {
            ParamType::Type(self.type_expr(ty))
        };
        Param { name, ty }
    }

    fn block(&mut self, pair: Pair<Rule>) -> Block {
        let span = self.span(&pair);
        let stmts = pair.into_inner().map(|s| self.stmt(s)).collect();
        Block { stmts, span }
    }

    fn stmt(&mut self, pair: Pair<Rule>) -> Stmt {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let parts: Vec<Pair<Rule>> = pair.into_inner().collect();
        // Positions of keywords matter for `move`/`draw`; most statements
        // only need the non-keyword parts.
        let mut it = parts.iter().filter(|p| !is_keyword(p.as_rule())).cloned();
        let mut next = |what: &str| it.next().unwrap_or_else(|| panic!("grammar: {what}"));
        let kind = match rule {
            Rule::require_stmt => {
                let cond = self.expr(next("condition"));
                let message =
                    parts.iter().find(|p| p.as_rule() == Rule::string).map(|p| self.string(p.clone()));
                StmtKind::Require { cond, message }
            }
            Rule::let_stmt => {
                let name = self.ident(next("let name"));
                let value = self.expr(next("let value"));
                StmtKind::Let { name, value }
            }
            Rule::set_stmt => {
                let target = self.expr(next("set target"));
                let value = self.expr(next("set value"));
                StmtKind::Set { target, value }
            }
            Rule::advance_stmt => {
                let target = self.expr(next("advance target"));
                let by = self.expr(next("advance amount"));
                StmtKind::Advance { target, by }
            }
            Rule::move_stmt => {
                let what = self.selection(next("selection"));
                let (position, to) = self.destination(it);
                StmtKind::Move { what, position, to }
            }
            Rule::draw_stmt => {
                let count = self.expr(next("draw count"));
                let from = self.expr(next("draw source"));
                let (position, to) = self.destination(it);
                StmtKind::Draw { count, from, position, to }
            }
            Rule::shuffle_stmt => StmtKind::Shuffle(self.expr(next("shuffle target"))),
            Rule::split_stmt => {
                let from = self.expr(next("split source"));
                let into = it.map(|p| self.expr(p)).collect();
                StmtKind::Split { from, into }
            }
            Rule::reveal_stmt => {
                let zone = self.expr(next("reveal zone"));
                let to = self.expr(next("reveal viewer"));
                StmtKind::Reveal { zone, to }
            }
            Rule::if_stmt => self.if_stmt(parts),
            Rule::for_stmt => {
                let var = self.ident(next("for variable"));
                let domain = self.expr(next("for domain"));
                let body = self.block(next("for body"));
                StmtKind::For { var, domain, body }
            }
            Rule::repeat_stmt => {
                let cond = self.expr(next("repeat condition"));
                let body = self.block(next("repeat body"));
                StmtKind::Repeat { cond, body }
            }
            Rule::do_stmt => {
                let name = self.ident(next("procedure name"));
                let args = it.map(|p| self.expr(p)).collect();
                StmtKind::Do { name, args }
            }
            Rule::by_players_stmt => {
                let cases = it
                    .map(|case| {
                        let mut counts = Vec::new();
                        let mut body = None;
                        for p in case.into_inner() {
                            match p.as_rule() {
                                Rule::int => counts.push(self.int(p)),
                                _ => body = Some(self.block(p)),
                            }
                        }
                        let body = body.expect("grammar: player case body");
                        PlayerCase { counts, body }
                    })
                    .collect();
                StmtKind::ByPlayers { cases, span }
            }
            other => unreachable!("grammar: {other:?} is not a statement"),
        };
        Stmt { kind, span }
    }

    /// The `[top of|bottom of|front of] ZONE` that ends `move` and `draw`.
    fn destination<'i>(&mut self, rest: impl Iterator<Item = Pair<'i, Rule>>) -> (Position, Expr) {
        let mut position = Position::Default;
        let mut to = None;
        for p in rest {
            match p.as_rule() {
                Rule::position => position = position_of(p),
                Rule::expr => to = Some(self.expr(p)),
                _ => {}
            }
        }
        (position, to.expect("grammar: a destination zone"))
    }

    fn if_stmt(&mut self, parts: Vec<Pair<Rule>>) -> StmtKind {
        let mut it = parts.into_iter().filter(|p| !is_keyword(p.as_rule()));
        let cond = self.expr(it.next().expect("grammar: if condition"));
        let then = self.block(it.next().expect("grammar: if body"));
        let otherwise = it.next().map(|p| {
            if p.as_rule() == Rule::if_stmt {
                let span = self.span(&p);
                let nested = self.if_stmt(p.into_inner().collect());
                Block { stmts: vec![Stmt { kind: nested, span }], span }
            } else {
                self.block(p)
            }
        });
        StmtKind::If { cond, then, otherwise }
    }

    fn selection(&mut self, pair: Pair<Rule>) -> Selection {
        let inner = pair.into_inner().next().expect("grammar: selection");
        let rule = inner.as_rule();
        if rule == Rule::expr {
            return Selection::One(self.expr(inner));
        }
        let mut it = inner.into_inner().filter(|p| !is_keyword(p.as_rule()));
        let var = self.ident(it.next().expect("grammar: selection variable"));
        let domain = self.expr(it.next().expect("grammar: selection domain"));
        let filter = it.next().map(|p| self.expr(p));
        if rule == Rule::select_all {
            Selection::All { var, domain, filter }
        } else {
            Selection::First { var, domain, filter }
        }
    }

    fn expr(&mut self, pair: Pair<Rule>) -> Expr {
        let span = self.span(&pair);
        // The Pratt parser recurses once per prefix operator: refuse long runs
        // before it can exhaust the stack.
        let mut run = 0usize;
        for p in pair.clone().into_inner() {
            run = if matches!(p.as_rule(), Rule::neg | Rule::not_op) { run + 1 } else { 0 };
            if run > MAX_NESTING {
                self.diags.push(
                    Diagnostic::error(Code::TooDeep, span, "too many signs in a row")
                        .label(format!("more than {MAX_NESTING} `-` or `not` in a row"))
                        .help("remove the doubled signs"),
                );
                return Expr { kind: ExprKind::Int(0), span };
            }
        }
        let offset = self.offset;
        let file = self.file;
        // The closures below all need `self`; a RefCell would do, but passing
        // the diagnostics through a local keeps it simple.
        let diags = std::cell::RefCell::new(std::mem::take(self.diags));
        let result = pratt()
            .map_primary(|p| {
                let mut lower = Lower { offset, file, diags: &mut diags.borrow_mut() };
                lower.primary(p)
            })
            .map_prefix(|op, rhs| {
                let s = Span::in_file(file, offset + op.as_span().start(), rhs.span.end);
                let op = if op.as_rule() == Rule::neg { UnaryOp::Neg } else { UnaryOp::Not };
                Expr { kind: ExprKind::Unary(op, Box::new(rhs)), span: s }
            })
            .map_postfix(|lhs, op| {
                let s = Span::in_file(file, lhs.span.start, offset + op.as_span().end());
                let mut lower = Lower { offset, file, diags: &mut diags.borrow_mut() };
                match op.as_rule() {
                    Rule::field_access => {
                        let name = lower.ident(op.into_inner().next().expect("grammar: field"));
                        Expr { kind: ExprKind::Field(Box::new(lhs), name), span: s }
                    }
                    _ => {
                        let index = lower.expr(op.into_inner().next().expect("grammar: index"));
                        Expr { kind: ExprKind::Index(Box::new(lhs), Box::new(index)), span: s }
                    }
                }
            })
            .map_infix(|lhs, op, rhs| {
                let s = lhs.span.to(rhs.span);
                let op = match op.as_rule() {
                    Rule::or_op => BinaryOp::Or,
                    Rule::and_op => BinaryOp::And,
                    Rule::eq => BinaryOp::Eq,
                    Rule::ne => BinaryOp::Ne,
                    Rule::lt => BinaryOp::Lt,
                    Rule::le => BinaryOp::Le,
                    Rule::gt => BinaryOp::Gt,
                    Rule::ge => BinaryOp::Ge,
                    Rule::add => BinaryOp::Add,
                    Rule::sub => BinaryOp::Sub,
                    Rule::mul => BinaryOp::Mul,
                    Rule::div => BinaryOp::Div,
                    Rule::rem => BinaryOp::Rem,
                    _ => BinaryOp::Has,
                };
                Expr { kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span: s }
            })
            .parse(pair.into_inner());
        *self.diags = diags.into_inner();
        result
    }

    fn primary(&mut self, pair: Pair<Rule>) -> Expr {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::int => ExprKind::Int(self.int(pair).0),
            Rule::string => ExprKind::Text(self.string(pair)),
            Rule::kw_true => ExprKind::Bool(true),
            Rule::kw_false => ExprKind::Bool(false),
            Rule::kw_none => ExprKind::None,
            Rule::ident => ExprKind::Name(self.ident(pair)),
            Rule::paren => {
                // The brackets belong to the span, so a sum that starts or
                // ends with one quotes whole (`(a - b) / 3`).
                let inner = pair.into_inner().next().expect("grammar: parenthesised expression");
                let mut e = self.expr(inner);
                e.span = span;
                return e;
            }
            Rule::cond_expr => {
                let mut it = pair.into_inner().filter(|p| p.as_rule() == Rule::expr);
                let c = self.expr(it.next().expect("grammar: if condition"));
                let a = self.expr(it.next().expect("grammar: then branch"));
                let b = self.expr(it.next().expect("grammar: else branch"));
                ExprKind::If(Box::new(c), Box::new(a), Box::new(b))
            }
            Rule::aggregate => {
                let parts: Vec<Pair<Rule>> = pair.into_inner().collect();
                let has_value = parts.iter().any(|p| p.as_rule() == Rule::kw_for);
                let mut it = parts.into_iter().filter(|p| !is_keyword(p.as_rule()));
                let func = self.ident(it.next().expect("grammar: aggregate function"));
                let value = if has_value {
                    Some(Box::new(self.expr(it.next().expect("grammar: aggregate value"))))
                } else {
                    None
                };
                let var = self.ident(it.next().expect("grammar: aggregate variable"));
                let domain = Box::new(self.expr(it.next().expect("grammar: aggregate domain")));
                let filter = it.next().map(|p| Box::new(self.expr(p)));
                ExprKind::Aggregate { func, value, var, domain, filter }
            }
            Rule::call => {
                let mut it = pair.into_inner();
                let name = self.ident(it.next().expect("grammar: function name"));
                let args = it.map(|p| self.expr(p)).collect();
                ExprKind::Call(name, args)
            }
            other => unreachable!("grammar: {other:?} is not a primary expression"),
        };
        Expr { kind, span }
    }
}

fn position_of(pair: Pair<Rule>) -> Position {
    match pair.into_inner().next().map(|p| p.as_rule()) {
        Some(Rule::kw_top) => Position::Top,
        Some(Rule::kw_bottom) => Position::Bottom,
        _ => Position::Front,
    }
}

/// Keywords carry no information once the enclosing rule is known.
fn is_keyword(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::kw_game
            | Rule::kw_players
            | Rule::kw_option
            | Rule::kw_place
            | Rule::kw_route
            | Rule::kw_tag
            | Rule::kw_kind
            | Rule::kw_of
            | Rule::kw_total
            | Rule::kw_zone
            | Rule::kw_per
            | Rule::kw_player
            | Rule::kw_visible
            | Rule::kw_to
            | Rule::kw_slots
            | Rule::kw_overflow
            | Rule::kw_counter
            | Rule::kw_piece
            | Rule::kw_at
            | Rule::kw_table
            | Rule::kw_clamp
            | Rule::kw_let
            | Rule::kw_procedure
            | Rule::kw_setup
            | Rule::kw_turns
            | Rule::kw_lowest
            | Rule::kw_clockwise
            | Rule::kw_action
            | Rule::kw_after
            | Rule::kw_end
            | Rule::kw_when
            | Rule::kw_score
            | Rule::kw_majority
            | Rule::kw_tiebreak
            | Rule::kw_highest
            | Rule::kw_on
            | Rule::kw_back
            | Rule::kw_reveal
            | Rule::kw_extends
            | Rule::kw_override
            | Rule::kw_remove
            | Rule::kw_require
            | Rule::kw_else
            | Rule::kw_set
            | Rule::kw_advance
            | Rule::kw_by
            | Rule::kw_move
            | Rule::kw_draw
            | Rule::kw_from
            | Rule::kw_shuffle
            | Rule::kw_split
            | Rule::kw_into
            | Rule::kw_if
            | Rule::kw_then
            | Rule::kw_for
            | Rule::kw_in
            | Rule::kw_where
            | Rule::kw_repeat
            | Rule::kw_while
            | Rule::kw_do
            | Rule::kw_all
            | Rule::kw_first
    )
}
