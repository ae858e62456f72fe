//! Grammar-level tests for constructs that are easy to get wrong.

use ruleset::ast::{BinaryOp, ExprKind, ItemKind, StmtKind, UnaryOp};
use ruleset::parser::parse;

/// Parse `let x = EXPR` and return the expression.
fn expr(text: &str) -> ruleset::ast::Expr {
    let (file, diags) = parse(&format!("let x = {text}\n"));
    assert!(diags.is_empty(), "{text}: {diags:?}");
    match file.items.into_iter().next().map(|i| i.kind) {
        Some(ItemKind::Let(l)) => l.body,
        other => panic!("{text}: not a let: {other:?}"),
    }
}

/// A compact rendering of an expression tree, for assertions.
fn tree(e: &ruleset::ast::Expr) -> String {
    match &e.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Text(t) => format!("{t:?}"),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::None => "none".into(),
        ExprKind::Name(n) => n.name.clone(),
        ExprKind::Unary(UnaryOp::Neg, x) => format!("(- {})", tree(x)),
        ExprKind::Unary(UnaryOp::Not, x) => format!("(not {})", tree(x)),
        ExprKind::Binary(op, a, b) => format!("({} {} {})", tree(a), op.symbol(), tree(b)),
        ExprKind::Field(x, f) => format!("{}.{}", tree(x), f.name),
        ExprKind::Index(x, i) => format!("{}[{}]", tree(x), tree(i)),
        ExprKind::Call(f, args) => {
            format!("{}({})", f.name, args.iter().map(tree).collect::<Vec<_>>().join(", "))
        }
        ExprKind::Aggregate { func, value, var, domain, filter } => format!(
            "{}({}{} in {}{})",
            func.name,
            value.as_ref().map_or(String::new(), |v| format!("{} for ", tree(v))),
            var.name,
            tree(domain),
            filter.as_ref().map_or(String::new(), |f| format!(" where {}", tree(f)))
        ),
        ExprKind::If(c, a, b) => format!("(if {} then {} else {})", tree(c), tree(a), tree(b)),
        ExprKind::PlayersFrom(who) => format!("(players from {})", tree(who)),
    }
}

#[test]
fn players_from_takes_one_operand_with_its_fields() {
    assert_eq!(
        tree(&expr("count(p in players from me.rival where p != me)")),
        "count(p in (players from me.rival) where (p != me))"
    );
    assert_eq!(tree(&expr("players from me == x")), "((players from me) == x)");
}

#[test]
fn arithmetic_binds_tighter_than_comparison_and_logic() {
    assert_eq!(tree(&expr("1 + 2 * 3 >= 4 and not a or b")), "((((1 + (2 * 3)) >= 4) and (not a)) or b)");
}

#[test]
fn not_applies_to_a_whole_comparison() {
    assert_eq!(tree(&expr("not a == b")), "(not (a == b))");
}

#[test]
fn minus_is_left_associative_and_unary_minus_binds_tightest() {
    assert_eq!(tree(&expr("10 - 3 - 2")), "((10 - 3) - 2)");
    assert_eq!(tree(&expr("-a * b")), "((- a) * b)");
}

#[test]
fn has_is_a_comparison() {
    assert_eq!(tree(&expr("c has car and n > 0")), "((c has car) and (n > 0))");
}

#[test]
fn postfix_chains_read_left_to_right() {
    assert_eq!(tree(&expr("me.permit_year[s] < year(me)")), "(me.permit_year[s] < year(me))");
    assert_eq!(tree(&expr("chronoscope[k + 1][w]")), "chronoscope[(k + 1)][w]");
    assert_eq!(tree(&expr("c.needs[s]")), "c.needs[s]");
}

#[test]
fn aggregates_and_calls_are_told_apart() {
    assert_eq!(tree(&expr("count(me.tableau)")), "count(me.tableau)");
    assert_eq!(
        tree(&expr("count(c in me.tableau where c has car)")),
        "count(c in me.tableau where (c has car))"
    );
    assert_eq!(tree(&expr("sum(c.value for c in me.finds)")), "sum(c.value for c in me.finds)");
    assert_eq!(tree(&expr("min(a, b, 3)")), "min(a, b, 3)");
}

#[test]
fn conditional_expressions_nest_in_else() {
    assert_eq!(tree(&expr("if a then 1 else if b then 2 else 3")), "(if a then 1 else (if b then 2 else 3))");
}

#[test]
fn a_bracketed_condition_after_if_is_no_call_and_a_name_before_brackets_is_one() {
    assert_eq!(tree(&expr("if (a > 1) then 2 else 3")), "(if (a > 1) then 2 else 3)");
    assert_eq!(tree(&expr("if(a) then f (b) else g(c)")), "(if a then f(b) else g(c))");
    assert_eq!(tree(&expr("(a) + f (b)")), "(a + f(b))");
}

#[test]
fn keywords_are_not_prefixes_of_names() {
    // `setups`, `ender`, `scores`, `players` and `inner` are names, not
    // keywords followed by letters.
    assert_eq!(
        tree(&expr("setups + ender + scores + players + inner")),
        "((((setups + ender) + scores) + players) + inner)"
    );
}

#[test]
fn reserved_words_are_not_names() {
    let (_, diags) = parse("let x = 1 + move\n");
    assert_eq!(diags.len(), 1);
    assert!(diags[0].message.contains("found `move`"), "{}", diags[0].message);
}

#[test]
fn texts_keep_everything_up_to_the_closing_quote() {
    assert_eq!(tree(&expr(r#""say 'hi' // not a comment""#)), r#""say 'hi' // not a comment""#);
    let (_, diags) = parse("let x = \"unterminated\nlet y = 2\n");
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].message, "unterminated text");
}

#[test]
fn comments_run_to_the_end_of_the_line() {
    let (file, diags) = parse("// heading\nlet a = 1 // one\n// between\nlet b = 2\n");
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(file.items.len(), 2);
}

#[test]
fn notes_attach_to_items_before_and_after_a_table_body() {
    let (file, diags) = parse(
        "table t[n: 0..1] source \"before\" = [0, 1] provisional \"after\"\n\
         table u[a: 1..2][b: 1..1] {\n  1: [5] provisional \"row one\"\n  2: [6]\n}\n",
    );
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(file.items[0].notes.len(), 2);
    match &file.items[1].kind {
        ItemKind::Table(t) => match &t.body {
            ruleset::ast::TableBody::Rows(rows) => {
                assert_eq!(rows[0].notes.len(), 1);
                assert!(rows[1].notes.is_empty());
            }
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

#[test]
fn else_if_chains_in_statements() {
    let (file, diags) =
        parse("setup {\n  if a { shuffle x } else if b { shuffle y } else { shuffle z }\n}\n");
    assert!(diags.is_empty(), "{diags:?}");
    let ItemKind::Setup(block) = &file.items[0].kind else { panic!() };
    let StmtKind::If { otherwise: Some(otherwise), .. } = &block.stmts[0].kind else { panic!() };
    assert!(matches!(otherwise.stmts[0].kind, StmtKind::If { otherwise: Some(_), .. }));
}

#[test]
fn move_positions_and_selections() {
    let (file, diags) = parse(
        "setup {\n  move all c in pile1 to top of deck\n  move first t in bag[s] where t.value == 1 to bonus[s]\n  move c to front of row\n}\n",
    );
    assert!(diags.is_empty(), "{diags:?}");
    let ItemKind::Setup(block) = &file.items[0].kind else { panic!() };
    let positions: Vec<_> = block
        .stmts
        .iter()
        .map(|s| match &s.kind {
            StmtKind::Move { position, .. } => *position,
            other => panic!("{other:?}"),
        })
        .collect();
    use ruleset::ast::Position::*;
    assert_eq!(positions, [Top, Default, Front]);
}

#[test]
fn counts_and_negative_numbers() {
    let (file, diags) = parse("option penalty = -3\ncards g of k total 2 { \"A\" x2 { v: -1 } }\n");
    assert!(diags.is_empty(), "{diags:?}");
    let ItemKind::Group(g) = &file.items[1].kind else { panic!() };
    assert_eq!(g.instances[0].count.map(|c| c.0), Some(2));
}

#[test]
fn a_broken_item_does_not_hide_the_next_one() {
    let (file, diags) = parse("let a = (1 +\nlet b = 2\nlet c = ]\nlet d = 4\n");
    assert_eq!(diags.len(), 2, "{diags:?}");
    let names: Vec<String> = file
        .items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Let(l) => Some(l.name.name.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(names, ["b", "d"]);
}

#[test]
fn binary_ops_cover_every_symbol() {
    for (text, op) in [("a % b", BinaryOp::Rem), ("a / b", BinaryOp::Div), ("a != b", BinaryOp::Ne)] {
        match expr(text).kind {
            ExprKind::Binary(got, _, _) => assert_eq!(got, op),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn every_reserved_word_of_the_keyword_table_is_refused_as_a_name_in_an_expression() {
    for word in ruleset::parser::keywords::reserved_words() {
        let (_, diags) = parse(&format!("let x = 1 + {word}\n"));
        let literal = ["true", "false", "yes", "no", "none"].contains(&word);
        assert_eq!(
            diags.is_empty(),
            literal,
            "`{word}` should {}parse as a value",
            if literal { "" } else { "not " }
        );
    }
    // A word just outside the list is an ordinary name.
    let (_, diags) = parse("let x = 1 + ends + scores + settle\n");
    assert!(diags.is_empty(), "{diags:?}");
}
