//! Tables: dimensions, rows in order and complete, cells that fit.

use super::*;

impl<'f> Checker<'f> {
    pub(super) fn table_item(&mut self, t: &ast::TableDecl, item: &ast::Item, id: TableId) {
        self.note_provenance(format!("table {}", t.name.name), &item.notes);
        let mut dims = Vec::new();
        for d in &t.dims {
            if let Some(e) = &d.enumeration {
                let class = match self.symbols.get(&e.name) {
                    Some((Sym::Class(c), _)) if self.classes[*c].enumeration => *c,
                    _ => {
                        self.error(errors::not_an_enumeration(e));
                        self.broken_tables.insert(id);
                        return;
                    }
                };
                self.used.insert(Sym::Class(class));
                let hi = self.classes[class].places.len() as i64 - 1;
                dims.push(Dimension {
                    name: d.name.name.clone(),
                    lo: 0,
                    hi,
                    clamp: false,
                    class: Some(class),
                });
                continue;
            }
            let Some(hi) = d.range.hi else {
                self.error(errors::open_dimension(d.range_span, d.range.lo));
                self.broken_tables.insert(id);
                return;
            };
            if hi < d.range.lo {
                self.error(errors::backwards_range(d.range_span, d.range.lo, hi));
                self.broken_tables.insert(id);
                return;
            }
            dims.push(Dimension {
                name: d.name.name.clone(),
                lo: d.range.lo,
                hi,
                clamp: d.clamp,
                class: None,
            });
        }
        self.tables[id].dims = dims.clone();
        let size = |d: &Dimension| d.hi - d.lo + 1;
        let cells: i64 = dims.iter().map(size).product();
        if cells > MAX_TABLE_CELLS {
            self.error(errors::too_many_cells(&t.name, cells, MAX_TABLE_CELLS));
            return;
        }
        let mut values = Vec::new();
        match (&t.body, dims.as_slice()) {
            (ast::TableBody::Flat(row), [d]) => {
                self.row_shape(row, size(d), &t.name.name, &d.name);
                values.extend(row.values.iter().map(|(v, _)| *v));
            }
            (ast::TableBody::Rows(rows), [d1, d2]) => {
                let mut expected = d1.lo;
                for row in rows {
                    let Some((key, span)) = self.row_key(row, d1) else { return };
                    if key < d1.lo || key > d1.hi {
                        self.error(errors::row_outside(span, key, &d1.name, d1.lo, d1.hi));
                        continue;
                    }
                    if key != expected {
                        let what =
                            if key < expected { "repeated or out of order" } else { "comes too early" };
                        self.error(errors::row_out_of_order(span, key, what, expected, &d1.name));
                        return;
                    }
                    expected += 1;
                    self.row_shape(&row.row, size(d2), &t.name.name, &d2.name);
                    values.extend(row.row.values.iter().map(|(v, _)| *v));
                    let label = row.name.as_ref().map_or(key.to_string(), |n| n.name.clone());
                    self.note_provenance(format!("table {} row {label}", t.name.name), &row.notes);
                }
                if expected <= d1.hi {
                    let span = match rows.last() {
                        Some(r) => r.span,
                        None => t.name.span,
                    };
                    self.error(errors::rows_missing(span, &t.name.name, expected, &d1.name, d1.hi));
                }
            }
            (ast::TableBody::Flat(row), dims) => {
                self.error(errors::flat_list_for_rows(row.span, dims.len()));
            }
            (ast::TableBody::Rows(_), dims) => {
                let n = dims.len();
                self.error(errors::unsupported_table_shape(&t.name, n));
            }
        }
        self.tables[id].dims = dims;
        self.tables[id].values = values;
    }

    /// A row's key as a number of the first dimension: the number itself,
    /// or the position of an enumeration's value. `None` after an error.
    fn row_key(&mut self, row: &ast::TableRow, dim: &Dimension) -> Option<(i64, Span)> {
        match (&row.name, dim.class) {
            (None, None) => Some(row.key),
            (Some(name), Some(class)) => {
                let places = &self.classes[class].places;
                match places.iter().position(|p| self.places[*p].name == name.name) {
                    Some(k) => Some((k as i64, name.span)),
                    None => {
                        let enum_name = self.classes[class].name.clone();
                        let values: Vec<&str> =
                            places.iter().map(|p| self.places[*p].name.as_str()).collect();
                        let help = help_for(&name.name, values.iter().copied());
                        self.error(errors::not_a_value_of(name, &enum_name, help));
                        None
                    }
                }
            }
            (named, _) => {
                let span = named.as_ref().map_or(row.key.1, |n| n.span);
                self.error(errors::row_key_kind(span, named.is_some(), &dim.name));
                None
            }
        }
    }

    pub(super) fn row_shape(&mut self, row: &ast::IntRow, expected: i64, table: &str, dim: &str) {
        let n = row.values.len() as i64;
        if n != expected {
            let span = if n > expected {
                row.values[expected as usize].1.to(row.span.end_point())
            } else {
                row.span
            };
            self.error(errors::row_length(span, table, dim, expected, n));
        }
    }
}

pub(super) fn covered(seen: &HashMap<i64, Span>) -> String {
    let counts: BTreeSet<i64> = seen.keys().copied().collect();
    if counts.is_empty() {
        "no player count".into()
    } else {
        let list: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
        format!("{} players", list.join(", "))
    }
}
