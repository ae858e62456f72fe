//! How values of a ruleset are written for people (show, diff).

use model::{Ruleset, Value};

/// A component attribute or option value as the ruleset would write it.
pub fn value(r: &Ruleset, v: &Value) -> String {
    match v {
        Value::Int(n) => n.to_string(),
        Value::Bool(b) => (if *b { "yes" } else { "no" }).into(),
        Value::None => "none".into(),
        Value::Text(t) => format!("\"{t}\""),
        Value::Place(p) => r.places[*p].name.clone(),
        Value::Tag(t) => r.tags[*t].clone(),
        Value::Tags(ts) => {
            format!("[{}]", ts.iter().map(|t| r.tags[*t].as_str()).collect::<Vec<_>>().join(", "))
        }
        Value::Map(entries) => {
            let parts: Vec<String> =
                entries.iter().map(|(p, n)| format!("{}: {n}", r.places[*p].name)).collect();
            format!("{{ {} }}", parts.join(", "))
        }
    }
}
