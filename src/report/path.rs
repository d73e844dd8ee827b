//! The flows a plan breaks, on the picture and under it: each distinct failing path is
//! drawn as numbered arrows from device to device (the way its traffic goes), a loop's
//! repeated device carries a "loops" badge and a blackhole's last device a "dropped"
//! badge; the table under the picture lists every flow with its destination, how it
//! ends and its hops with the interfaces they leave by.

use super::svg::{NODE_H, NODE_W, PITCH};
use super::{esc, FlowPath, Picture};
use crate::precheck::{PathEnd, PathHop, Severity};
use std::collections::HashMap;
use std::fmt::Write as _;

/// Most distinct paths drawn; the table lists the rest.
pub const MAX_DRAWN: usize = 8;

/// The paths' colour: none of the picture's other styles uses it.
const STROKE: &str = "#7c3aed";
/// Dash and dot: unlike the dashes of what is lost, and arrows give the direction.
const DASH: &str = "10 3 2 3";

/// The arrowhead the paths' lines end with.
pub const DEFS: &str = r##"<marker id="path-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="11" markerHeight="11" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#7c3aed"/></marker>"##;

/// A distinct path: its hops and how it ends, and the flows (indices into
/// [`Picture::paths`]) that take it.
pub struct Distinct<'a> {
    /// The devices in order.
    pub hops: &'a [PathHop],
    /// How it ends.
    pub ends: PathEnd,
    /// The flows that take it.
    pub flows: Vec<usize>,
}

/// The picture's paths, one per distinct hop sequence, numbered from 1 in order of the
/// first flow that takes each (the findings come most severe first).
pub fn distinct(paths: &[FlowPath]) -> Vec<Distinct<'_>> {
    let mut out: Vec<Distinct> = Vec::new();
    for (i, f) in paths.iter().enumerate() {
        match out
            .iter_mut()
            .find(|d| d.hops == f.path.hops.as_slice() && d.ends == f.path.ends)
        {
            Some(d) => d.flows.push(i),
            None => out.push(Distinct {
                hops: &f.path.hops,
                ends: f.path.ends,
                flows: vec![i],
            }),
        }
    }
    out
}

/// A hop as text: the device and the interface it leaves by.
fn hop_text(h: &PathHop) -> String {
    match &h.egress {
        Some(e) => format!("{} ({e})", h.device),
        None => h.device.clone(),
    }
}

/// Where a straight arrow between two boxes starts and ends: on the boxes' edges,
/// shifted `offset` along its normal (so the way back runs beside the way there).
fn straight(a: (f64, f64), b: (f64, f64), offset: f64) -> Option<[(f64, f64); 2]> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len < 1.0 {
        return None;
    }
    let (ux, uy) = (dx / len, dy / len);
    let inside = |half: f64, u: f64| {
        if u.abs() < 1e-9 {
            f64::INFINITY
        } else {
            half / u.abs()
        }
    };
    let t = inside(NODE_W / 2.0, ux).min(inside(NODE_H / 2.0, uy)) + 3.0;
    if len <= 2.0 * t {
        return None;
    }
    let (nx, ny) = (-uy * offset, ux * offset);
    Some([
        (a.0 + ux * t + nx, a.1 + uy * t + ny),
        (b.0 - ux * t + nx, b.1 - uy * t + ny),
    ])
}

/// Draws one hop of path `n` from `a` to `b`; returns where its number goes.
fn segment(s: &mut String, a: (f64, f64), b: (f64, f64), k: usize, title: &str) -> (f64, f64) {
    let offset = 8.0 + 7.0 * (k % 3) as f64;
    let same_row = (a.1 - b.1).abs() < 1.0 && (a.0 - b.0).abs() > PITCH + 1.0;
    let (d, mid) = if same_row {
        // Devices in between sit on the row: an arc, above it rightwards and below it
        // leftwards, so a loop's way back is apart from its way there.
        let side = if b.0 > a.0 { -1.0 } else { 1.0 };
        let edge = side * NODE_H / 2.0;
        let bow = side * (26.0 + offset + ((a.0 - b.0).abs() * 0.05).min(24.0));
        let (x1, y1, x2, y2) = (a.0, a.1 + edge, b.0, b.1 + edge);
        let (cx, cy) = ((x1 + x2) / 2.0, y1 + 2.0 * bow);
        (
            format!("M{x1:.1},{y1:.1} Q{cx:.1},{cy:.1} {x2:.1},{y2:.1}"),
            (cx, (y1 + 2.0 * cy + y2) / 4.0),
        )
    } else {
        let Some([(x1, y1), (x2, y2)]) = straight(a, b, offset) else {
            return ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        };
        (
            format!("M{x1:.1},{y1:.1} L{x2:.1},{y2:.1}"),
            ((x1 + x2) / 2.0, (y1 + y2) / 2.0),
        )
    };
    let _ = write!(
        s,
        r#"<path class="path-hop" d="{d}" fill="none" stroke="{STROKE}" stroke-width="2.5" stroke-dasharray="{DASH}" marker-end="url(#path-arrow)"><title>{t}</title></path>"#,
        t = esc(title)
    );
    mid
}

/// A path's number in a small circle.
fn number(s: &mut String, (x, y): (f64, f64), n: usize) {
    let _ = write!(
        s,
        r##"<g class="path-number"><circle cx="{x:.1}" cy="{y:.1}" r="8" fill="#ffffff" stroke="{STROKE}" stroke-width="1.5"/><text x="{x:.1}" y="{ty:.1}" text-anchor="middle" font-size="10" font-weight="700" fill="{STROKE}">{n}</text></g>"##,
        ty = y + 3.5
    );
}

/// The drawn paths' arrows, under the device boxes: each hop between two drawn
/// devices, the path's number on its first (its end's badge repeats it).
pub fn arrows(s: &mut String, p: &Picture, at: &HashMap<String, (f64, f64)>) {
    for (k, d) in distinct(&p.paths).iter().take(MAX_DRAWN).enumerate() {
        let n = k + 1;
        let mut numbered = false;
        for w in d.hops.windows(2) {
            let (Some(a), Some(b)) = (at.get(&w[0].device), at.get(&w[1].device)) else {
                continue;
            };
            if w[0].device == w[1].device {
                continue;
            }
            let title = format!("path {n}: {} → {}", hop_text(&w[0]), w[1].device);
            let mid = segment(s, *a, *b, k, &title);
            if !numbered {
                number(s, mid, n);
                numbered = true;
            }
        }
    }
}

/// A badge over a device's top edge, at its left or right corner (`left`); `row`
/// stacks several on one corner.
fn badge(
    s: &mut String,
    (x, y): (f64, f64),
    (left, row): (bool, usize),
    class: &str,
    text: &str,
    title: &str,
) {
    let w = 14.0 + 6.6 * text.chars().count() as f64;
    let l = if left {
        x - NODE_W / 2.0 - 6.0
    } else {
        x + NODE_W / 2.0 - w + 6.0
    };
    let t = y - NODE_H / 2.0 - 10.0 - 17.0 * row as f64;
    let _ = write!(
        s,
        r##"<g class="{class}"><title>{title}</title><rect x="{l:.1}" y="{t:.1}" width="{w:.1}" height="15" rx="7.5" fill="{STROKE}" stroke="#ffffff" stroke-width="1"/><text x="{tx:.1}" y="{ty:.1}" text-anchor="middle" font-size="10" font-weight="700" fill="#ffffff">{text}</text></g>"##,
        title = esc(title),
        text = esc(text),
        tx = l + w / 2.0,
        ty = t + 11.0
    );
}

/// How a path ends, in words, at its last device.
fn ending(f: &FlowPath) -> String {
    let at = f.path.hops.last().map_or("", |h| h.device.as_str());
    let end = match (f.path.ends, f.path.loops_at()) {
        (PathEnd::Loop, Some(d)) => format!("loops: comes back to {d}"),
        (PathEnd::Loop, None) => "loops: passes too many devices".to_owned(),
        (PathEnd::Discard, _) => format!(
            "dropped at {at} by a discard route{}",
            f.path
                .matched
                .as_ref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default()
        ),
        (PathEnd::NoRoute, _) => format!("dropped at {at}: no route"),
    };
    if f.path.partial {
        format!("{end} (on one ECMP branch; the others still arrive)")
    } else {
        end
    }
}

/// The badges over the devices where drawn paths end: where a loop comes back, where
/// traffic is dropped. Drawn over the boxes.
pub fn badges(s: &mut String, p: &Picture, at: &HashMap<String, (f64, f64)>) {
    let mut stacked: HashMap<(&str, bool), usize> = HashMap::new();
    for (k, d) in distinct(&p.paths).iter().take(MAX_DRAWN).enumerate() {
        let n = k + 1;
        let Some(first) = d.flows.first().and_then(|i| p.paths.get(*i)) else {
            continue;
        };
        let (device, class, text) = match (d.ends, first.path.loops_at()) {
            (PathEnd::Loop, Some(dev)) => (dev, "path-loop", format!("↻ loops · {n}")),
            (PathEnd::Loop, None) => continue,
            _ => match d.hops.last() {
                Some(h) => (h.device.as_str(), "path-drop", format!("✕ dropped · {n}")),
                None => continue,
            },
        };
        let Some(xy) = at.get(device) else { continue };
        // Away from the arrow that comes in: on the left when it comes from the right.
        let left = d
            .hops
            .iter()
            .rev()
            .nth(1)
            .and_then(|h| at.get(&h.device))
            .is_some_and(|(x, _)| *x > xy.0 + 1.0);
        let row = stacked.entry((device, left)).or_default();
        let title = format!("path {n}: {}", ending(first));
        badge(s, *xy, (left, *row), class, &text, &title);
        *row += 1;
    }
}

/// The legend's entries for paths, at the legend slots `at` gives.
pub fn legend(s: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64)) {
    let _ = write!(
        s,
        r#"<path d="M{x1:.1},{y1:.1} L{xe:.1},{y1:.1}" stroke="{STROKE}" stroke-width="2.5" stroke-dasharray="{DASH}" marker-end="url(#path-arrow)"/>"#,
        xe = x1 + 34.0
    );
    super::svg::legend_text(s, x1 + 42.0, y1, "path of a broken flow");
    let _ = write!(
        s,
        r##"<rect x="{x2:.1}" y="{t:.1}" width="34" height="15" rx="7.5" fill="{STROKE}"/><text x="{tx:.1}" y="{ty:.1}" text-anchor="middle" font-size="10" font-weight="700" fill="#ffffff">↻ ✕</text>"##,
        t = y2 - 7.5,
        tx = x2 + 17.0,
        ty = y2 + 3.5
    );
    super::svg::legend_text(s, x2 + 42.0, y2, "loops / dropped here");
}

/// The table under the picture: every flow the plan breaks, with its path.
pub fn table(s: &mut String, p: &Picture) {
    if p.paths.is_empty() {
        return;
    }
    let groups = distinct(&p.paths);
    let mut number: Vec<Option<usize>> = vec![None; p.paths.len()];
    for (k, d) in groups.iter().enumerate().take(MAX_DRAWN) {
        for i in &d.flows {
            number[*i] = Some(k + 1);
        }
    }
    let hidden = groups.len().saturating_sub(MAX_DRAWN);
    let _ = writeln!(
        s,
        "<h3>Flows the plan breaks</h3>\n<p class=\"small\">Each failing path is drawn above as numbered arrows, device by device the way its traffic goes{}. The hops name the interface each device sends it out of.</p>",
        if hidden > 0 {
            format!("; {hidden} more path(s) are listed here only, not drawn")
        } else {
            String::new()
        }
    );
    // Hops on devices the picture leaves out (a large neighbourhood) are not drawn.
    let missing = |f: &FlowPath| {
        let mut gone: Vec<&str> = f
            .path
            .hops
            .iter()
            .map(|h| h.device.as_str())
            .filter(|d| !p.nodes.iter().any(|x| x.name == *d))
            .collect();
        gone.sort_unstable();
        gone.dedup();
        gone.len()
    };
    s.push_str("<table class=\"paths\">\n<tr><th>path</th><th>severity</th><th>flow</th><th>to</th><th>how it ends</th><th>hops</th></tr>\n");
    for (f, n) in p.paths.iter().zip(&number) {
        let sev = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        let to = match &f.path.matched {
            Some(m) => format!("{} (route {m})", f.path.destination),
            None => f.path.destination.to_string(),
        };
        let repeated = f.path.loops_at();
        let last = f.path.hops.len().saturating_sub(1);
        let hops: Vec<String> = f
            .path
            .hops
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let text = esc(&hop_text(h));
                if i == last && repeated.is_some() {
                    format!("<b>{text}</b> (again)")
                } else {
                    text
                }
            })
            .collect();
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td><span class=\"sev sev-{sev}\">{}</span></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            match (n, missing(f)) {
                (None, _) => "not drawn".to_owned(),
                (Some(n), 0) => n.to_string(),
                (Some(n), k) => format!("{n} (partly: {k} of its devices are not in the picture)"),
            },
            sev.to_uppercase(),
            esc(&f.flow),
            esc(&to),
            esc(&ending(f)),
            hops.join(" → ")
        );
    }
    s.push_str("</table>\n");
}

#[cfg(test)]
mod tests {
    use super::super::{svg, Edge, Mark, Node};
    use super::*;
    use crate::precheck::TracedPath;

    fn node(name: &str, role: &str) -> Node {
        Node {
            name: name.into(),
            role: Some(role.into()),
            site: Some("a".into()),
            mark: Mark::Context,
        }
    }

    fn hop(device: &str, egress: Option<&str>) -> PathHop {
        PathHop {
            device: device.into(),
            egress: egress.map(str::to_owned),
        }
    }

    fn flow(what: &str, ends: PathEnd, hops: Vec<PathHop>) -> FlowPath {
        FlowPath {
            flow: what.into(),
            severity: Severity::Error,
            path: TracedPath {
                destination: std::net::Ipv4Addr::new(10, 255, 0, 4),
                matched: Some("10.255.0.4/32".into()),
                ends,
                partial: false,
                hops,
            },
        }
    }

    /// The square: r1 above r2 and r3, r4 below them.
    fn square(paths: Vec<FlowPath>) -> Picture {
        let edge = |a: &str, b: &str| Edge {
            a: (a.into(), "Gi0/0".into()),
            b: (b.into(), "Gi0/1".into()),
            lost: false,
        };
        Picture {
            nodes: vec![
                node("r1", "border"),
                node("r2", "core"),
                node("r3", "core"),
                node("r4", "access"),
            ],
            edges: vec![
                edge("r1", "r2"),
                edge("r1", "r3"),
                edge("r2", "r4"),
                edge("r3", "r4"),
            ],
            hops: 2,
            paths,
            ..Picture::default()
        }
    }

    fn looping() -> FlowPath {
        flow(
            "BGP session r1 → 10.255.0.4",
            PathEnd::Loop,
            vec![
                hop("r1", Some("GigabitEthernet0/0")),
                hop("r2", Some("GigabitEthernet0/0")),
                hop("r1", None),
            ],
        )
    }

    fn dropped() -> FlowPath {
        flow(
            "service office: r1 → r4:GigabitEthernet0/2",
            PathEnd::NoRoute,
            vec![
                hop("r1", Some("GigabitEthernet0/1")),
                hop("r3", Some("GigabitEthernet0/1")),
                hop("r4", None),
            ],
        )
    }

    /// The `d` attribute of each path hop drawn.
    fn segments(svg: &str) -> Vec<&str> {
        svg.split("<path class=\"path-hop\" d=\"")
            .skip(1)
            .filter_map(|x| x.split_once('"').map(|(d, _)| d))
            .collect()
    }

    #[test]
    fn a_broken_path_is_drawn_hop_by_hop_and_dropped_at_its_end() {
        let svg = svg::render(&square(vec![dropped()]));
        assert_eq!(segments(&svg).len(), 2, "{svg}");
        assert!(svg.contains("<title>path 1: r1 (GigabitEthernet0/1) → r3</title>"));
        assert!(svg.contains("<title>path 1: r3 (GigabitEthernet0/1) → r4</title>"));
        // The end: a badge on r4, and the legend explains the style.
        let drop = svg
            .split("<g class=\"path-drop\">")
            .nth(1)
            .expect("a badge");
        assert!(drop.starts_with("<title>path 1: dropped at r4: no route</title>"));
        assert!(svg.contains("path of a broken flow"));
        assert!(svg.contains("id=\"path-arrow\""));
        assert!(!svg.contains("path-loop"));
    }

    #[test]
    fn a_loop_shows_the_device_it_comes_back_to_and_both_ways() {
        let p = square(vec![looping()]);
        let svg = svg::render(&p);
        let d = segments(&svg);
        assert_eq!(d.len(), 2, "{svg}");
        // There and back run side by side, not over each other.
        assert_ne!(d[0], d[1]);
        assert!(svg.contains("<title>path 1: r2 (GigabitEthernet0/0) → r1</title>"));
        let badge = svg
            .split("<g class=\"path-loop\">")
            .nth(1)
            .expect("a badge");
        assert!(
            badge.starts_with("<title>path 1: loops: comes back to r1</title>"),
            "{badge}"
        );
        let mut html = String::new();
        table(&mut html, &p);
        assert!(
            html.contains("r1 (GigabitEthernet0/0) → r2 (GigabitEthernet0/0) → <b>r1</b> (again)"),
            "{html}"
        );
        assert!(html.contains("<td>10.255.0.4 (route 10.255.0.4/32)</td>"));
    }

    #[test]
    fn flows_on_one_path_share_its_number_and_the_rest_are_listed_not_drawn() {
        let mut paths = vec![looping(), dropped(), looping()];
        paths[2].flow = "static route 10.255.0.4/32 on r2".into();
        for i in 0..MAX_DRAWN {
            let mut f = dropped();
            f.path.hops[0].egress = Some(format!("Gi9/{i}"));
            paths.push(f);
        }
        let p = square(paths);
        let groups = distinct(&p.paths);
        assert_eq!(groups[0].flows, vec![0, 2]);
        assert_eq!(groups.len(), 2 + MAX_DRAWN);
        assert_eq!(segments(&svg::render(&p)).len(), 2 * MAX_DRAWN);
        let mut html = String::new();
        table(&mut html, &p);
        assert_eq!(html.matches("<td>not drawn</td>").count(), 2);
        assert!(html.contains("2 more path(s) are listed here only"));
    }

    #[test]
    fn a_path_through_a_device_left_out_of_the_picture_says_so() {
        let mut p = square(vec![dropped()]);
        p.nodes.retain(|n| n.name != "r3");
        let svg = svg::render(&p);
        assert_eq!(segments(&svg).len(), 0, "{svg}");
        let mut html = String::new();
        table(&mut html, &p);
        assert!(
            html.contains("<td>1 (partly: 1 of its devices are not in the picture)</td>"),
            "{html}"
        );
    }

    #[test]
    fn a_picture_without_paths_draws_none() {
        let svg = svg::render(&square(Vec::new()));
        assert!(!svg.contains("path-arrow") && !svg.contains("broken flow"));
        let mut html = String::new();
        table(&mut html, &square(Vec::new()));
        assert!(html.is_empty());
    }

    #[test]
    fn names_in_paths_are_escaped() {
        let mut f = looping();
        f.flow = "service <b>&\"x\"".into();
        f.path.hops[0].egress = Some("<Gi0/0>".into());
        let p = square(vec![f]);
        let svg = svg::render(&p);
        assert!(svg.contains("r1 (&lt;Gi0/0&gt;) → r2"), "{svg}");
        assert!(!svg.contains("<Gi0/0>"));
        let mut html = String::new();
        table(&mut html, &p);
        assert!(
            html.contains("service &lt;b&gt;&amp;&quot;x&quot;"),
            "{html}"
        );
        assert!(!html.contains("<Gi0/0>") && !html.contains("<b>&"));
    }
}
