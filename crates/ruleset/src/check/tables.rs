//! Tables: dimensions, rows in order and complete, cells that fit.

use super::*;

impl<'f> Checker<'f> {
    pub(super) fn table_item(&mut self, t: &ast::TableDecl, item: &ast::Item, id: TableId) {
        self.note_provenance(format!("table {}", t.name.name), &item.notes);
        let mut dims = Vec::new();
        for d in &t.dims {
            let Some(hi) = d.range.hi else {
                self.error(
                    Diagnostic::error(Code::BadRange, d.range_span, "a table dimension needs both ends")
                        .label("open-ended")
                        .help(format!("write `{}..N`", d.range.lo)),
                );
                return;
            };
            if hi < d.range.lo {
                self.error(
                    Diagnostic::error(Code::BadRange, d.range_span, "range runs backwards")
                        .label(format!("{} is greater than {hi}", d.range.lo))
                        .help(format!("write `{hi}..{}`", d.range.lo)),
                );
                return;
            }
            dims.push(Dimension { name: d.name.name.clone(), lo: d.range.lo, hi, clamp: d.clamp });
        }
        self.tables[id].dims = dims.clone();
        let size = |d: &Dimension| d.hi - d.lo + 1;
        let cells: i64 = dims.iter().map(size).product();
        if cells > MAX_TABLE_CELLS {
            self.error(
                Diagnostic::error(
                    Code::TableShape,
                    t.name.span,
                    format!("table `{}` would have {cells} cells", t.name.name),
                )
                .label(format!("more than {MAX_TABLE_CELLS} cells"))
                .help("narrow the dimensions"),
            );
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
                    let (key, span) = row.key;
                    if key < d1.lo || key > d1.hi {
                        self.error(
                            Diagnostic::error(
                                Code::TableShape,
                                span,
                                format!("row {key} is outside `{}` {}..{}", d1.name, d1.lo, d1.hi),
                            )
                            .label("no such row")
                            .help(format!("rows run from {} to {}", d1.lo, d1.hi)),
                        );
                        continue;
                    }
                    if key != expected {
                        let what =
                            if key < expected { "repeated or out of order" } else { "comes too early" };
                        self.error(
                            Diagnostic::error(
                                Code::TableShape,
                                span,
                                format!("row {key} is {what}; expected row {expected}"),
                            )
                            .label(format!("expected row {expected} here"))
                            .help(format!("list the rows of `{}` in order, each once", d1.name)),
                        );
                        return;
                    }
                    expected += 1;
                    self.row_shape(&row.row, size(d2), &t.name.name, &d2.name);
                    values.extend(row.row.values.iter().map(|(v, _)| *v));
                    self.note_provenance(format!("table {} row {key}", t.name.name), &row.notes);
                }
                if expected <= d1.hi {
                    let span = match rows.last() {
                        Some(r) => r.span,
                        None => t.name.span,
                    };
                    self.error(
                        Diagnostic::error(
                            Code::TableShape,
                            span,
                            format!(
                                "table `{}` stops at row {}; `{}` runs to {}",
                                t.name.name,
                                expected - 1,
                                d1.name,
                                d1.hi
                            ),
                        )
                        .label(format!("row {expected} should follow"))
                        .help(if expected == d1.hi {
                            format!("add row {expected}")
                        } else {
                            format!("add rows {expected} to {}", d1.hi)
                        }),
                    );
                }
            }
            (ast::TableBody::Flat(row), dims) => {
                self.error(
                    Diagnostic::error(
                        Code::TableShape,
                        row.span,
                        format!("a table with {} dimensions is written as rows", dims.len()),
                    )
                    .label("one flat list")
                    .help("write `{ 1: [...]  2: [...] }`, one row per key"),
                );
            }
            (ast::TableBody::Rows(_), dims) => {
                let n = dims.len();
                self.error(
                    Diagnostic::error(
                        Code::TableShape,
                        t.name.span,
                        format!(
                            "table `{}` has {n} dimension{}; tables have 1 (a list) or 2 (rows)",
                            t.name.name,
                            if n == 1 { "" } else { "s" }
                        ),
                    )
                    .label("unsupported shape")
                    .help(if n == 1 {
                        "write a 1-dimension table as `= [a, b, c]`"
                    } else {
                        "split it into 2-dimension tables"
                    }),
                );
            }
        }
        self.tables[id].dims = dims;
        self.tables[id].values = values;
    }

    pub(super) fn row_shape(&mut self, row: &ast::IntRow, expected: i64, table: &str, dim: &str) {
        let n = row.values.len() as i64;
        if n != expected {
            let span = if n > expected {
                row.values[expected as usize].1.to(row.span.end_point())
            } else {
                row.span
            };
            self.error(
                Diagnostic::error(
                    Code::TableShape,
                    span,
                    format!("table `{table}` needs {expected} values along `{dim}`, this row has {n}"),
                )
                .label(if n > expected {
                    "extra values".to_string()
                } else {
                    format!("{} missing", expected - n)
                })
                .help(format!("give exactly {expected} values, one per `{dim}`")),
            );
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
