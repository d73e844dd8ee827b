//! The picture of the affected part of the network, as inline SVG. The layout is
//! deterministic: one column per site (sorted by name), one row per role tier (border,
//! core, distribution, access, other), devices that hang below another device of their
//! tier one row lower; external peers on top, affected services at the bottom. Within a
//! row each device goes as close as it can to the mean position of its neighbours
//! above (ties by name). Every style has a non-colour cue too (dashes, hatching, a
//! word under the name), so the picture reads in print and without colour.

use super::{esc, Fate, Mark, Picture};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

pub(super) const NODE_W: f64 = 150.0;
pub(super) const NODE_H: f64 = 44.0;
pub(super) const PITCH: f64 = 168.0;
const ROW_H: f64 = 100.0;
const GUTTER: f64 = 104.0;
const COL_GAP: f64 = 32.0;
const TOP: f64 = 44.0;
const MARGIN: f64 = 16.0;
/// Devices per row before a tier wraps onto another row.
const PER_ROW: usize = 6;
/// The legend needs this much width.
const MIN_WIDTH: f64 = 900.0;
/// Characters of a name that fit in a box; the full name is in the tooltip.
const NAME_CHARS: usize = 20;

/// Role tiers, top to bottom.
const TIERS: [&str; 5] = ["border", "core", "distribution", "access", "other"];

fn tier(role: Option<&str>) -> usize {
    match role.map(str::to_ascii_lowercase).as_deref() {
        Some("border" | "edge") => 0,
        Some("core" | "spine") => 1,
        Some("distribution" | "dist" | "aggregation" | "agg") => 2,
        Some("access" | "leaf") => 3,
        _ => 4,
    }
}

/// A row of the grid: tier, depth below the tier's top devices, wrap index.
type RowKey = (usize, usize, usize);

/// Where everything goes.
struct Layout {
    width: f64,
    height: f64,
    /// Site columns: label, left x, width.
    columns: Vec<(String, f64, f64)>,
    /// Tier labels: text, y.
    tier_labels: Vec<(&'static str, f64)>,
    node_at: HashMap<String, (f64, f64)>,
    peer_at: HashMap<String, (f64, f64)>,
    service_at: Vec<(f64, f64)>,
    peers_y: Option<f64>,
    services_y: Option<f64>,
    legend_y: f64,
}

/// Depth of each device below the devices of its tier and site that have a link to a
/// higher tier (the branch switches behind a branch router sit one row lower).
fn depths(p: &Picture, tier_of: &HashMap<&str, usize>) -> HashMap<String, usize> {
    let site: HashMap<&str, Option<&str>> = p
        .nodes
        .iter()
        .map(|n| (n.name.as_str(), n.site.as_deref()))
        .collect();
    let mut adj: HashMap<&str, Vec<&str>> = HashMap::new();
    for e in &p.edges {
        adj.entry(&e.a.0).or_default().push(&e.b.0);
        adj.entry(&e.b.0).or_default().push(&e.a.0);
    }
    let mut depth: HashMap<String, usize> = HashMap::new();
    let mut queue: std::collections::VecDeque<&str> = std::collections::VecDeque::new();
    for n in &p.nodes {
        let t = tier_of[n.name.as_str()];
        let upward = adj
            .get(n.name.as_str())
            .into_iter()
            .flatten()
            .any(|m| tier_of.get(m).is_some_and(|u| *u < t));
        if upward {
            depth.insert(n.name.clone(), 0);
            queue.push_back(&n.name);
        }
    }
    while let Some(d) = queue.pop_front() {
        let (t, k) = (tier_of[d], depth[d]);
        for m in adj.get(d).into_iter().flatten() {
            if tier_of.get(m) == Some(&t) && site.get(m) == site.get(d) && !depth.contains_key(*m) {
                depth.insert((*m).to_owned(), k + 1);
                queue.push_back(m);
            }
        }
    }
    depth
}

/// Places a row's items between `lo` and `hi` (centres), each as near its wish as the
/// spacing allows; items arrive sorted by (wish, name).
fn place_row(wishes: &[f64], lo: f64, hi: f64) -> Vec<f64> {
    if wishes.is_empty() {
        return Vec::new();
    }
    let mut xs: Vec<f64> = Vec::with_capacity(wishes.len());
    for (i, w) in wishes.iter().enumerate() {
        let x = if i == 0 { *w } else { w.max(xs[i - 1] + PITCH) };
        xs.push(x);
    }
    // Keep the group centred on what its items wish, then inside the bounds.
    let shift =
        wishes.iter().sum::<f64>() / wishes.len() as f64 - xs.iter().sum::<f64>() / xs.len() as f64;
    for x in &mut xs {
        *x += shift;
    }
    let n = xs.len();
    if xs[n - 1] > hi {
        let over = xs[n - 1] - hi;
        for x in &mut xs {
            *x -= over;
        }
    }
    if xs[0] < lo {
        let under = lo - xs[0];
        for x in &mut xs {
            *x += under;
        }
    }
    xs
}

fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

fn layout(p: &Picture) -> Layout {
    let tier_of: HashMap<&str, usize> = p
        .nodes
        .iter()
        .map(|n| (n.name.as_str(), tier(n.role.as_deref())))
        .collect();
    let depth = depths(p, &tier_of);
    let site_of = |n: &super::Node| n.site.clone().unwrap_or_default();
    // Sites by name; devices without a site last.
    // A service's site has a panel even when none of its devices is drawn: the service
    // is drawn inside it.
    let service_site = |s: &super::Service| s.site.clone().unwrap_or_default();
    let mut sites: Vec<String> = p
        .nodes
        .iter()
        .map(site_of)
        .chain(p.services.iter().map(service_site))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    sites.sort_by_key(|s| (s.is_empty(), s.clone()));
    // (site, tier, depth) → devices by name; then wrapped into rows of PER_ROW.
    let mut cells: BTreeMap<(usize, usize, usize), Vec<&str>> = BTreeMap::new();
    for n in &p.nodes {
        let s = sites.iter().position(|x| *x == site_of(n)).unwrap_or(0);
        let t = tier_of[n.name.as_str()];
        let d = depth.get(&n.name).copied().unwrap_or(0);
        cells.entry((s, t, d)).or_default().push(&n.name);
    }
    let mut rows: BTreeMap<RowKey, Vec<(usize, Vec<&str>)>> = BTreeMap::new();
    for ((s, t, d), names) in &cells {
        for (w, chunk) in names.chunks(PER_ROW).enumerate() {
            rows.entry((*t, *d, w))
                .or_default()
                .push((*s, chunk.to_vec()));
        }
    }
    let mut widths = vec![PITCH; sites.len()];
    for row in rows.values() {
        for (s, names) in row {
            widths[*s] = widths[*s].max(names.len() as f64 * PITCH);
        }
    }
    let column_of = |s: &super::Service| {
        sites
            .iter()
            .position(|x| *x == service_site(s))
            .unwrap_or(0)
    };
    let mut services_in = vec![0usize; sites.len()];
    for s in &p.services {
        services_in[column_of(s)] += 1;
    }
    for (w, n) in widths.iter_mut().zip(&services_in) {
        *w = w.max(*n as f64 * PITCH);
    }
    let mut columns = Vec::new();
    let mut x = GUTTER;
    for (i, s) in sites.iter().enumerate() {
        let label = if s.is_empty() {
            "no site".to_owned()
        } else {
            format!("site {s}")
        };
        columns.push((label, x, widths[i]));
        x += widths[i] + COL_GAP;
    }
    let content = x - COL_GAP + MARGIN;
    let wide_row = |n: usize| GUTTER + n as f64 * PITCH + MARGIN;
    let width = content
        .max(wide_row(p.peers.len()))
        .max(wide_row(p.services.len()))
        .max(MIN_WIDTH);
    let mut y = TOP;
    let peers_y = (!p.peers.is_empty()).then(|| {
        let py = y + ROW_H / 2.0;
        y += ROW_H;
        py
    });
    let mut node_at: HashMap<String, (f64, f64)> = HashMap::new();
    let mut tier_labels = Vec::new();
    let mut last_tier = None;
    for ((t, _, _), row) in &rows {
        let ry = y + ROW_H / 2.0;
        if last_tier != Some(*t) {
            tier_labels.push((TIERS[*t], ry));
            last_tier = Some(*t);
        }
        for (s, names) in row {
            let (_, left, w) = &columns[*s];
            let (lo, hi) = (left + PITCH / 2.0, left + w - PITCH / 2.0);
            let centre = left + w / 2.0;
            // Wish: the mean x of neighbours already placed above; else the column centre.
            let mut items: Vec<(f64, &str)> = names
                .iter()
                .map(|n| {
                    let xs: Vec<f64> = p
                        .edges
                        .iter()
                        .filter_map(|e| {
                            let other = if e.a.0 == *n {
                                &e.b.0
                            } else if e.b.0 == *n {
                                &e.a.0
                            } else {
                                return None;
                            };
                            node_at.get(other).map(|(x, _)| *x)
                        })
                        .collect();
                    (mean(&xs).unwrap_or(centre), *n)
                })
                .collect();
            items.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(b.1)));
            let wishes: Vec<f64> = items.iter().map(|i| i.0).collect();
            for (x, (_, n)) in place_row(&wishes, lo, hi).into_iter().zip(&items) {
                node_at.insert((*n).to_owned(), (x, ry));
            }
        }
        y += ROW_H;
    }
    let (lo, hi) = (GUTTER + PITCH / 2.0, width - MARGIN - PITCH / 2.0);
    let centre = (lo + hi) / 2.0;
    let mut peer_at = HashMap::new();
    if let Some(py) = peers_y {
        let mut items: Vec<(f64, &str)> = p
            .peers
            .iter()
            .map(|peer| {
                let xs: Vec<f64> = p
                    .sessions
                    .iter()
                    .filter(|s| s.external && s.to == peer.key)
                    .filter_map(|s| node_at.get(&s.device).map(|(x, _)| *x))
                    .collect();
                (mean(&xs).unwrap_or(centre), peer.key.as_str())
            })
            .collect();
        items.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(b.1)));
        let wishes: Vec<f64> = items.iter().map(|i| i.0).collect();
        for (x, (_, k)) in place_row(&wishes, lo, hi).into_iter().zip(&items) {
            peer_at.insert((*k).to_owned(), (x, py));
        }
    }
    let services_y = (!p.services.is_empty()).then(|| {
        let sy = y + ROW_H / 2.0;
        y += ROW_H;
        sy
    });
    let mut service_at = vec![(0.0, 0.0); p.services.len()];
    if let Some(sy) = services_y {
        // Each site's services within its own panel, near their devices.
        for (c, (_, left, w)) in columns.iter().enumerate() {
            let (lo, hi) = (left + PITCH / 2.0, left + w - PITCH / 2.0);
            let mut items: Vec<(f64, &str, usize)> = p
                .services
                .iter()
                .enumerate()
                .filter(|(_, s)| column_of(s) == c)
                .map(|(i, s)| {
                    let xs: Vec<f64> = s
                        .devices
                        .iter()
                        .filter_map(|d| node_at.get(d).map(|(x, _)| *x))
                        .collect();
                    (mean(&xs).unwrap_or(left + w / 2.0), s.name.as_str(), i)
                })
                .collect();
            items.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(b.1)));
            let wishes: Vec<f64> = items.iter().map(|i| i.0).collect();
            for (x, (_, _, i)) in place_row(&wishes, lo, hi).into_iter().zip(&items) {
                service_at[*i] = (x, sy);
            }
        }
    }
    let legend_y = y + 8.0;
    Layout {
        width,
        height: legend_y + LEGEND_H,
        columns,
        tier_labels,
        node_at,
        peer_at,
        service_at,
        peers_y,
        services_y,
        legend_y,
    }
}

const LEGEND_H: f64 = 118.0;

/// Stroke and fill of a device box by its mark.
fn node_style(m: Mark) -> (&'static str, &'static str, &'static str) {
    // (fill, stroke, extra attributes)
    match m {
        Mark::Removed => (
            "#fee2e2",
            "#b91c1c",
            r#" stroke-width="2.5" stroke-dasharray="7 4""#,
        ),
        Mark::Isolated => ("#ffedd5", "#c2410c", r#" stroke-width="3""#),
        Mark::Degraded => (
            "#fef9c3",
            "#a16207",
            r#" stroke-width="2.5" stroke-dasharray="2 3""#,
        ),
        Mark::Changed => ("#dbeafe", "#1d4ed8", r#" stroke-width="2.5""#),
        Mark::Context => ("#ffffff", "#94a3b8", r#" stroke-width="1.2""#),
    }
}

fn short(name: &str) -> String {
    if name.chars().count() <= NAME_CHARS {
        name.to_owned()
    } else {
        let head: String = name.chars().take(NAME_CHARS - 1).collect();
        format!("{head}…")
    }
}

fn device_box(s: &mut String, x: f64, y: f64, name: &str, role: &str, m: Mark, title: &str) {
    let (fill, stroke, extra) = node_style(m);
    let (l, t) = (x - NODE_W / 2.0, y - NODE_H / 2.0);
    let _ = write!(
        s,
        r#"<g class="node {cls}"><title>{title}</title><rect x="{l:.1}" y="{t:.1}" width="{NODE_W}" height="{NODE_H}" rx="6" fill="{fill}" stroke="{stroke}"{extra}/>"#,
        cls = m.label(),
        title = esc(title),
    );
    if m == Mark::Removed {
        let _ = write!(
            s,
            r#"<rect x="{l:.1}" y="{t:.1}" width="{NODE_W}" height="{NODE_H}" rx="6" fill="url(#hatch)" stroke="none"/>"#
        );
    }
    let sub = match m {
        Mark::Context => role.to_owned(),
        _ if role.is_empty() => m.label().to_uppercase(),
        _ => format!("{role} · {}", m.label().to_uppercase()),
    };
    let weight = if m == Mark::Context { "600" } else { "700" };
    let _ = write!(
        s,
        r##"<text x="{x:.1}" y="{ny:.1}" text-anchor="middle" font-size="12" font-weight="{weight}" fill="#0f172a">{name}</text><text x="{x:.1}" y="{sy:.1}" text-anchor="middle" font-size="10" fill="{stroke}">{sub}</text></g>"##,
        ny = y - 3.0,
        sy = y + 12.0,
        name = esc(&short(name)),
        sub = esc(&sub),
        stroke = if m == Mark::Context {
            "#475569"
        } else {
            stroke
        },
    );
}

fn peer_shape(s: &mut String, x: f64, y: f64, label: &str, lost: bool, title: &str) {
    let (stroke, extra, sub) = if lost {
        (
            "#b91c1c",
            r#" stroke-width="2.5" stroke-dasharray="7 4""#,
            "external peer · LOST",
        )
    } else {
        ("#475569", r#" stroke-width="1.5""#, "external peer")
    };
    let _ = write!(
        s,
        r##"<g class="peer"><title>{title}</title><ellipse cx="{x:.1}" cy="{y:.1}" rx="{rx}" ry="{ry}" fill="#f1f5f9" stroke="{stroke}"{extra}/><text x="{x:.1}" y="{ny:.1}" text-anchor="middle" font-size="12" font-weight="600" fill="#0f172a">{label}</text><text x="{x:.1}" y="{sy:.1}" text-anchor="middle" font-size="10" fill="{stroke}">{sub}</text></g>"##,
        title = esc(title),
        rx = NODE_W / 2.0,
        ry = NODE_H / 2.0,
        ny = y - 3.0,
        sy = y + 12.0,
        label = esc(&short(label)),
    );
}

fn service_pill(s: &mut String, x: f64, y: f64, name: &str, status: &str, down: bool) {
    let (fill, stroke, extra) = if down {
        ("#fecaca", "#991b1b", r#" stroke-width="2.5""#)
    } else {
        (
            "#fef3c7",
            "#b45309",
            r#" stroke-width="2" stroke-dasharray="5 3""#,
        )
    };
    let _ = write!(
        s,
        r##"<g class="service"><title>service {title}: {st}</title><rect x="{l:.1}" y="{t:.1}" width="{NODE_W}" height="{NODE_H}" rx="{r}" fill="{fill}" stroke="{stroke}"{extra}/><text x="{x:.1}" y="{ny:.1}" text-anchor="middle" font-size="11.5" font-weight="700" fill="#0f172a">{name}</text><text x="{x:.1}" y="{sy:.1}" text-anchor="middle" font-size="10" fill="{stroke}">{st}</text></g>"##,
        title = esc(name),
        st = esc(status),
        l = x - NODE_W / 2.0,
        t = y - NODE_H / 2.0,
        r = NODE_H / 2.0,
        ny = y - 3.0,
        sy = y + 12.0,
        name = esc(&short(name)),
    );
}

/// Line styles: (stroke, width, dash).
const LINK: (&str, f64, &str) = ("#64748b", 1.6, "");
const LINK_LOST: (&str, f64, &str) = ("#b91c1c", 2.4, "8 5");
const SESSION: (&str, f64, &str) = ("#0f766e", 1.6, "3 3");
const SESSION_LOST: (&str, f64, &str) = ("#b91c1c", 2.4, "2 4");
const SESSION_NEW: (&str, f64, &str) = ("#15803d", 2.8, "10 3");
const SERVICE_TIE: (&str, f64, &str) = ("#94a3b8", 1.0, "1 3");

/// How many lines between `a` and `b` were drawn before this one.
fn nth<'a>(a: &'a str, b: &'a str, seen: &mut HashMap<(&'a str, &'a str), usize>) -> usize {
    let key = if a < b { (a, b) } else { (b, a) };
    let n = seen.entry(key).or_default();
    *n += 1;
    *n - 1
}

/// A line (or, between devices of one row, an arc below it) with an optional ✕ at its
/// middle for what is lost.
#[allow(clippy::too_many_arguments)]
fn line(
    s: &mut String,
    (x1, y1): (f64, f64),
    (x2, y2): (f64, f64),
    offset: f64,
    style: (&str, f64, &str),
    cross: bool,
    class: &str,
    title: &str,
) {
    let (stroke, w, dash) = style;
    let dash = if dash.is_empty() {
        String::new()
    } else {
        format!(r#" stroke-dasharray="{dash}""#)
    };
    let same_row = (y1 - y2).abs() < 1.0 && (x1 - x2).abs() > PITCH + 1.0;
    let (mx, my, d) = if same_row {
        // Arc below the row, so it never runs behind the devices in between.
        let bow = NODE_H / 2.0 + 16.0 + ((x1 - x2).abs() * 0.06).min(30.0) + offset.abs();
        let (cx, cy) = ((x1 + x2) / 2.0, y1 + 2.0 * bow);
        (
            cx,
            y1 + bow,
            format!("M{x1:.1},{y1:.1} Q{cx:.1},{cy:.1} {x2:.1},{y2:.1}"),
        )
    } else {
        // Parallel lines side by side: shift along the normal.
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let (nx, ny) = (-dy / len * offset, dx / len * offset);
        let (a, b, c, e) = (x1 + nx, y1 + ny, x2 + nx, y2 + ny);
        (
            (a + c) / 2.0,
            (b + e) / 2.0,
            format!("M{a:.1},{b:.1} L{c:.1},{e:.1}"),
        )
    };
    let _ = write!(
        s,
        r#"<path class="{class}" d="{d}" fill="none" stroke="{stroke}" stroke-width="{w}"{dash}><title>{title}</title></path>"#,
        title = esc(title)
    );
    if cross {
        let k = 6.0;
        let _ = write!(
            s,
            r##"<path d="M{a:.1},{b:.1} L{c:.1},{e:.1} M{a:.1},{e:.1} L{c:.1},{b:.1}" stroke="#b91c1c" stroke-width="3" fill="none"/>"##,
            a = mx - k,
            b = my - k,
            c = mx + k,
            e = my + k
        );
    }
}

/// The picture as an inline `<svg>` element (no namespace address: HTML gives it one).
pub fn render(p: &Picture) -> String {
    let mut s = String::new();
    if p.nodes.is_empty() {
        let _ = write!(
            s,
            r##"<svg class="network" viewBox="0 0 {w} 60" width="{w}" height="60" role="img" aria-label="nothing to draw"><text x="16" y="34" font-size="14" fill="#475569">Nothing to draw: the change names no device of the state DB.</text></svg>"##,
            w = MIN_WIDTH
        );
        return s;
    }
    let l = layout(p);
    let _ = write!(
        s,
        r#"<svg class="network" viewBox="0 0 {w:.0} {h:.0}" width="{w:.0}" height="{h:.0}" role="img" aria-label="the affected part of the network" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif">"#,
        w = l.width,
        h = l.height
    );
    s.push_str(r##"<defs><pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="8" stroke="#b91c1c" stroke-width="1.2" stroke-opacity="0.35"/></pattern>"##);
    if !p.paths.is_empty() {
        s.push_str(super::path::DEFS);
    }
    s.push_str("</defs>");
    for (label, x, w) in &l.columns {
        let _ = write!(
            s,
            r##"<rect x="{x:.1}" y="{t:.1}" width="{w:.1}" height="{h:.1}" rx="8" fill="#f8fafc" stroke="#e2e8f0"/><text x="{tx:.1}" y="{ty:.1}" text-anchor="middle" font-size="13" font-weight="700" fill="#334155">{label}</text>"##,
            t = TOP - 24.0,
            h = l.legend_y - TOP + 16.0,
            tx = x + w / 2.0,
            ty = TOP - 8.0,
            label = esc(label)
        );
    }
    let gutter_label = |s: &mut String, text: &str, y: f64| {
        let _ = write!(
            s,
            r##"<text x="{x}" y="{y:.1}" font-size="11" font-weight="600" fill="#64748b" letter-spacing="0.5">{t}</text>"##,
            x = MARGIN,
            y = y + 4.0,
            t = esc(&text.to_uppercase())
        );
    };
    if let Some(y) = l.peers_y {
        gutter_label(&mut s, "external", y);
    }
    for (t, y) in &l.tier_labels {
        gutter_label(&mut s, t, *y);
    }
    if let Some(y) = l.services_y {
        gutter_label(&mut s, "services", y);
    }
    // Lines first, boxes over them.
    let mut pairs: HashMap<(&str, &str), usize> = HashMap::new();
    let mut counts: HashMap<(String, String), usize> = HashMap::new();
    for e in &p.edges {
        let key = if e.a.0 < e.b.0 {
            (e.a.0.clone(), e.b.0.clone())
        } else {
            (e.b.0.clone(), e.a.0.clone())
        };
        *counts.entry(key).or_default() += 1;
    }
    for e in &p.edges {
        let (Some(a), Some(b)) = (l.node_at.get(&e.a.0), l.node_at.get(&e.b.0)) else {
            continue;
        };
        let k = nth(&e.a.0, &e.b.0, &mut pairs);
        let key = if e.a.0 < e.b.0 {
            (e.a.0.clone(), e.b.0.clone())
        } else {
            (e.b.0.clone(), e.a.0.clone())
        };
        let n = counts.get(&key).copied().unwrap_or(1);
        let offset = (k as f64 - (n as f64 - 1.0) / 2.0) * 6.0;
        let title = format!(
            "link {}:{} – {}:{}{}",
            e.a.0,
            e.a.1,
            e.b.0,
            e.b.1,
            if e.lost { " (lost)" } else { "" }
        );
        let (style, class) = if e.lost {
            (LINK_LOST, "link lost")
        } else {
            (LINK, "link")
        };
        line(&mut s, *a, *b, offset, style, e.lost, class, &title);
    }
    let mut sess_pairs: HashMap<(&str, &str), usize> = HashMap::new();
    for x in &p.sessions {
        let from = l.node_at.get(&x.device);
        let to = if x.external {
            l.peer_at.get(&x.to)
        } else {
            l.node_at.get(&x.to)
        };
        let (Some(a), Some(b)) = (from, to) else {
            continue;
        };
        let k = nth(&x.device, &x.to, &mut sess_pairs);
        let offset = k as f64 * 7.0 + if x.external { 0.0 } else { 10.0 };
        let (style, class, word) = match x.fate {
            Fate::Kept => (SESSION, "session", ""),
            Fate::Lost => (SESSION_LOST, "session lost", " (lost)"),
            Fate::New => (SESSION_NEW, "session new", " (new)"),
        };
        // An internal session is one line per device pair, so its title names both
        // devices: the address may be either end's.
        let title = if x.external {
            format!("BGP session {} → {}{word}", x.device, x.address)
        } else {
            format!("BGP session {} – {}{word}", x.device, x.to)
        };
        line(
            &mut s,
            *a,
            *b,
            offset,
            style,
            x.fate == Fate::Lost,
            class,
            &title,
        );
    }
    for (i, svc) in p.services.iter().enumerate() {
        for d in &svc.devices {
            if let Some(at) = l.node_at.get(d) {
                line(
                    &mut s,
                    l.service_at[i],
                    *at,
                    0.0,
                    SERVICE_TIE,
                    false,
                    "service-tie",
                    &format!("service {} has an endpoint on {d}", svc.name),
                );
            }
        }
    }
    super::path::arrows(&mut s, p, &l.node_at);
    for n in &p.nodes {
        if let Some((x, y)) = l.node_at.get(&n.name) {
            let role = n.role.clone().unwrap_or_default();
            let title = format!(
                "{} — {}{}{}",
                n.name,
                n.mark.label(),
                n.role
                    .as_deref()
                    .map(|r| format!(", role {r}"))
                    .unwrap_or_default(),
                n.site
                    .as_deref()
                    .map(|r| format!(", site {r}"))
                    .unwrap_or_default()
            );
            device_box(&mut s, *x, *y, &n.name, &role, n.mark, &title);
        }
    }
    for peer in &p.peers {
        if let Some((x, y)) = l.peer_at.get(&peer.key) {
            peer_shape(&mut s, *x, *y, &peer.label, peer.lost, &peer.label);
        }
    }
    for (i, svc) in p.services.iter().enumerate() {
        let (x, y) = l.service_at[i];
        let status = if svc.down() {
            format!("{} · DOWN", svc.criticality)
        } else {
            format!(
                "{} · {} of {} remain",
                svc.criticality, svc.remaining, svc.endpoints
            )
        };
        service_pill(&mut s, x, y, &svc.name, &status, svc.down());
    }
    super::path::badges(&mut s, p, &l.node_at);
    legend(&mut s, l.legend_y, l.width, !p.paths.is_empty());
    s.push_str("</svg>");
    s
}

/// The legend: every style the picture can use, in three rows (the paths' only when
/// the picture has some).
fn legend(s: &mut String, y0: f64, width: f64, paths: bool) {
    let _ = write!(
        s,
        r##"<g class="legend"><rect x="{m}" y="{y0:.1}" width="{w:.1}" height="{h}" rx="6" fill="#ffffff" stroke="#cbd5e1"/><text x="{tx}" y="{ty:.1}" font-size="11" font-weight="700" fill="#334155">Legend</text>"##,
        m = MARGIN,
        w = width - 2.0 * MARGIN,
        h = LEGEND_H - 8.0,
        tx = MARGIN + 10.0,
        ty = y0 + 16.0
    );
    let col = (width - 2.0 * MARGIN - 20.0) / 5.0;
    let at = |i: usize| {
        (
            MARGIN + 10.0 + (i % 5) as f64 * col,
            y0 + 36.0 + (i / 5) as f64 * 28.0,
        )
    };
    let marks = [
        Mark::Changed,
        Mark::Removed,
        Mark::Isolated,
        Mark::Degraded,
        Mark::Context,
    ];
    for (i, m) in marks.iter().enumerate() {
        let (x, y) = at(i);
        let (fill, stroke, extra) = node_style(*m);
        let _ = write!(
            s,
            r#"<rect x="{x:.1}" y="{t:.1}" width="34" height="18" rx="4" fill="{fill}" stroke="{stroke}"{extra}/>"#,
            t = y - 9.0
        );
        if *m == Mark::Removed {
            let _ = write!(
                s,
                r#"<rect x="{x:.1}" y="{t:.1}" width="34" height="18" rx="4" fill="url(#hatch)"/>"#,
                t = y - 9.0
            );
        }
        let text = match m {
            Mark::Changed => "changed or named",
            Mark::Removed => "removed",
            Mark::Isolated => "isolated (cut off)",
            Mark::Degraded => "degraded (new SPOF)",
            Mark::Context => "unaffected",
        };
        legend_text(s, x + 42.0, y, text);
    }
    let lines = [
        (LINK, false, "link"),
        (LINK_LOST, true, "link lost"),
        (SESSION, false, "BGP session"),
        (SESSION_LOST, true, "BGP session lost"),
        (SESSION_NEW, false, "BGP session added"),
    ];
    for (i, (style, cross, text)) in lines.iter().enumerate() {
        let (x, y) = at(5 + i);
        line(
            s,
            (x, y),
            (x + 34.0, y),
            0.0,
            *style,
            *cross,
            "legend",
            text,
        );
        legend_text(s, x + 42.0, y, text);
    }
    let (x, y) = at(10);
    let _ = write!(
        s,
        r##"<ellipse cx="{cx:.1}" cy="{y:.1}" rx="17" ry="9" fill="#f1f5f9" stroke="#475569" stroke-width="1.5"/>"##,
        cx = x + 17.0
    );
    legend_text(s, x + 42.0, y, "external BGP peer");
    for (i, (down, text)) in [(true, "service down"), (false, "service degraded")]
        .iter()
        .enumerate()
    {
        let (x, y) = at(11 + i);
        let (fill, stroke, extra) = if *down {
            ("#fecaca", "#991b1b", r#" stroke-width="2.5""#)
        } else {
            (
                "#fef3c7",
                "#b45309",
                r#" stroke-width="2" stroke-dasharray="5 3""#,
            )
        };
        let _ = write!(
            s,
            r#"<rect x="{x:.1}" y="{t:.1}" width="34" height="18" rx="9" fill="{fill}" stroke="{stroke}"{extra}/>"#,
            t = y - 9.0
        );
        legend_text(s, x + 42.0, y, text);
    }
    if paths {
        super::path::legend(s, at(13), at(14));
    }
    s.push_str("</g>");
}

pub(super) fn legend_text(s: &mut String, x: f64, y: f64, text: &str) {
    let _ = write!(
        s,
        r##"<text x="{x:.1}" y="{y:.1}" font-size="11" fill="#334155" dominant-baseline="middle">{t}</text>"##,
        t = esc(text)
    );
}

#[cfg(test)]
mod tests {
    use super::super::{Edge, Node, Service};
    use super::*;

    fn node(name: &str, role: &str, site: &str, mark: Mark) -> Node {
        Node {
            name: name.into(),
            role: Some(role.into()),
            site: Some(site.into()),
            mark,
        }
    }

    fn edge(a: &str, b: &str, lost: bool) -> Edge {
        Edge {
            a: (a.into(), "e0".into()),
            b: (b.into(), "e1".into()),
            lost,
        }
    }

    fn branch() -> Picture {
        Picture {
            nodes: vec![
                node("core", "core", "s1", Mark::Context),
                node("dist", "distribution", "s1", Mark::Changed),
                node("br", "access", "s1", Mark::Removed),
                node("leaf-a", "access", "s1", Mark::Isolated),
                node("leaf-b", "access", "s1", Mark::Isolated),
                node("other", "core", "s2", Mark::Degraded),
            ],
            edges: vec![
                edge("core", "dist", false),
                edge("dist", "br", true),
                edge("br", "leaf-a", true),
                edge("br", "leaf-b", true),
                edge("core", "other", false),
            ],
            services: vec![Service {
                name: "svc".into(),
                criticality: "high".into(),
                endpoints: 2,
                remaining: 0,
                devices: vec!["leaf-a".into()],
                site: Some("s1".into()),
            }],
            hops: 2,
            ..Picture::default()
        }
    }

    #[test]
    fn tiers_sites_and_depth_place_devices() {
        let l = layout(&branch());
        let at = |n: &str| l.node_at[n];
        assert!(at("core").1 < at("dist").1, "core above distribution");
        assert!(at("dist").1 < at("br").1, "distribution above access");
        assert!(
            at("br").1 < at("leaf-a").1,
            "devices behind another access device sit one row lower"
        );
        assert_eq!(at("leaf-a").1, at("leaf-b").1);
        assert!(at("leaf-a").0 < at("leaf-b").0, "ties by name");
        assert!(at("core").0 < at("other").0, "site s1 left of s2");
        assert_eq!(at("core").1, at("other").1, "one row per tier across sites");
        assert!(l.services_y.is_some_and(|y| y > at("leaf-a").1));
        assert_eq!(l.columns.len(), 2);
    }

    #[test]
    fn the_layout_is_the_same_every_time() {
        assert_eq!(render(&branch()), render(&branch()));
    }

    #[test]
    fn each_kind_is_drawn_distinctly() {
        let svg = render(&branch());
        for class in [
            "node removed",
            "node isolated",
            "node degraded",
            "node changed",
            "node unaffected",
            "link lost",
            "class=\"service\"",
            "class=\"legend\"",
        ] {
            assert!(svg.contains(class), "{class}");
        }
        // Three lost links, each with a cross, plus the legend's two crosses.
        assert_eq!(
            svg.matches("stroke=\"#b91c1c\" stroke-width=\"3\"").count(),
            5
        );
        assert!(svg.contains("svc") && svg.contains("high · DOWN"));
    }

    #[test]
    fn names_from_data_are_escaped() {
        let mut p = branch();
        p.nodes[0].name = "<script>alert(1)</script>".into();
        p.edges[0].a.0 = p.nodes[0].name.clone();
        p.services[0].name = "a&b\"<img>".into();
        let svg = render(&p);
        assert!(!svg.contains("<script"), "{svg}");
        assert!(!svg.contains("<img"));
        assert!(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(svg.contains("a&amp;b&quot;&lt;img&gt;"));
    }

    #[test]
    fn rows_keep_their_spacing_and_bounds() {
        let xs = place_row(&[100.0, 100.0, 100.0], 100.0, 1000.0);
        assert!(xs.windows(2).all(|w| w[1] - w[0] >= PITCH - 1e-9));
        assert!(xs[0] >= 100.0 - 1e-9);
        let xs = place_row(&[990.0, 995.0], 100.0, 1000.0);
        assert!(xs[1] <= 1000.0 + 1e-9 && xs[1] - xs[0] >= PITCH - 1e-9);
    }
}
