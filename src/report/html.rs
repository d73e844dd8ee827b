//! The HTML document: verdict first, then olav's reading of the request, the plan's
//! changes and rollback, what the change touches (picture and table), the pre-check's
//! findings and the verification. Self-contained — inline CSS and SVG, no script, no
//! outside address — and every text that comes from data is escaped.

use super::{esc, svg, Picture};
use crate::plan::{ConfigBlock, Plan};
use crate::precheck::announce::Announcements;
use crate::precheck::blast::{Blast, Spec};
use crate::precheck::{Report, Severity};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// Who verified the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By {
    /// A Batfish service answered.
    Batfish,
    /// Batfish was absent: olav's static checks ran instead.
    StaticFallback,
    /// The report does not say.
    Unknown,
}

impl By {
    fn label(self) -> &'static str {
        match self {
            By::Batfish => "Batfish",
            By::StaticFallback => "static fallback (not Batfish)",
            By::Unknown => "source not stated in the report",
        }
    }
}

/// A formal verification, read back from its report (`<plan>.verify.md`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// PASS, WARN, FAIL or UNVERIFIED.
    pub verdict: String,
    /// Who verified.
    pub by: By,
    /// The report's body.
    pub body: String,
    /// A caution about its age (the plan changed since), if any.
    pub caution: Option<String>,
}

impl Verified {
    /// Reads the simulator's report: `**Verdict: X**` and a fenced body. None when the
    /// text is not such a report.
    pub fn from_markdown(md: &str) -> Option<Verified> {
        let verdict = md
            .split_once("**Verdict: ")
            .and_then(|(_, rest)| rest.split_once("**"))
            .map(|(v, _)| v.trim().to_owned())?;
        let body = md
            .split_once("```\n")
            .and_then(|(_, rest)| rest.rsplit_once("```"))
            .map(|(b, _)| b.to_owned())
            .unwrap_or_default();
        let by = if body.starts_with("Batfish ") {
            By::Batfish
        } else if body.contains("Static checks (not Batfish)") {
            By::StaticFallback
        } else {
            By::Unknown
        };
        Some(Verified {
            verdict,
            by,
            body,
            caution: None,
        })
    }
}

const STYLE: &str = r#"
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; color: #0f172a; margin: 0 auto; max-width: 1180px; padding: 20px 24px 40px; line-height: 1.45; font-size: 14px; }
h1 { font-size: 22px; margin: 18px 0 6px; }
h2 { font-size: 17px; margin: 26px 0 8px; padding-bottom: 4px; border-bottom: 2px solid #e2e8f0; }
h3 { font-size: 14px; margin: 14px 0 4px; }
.verdict { border-radius: 10px; padding: 14px 18px; border: 2px solid; display: flex; flex-wrap: wrap; gap: 6px 28px; align-items: baseline; }
.verdict .big { font-size: 24px; font-weight: 800; letter-spacing: 0.5px; }
.verdict .line { font-size: 14px; }
.v-PASS { background: #dcfce7; border-color: #15803d; }
.v-WARN { background: #fef3c7; border-color: #b45309; }
.v-FAIL { background: #fee2e2; border-color: #b91c1c; }
.v-UNVERIFIED { background: #f1f5f9; border-color: #475569; }
.v-INFO { background: #e0f2fe; border-color: #0369a1; }
.understood { font-size: 16px; font-weight: 600; background: #f1f5f9; border-left: 4px solid #1d4ed8; padding: 8px 12px; margin: 10px 0 4px; }
.request { color: #475569; margin: 4px 0; }
.meta { color: #475569; font-size: 12.5px; margin: 6px 0 0; }
.meta code { font-size: 12px; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 10px; font-size: 13px; }
th, td { border: 1px solid #cbd5e1; padding: 5px 8px; text-align: left; vertical-align: top; }
th { background: #f1f5f9; }
td.k { width: 190px; font-weight: 600; background: #f8fafc; }
pre { background: #0f172a; color: #e2e8f0; padding: 10px 12px; border-radius: 6px; font-size: 12.5px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; margin: 4px 0 10px; }
pre.plain { background: #f8fafc; color: #0f172a; border: 1px solid #cbd5e1; }
.cols { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; }
.sev { font-weight: 700; font-size: 11px; padding: 1px 6px; border-radius: 4px; border: 1px solid; white-space: nowrap; }
.sev-error { color: #991b1b; background: #fee2e2; }
.sev-warning { color: #92400e; background: #fef3c7; }
.sev-info { color: #075985; background: #e0f2fe; }
.badge { font-weight: 700; padding: 1px 8px; border-radius: 4px; border: 1px solid #64748b; }
figure { margin: 8px 0; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: #475569; font-size: 12.5px; margin-top: 4px; }
.small { font-size: 12.5px; color: #475569; }
ul.compact { margin: 4px 0; padding-left: 20px; font-size: 12.5px; color: #334155; }
.caution { background: #fef3c7; border: 1px solid #b45309; padding: 6px 10px; border-radius: 6px; }
footer { margin-top: 30px; color: #64748b; font-size: 12px; border-top: 1px solid #e2e8f0; padding-top: 8px; }
@page { size: A4; margin: 14mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 11px; }
  .verdict, .sev, pre, svg, td.k, th { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  h2 { break-after: avoid; }
  figure, table, pre, .verdict { break-inside: avoid; }
  .cols { grid-template-columns: 1fr 1fr; }
}
@media (max-width: 760px) { .cols { grid-template-columns: 1fr; } }
"#;

fn head(s: &mut String, title: &str) {
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"generator\" content=\"olav {}\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        env!("CARGO_PKG_VERSION"),
        esc(title)
    );
}

fn list(v: &[String]) -> String {
    if v.is_empty() {
        "none".to_owned()
    } else {
        esc(&v.join(", "))
    }
}

/// Prefixes some provider heard before the plan and none hears after (the pre-check's
/// announcements), for the blast table: they are withdrawn too, from the internet. Empty
/// when there are no announcements to compare.
fn unheard(a: Option<&Announcements>) -> Vec<String> {
    let Some(a) = a else {
        return Vec::new();
    };
    if a.after.iter().any(|x| x.unknown.is_some()) {
        return Vec::new();
    }
    let heard: BTreeSet<_> = a
        .after
        .iter()
        .flat_map(|x| x.prefixes.iter().chain(&x.maybe))
        .collect();
    a.before
        .iter()
        .flat_map(|x| &x.prefixes)
        .filter(|p| !heard.contains(p))
        .map(ToString::to_string)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// The blast radius as a table, beside the picture.
fn blast_table(s: &mut String, b: &Blast, claimed: Option<Option<u32>>, unheard: &[String]) {
    let services: Vec<String> = b.services.iter().map(ToString::to_string).collect();
    // What the blast radius withdraws, then what no provider hears any more: a warning
    // that a prefix is withdrawn never stands beside "none" here.
    let mut withdrawn = b.prefixes_withdrawn.clone();
    for p in unheard {
        if !withdrawn
            .iter()
            .any(|w| w == p || w.starts_with(&format!("{p} ")))
        {
            withdrawn.push(format!("{p} (no provider hears it after the plan)"));
        }
    }
    let number = match claimed {
        Some(c) => format!(
            "{} device(s) — removed {} + isolated {}; the plan claims {}",
            b.number(),
            b.removed.len(),
            b.isolated.len(),
            c.map_or("nothing".to_owned(), |n| n.to_string())
        ),
        None => format!(
            "{} device(s) — removed {} + isolated {}",
            b.number(),
            b.removed.len(),
            b.isolated.len()
        ),
    };
    s.push_str("<table class=\"blast\">\n");
    for (k, v) in [
        ("Blast-radius number", esc(&number)),
        ("Removed devices", list(&b.removed)),
        ("Isolated devices", list(&b.isolated)),
        ("Degraded devices", list(&b.degraded)),
        ("Links lost", b.links_removed.to_string()),
        ("BGP sessions lost", list(&b.sessions_lost)),
        ("External peers lost", list(&b.peers_lost)),
        ("Prefixes withdrawn", list(&withdrawn)),
        ("Services affected", list(&services)),
    ] {
        let _ = writeln!(s, "<tr><td class=\"k\">{k}</td><td>{v}</td></tr>");
    }
    s.push_str("</table>\n");
}

fn picture(s: &mut String, p: &Picture) {
    let devices = p.nodes.len();
    let around = match p.hops {
        0 => "The affected devices only (too many within reach to draw more)".to_owned(),
        1 => "The changed and affected elements and their direct neighbours".to_owned(),
        h => format!("The changed and affected elements and everything within {h} hops"),
    };
    let left = if p.left_out > 0 {
        format!(
            "; {} more device(s) within two hops are not drawn (the table lists everything affected)",
            p.left_out
        )
    } else {
        String::new()
    };
    let _ = write!(
        s,
        "<figure>\n{}\n<figcaption>{} ({devices} device(s)), laid out by site (columns) and role (rows){}.</figcaption>\n</figure>\n",
        svg::render(p),
        esc(&around),
        esc(&left)
    );
    super::path::table(s, p);
}

fn blocks(s: &mut String, v: &[ConfigBlock], none: &str) {
    if v.is_empty() {
        let _ = writeln!(s, "<p class=\"small\">{}</p>", esc(none));
    }
    for b in v {
        let _ = write!(
            s,
            "<h3>{} <span class=\"small\">({})</span></h3>\n<pre>{}</pre>\n",
            esc(&b.device),
            esc(&b.os),
            esc(b.text.trim_end())
        );
    }
}

/// What the change does on each configured device (the pre-check's first section).
fn changes(s: &mut String, r: &Report) {
    if r.changes.is_empty() {
        return;
    }
    s.push_str("<h3>What the change does</h3>\n<table class=\"findings\">\n<tr><th>device</th><th>element</th><th>change</th></tr>\n");
    for d in &r.changes {
        if d.changes.is_empty() {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td>—</td><td>nothing olav models changes</td></tr>",
                esc(&d.device)
            );
        }
        for c in &d.changes {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&d.device),
                esc(&c.name()),
                esc(&c.what())
            );
        }
    }
    s.push_str("</table>\n");
}

const VERIFY_MARK: &str = "verification";
const VERIFY_BANNER_MARK: &str = "verification-verdict";
const RUN_MARK: &str = "run-verdict";
const PRECHECK_MARK: &str = "precheck-verdict";

fn marked(name: &str, inner: &str) -> String {
    format!("<!--olav:{name}-->{inner}<!--/olav:{name}-->")
}

fn verification_banner(v: Option<&Verified>) -> String {
    match v {
        Some(v) => format!(
            "<span class=\"line\">Formal verification: <b>{}</b> — {}</span>",
            esc(&v.verdict),
            v.by.label()
        ),
        None => "<span class=\"line\">Formal verification: not run yet</span>".to_owned(),
    }
}

fn verification_section(v: Option<&Verified>, plan_path: &str) -> String {
    let mut s = String::new();
    match v {
        Some(v) => {
            let _ = write!(
                s,
                "<h2>Formal verification — {}</h2>\n<p>Verdict: <span class=\"badge\">{}</span>{}</p>\n",
                v.by.label(),
                esc(&v.verdict),
                if v.by == By::StaticFallback {
                    " <span class=\"small\">Batfish did not run; olav's static checks on the candidate network ran instead. UNVERIFIED means they found no conflict, not that Batfish agreed.</span>"
                } else {
                    ""
                }
            );
            if let Some(c) = &v.caution {
                let _ = writeln!(s, "<p class=\"caution\">{}</p>", esc(c));
            }
            let _ = writeln!(s, "<pre class=\"plain\">{}</pre>", esc(v.body.trim_end()));
        }
        None => {
            let _ = write!(
                s,
                "<h2>Formal verification</h2>\n<p>Not run yet for this plan. Run <code>olav verify {p}</code>, then <code>olav report {p}</code> to refresh this page (the netops pipeline does both).</p>\n",
                p = esc(plan_path)
            );
        }
    }
    s
}

/// Everything a plan's report shows.
pub struct PlanPage<'a> {
    /// The plan's path as given.
    pub path: &'a str,
    /// The plan, when it reads.
    pub plan: Option<&'a Plan>,
    /// Its pre-check.
    pub report: &'a Report,
    /// The picture of what it touches (None when there is no blast radius to draw).
    pub picture: Option<&'a Picture>,
    /// Its formal verification, when one was saved.
    pub verified: Option<&'a Verified>,
    /// When the page is written (RFC 3339).
    pub generated: &'a str,
}

/// A plan's HTML report.
pub fn plan_page(p: &PlanPage<'_>) -> String {
    let r = p.report;
    let title = if r.title.is_empty() {
        r.plan.clone()
    } else {
        r.title.clone()
    };
    let mut s = String::new();
    head(&mut s, &format!("olav report — {title}"));
    let c = r.counts();
    let blast_line = r
        .blast
        .as_ref()
        .map(|b| {
            format!(
                " · blast radius {} device(s) ({} removed + {} isolated), {} service(s) affected",
                b.number(),
                b.removed.len(),
                b.isolated.len(),
                b.services.len()
            )
        })
        .unwrap_or_default();
    // The run's verdict is the worse of the two steps: a verification that fails must
    // not leave the banner saying what the pre-check alone said.
    let run = worse(r.verdict, p.verified.map(|v| v.verdict.as_str()));
    let _ = write!(
        s,
        "<header class=\"verdict v-{rv}\">\n<span class=\"big\">Verdict: {rvm}</span>\n<span class=\"line\">Pre-check: <b>{pv}</b> — {e} error(s) · {w} warning(s) · {i} info{bl}</span>\n{vb}\n</header>\n",
        rv = esc(run),
        rvm = marked(RUN_MARK, &esc(run)),
        pv = marked(PRECHECK_MARK, &esc(r.verdict)),
        e = c["error"],
        w = c["warning"],
        i = c["info"],
        bl = esc(&blast_line),
        vb = marked(VERIFY_BANNER_MARK, &verification_banner(p.verified)),
    );
    let _ = writeln!(s, "<h1>{}</h1>", esc(&title));
    if let Some(plan) = p.plan {
        let understood = if plan.header.understood.is_empty() {
            format!("Understood: {}", plan.title)
        } else {
            plan.header.understood.clone()
        };
        let _ = write!(
            s,
            "<p class=\"understood\">{}</p>\n<p class=\"request\">Request: “{}”</p>\n",
            esc(&understood),
            esc(&plan.header.request)
        );
    }
    let _ = writeln!(
        s,
        "<p class=\"meta\">Plan <code>{}</code>{} · intent {} · drafted against state v{} · pre-checked against state v{} · page written {}</p>",
        esc(p.path),
        r.plan_id
            .as_deref()
            .map(|i| format!(" · id <code>{}</code>", esc(i)))
            .unwrap_or_default(),
        esc(p.plan.map_or("unknown", |x| x.header.intent.as_str())),
        r.plan_state_version
            .map_or("?".to_owned(), |v| v.to_string()),
        r.state_version,
        esc(p.generated)
    );
    s.push_str("<h2>Changes and rollback</h2>\n");
    match p.plan {
        Some(plan) => {
            if !plan.summary.trim().is_empty() {
                let _ = writeln!(s, "<p>{}</p>", esc(plan.summary.trim()));
            }
            s.push_str("<div class=\"cols\">\n<div>\n<h3>Apply</h3>\n");
            blocks(&mut s, &plan.implementation, "No configuration to apply.");
            s.push_str("</div>\n<div>\n<h3>Rollback</h3>\n");
            blocks(&mut s, &plan.rollback, "No rollback configuration.");
            s.push_str("</div>\n</div>\n");
            changes(&mut s, r);
        }
        None => s.push_str(
            "<p>The plan file cannot be read (see the findings): there are no changes to show.</p>\n",
        ),
    }
    s.push_str("<h2>What it touches — blast radius, recomputed independently</h2>\n");
    match (&r.blast, p.picture) {
        (Some(b), Some(pic)) => {
            picture(&mut s, pic);
            blast_table(
                &mut s,
                b,
                Some(r.claimed),
                &unheard(r.announcements.as_ref()),
            );
            if let Some((before, after)) = &r.redundancy {
                let _ = writeln!(
                    s,
                    "<p>Redundancy towards the peer — before: {}; after: {}.</p>",
                    esc(before),
                    esc(after)
                );
            }
        }
        _ => s.push_str("<p>No blast radius was computed: the plan did not read.</p>\n"),
    }
    s.push_str("<h2>Pre-check findings</h2>\n");
    if r.findings.is_empty() {
        s.push_str("<p>None.</p>\n");
    } else {
        s.push_str("<table class=\"findings\">\n<tr><th>severity</th><th>element</th><th>finding</th><th>suggestion</th></tr>\n");
        for f in &r.findings {
            let sev = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "info",
            };
            let _ = writeln!(
                s,
                "<tr><td><span class=\"sev sev-{sev}\">{}</span></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                sev.to_uppercase(),
                esc(&f.element),
                esc(&f.message),
                esc(&f.suggestion)
            );
        }
        s.push_str("</table>\n");
    }
    s.push_str("<div class=\"cols\">\n<div>\n<h3>Passed</h3>\n<ul class=\"compact\">\n");
    for x in &r.passed {
        let _ = writeln!(s, "<li>{}</li>", esc(x));
    }
    s.push_str(
        "</ul>\n</div>\n<div>\n<h3>Not applicable (did not run)</h3>\n<ul class=\"compact\">\n",
    );
    for x in &r.not_applicable {
        let _ = writeln!(s, "<li>{}</li>", esc(x));
    }
    s.push_str("</ul>\n</div>\n</div>\n");
    announcements(&mut s, r);
    let _ = writeln!(
        s,
        "<section id=\"verification\">{}</section>",
        marked(VERIFY_MARK, &verification_section(p.verified, p.path))
    );
    let _ = writeln!(
        s,
        "<footer>olav {} · the pre-check reads the state DB; the picture and the blast radius are recomputed independently of the plan's own claims.</footer>\n</body>\n</html>",
        env!("CARGO_PKG_VERSION")
    );
    s
}

fn announcements(s: &mut String, r: &Report) {
    let Some(a) = &r.announcements else {
        return;
    };
    if a.before.is_empty() && a.after.is_empty() {
        return;
    }
    s.push_str("<h2>What the internet sees</h2>\n<table>\n<tr><th>session</th><th>before</th><th>after</th></tr>\n");
    for [session, before, after] in a.rows() {
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&session),
            esc(&before),
            esc(&after)
        );
    }
    s.push_str("</table>\n");
    let accepts = a.accepts_rows();
    if accepts.is_empty() {
        return;
    }
    s.push_str("<p>What each provider's routes are accepted, through its inbound policy:</p>\n<table>\n<tr><th>session</th><th>before</th><th>after</th></tr>\n");
    for [session, before, after] in accepts {
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&session),
            esc(&before),
            esc(&after)
        );
    }
    s.push_str("</table>\n");
}

/// Replaces the verification parts of a plan's report written earlier; None when the
/// page has none (not a page olav wrote).
pub fn with_verification(page: &str, v: &Verified, plan_path: &str) -> Option<String> {
    let page = replace_marked(page, VERIFY_BANNER_MARK, &verification_banner(Some(v)))?;
    let before = read_marked(&page, RUN_MARK)?.to_owned();
    let run = worse(read_marked(&page, PRECHECK_MARK)?, Some(&v.verdict)).to_owned();
    let page = replace_marked(&page, RUN_MARK, &esc(&run))?.replacen(
        &format!("<header class=\"verdict v-{before}\">"),
        &format!("<header class=\"verdict v-{}\">", esc(&run)),
        1,
    );
    replace_marked(
        &page,
        VERIFY_MARK,
        &verification_section(Some(v), plan_path),
    )
}

/// What sits between `<!--olav:NAME-->` and `<!--/olav:NAME-->`.
fn read_marked<'p>(page: &'p str, name: &str) -> Option<&'p str> {
    let open = format!("<!--olav:{name}-->");
    let close = format!("<!--/olav:{name}-->");
    let start = page.find(&open)? + open.len();
    let end = start + page[start..].find(&close)?;
    Some(&page[start..end])
}

/// The worse of the pre-check's verdict and the verification's, ranked as a run's
/// verdict is (FAIL > WARN > UNVERIFIED > PASS).
fn worse<'a>(precheck: &'a str, verified: Option<&'a str>) -> &'a str {
    let rank = |v: &str| match v {
        "FAIL" => 3,
        "WARN" => 2,
        "UNVERIFIED" => 1,
        _ => 0,
    };
    match verified {
        Some(v) if rank(v) > rank(precheck) => v,
        _ => precheck,
    }
}

/// Replaces what sits between `<!--olav:NAME-->` and `<!--/olav:NAME-->`. Data never
/// contains these markers: every `<` from data is escaped.
fn replace_marked(page: &str, name: &str, inner: &str) -> Option<String> {
    let open = format!("<!--olav:{name}-->");
    let close = format!("<!--/olav:{name}-->");
    let start = page.find(&open)? + open.len();
    let end = start + page[start..].find(&close)?;
    Some(format!("{}{inner}{}", &page[..start], &page[end..]))
}

/// A what-if question's page (`olav blast-radius … --html FILE`).
pub fn what_if_page(
    spec: &Spec,
    b: &Blast,
    p: &Picture,
    state_version: i64,
    generated: &str,
) -> String {
    let mut names: Vec<String> = spec.devices.clone();
    let mut flags: Vec<String> = spec
        .devices
        .iter()
        .map(|d| format!("--device {d}"))
        .collect();
    for (d, i) in &spec.interfaces {
        names.push(format!("{d} {i}"));
        flags.push(format!("--interface {d}:{i}"));
    }
    for ((da, ia), (db, ib)) in &spec.links {
        names.push(format!("the link {da}:{ia} – {db}:{ib}"));
        flags.push(format!("--link {da}:{ia}-{db}:{ib}"));
    }
    for (d, peer) in &spec.peers {
        match d {
            Some(d) => {
                names.push(format!("the session {d} → {peer}"));
                flags.push(format!("--peer {d}:{peer}"));
            }
            None => {
                names.push(format!("the peer {peer}"));
                flags.push(format!("--peer {peer}"));
            }
        }
    }
    let (names, flags) = (names.join(", "), flags.join(" "));
    let mut s = String::new();
    head(&mut s, &format!("olav what-if — {names}"));
    let level = if b.number() > 0 || b.services.iter().any(|x| x.down()) {
        "WARN"
    } else {
        "INFO"
    };
    let _ = write!(
        s,
        "<header class=\"verdict v-{level}\">\n<span class=\"big\">What-if: blast radius {} device(s)</span>\n<span class=\"line\">{} removed + {} isolated · {} degraded · {} service(s) affected</span>\n</header>\n",
        b.number(),
        b.removed.len(),
        b.isolated.len(),
        b.degraded.len(),
        b.services.len()
    );
    let _ = write!(
        s,
        "<h1>What if we remove {}?</h1>\n<p class=\"meta\">Asked: <code>olav blast-radius {}</code> · state v{state_version} · page written {} · a question, not a plan: nothing was drafted or pre-checked.</p>\n",
        esc(&names),
        esc(&flags),
        esc(generated)
    );
    s.push_str("<h2>What it touches</h2>\n");
    picture(&mut s, p);
    blast_table(&mut s, b, None, &[]);
    let _ = writeln!(
        s,
        "<footer>olav {} · computed from the state DB by the reporter's blast-radius implementation.</footer>\n</body>\n</html>",
        env!("CARGO_PKG_VERSION")
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_makes_markup_inert() {
        assert_eq!(
            esc("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
        assert_eq!(esc("a\u{1b}[31mb"), "a\u{fffd}[31mb");
    }

    #[test]
    fn verification_reports_are_read_with_their_source() {
        let fallback = "# Formal verification: X\n\n**Verdict: UNVERIFIED**\n\n```\nFormal verification did not run: Batfish is not reachable.\nStatic checks (not Batfish) on the candidate network: no conflict found\n```\n";
        let v = Verified::from_markdown(fallback).expect("reads");
        assert_eq!(v.verdict, "UNVERIFIED");
        assert_eq!(v.by, By::StaticFallback);
        let batfish = "# Formal verification: X\n\n**Verdict: PASS**\n\n```\nBatfish 2025.07 at localhost:9996: PASS\n```\n";
        let v = Verified::from_markdown(batfish).expect("reads");
        assert_eq!((v.verdict.as_str(), v.by), ("PASS", By::Batfish));
        assert_eq!(Verified::from_markdown("# something else"), None);
    }

    #[test]
    fn the_verification_is_replaced_in_place() {
        let page = format!(
            "<header class=\"verdict v-WARN\">Verdict: {} Pre-check: {}{}</header><p>middle</p><section>{}</section>",
            marked(RUN_MARK, "WARN"),
            marked(PRECHECK_MARK, "WARN"),
            marked(VERIFY_BANNER_MARK, &verification_banner(None)),
            marked(VERIFY_MARK, &verification_section(None, "p.md"))
        );
        assert!(page.contains("not run yet"));
        let v = Verified {
            verdict: "FAIL".into(),
            by: By::Batfish,
            body: "Batfish 1: FAIL\n  error <x>".into(),
            caution: None,
        };
        let new = with_verification(&page, &v, "p.md").expect("markers found");
        assert!(!new.contains("not run yet"), "{new}");
        assert!(new.contains("<p>middle</p>"));
        assert!(new.contains("Formal verification — Batfish"));
        assert!(new.contains("error &lt;x&gt;"));
        // The run's verdict is the worse of the two: the verification's FAIL.
        assert!(new
            .starts_with("<header class=\"verdict v-FAIL\">Verdict: <!--olav:run-verdict-->FAIL<"));
        assert!(new.contains("Pre-check: <!--olav:precheck-verdict-->WARN<"));
        assert_eq!(with_verification("<p>no markers</p>", &v, "p.md"), None);
    }
}
