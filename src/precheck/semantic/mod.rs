//! What a change does, in words: the candidate's model of a device against its stored
//! model, element by element — each interface, static route, OSPF, IS-IS and EIGRP
//! process, BGP neighbor, route-map clause, prefix-list entry, community and AS-path
//! list, packet filter the change adds, removes or changes, with the fields that change
//! (`MTU 1500 → 9000`).
//!
//! The diff works on the serialized model (`serde_json::to_value` of a
//! [`DeviceConfig`]), so a field the model gains later is diffed without code here: each
//! top-level field is a category; a list's elements are matched by their identity
//! ([`rules::RULES`]: a name, prefix and next hop, name and sequence, …; by default the
//! whole element); an object's fields are compared one by one; line numbers are left
//! out everywhere, so moved lines are not changes.

mod rules;
mod words;

#[cfg(test)]
mod tests;

use crate::model::DeviceConfig;
use rules::Rule;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

/// Whether an element is new, gone or changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The candidate has it, the stored config does not.
    Added,
    /// The stored config has it, the candidate does not.
    Removed,
    /// Both have it, with different settings.
    Changed,
}

impl Status {
    /// Its word (`added`, `removed`, `changed`).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Added => "added",
            Status::Removed => "removed",
            Status::Changed => "changed",
        }
    }
}

/// One setting of an element, before and after, in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldChange {
    /// The setting (`MTU`, `OSPF cost`, `shutdown`).
    pub field: String,
    /// Its value before (`none` when not set).
    pub before: String,
    /// Its value after.
    pub after: String,
}

/// One element the change adds, removes or changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// What it is (`interface`, `BGP neighbor`, `route-map`).
    pub kind: String,
    /// Which one (`GigabitEthernet0/1`, `192.0.2.1`, `RM-OUT 10`); empty for a
    /// device-wide setting.
    pub element: String,
    /// Added, removed or changed.
    pub status: Status,
    /// For a change, the settings that change; for an addition or a removal, what the
    /// element holds (its settings that are set).
    pub fields: Vec<FieldChange>,
}

impl Change {
    /// The element named: kind and identity (`interface GigabitEthernet0/1`).
    pub fn name(&self) -> String {
        if self.element.is_empty() {
            self.kind.clone()
        } else {
            format!("{} {}", self.kind, self.element)
        }
    }

    /// What happens to it, in words: `added (description uplink)`, `MTU 1500 → 9000;
    /// shutdown: no → yes`.
    pub fn what(&self) -> String {
        let setting = |f: &FieldChange| {
            let named = |v: &str| {
                if f.field.is_empty() {
                    v.to_owned()
                } else {
                    format!("{} {v}", f.field)
                }
            };
            match self.status {
                Status::Added => named(&f.after),
                Status::Removed => named(&f.before),
                Status::Changed if is_yes_no(&f.before) && is_yes_no(&f.after) => {
                    format!("{}: {} → {}", f.field, f.before, f.after)
                }
                Status::Changed => named(&format!("{} → {}", f.before, f.after)),
            }
        };
        let fields: Vec<String> = self.fields.iter().map(setting).collect();
        match (self.status, fields.is_empty()) {
            (Status::Changed, _) => fields.join("; "),
            (s, true) => s.as_str().to_owned(),
            (s, false) => format!("{} ({})", s.as_str(), fields.join("; ")),
        }
    }
}

fn is_yes_no(s: &str) -> bool {
    s == "yes" || s == "no"
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.status {
            Status::Changed => write!(f, "{}: {}", self.name(), self.what()),
            _ => write!(f, "{} {}", self.name(), self.what()),
        }
    }
}

/// What a change does on one device it configures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeviceChanges {
    /// The device.
    pub device: String,
    /// Its changed elements, in the report's order (interfaces, routing, policy
    /// objects, filters, other); empty when nothing olav models changes.
    pub changes: Vec<Change>,
}

/// The elements that differ between a device's stored model and its candidate, in the
/// report's order.
pub fn diff(base: &DeviceConfig, cand: &DeviceConfig) -> Vec<Change> {
    diff_values(&serialized(base), &serialized(cand))
}

/// What the change does on each device the candidate network's plan configures.
pub fn of_candidate(cand: &super::candidate::Candidate) -> Vec<DeviceChanges> {
    cand.touched
        .iter()
        .map(|d| DeviceChanges {
            device: d.clone(),
            changes: cand
                .devices
                .get(d)
                .map(|dev| diff(&dev.base, &dev.cand))
                .unwrap_or_default(),
        })
        .collect()
}

fn serialized(c: &DeviceConfig) -> Value {
    let mut v = serde_json::to_value(c).unwrap_or_else(|e| {
        // The model serializes to JSON (no maps with non-text keys): not expected.
        tracing::warn!("a device model does not serialize: {e}");
        Value::Null
    });
    // A filter entry is known by what it says, not its number: IOS lists entries without
    // one, and a plan's candidate numbers them (10, 20, …).
    if let Some(filters) = v.get_mut("filters").and_then(Value::as_array_mut) {
        for f in filters {
            for l in f
                .get_mut("lines")
                .and_then(Value::as_array_mut)
                .into_iter()
                .flatten()
            {
                if let Some(o) = l.as_object_mut() {
                    o.remove("seq");
                    if let Some(Value::String(t)) = o.get_mut("text") {
                        let rest = t.trim_start_matches(|ch: char| ch.is_ascii_digit());
                        if rest.len() < t.len() && rest.starts_with(' ') {
                            *t = rest.trim_start().to_owned();
                        }
                    }
                }
            }
        }
    }
    v
}

/// The diff of two serialized device models (objects of top-level fields).
pub(crate) fn diff_values(base: &Value, cand: &Value) -> Vec<Change> {
    let empty = Map::new();
    let (b, c) = (
        base.as_object().unwrap_or(&empty),
        cand.as_object().unwrap_or(&empty),
    );
    let mut w = Walker::default();
    let mut device = Vec::new();
    let mut names = union(b, c);
    names.sort_by_key(|n| rules::rank(n));
    for name in names {
        let shadowed = |(field, by): &&(&str, &str)| {
            *field == name && [b, c].iter().any(|m| !words::is_default(at(m, by)))
        };
        if rules::SKIPPED.contains(&name.as_str())
            || rules::SHADOWED_BY.iter().any(|s| shadowed(&s))
        {
            continue;
        }
        let (bv, cv) = (clean(b.get(&name)), clean(c.get(&name)));
        let rank = rules::rank(&name);
        match (&bv, &cv) {
            (Value::Array(x), Value::Array(y)) => {
                w.list(rank, 1, &name, TOP, rules::rule_of(&name), x, y)
            }
            (Value::Array(x), Value::Null) => {
                w.list(rank, 1, &name, TOP, rules::rule_of(&name), x, &[])
            }
            (Value::Null, Value::Array(y)) => {
                w.list(rank, 1, &name, TOP, rules::rule_of(&name), &[], y)
            }
            _ if is_group(&bv) || is_group(&cv) => w.group(rank, &name, &bv, &cv),
            _ if bv != cv => device.push(field_change(&name, &bv, &cv)),
            _ => {}
        }
    }
    if !device.is_empty() {
        w.put(
            (usize::MAX, 0, String::new()),
            Change {
                kind: "device".to_owned(),
                element: String::new(),
                status: Status::Changed,
                fields: device,
            },
        );
    }
    w.out.into_values().collect()
}

/// The value at a dotted path from the top of a serialized model (null when absent).
fn at<'v>(m: &'v Map<String, Value>, path: &str) -> &'v Value {
    let mut parts = path.split('.');
    let first = parts.next().and_then(|p| m.get(p)).unwrap_or(&Value::Null);
    parts.fold(first, |v, p| v.get(p).unwrap_or(&Value::Null))
}

/// Field names of two objects, each once (sorted: the serialized model's order).
fn union(a: &Map<String, Value>, b: &Map<String, Value>) -> Vec<String> {
    let mut names: Vec<String> = a.keys().chain(b.keys()).cloned().collect();
    names.sort();
    names.dedup();
    names
}

/// A value without its line numbers and derived fields, at any depth.
fn clean(v: Option<&Value>) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.retain(|k, v| {
                    !rules::DERIVED.contains(&k.as_str()) && !rules::is_line_number(k, v)
                });
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v = v.cloned().unwrap_or(Value::Null);
    strip(&mut v);
    v
}

/// A list's elements; an absent list has none.
fn elements(v: &Value) -> Option<&[Value]> {
    match v {
        Value::Array(a) => Some(a.as_slice()),
        Value::Null => Some(&[]),
        _ => None,
    }
}

/// Whether a value is an object of fields (not an enum variant such as a peer).
fn is_group(v: &Value) -> bool {
    matches!(v, Value::Object(m) if !words::is_variant(m))
}

/// The parent of a top-level list's elements: none.
const TOP: (&str, &str) = ("", "");

/// Where a change sits in the report: (category rank, place in the category — a
/// group's own settings first, then its lists —, identity).
type Slot = (usize, usize, String);

#[derive(Default)]
struct Walker {
    out: BTreeMap<Slot, Change>,
}

impl Walker {
    /// Records a change; one for the same element (an interface and its OSPF settings)
    /// is merged into it.
    fn put(&mut self, slot: Slot, c: Change) {
        match self.out.get_mut(&slot) {
            Some(had) => {
                if had.status == Status::Changed {
                    had.status = c.status;
                }
                had.fields.extend(c.fields);
            }
            None => {
                self.out.insert(slot, c);
            }
        }
    }

    /// An object of fields (`bgp`, `ospf`): its lists are compared as lists, its own
    /// settings (and its nested objects') as one element.
    fn group(&mut self, rank: usize, path: &str, b: &Value, c: &Value) {
        let mut settings = Vec::new();
        let mut sub = 1;
        self.group_into(rank, path, "", b, c, &mut settings, &mut sub);
        if settings.is_empty() {
            return;
        }
        let status = match (b.is_null(), c.is_null()) {
            (true, false) => Status::Added,
            (false, true) => Status::Removed,
            _ => Status::Changed,
        };
        let kind = rules::GROUPS
            .iter()
            .find(|(p, _)| *p == path)
            .map_or_else(|| words::path(path), |(_, k)| (*k).to_owned());
        if status != Status::Changed {
            settings.retain(|f| !(is_unset(&f.before) && is_unset(&f.after)));
        }
        self.put(
            (rank, 0, String::new()),
            Change {
                kind,
                element: String::new(),
                status,
                fields: settings,
            },
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn group_into(
        &mut self,
        rank: usize,
        path: &str,
        prefix: &str,
        b: &Value,
        c: &Value,
        settings: &mut Vec<FieldChange>,
        sub: &mut usize,
    ) {
        let empty = Map::new();
        let (bm, cm) = (
            b.as_object().unwrap_or(&empty),
            c.as_object().unwrap_or(&empty),
        );
        for name in union(bm, cm) {
            let p = format!("{path}.{name}");
            if rules::RESTATED.contains(&p.as_str()) {
                continue;
            }
            let (bv, cv) = (
                bm.get(&name).unwrap_or(&Value::Null),
                cm.get(&name).unwrap_or(&Value::Null),
            );
            let rule = rules::rule_of(&p);

            let of_objects =
                |v: &Value| matches!(v, Value::Array(a) if a.first().is_some_and(is_group));
            if let (Some(x), Some(y), true) = (
                elements(bv),
                elements(cv),
                rule.is_some() || of_objects(bv) || of_objects(cv),
            ) {
                self.list(rank, *sub, &p, TOP, rule, x, y);
                *sub += 1;
            } else if is_group(bv) || is_group(cv) {
                let inner = join_words(prefix, &words::field(&name), words::silent(&name));
                self.group_into(rank, &p, &inner, bv, cv, settings, sub);
            } else if bv != cv {
                let mut f = field_change(&name, bv, cv);
                f.field = join_words(prefix, &f.field, false);
                settings.push(f);
            }
        }
    }

    /// A list: its elements matched by identity, each added, removed or changed.
    /// `parent`: the element holding it, (identity in words, sort key), for a nested list.
    #[allow(clippy::too_many_arguments)]
    fn list(
        &mut self,
        rank: usize,
        sub: usize,
        path: &str,
        parent: (&str, &str),
        rule: Option<&'static Rule>,
        b: &[Value],
        c: &[Value],
    ) {
        let (kb, kc) = (keyed(rule, b), keyed(rule, c));
        let kind = rule.map_or_else(|| words::path(path), |r| r.kind.to_owned());
        let mut keys: Vec<&String> = kb.keys().chain(kc.keys()).collect();
        keys.sort();
        keys.dedup();
        for key in keys {
            let (before, after) = (kb.get(key), kc.get(key));
            let Some((identity, _)) = before.or(after) else {
                continue;
            };
            let element = join_words(parent.0, identity, false);
            let sort = format!("{}\u{0}{key}", parent.1);
            let null = Value::Null;
            let (bv, cv) = (
                before.map_or(&null, |x| &x.1),
                after.map_or(&null, |x| &x.1),
            );
            if bv == cv {
                continue;
            }
            let mut fields = Vec::new();
            // An element known by its whole content is named by it: nothing more to list.
            if let Some(r) = rule.filter(|r| !r.key.is_empty()) {
                let key_fields: Vec<&str> = r.key.iter().map(|k| k.1).collect();
                let at = (element.as_str(), sort.as_str());
                self.element_fields(rank, sub, path, at, &key_fields, "", bv, cv, &mut fields);
            }
            let status = match (before, after) {
                (None, _) => Status::Added,
                (_, None) => Status::Removed,
                _ => Status::Changed,
            };
            // An element named by its own configuration line says it all.
            if status != Status::Changed && rules::SELF_DESCRIBED.contains(&path) {
                fields.clear();
            }
            match rule.and_then(|r| r.attach) {
                // An interface's protocol settings: a change of that interface.
                Some(word) => {
                    for f in &mut fields {
                        f.field = format!("{word} {}", f.field);
                    }
                    if fields.is_empty() {
                        continue;
                    }
                    let slot = (rules::rank("interfaces"), 1, sort);
                    self.put(
                        slot,
                        Change {
                            kind: kind.clone(),
                            element,
                            status: Status::Changed,
                            fields,
                        },
                    );
                }
                None => {
                    if status == Status::Changed && fields.is_empty() {
                        continue;
                    }
                    self.put(
                        (rank, sub, sort),
                        Change {
                            kind: kind.clone(),
                            element,
                            status,
                            fields,
                        },
                    );
                }
            }
        }
    }

    /// The fields of one element that differ (for an addition or a removal: those set),
    /// nested objects' fields named after them; a nested list with a rule is a list of
    /// its own elements, named after this one (`policy-statement EXPORT term T1`).
    #[allow(clippy::too_many_arguments)]
    fn element_fields(
        &mut self,
        rank: usize,
        sub: usize,
        path: &str,
        element: (&str, &str),
        key_fields: &[&str],
        prefix: &str,
        b: &Value,
        c: &Value,
        out: &mut Vec<FieldChange>,
    ) {
        let (Some(bm), Some(cm)) = (as_fields(b), as_fields(c)) else {
            // Not objects: the element is its own value (a name in a list of names).
            return;
        };
        for name in union(&bm, &cm) {
            if prefix.is_empty() && key_fields.contains(&name.as_str()) {
                continue;
            }
            let (bv, cv) = (
                bm.get(&name).unwrap_or(&Value::Null),
                cm.get(&name).unwrap_or(&Value::Null),
            );
            // An addition or a removal lists what the element holds, not what it lacks.
            let one_sided = b.is_null() || c.is_null();
            if bv == cv
                || one_sided && words::says_nothing(&name, bv) && words::says_nothing(&name, cv)
            {
                continue;
            }
            let p = format!("{path}.{name}");
            let restated_by = |(r, by): &&(&str, &str)| {
                *r == p
                    && [&bm, &cm]
                        .iter()
                        .any(|m| m.get(*by).is_some_and(|v| !words::is_default(v)))
            };
            if rules::RESTATED.contains(&p.as_str())
                || rules::RESTATED_BY.iter().any(|r| restated_by(&r))
            {
                continue;
            }
            if let (Some(rule), true) = (rules::rule_of(&p), prefix.is_empty()) {
                let as_list = |v: &Value| v.as_array().cloned().unwrap_or_default();
                let (x, y) = (as_list(bv), as_list(cv));
                self.list(rank, sub, &p, element, Some(rule), &x, &y);
                continue;
            }
            if is_group(bv) || is_group(cv) {
                let inner = join_words(prefix, &words::field(&name), words::silent(&name));
                self.element_fields(rank, sub, &p, element, key_fields, &inner, bv, cv, out);
                continue;
            }
            let mut f = field_change(&name, bv, cv);
            f.field = join_words(prefix, &f.field, false);
            out.push(f);
        }
    }
}

fn is_unset(s: &str) -> bool {
    s == "none" || s == "no"
}

/// An element's fields: an object as is, an absent element as no fields.
fn as_fields(v: &Value) -> Option<Map<String, Value>> {
    match v {
        Value::Object(m) if !words::is_variant(m) => Some(m.clone()),
        Value::Null => Some(Map::new()),
        _ => None,
    }
}

fn join_words(prefix: &str, word: &str, skip_word: bool) -> String {
    match (prefix.is_empty(), skip_word || word.is_empty()) {
        (true, _) => {
            if skip_word {
                String::new()
            } else {
                word.to_owned()
            }
        }
        (false, true) => prefix.to_owned(),
        (false, false) => format!("{prefix} {word}"),
    }
}

fn field_change(name: &str, b: &Value, c: &Value) -> FieldChange {
    FieldChange {
        field: words::field(name),
        before: words::field_value(name, b),
        after: words::field_value(name, c),
    }
}

/// A list's elements by identity: sort key → (identity in words, element). A tuple
/// named by the rule becomes an object first; a second element with the same identity
/// is told apart by its place among them.
fn keyed(rule: Option<&Rule>, list: &[Value]) -> BTreeMap<String, (String, Value)> {
    let mut out = BTreeMap::new();
    for e in list {
        let e = match (rule, e) {
            (Some(r), Value::Array(parts)) if !r.tuple.is_empty() => Value::Object(
                r.tuple
                    .iter()
                    .zip(parts.iter())
                    .map(|(n, v)| ((*n).to_owned(), v.clone()))
                    .collect(),
            ),
            _ => e.clone(),
        };
        let parts: Vec<(&str, &Value)> = match rule {
            Some(r) if !r.key.is_empty() => r
                .key
                .iter()
                .map(|(w, f)| (*w, e.get(f).unwrap_or(&Value::Null)))
                .collect(),
            _ => vec![("", &e)],
        };
        let sort = serde_json::to_string(&parts.iter().map(|p| p.1).collect::<Vec<_>>())
            .unwrap_or_default();
        let identity = parts
            .iter()
            .filter(|(_, v)| !words::is_default(v))
            .map(|(w, v)| join_words(w, &words::value(v), false))
            .collect::<Vec<_>>()
            .join(" ");
        let mut k = sort.clone();
        let mut n = 1;
        while out.contains_key(&k) {
            n += 1;
            k = format!("{sort}#{n}");
        }
        out.insert(k, (identity, e));
    }
    out
}
