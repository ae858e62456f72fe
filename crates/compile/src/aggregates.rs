//! Aggregates (`count`, `sum`, `min`, `max`, `all`, `any`, `first`) over
//! a zone's components, a class's places, a region or the players, as
//! loops in generated code.

use std::fmt::Write;

use model::*;

use crate::{span_code, sub, Env, Gen, Keying, Unit};

impl Gen<'_> {
    /// An aggregate over a zone, the places of a class or a region, or the
    /// players, as code giving its `V`; `None` for other domains (the
    /// interpreter's).
    pub(crate) fn aggregate(&mut self, e: &Expr, path: &[usize], env: &Env) -> Option<String> {
        let ExprKind::Aggregate { func, value, var, domain, filter } = &e.kind else { return None };
        let var = *var;
        let label = self.fresh("'agg");
        let (len, item, inner_env, bind);
        let item_var = self.fresh("c");
        let mut head = String::new();
        match &domain.kind {
            ExprKind::Zone { .. } | ExprKind::Group(_) => {
                let z = self.zone(domain, &sub(path, 0), env);
                write!(head, "let cells = &st.zones[{z}.index()]; ").unwrap();
                len = "cells.len()".to_string();
                item = format!("let Some({item_var}) = cells[i] else {{ continue }}; ");
                bind = format!("V::Card({item_var})");
                inner_env = env.with_card(var, item_var.clone());
            }
            ExprKind::Class(c) => {
                write!(head, "let places = &it.r.classes[ClassId::new({})].places; ", c.index()).unwrap();
                len = "places.len()".into();
                item = format!("let {item_var} = places[i]; ");
                bind = format!("V::Place({item_var})");
                inner_env = if env.own_locals { env.with_val(var, bind.clone()) } else { env.clone() };
            }
            // A region: its places listed by the interpreter's walk (kept
            // in the memo), from a start worked out here.
            ExprKind::Region(region, start) => {
                let list = match &**region {
                    Region::Around => "it.around(p)".to_string(),
                    Region::Connected { link, .. } => {
                        let ExprKind::Let { id, .. } = link.kind else { return None };
                        format!(
                            "it.connected(LetId::new({}), p, {}, st, f.me)?",
                            id.index(),
                            span_code(domain.span)
                        )
                    }
                };
                let v = self.val(start, &sub(&sub(path, 0), 0), env);
                write!(
                    head,
                    "let places = match {v} {{ V::Place(p) => {list}, V::None => Places::default(), _ => {} }}; ",
                    self.escape()
                )
                .unwrap();
                len = "places.len()".into();
                item = format!("let {item_var} = places[i]; ");
                bind = format!("V::Place({item_var})");
                inner_env = if env.own_locals { env.with_val(var, bind.clone()) } else { env.clone() };
            }
            ExprKind::Players => {
                len = "it.lay.players".into();
                item = format!("let {item_var} = st.player_at(&V::Players, i); ");
                bind = item_var.clone();
                let each = if env.own_locals { env.with_val(var, bind.clone()) } else { env.clone() };
                // Calls taking the player are kept per player for a
                // listing (`Gen::call`).
                inner_env = each.with_keyed_player(var, item_var.clone());
            }
            // A set a player chose (`give: set of me.hand`), read from the
            // frame's sets by position as the loop goes (its body binds
            // the frame); a local holding anything else is the
            // interpreter's.
            ExprKind::Local(slot) if !env.own_locals && env.card(*slot).is_none() => {
                let other = self.fallback(path, "eval", env);
                write!(
                    head,
                    "let set = match f.get({slot}) {{ V::Set(j) => j, _ => break {label} {other} }}; "
                )
                .unwrap();
                len = "f.set_items(set).len()".into();
                item = format!("let Some(&{item_var}) = f.set_items(set).get(i) else {{ continue }}; ");
                bind = format!("V::Card({item_var})");
                inner_env = env.with_card(var, item_var.clone());
            }
            _ => return None,
        }
        // `any(x in PLACES where x == y)`, `y` another local: whether the
        // list holds `y`, in one search of it (as the interpreter's
        // `aggregate` does); nothing reads `x` after.
        let places = matches!(domain.kind, ExprKind::Class(_) | ExprKind::Region(..));
        if let (true, Aggregate::Any, None, Some(flt)) = (places, func, value, filter) {
            if let Some((y, side)) = engine::native::member_of(flt, var) {
                let y = self.local(y, &sub(&sub(path, 1), side), env);
                return Some(format!(
                    "({{ {head}let len = {len}; it.spend(len as u64, {})?; V::Bool(match {y} {{ V::Place(q) => places.contains(&q), _ => false }}) }})",
                    span_code(domain.span)
                ));
            }
        }
        // The places of a class gone through in leading statements or a
        // precondition: a let called with the place (`artifacts_from(me,
        // s)`) is kept per place for the listing, as one called with a
        // place parameter of the action.
        let keyed = match &domain.kind {
            ExprKind::Class(c) if self.unit != Unit::Root && self.depth == 0 && !env.own_locals => {
                Keying::of(self.r, &model::ParamDomain::Type(model::Type::Place(Some(*c))))
            }
            _ => None,
        };
        let outer = keyed.map(|k| {
            if self.params.len() <= var {
                self.params.resize(var + 1, None);
            }
            self.params[var].replace(k)
        });
        let mut k = 1;
        let value_code = value.as_ref().map(|v| {
            let code = self.int(v, &sub(path, k), &inner_env);
            k += 1;
            code
        });
        let filter_code = filter.as_ref().map(|x| self.boolean(x, &sub(path, k), &inner_env));
        if let Some(outer) = outer {
            self.params[var] = outer;
        }
        let mut code = format!(
            "({label}: {{ {head}let len = {len}; it.spend(len as u64, {})?; let mut count = 0i64; let mut sum = 0i64; let mut wraps = 0i64; let mut best: Option<i64> = None; for i in 0..len {{ {item}",
            span_code(domain.span)
        );
        // The interpreter's parts of the value and the filter read the
        // local in the frame; an inlined let's body keeps it in a variable.
        // Code that reads neither the frame's slot nor hands the frame on
        // is given the value only.
        let read = |c: &Option<String>| c.as_deref().is_some_and(|c| crate::reads_local(c, var));
        if !env.own_locals && (read(&value_code) || read(&filter_code)) {
            write!(code, "f.set({var}, {bind}); ").unwrap();
        }
        if let Some(flt) = filter_code {
            write!(code, "let pass: bool = {flt}; ").unwrap();
            match func {
                Aggregate::All => write!(code, "if !pass {{ break {label} V::Bool(false); }} ").unwrap(),
                Aggregate::Any => write!(code, "if pass {{ break {label} V::Bool(true); }} ").unwrap(),
                _ => {}
            }
            code.push_str("if !pass { continue; } ");
        }
        if *func == Aggregate::First {
            write!(code, "break {label} {bind}; ").unwrap();
        }
        code.push_str("count += 1; ");
        if let Some(v) = value_code {
            write!(code, "let n: i64 = {v}; let (next, wrapped) = sum.overflowing_add(n); sum = next; if wrapped {{ wraps += if n < 0 {{ -1 }} else {{ 1 }}; }} best = Some(match best {{ ").unwrap();
            match func {
                Aggregate::Min => code.push_str("Some(b) => b.min(n), "),
                Aggregate::Max => code.push_str("Some(b) => b.max(n), "),
                _ => {}
            }
            code.push_str("_ => n }); ");
        }
        code.push_str("} let _ = (&mut count, &mut sum, &mut wraps, &mut best); ");
        code.push_str(match func {
            Aggregate::Count => "V::Int(count)",
            Aggregate::Sum => "V::Int(summed(sum, wraps))",
            Aggregate::Min | Aggregate::Max => "V::Int(best.unwrap_or(0))",
            Aggregate::All => "V::Bool(true)",
            Aggregate::Any => "V::Bool(false)",
            Aggregate::First => "V::None",
        });
        code.push_str(" })");
        // Read from the state's tallies where it can be, the walk kept
        // for a key of another kind.
        if let Some(read) = self.tallied(e, path, env, &code) {
            return Some(read);
        }
        Some(code)
    }
}
