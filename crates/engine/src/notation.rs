//! The short typed notation for choices: `take "Card name"`,
//! `go Place 4 some_flag`. Flags are written by name when yes and left
//! out when no; other parameters follow in order. Scripts, saves and human
//! players all use it.
//!
//! A component is named by its name. When several components of that name
//! could be chosen (two copies of a card on display), the one meant is
//! written `"Name"#2`: the second of them in the order they lie, so a saved
//! game replays with the very same component.
//!
//! A set of components (`give: set of me.hand`) is a bracketed list of
//! names, each with how many copies: `[Coin, "Pot shard" x2]`; `[]` is the
//! empty set, and a single name without brackets a set of one. Copies of a
//! name are interchangeable: the set holds the first ones in their zone.

use model::{ActionId, ParamDomain, Type};

use crate::game::{Choice, Game};
use crate::state::V;

/// Write a choice in the notation.
pub fn format(game: &Game, choice: &Choice) -> String {
    let r = game.rules;
    let Some(action) = r.actions.get(choice.action.index()) else { return "?".into() };
    // Values in order, then the flags that are set, by name.
    let mut parts = vec![action.name.clone()];
    let mut flags = Vec::new();
    // Each parameter's values now, to tell copies of one name apart.
    let domains = game.current().and_then(|me| game.domains(action, me).ok());
    for (i, (p, v)) in action.params.iter().zip(&choice.args).enumerate() {
        match v {
            V::Bool(true) => flags.push(p.name.clone()),
            V::Bool(false) => {}
            V::Set(s) => parts.push(set_word(game, choice.sets.get(*s as usize).unwrap_or(&[]))),
            V::Card(c) => {
                let name = &r.components[*c].name;
                let mut word = quote(name);
                let same: Vec<&V> = domains
                    .as_ref()
                    .and_then(|d| d.get(i))
                    .map(|d| {
                        d.iter()
                            .filter(|x| matches!(x, V::Card(o) if r.components[*o].name == *name))
                            .collect()
                    })
                    .unwrap_or_default();
                if same.len() > 1 {
                    if let Some(k) = same.iter().position(|x| **x == V::Card(*c)) {
                        word = format!("{word}#{}", k + 1);
                    }
                }
                parts.push(word);
            }
            other => parts.push(word(game, other)),
        }
    }
    parts.extend(flags);
    parts.join(" ")
}

fn word(game: &Game, v: &V) -> String {
    let r = game.rules;
    match v {
        V::Int(n) => n.to_string(),
        V::Place(p) => r.places[*p].name.clone(),
        V::Player(p) => p.to_string(),
        V::Card(c) => quote(&r.components[*c].name),
        V::Text(t) => quote(t),
        V::Bool(b) => (if *b { "yes" } else { "no" }).to_string(),
        V::None => "none".to_string(),
        V::Tag(t) => r.tags[*t].clone(),
        V::Zone(z) => game.layout.zone_name(r, *z),
        other => crate::interp::describe(r, game.layout, other),
    }
}

/// A set in the notation: `[Coin, "Pot shard" x2]`.
pub fn set_word(game: &Game, set: &[model::ComponentId]) -> String {
    let mut names: Vec<(model::ComponentId, usize)> = Vec::new();
    for c in set {
        match names.iter_mut().find(|(k, _)| game.alike(*k, *c)) {
            Some(n) => n.1 += 1,
            None => names.push((*c, 1)),
        }
    }
    let items: Vec<String> = names
        .iter()
        .map(|(c, n)| {
            let name = quote(&game.rules.components[*c].name);
            if *n > 1 {
                format!("{name} x{n}")
            } else {
                name
            }
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// Read a set from its notation (`[Coin, "Pot shard" x2]`, or one name)
/// among the components of `pool`, taking each name's first copies.
fn read_set(game: &Game, param: &str, pool: &[V], w: &str) -> Result<Vec<model::ComponentId>, String> {
    let r = game.rules;
    let inner = match w.strip_prefix('[') {
        Some(rest) => {
            rest.strip_suffix(']').ok_or_else(|| format!("the set `{w}` is not closed with `]`"))?
        }
        None => w,
    };
    let cards: Vec<model::ComponentId> =
        pool.iter().filter_map(|v| if let V::Card(c) = v { Some(*c) } else { None }).collect();
    let mut taken: Vec<model::ComponentId> = Vec::new();
    for item in inner.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        // `Name`, `"Name"`, `Name x3`.
        let (name, n) = match item.rsplit_once(" x").or_else(|| item.rsplit_once(" X")) {
            Some((name, k)) if !k.is_empty() && k.chars().all(|c| c.is_ascii_digit()) => {
                (name.trim(), k.parse::<usize>().map_err(|_| format!("`{k}` is too many"))?)
            }
            _ => (item, 1),
        };
        let name = name.trim_matches('"').to_lowercase();
        let mut names: Vec<&str> = Vec::new();
        for c in &cards {
            let n = r.components[*c].name.as_str();
            if !names.contains(&n) {
                names.push(n);
            }
        }
        let exact: Vec<&str> = names.iter().copied().filter(|n| n.to_lowercase() == name).collect();
        let found = if exact.is_empty() {
            names.iter().copied().filter(|n| n.to_lowercase().starts_with(&name)).collect()
        } else {
            exact
        };
        let chosen = match found.as_slice() {
            [one] => *one,
            [] => {
                let list: Vec<String> = names.iter().map(|n| quote(n)).collect();
                return Err(if list.is_empty() {
                    format!("`{param}` has nothing to choose from now")
                } else {
                    format!("no `{name}` to put in `{param}`; it can hold: {}", list.join(", "))
                });
            }
            several => {
                let list: Vec<String> = several.iter().map(|n| quote(n)).collect();
                return Err(format!("`{name}` could be {}: type more of the name", list.join(" or ")));
            }
        };
        let copies: Vec<model::ComponentId> =
            cards.iter().copied().filter(|c| r.components[*c].name == chosen && !taken.contains(c)).collect();
        if copies.len() < n {
            let have = cards.iter().filter(|c| r.components[**c].name == chosen).count();
            return Err(format!(
                "there are {have} `{chosen}` to choose from, not {}",
                have - copies.len() + n
            ));
        }
        taken.extend(&copies[..n]);
    }
    // In the order they lie, with each name's first copies (as `sets_of`).
    let mut set = Vec::with_capacity(taken.len());
    for c in &cards {
        let wanted = taken.iter().filter(|t| game.alike(**t, *c)).count();
        let have = set.iter().filter(|s| game.alike(**s, *c)).count();
        if have < wanted {
            set.push(*c);
        }
    }
    Ok(set)
}

fn quote(name: &str) -> String {
    if name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        name.to_string()
    } else {
        format!("\"{name}\"")
    }
}

/// Split a line into words, keeping quoted names whole.
fn words(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut chars = line.trim().chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '[' {
            // A set: one word up to its `]`, spaces and quotes included.
            let mut w = String::new();
            let mut quoted = false;
            for c in chars.by_ref() {
                w.push(c);
                if c == '"' {
                    quoted = !quoted;
                } else if c == ']' && !quoted {
                    break;
                }
            }
            if !w.ends_with(']') {
                return Err("a set `[...]` is not closed".into());
            }
            out.push(w);
        } else if c == '"' {
            chars.next();
            let mut w = String::new();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(c) => w.push(c),
                    None => return Err("a quoted name is not closed".into()),
                }
            }
            // `"Name"#2`: which of several components of that name.
            if chars.peek() == Some(&'#') {
                w.push(chars.next().unwrap_or('#'));
                while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
                    w.push(d);
                    chars.next();
                }
            }
            out.push(w);
        } else {
            let mut w = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == '"' {
                    break;
                }
                w.push(c);
                chars.next();
            }
            out.push(w);
        }
    }
    Ok(out)
}

/// Read a choice for the player to move. The result is a well-formed choice
/// whose values are in their parameters' current domains; whether it is
/// legal is `Game::check`'s business.
pub fn parse(game: &Game, line: &str) -> Result<Choice, String> {
    let r = game.rules;
    let me = game.current().ok_or("the game is over")?;
    let words = words(line)?;
    let Some((name, rest)) = words.split_first() else { return Err("nothing typed".into()) };
    let lower = name.to_lowercase();
    let matches: Vec<usize> = r
        .actions
        .iter()
        .enumerate()
        .filter(|(_, a)| a.name.to_lowercase() == lower)
        .map(|(i, _)| i)
        .collect();
    let matches = if matches.is_empty() {
        r.actions
            .iter()
            .enumerate()
            .filter(|(_, a)| a.name.to_lowercase().starts_with(&lower))
            .map(|(i, _)| i)
            .collect()
    } else {
        matches
    };
    let id = match matches.as_slice() {
        [id] => *id,
        [] => {
            let names: Vec<&str> = r.actions.iter().map(|a| a.name.as_str()).collect();
            return Err(format!("no action `{name}`; actions are: {}", names.join(", ")));
        }
        several => {
            let names: Vec<&str> = several.iter().map(|i| r.actions[*i].name.as_str()).collect();
            return Err(format!("`{name}` could be {}", names.join(" or ")));
        }
    };
    let action = &r.actions[id];
    let domains = game.domains(action, me).map_err(|f| f.message().to_string())?;
    let mut args: Vec<Option<V>> = action
        .params
        .iter()
        .map(|p| matches!(p.domain, ParamDomain::Type(Type::Bool)).then_some(V::Bool(false)))
        .collect();
    let mut positional = action
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| !matches!(p.domain, ParamDomain::Type(Type::Bool)))
        .map(|(i, _)| i);
    let mut sets = crate::ChoiceSets::new();
    for w in rest {
        let flag = w.trim_start_matches('+').to_lowercase();
        if let Some(i) = action
            .params
            .iter()
            .position(|p| matches!(p.domain, ParamDomain::Type(Type::Bool)) && p.name.to_lowercase() == flag)
        {
            args[i] = Some(V::Bool(true));
            continue;
        }
        let Some(i) = positional.next() else {
            return Err(format!("`{w}` is one word too many for `{}`", action.name));
        };
        if matches!(action.params[i].domain, ParamDomain::SetOf(_)) {
            sets.push(read_set(game, &action.params[i].name, &domains[i], w)?);
            args[i] = Some(V::Set(sets.len() as u32 - 1));
            continue;
        }
        args[i] = Some(value(game, &action.params[i].name, &domains[i], w)?);
    }
    let missing: Vec<&str> =
        action.params.iter().zip(&args).filter(|(_, a)| a.is_none()).map(|(p, _)| p.name.as_str()).collect();
    if !missing.is_empty() {
        // Players may not know the ruleset's parameter names: point at the
        // listed choices too.
        return Err(format!(
            "`{}` also needs: {} (type `list {}` to see the choices)",
            action.name,
            missing.join(", "),
            action.name
        ));
    }
    Ok(Choice {
        action: ActionId::new(id),
        args: args.into_iter().map(|a| a.expect("checked above")).collect(),
        sets,
    })
}

/// Read one parameter value from a word, among the values it may take now.
fn value(game: &Game, param: &str, domain: &[V], w: &str) -> Result<V, String> {
    let r = game.rules;
    // `Name#k`: the k-th component of that name among the values.
    if let Some((name, k)) = w.rsplit_once('#') {
        if let Ok(k) = k.parse::<usize>() {
            let name = name.to_lowercase();
            let same: Vec<&V> = domain
                .iter()
                .filter(|v| matches!(v, V::Card(c) if r.components[*c].name.to_lowercase() == name))
                .collect();
            if !same.is_empty() {
                return match same.get(k.wrapping_sub(1)) {
                    Some(v) => Ok(**v),
                    None => Err(format!("there are {} `{name}` to choose from, not {k}", same.len())),
                };
            }
        }
    }
    let lower = w.to_lowercase();
    let found = domain.iter().find(|v| match v {
        V::Int(n) => n.to_string() == w,
        V::Place(p) => r.places[*p].name.to_lowercase() == lower,
        V::Player(p) => format!("p{}", p.number()) == lower || p.number().to_string() == w,
        V::Card(c) => r.components[*c].name.to_lowercase() == lower,
        _ => false,
    });
    if let Some(v) = found {
        return Ok(*v);
    }
    // A component may also be named by its position in the list; a component
    // or a place by the start of its name when that is unambiguous.
    if domain.iter().all(|v| matches!(v, V::Card(_))) && !domain.is_empty() {
        if let Ok(n) = w.parse::<usize>() {
            if (1..=domain.len()).contains(&n) {
                return Ok(domain[n - 1]);
            }
        }
    }
    let name_of = |v: &V| match v {
        V::Card(c) => Some(r.components[*c].name.to_lowercase()),
        V::Place(p) => Some(r.places[*p].name.to_lowercase()),
        _ => None,
    };
    let starts: Vec<&V> =
        domain.iter().filter(|v| name_of(v).is_some_and(|n| n.starts_with(&lower))).collect();
    if let [v] = starts.as_slice() {
        return Ok(*(*v));
    }
    if starts.len() > 1 {
        // Copies of one name are the same choice; different names are not.
        let mut words: Vec<String> = Vec::new();
        for v in &starts {
            let text = word(game, v);
            if !words.contains(&text) {
                words.push(text);
            }
        }
        if words.len() == 1 {
            return Ok(*starts[0]);
        }
        return Err(format!("`{w}` could be {}: type more of the name", words.join(" or ")));
    }
    let options: Vec<String> = domain.iter().take(12).map(|v| word(game, v)).collect();
    let more = if domain.len() > 12 { ", ..." } else { "" };
    if domain.is_empty() {
        Err(format!("`{param}` has no possible value now"))
    } else {
        Err(format!("`{w}` is not a possible `{param}`; it can be: {}{more}", options.join(", ")))
    }
}
