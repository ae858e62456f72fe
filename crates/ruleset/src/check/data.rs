//! Component groups: every copy expanded, each attribute checked against
//! its kind, declared totals compared with what is listed.

use super::*;

impl<'f> Checker<'f> {
    pub(super) fn group_item(&mut self, g: &ast::GroupDecl, item: &ast::Item) {
        let id = GroupId::new(self.groups.len());
        if !self.declare(&g.name, Sym::Group(id)) {
            return;
        }
        self.note_provenance(format!("{} {}", g.noun, g.name.name), &item.notes);
        let kind = match &g.kind {
            None => {
                self.error(errors::group_without_kind(&g.name, &g.noun));
                None
            }
            Some(kname) => match self.symbols.get(&kname.name) {
                Some((Sym::Kind(k), _)) => {
                    let k = *k;
                    self.used.insert(Sym::Kind(k));
                    Some(k)
                }
                _ => {
                    let help = help_for(&kname.name, self.kinds.iter().map(|k| k.name.as_str()));
                    self.error(errors::unknown_kind(kname, help));
                    None
                }
            },
        };
        let first = self.components.len();
        let mut total = 0i64;
        let mut names: HashMap<&str, Span> = HashMap::new();
        for inst in &g.instances {
            let copies = inst.count.map_or(1, |(n, _)| n);
            if let Some((n, span)) = inst.count {
                if n < 1 {
                    self.error(errors::zero_copies(span));
                }
            }
            total += copies.max(0);
            if let Some(prev) = names.get(inst.name.name.as_str()) {
                self.error(errors::component_listed_twice(&inst.name, &g.name.name, *prev));
            }
            names.insert(&inst.name.name, inst.name.span);
            self.note_provenance(format!("{} {} \"{}\"", g.noun, g.name.name, inst.name.name), &inst.notes);
            let Some(kind) = kind else {
                // Keep the tags, so that `has` elsewhere does not cascade.
                for f in inst.fields.iter().filter(|f| f.name.name == "tags") {
                    if let ValueKind::List(items) = &f.value.kind {
                        for item in items {
                            if let ValueKind::Name(n) = &item.kind {
                                self.tag(n);
                            }
                        }
                    }
                }
                continue;
            };
            let Some((values, tags)) = self.instance_values(inst, kind) else { continue };
            if self.components.len() as i64 + copies.max(0) > MAX_COMPONENTS as i64 {
                if !self.too_many_components {
                    self.too_many_components = true;
                    self.error(errors::too_many_components(inst.name.span, MAX_COMPONENTS));
                }
                continue;
            }
            for _ in 0..copies.max(0) {
                self.components.push(Component {
                    name: inst.name.name.clone(),
                    group: id,
                    kind,
                    values: values.clone(),
                    tags: tags.clone(),
                    span: inst.span,
                });
            }
        }
        if let Some((declared, span)) = g.total {
            if declared != total {
                self.error(errors::total_mismatch(span, &g.name, &g.noun, declared, total));
            }
        }
        self.groups.push(Group {
            name: g.name.name.clone(),
            noun: g.noun.clone(),
            kind: kind.unwrap_or_default(),
            declared_total: g.total.map(|(n, _)| n.max(0) as u32),
            components: first..self.components.len(),
            span: g.name.span,
        });
    }

    pub(super) fn instance_values(
        &mut self,
        inst: &ast::Instance,
        kind: KindId,
    ) -> Option<(Vec<Value>, Vec<TagId>)> {
        let slots = self.kinds[kind].slots.clone();
        let mut values: Vec<Option<Value>> = vec![None; slots.len()];
        let mut given = vec![false; slots.len()];
        let mut ok = true;
        for f in &inst.fields {
            let attr = self.attr_names.iter().position(|n| *n == f.name.name).map(AttrId::new);
            let slot = attr.and_then(|a| slots.iter().position(|(s, _, _)| *s == a));
            let Some(slot) = slot else {
                let kind_name = self.kinds[kind].name.clone();
                let help =
                    help_for(&f.name.name, slots.iter().map(|(a, _, _)| self.attr_names[a.index()].as_str()));
                self.error(errors::kind_lacks_attribute(&f.name, &kind_name, self.kinds[kind].span, help));
                ok = false;
                continue;
            };
            if given[slot] {
                self.error(errors::attribute_given_twice(&f.name));
                continue;
            }
            given[slot] = true;
            match self.literal(&f.value, &slots[slot].1, &f.name.name) {
                Some(v) => values[slot] = Some(v),
                None => ok = false,
            }
        }
        let mut out = Vec::with_capacity(slots.len());
        let mut tags = Vec::new();
        for (i, (attr, ty, default)) in slots.iter().enumerate() {
            let v = match values[i].take() {
                Some(v) => v,
                None => {
                    let required = *default == Value::None
                        && !matches!(ty, Type::Optional(_) | Type::Tags | Type::Map(..));
                    if required && !given[i] {
                        self.error(errors::missing_attribute(
                            &inst.name,
                            &self.attr_names[attr.index()],
                            self.kinds[kind].span,
                        ));
                        ok = false;
                    }
                    default.clone()
                }
            };
            if let Value::Tags(t) = &v {
                tags.extend(t.iter().copied());
            }
            out.push(v);
        }
        ok.then_some((out, tags))
    }
}
