//! The one table of the language's keywords. Every list the parser and the
//! checker need (item starts for error recovery and "did you mean", statement
//! starts for "expected ..." messages, words reserved in expressions, keywords
//! that carry no information once their rule is known) is read from it, and
//! a test holds it equal to `grammar/ruleset.pest` in both directions.

use super::Rule;

/// One keyword rule of the grammar (`kw_...`) and what it is for.
pub struct Keyword {
    /// The words the rule matches (`kw_group`: `cards`, `tokens`, `tiles`).
    pub words: &'static [&'static str],
    pub rule: Rule,
    /// Starts an item at the top level of a file.
    pub item: bool,
    /// Starts a statement in a block.
    pub statement: bool,
    /// Refused as a name inside an expression (the grammar's `reserved`).
    pub reserved: bool,
    /// Carries no information once the rule around it is known: lowering
    /// skips it.
    pub silent: bool,
}

const fn kw(words: &'static [&'static str], rule: Rule, flags: &str) -> Keyword {
    let f = flags.as_bytes();
    let mut k = Keyword { words, rule, item: false, statement: false, reserved: false, silent: true };
    let mut i = 0;
    while i < f.len() {
        match f[i] {
            b'i' => k.item = true,
            b's' => k.statement = true,
            b'r' => k.reserved = true,
            b'v' => k.silent = false,
            _ => {}
        }
        i += 1;
    }
    k
}

/// Flags: `i` starts an item, `s` a statement, `r` reserved in expressions,
/// `v` carries a value (not silent).
pub const KEYWORDS: &[Keyword] = &[
    kw(&["game"], Rule::kw_game, "ir"),
    kw(&["extends"], Rule::kw_extends, "ir"),
    kw(&["override"], Rule::kw_override, "ir"),
    kw(&["remove"], Rule::kw_remove, "ir"),
    kw(&["players"], Rule::kw_players, ""),
    kw(&["actions"], Rule::kw_actions, ""),
    kw(&["option"], Rule::kw_option, "ir"),
    kw(&["place"], Rule::kw_place, "i"),
    kw(&["enum"], Rule::kw_enum, "ir"),
    kw(&["grid"], Rule::kw_grid, ""),
    kw(&["route"], Rule::kw_route, "ir"),
    kw(&["tag"], Rule::kw_tag, "i"),
    kw(&["kind"], Rule::kw_kind, "ir"),
    kw(&["cards", "tokens", "tiles"], Rule::kw_group, "iv"),
    kw(&["of"], Rule::kw_of, ""),
    kw(&["total"], Rule::kw_total, ""),
    kw(&["zone"], Rule::kw_zone, "ir"),
    kw(&["per"], Rule::kw_per, ""),
    kw(&["player"], Rule::kw_player, ""),
    kw(&["visible"], Rule::kw_visible, ""),
    kw(&["to"], Rule::kw_to, ""),
    kw(&["slots"], Rule::kw_slots, ""),
    kw(&["overflow"], Rule::kw_overflow, ""),
    kw(&["counter"], Rule::kw_counter, "ir"),
    kw(&["piece"], Rule::kw_piece, "ir"),
    kw(&["at"], Rule::kw_at, ""),
    kw(&["table"], Rule::kw_table, "ir"),
    kw(&["clamp"], Rule::kw_clamp, ""),
    kw(&["bookkeeping"], Rule::kw_bookkeeping, ""),
    kw(&["shown"], Rule::kw_shown, ""),
    kw(&["let"], Rule::kw_let, "isr"),
    kw(&["procedure"], Rule::kw_procedure, "ir"),
    kw(&["setup"], Rule::kw_setup, "ir"),
    kw(&["turns"], Rule::kw_turns, "ir"),
    kw(&["lowest"], Rule::kw_lowest, ""),
    kw(&["clockwise"], Rule::kw_clockwise, ""),
    kw(&["until"], Rule::kw_until, ""),
    kw(&["turn"], Rule::kw_turn, ""),
    kw(&["ask"], Rule::kw_ask, "sr"),
    kw(&["asked"], Rule::kw_asked, ""),
    kw(&["random"], Rule::kw_random, ""),
    kw(&["action"], Rule::kw_action, "ir"),
    kw(&["after"], Rule::kw_after, "ir"),
    kw(&["end"], Rule::kw_end, "isr"),
    kw(&["when"], Rule::kw_when, ""),
    kw(&["score"], Rule::kw_score, "ir"),
    kw(&["majority"], Rule::kw_majority, ""),
    kw(&["tiebreak"], Rule::kw_tiebreak, "ir"),
    kw(&["highest"], Rule::kw_highest, ""),
    kw(&["on"], Rule::kw_on, ""),
    kw(&["back"], Rule::kw_back, ""),
    kw(&["reveal"], Rule::kw_reveal, "sr"),
    kw(&["source"], Rule::kw_source, "v"),
    kw(&["provisional"], Rule::kw_provisional, "v"),
    kw(&["require"], Rule::kw_require, "sr"),
    kw(&["else"], Rule::kw_else, "r"),
    kw(&["set"], Rule::kw_set, "sr"),
    kw(&["advance"], Rule::kw_advance, "sr"),
    kw(&["by"], Rule::kw_by, "s"),
    kw(&["rule"], Rule::kw_rule, "s"),
    kw(&["move"], Rule::kw_move, "sr"),
    kw(&["draw"], Rule::kw_draw, "sr"),
    kw(&["from"], Rule::kw_from, ""),
    kw(&["shuffle"], Rule::kw_shuffle, "sr"),
    kw(&["split"], Rule::kw_split, "sr"),
    kw(&["into"], Rule::kw_into, ""),
    kw(&["if"], Rule::kw_if, "sr"),
    kw(&["then"], Rule::kw_then, "r"),
    kw(&["for"], Rule::kw_for, "sr"),
    kw(&["in"], Rule::kw_in, "r"),
    kw(&["where"], Rule::kw_where, "r"),
    kw(&["repeat"], Rule::kw_repeat, "sr"),
    kw(&["while"], Rule::kw_while, ""),
    kw(&["do"], Rule::kw_do, "sr"),
    kw(&["all"], Rule::kw_all, ""),
    kw(&["first"], Rule::kw_first, ""),
    kw(&["top"], Rule::kw_top, "v"),
    kw(&["bottom"], Rule::kw_bottom, "v"),
    kw(&["front"], Rule::kw_front, "v"),
    kw(&["and"], Rule::kw_and, "rv"),
    kw(&["or"], Rule::kw_or, "rv"),
    kw(&["not"], Rule::kw_not, "rv"),
    kw(&["has"], Rule::kw_has, "rv"),
    kw(&["true", "yes"], Rule::kw_true, "rv"),
    kw(&["false", "no"], Rule::kw_false, "rv"),
    kw(&["none"], Rule::kw_none, "rv"),
];

/// How many grammar rules a table by rule number may hold (the grammar has
/// fewer; a const assertion below keeps it so).
const RULES: usize = 512;

const ITEM: u8 = 1;
const STATEMENT: u8 = 2;
const SILENT: u8 = 4;

/// Per grammar rule (by its number), its keyword's flags, worked out at
/// compile time: lowering asks for every pair whether to skip it.
const FLAGS: [u8; RULES] = {
    let mut t = [0u8; RULES];
    let mut i = 0;
    while i < KEYWORDS.len() {
        let k = &KEYWORDS[i];
        let r = k.rule as usize;
        assert!(r < RULES, "the grammar has more rules than RULES");
        t[r] = ((k.item as u8) * ITEM) | ((k.statement as u8) * STATEMENT) | ((k.silent as u8) * SILENT);
        i += 1;
    }
    t
};

fn flags(rule: Rule) -> u8 {
    FLAGS.get(rule as usize).copied().unwrap_or(0)
}

/// A keyword that carries no information once its rule is known.
pub fn is_silent(rule: Rule) -> bool {
    flags(rule) & SILENT != 0
}

pub fn is_item_keyword(rule: Rule) -> bool {
    flags(rule) & ITEM != 0
}

pub fn is_statement_keyword(rule: Rule) -> bool {
    flags(rule) & STATEMENT != 0
}

/// The words that start an item.
pub fn item_words() -> impl Iterator<Item = &'static str> {
    KEYWORDS.iter().filter(|k| k.item).flat_map(|k| k.words.iter().copied())
}

/// Every keyword (for an editor's completion).
pub fn all_words() -> impl Iterator<Item = &'static str> {
    KEYWORDS.iter().flat_map(|k| k.words.iter().copied())
}

/// The words refused as names in expressions (and so as declared names).
pub fn reserved_words() -> impl Iterator<Item = &'static str> {
    KEYWORDS.iter().filter(|k| k.reserved).flat_map(|k| k.words.iter().copied())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use pest::Parser as _;

    use super::super::RulesetParser;
    use super::*;

    const GRAMMAR: &str = include_str!("../../../../grammar/ruleset.pest");

    /// The quoted words between `start` and the next `}` of the grammar.
    fn quoted(text: &str) -> Vec<String> {
        text.split('"').skip(1).step_by(2).map(str::to_string).collect()
    }

    #[test]
    fn every_keyword_rule_of_the_grammar_is_in_the_table_with_its_words() {
        let mut in_grammar = BTreeSet::new();
        for line in GRAMMAR.lines().filter(|l| l.starts_with("kw_")) {
            let name = line.split_whitespace().next().expect("a rule name");
            let entry = KEYWORDS.iter().find(|k| format!("{:?}", k.rule) == name);
            let entry = entry.unwrap_or_else(|| panic!("{name} is not in the keyword table"));
            assert_eq!(quoted(line), entry.words, "{name}: the table's words");
            in_grammar.insert(name.to_string());
        }
        for k in KEYWORDS {
            assert!(in_grammar.contains(&format!("{:?}", k.rule)), "{:?} is not in the grammar", k.rule);
        }
    }

    #[test]
    fn the_reserved_words_are_the_grammars_reserved_rule() {
        let start = GRAMMAR.find("reserved   = @{").expect("the grammar has a reserved rule");
        let body = &GRAMMAR[start..start + GRAMMAR[start..].find('}').expect("the rule ends")];
        let grammar: BTreeSet<String> = quoted(body).into_iter().collect();
        let table: BTreeSet<String> = reserved_words().map(str::to_string).collect();
        assert_eq!(grammar, table);
    }

    #[test]
    fn each_word_parses_as_its_rule_and_a_longer_name_does_not() {
        for k in KEYWORDS {
            for w in k.words {
                assert!(RulesetParser::parse(k.rule, w).is_ok(), "`{w}` is {:?}", k.rule);
                assert!(RulesetParser::parse(k.rule, &format!("{w}s_x")).is_err(), "`{w}s_x` is a name");
            }
        }
    }
}
