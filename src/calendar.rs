//! Cron expressions read field by field, and their exact systemd `OnCalendar`
//! equivalents (one line, or several when cron's "day of month OR day of week" needs
//! it: a timer elapses when any of its `OnCalendar=` lines matches). The dialect is the
//! one the built-in scheduler runs (croner): 5 fields, or 6 with seconds first; lists,
//! ranges, steps, month and weekday names, `?`, `L` (last day of the month), `n#k`
//! (k-th weekday n of the month) and `nL` (last weekday n of the month).

/// Why an expression has no `OnCalendar` form (or no crontab form).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CalendarError {
    /// Not 5 or 6 fields.
    #[error("cron expression '{expr}': expected 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first), found {found}")]
    Fields {
        /// The expression.
        expr: String,
        /// Fields found.
        found: usize,
    },
    /// A field that does not read.
    #[error("cron expression '{expr}': {field} '{text}': {why}")]
    Field {
        /// The expression.
        expr: String,
        /// Which field.
        field: &'static str,
        /// The field's text.
        text: String,
        /// What is wrong.
        why: String,
    },
    /// Valid cron, but the target scheduler cannot express it.
    #[error("cron expression '{expr}': {what}")]
    Inexpressible {
        /// The expression.
        expr: String,
        /// What cannot be expressed, and why.
        what: String,
    },
}

/// One comma-separated part of a field.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    /// `n`.
    Value(u32),
    /// `a-b`.
    Range(u32, u32),
    /// `*/s`, `a/s` (to the field's end) or `a-b/s`.
    Step {
        start: u32,
        end: u32,
        step: u32,
        to_end: bool,
    },
}

impl Part {
    fn values(&self) -> Vec<u32> {
        match *self {
            Part::Value(v) => vec![v],
            Part::Range(a, b) => (a..=b).collect(),
            Part::Step {
                start, end, step, ..
            } => (start..=end).step_by(step as usize).collect(),
        }
    }

    /// systemd's normal form: `05`, `09..17`, `00/15`, `05..50/15` (a range ends on its
    /// last hit); a step that hits once is that value (systemd refuses `30/45`).
    fn systemd(&self) -> String {
        match *self {
            Part::Value(v) => format!("{v:02}"),
            Part::Range(a, b) if a == b => format!("{a:02}"),
            Part::Range(a, b) => format!("{a:02}..{b:02}"),
            Part::Step {
                start,
                step,
                to_end,
                ..
            } => {
                let v = self.values();
                match (v.as_slice(), to_end) {
                    ([only], _) => format!("{only:02}"),
                    (_, true) => format!("{start:02}/{step}"),
                    (_, false) => format!(
                        "{start:02}..{:02}/{step}",
                        v.last().copied().unwrap_or(start)
                    ),
                }
            }
        }
    }
}

/// A field's bounds and names.
struct Spec {
    name: &'static str,
    lo: u32,
    hi: u32,
    names: &'static [&'static str],
    /// Index of the first name (0 for weekdays, 1 for months).
    first: u32,
}

const SECOND: Spec = Spec {
    name: "seconds",
    lo: 0,
    hi: 59,
    names: &[],
    first: 0,
};
const MINUTE: Spec = Spec {
    name: "minute",
    lo: 0,
    hi: 59,
    names: &[],
    first: 0,
};
const HOUR: Spec = Spec {
    name: "hour",
    lo: 0,
    hi: 23,
    names: &[],
    first: 0,
};
const DOM: Spec = Spec {
    name: "day-of-month",
    lo: 1,
    hi: 31,
    names: &[],
    first: 0,
};
const MONTH: Spec = Spec {
    name: "month",
    lo: 1,
    hi: 12,
    names: &[
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ],
    first: 1,
};
/// Weekdays run 0–7 (0 and 7 are Sunday), as in cron.
const DOW: Spec = Spec {
    name: "day-of-week",
    lo: 0,
    hi: 7,
    names: &["sun", "mon", "tue", "wed", "thu", "fri", "sat"],
    first: 0,
};

/// A field: `*` (or `?`), or its parts.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Field {
    star: bool,
    parts: Vec<Part>,
}

impl Field {
    fn systemd(&self) -> String {
        if self.star {
            "*".to_owned()
        } else {
            self.parts
                .iter()
                .map(Part::systemd)
                .collect::<Vec<_>>()
                .join(",")
        }
    }
}

/// The day-of-week field's special parts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Weekdays {
    /// Plain weekdays, 0 = Sunday.
    days: std::collections::BTreeSet<u32>,
    /// `n#k`: (weekday, k).
    nth: Vec<(u32, u32)>,
    /// `nL`: weekday.
    last: Vec<u32>,
}

/// A parsed cron expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cron {
    expr: String,
    seconds: Option<Field>,
    minute: Field,
    hour: Field,
    dom: Field,
    dom_last: bool,
    month: Field,
    dow: Option<Weekdays>,
}

fn number(spec: &Spec, tok: &str, range_end: bool) -> Result<u32, String> {
    let lower = tok.to_ascii_lowercase();
    if let Some(i) = spec.names.iter().position(|n| *n == lower) {
        let v = i as u32 + spec.first;
        // `MON-SUN`: Sunday closing a range is 7.
        return Ok(if range_end && spec.name == DOW.name && v == 0 {
            7
        } else {
            v
        });
    }
    let v: u32 = tok
        .parse()
        .map_err(|_| format!("'{tok}' is not a number{}", names_hint(spec)))?;
    if v < spec.lo || v > spec.hi {
        return Err(format!("{v} is outside {}–{}", spec.lo, spec.hi));
    }
    Ok(v)
}

fn names_hint(spec: &Spec) -> String {
    match spec.names.first() {
        Some(first) => format!(
            " or a name ({}…{})",
            first.to_ascii_uppercase(),
            spec.names
                .last()
                .map(|n| n.to_ascii_uppercase())
                .unwrap_or_default()
        ),
        None => String::new(),
    }
}

fn part(spec: &Spec, p: &str) -> Result<Part, String> {
    if let Some((range, step)) = p.split_once('/') {
        let step: u32 = step
            .parse()
            .ok()
            .filter(|s| *s > 0)
            .ok_or_else(|| format!("step '{step}' must be a positive number"))?;
        let (start, end, to_end) = if range == "*" {
            (spec.lo, spec.hi, true)
        } else if let Some((a, b)) = range.split_once('-') {
            (number(spec, a, false)?, number(spec, b, true)?, false)
        } else {
            (number(spec, range, false)?, spec.hi, true)
        };
        if start > end {
            return Err(format!("range {start}-{end} runs backwards"));
        }
        return Ok(Part::Step {
            start,
            end,
            step,
            to_end,
        });
    }
    if let Some((a, b)) = p.split_once('-') {
        let (a, b) = (number(spec, a, false)?, number(spec, b, true)?);
        if a > b {
            return Err(format!("range {a}-{b} runs backwards"));
        }
        return Ok(Part::Range(a, b));
    }
    Ok(Part::Value(number(spec, p, false)?))
}

impl Cron {
    /// Reads a 5-field expression (minute hour day-of-month month day-of-week), or 6
    /// with seconds first.
    pub fn parse(expr: &str) -> Result<Cron, CalendarError> {
        let f: Vec<&str> = expr.split_whitespace().collect();
        let (seconds, rest) = match f.len() {
            5 => (None, &f[..]),
            6 => (Some(f[0]), &f[1..]),
            n => {
                return Err(CalendarError::Fields {
                    expr: expr.to_owned(),
                    found: n,
                })
            }
        };
        let bad = |spec: &Spec, text: &str, why: String| CalendarError::Field {
            expr: expr.to_owned(),
            field: spec.name,
            text: text.to_owned(),
            why,
        };
        let field = |spec: &Spec, text: &str| -> Result<Field, CalendarError> {
            if text == "*" || text == "?" {
                return Ok(Field {
                    star: true,
                    parts: Vec::new(),
                });
            }
            let parts = text
                .split(',')
                .map(|p| part(spec, p).map_err(|why| bad(spec, text, why)))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Field { star: false, parts })
        };
        // Day of month: `L` is the month's last day; `W` has no OnCalendar form.
        let dom_text = rest[2];
        if dom_text.to_ascii_lowercase().contains('w') {
            return Err(CalendarError::Inexpressible {
                expr: expr.to_owned(),
                what: format!("'{dom_text}' (W, the weekday nearest a day) has no systemd calendar form: a calendar matches days and weekdays, not 'the nearest weekday', and near a month's end the answer depends on the length of the month before; run the built-in scheduler (olav schedule --cron …) instead"),
            });
        }
        let mut dom_last = false;
        let dom_plain: Vec<&str> = dom_text
            .split(',')
            .filter(|p| {
                let last = p.eq_ignore_ascii_case("l");
                dom_last |= last;
                !last
            })
            .collect();
        let dom = if dom_plain.is_empty() {
            Field {
                star: false,
                parts: Vec::new(),
            }
        } else {
            field(&DOM, &dom_plain.join(","))?
        };
        let dow_text = rest[4];
        let dow = if dow_text == "*" || dow_text == "?" {
            None
        } else {
            let mut w = Weekdays::default();
            for p in dow_text.split(',') {
                let lower = p.to_ascii_lowercase();
                if let Some((d, k)) = lower.split_once('#') {
                    let d = number(&DOW, d, false).map_err(|why| bad(&DOW, dow_text, why))?;
                    let k: u32 =
                        k.parse()
                            .ok()
                            .filter(|k| (1..=5).contains(k))
                            .ok_or_else(|| {
                                bad(&DOW, dow_text, format!("'#{k}': the k-th weekday runs 1–5"))
                            })?;
                    w.nth.push((d % 7, k));
                } else if let Some(d) = lower.strip_suffix('l').filter(|d| !d.is_empty()) {
                    let d = number(&DOW, d, false).map_err(|why| bad(&DOW, dow_text, why))?;
                    w.last.push(d % 7);
                } else {
                    let parsed = part(&DOW, p).map_err(|why| bad(&DOW, dow_text, why))?;
                    w.days.extend(parsed.values().into_iter().map(|d| d % 7));
                }
            }
            Some(w)
        };
        Ok(Cron {
            expr: expr.to_owned(),
            seconds: seconds.map(|s| field(&SECOND, s)).transpose()?,
            minute: field(&MINUTE, rest[0])?,
            hour: field(&HOUR, rest[1])?,
            dom,
            dom_last,
            month: field(&MONTH, rest[3])?,
            dow,
        })
    }

    fn dom_star(&self) -> bool {
        self.dom.star && !self.dom_last
    }

    /// The `OnCalendar=` values that together match exactly when the expression does,
    /// in systemd's normal form (what `systemd-analyze calendar` prints back).
    pub fn on_calendar(&self) -> Vec<String> {
        let time = format!(
            "{}:{}:{}",
            self.hour.systemd(),
            self.minute.systemd(),
            self.seconds
                .as_ref()
                .map_or_else(|| "00".to_owned(), Field::systemd)
        );
        let month = self.month.systemd();
        let mut lines: Vec<String> = Vec::new();
        // Cron matches a day when its day of month OR its weekday matches, when both are
        // restricted; one restricted alone decides; neither: every day.
        if !self.dom_star() {
            if !self.dom.parts.is_empty() {
                lines.push(format!("*-{month}-{} {time}", self.dom.systemd()));
            }
            if self.dom_last {
                lines.push(format!("*-{month}~01 {time}"));
            }
        }
        if let Some(w) = &self.dow {
            if !w.days.is_empty() {
                match weekday_list(&w.days) {
                    Some(days) => lines.push(format!("{days} *-{month}-* {time}")),
                    None => lines.push(format!("*-{month}-* {time}")),
                }
            }
            for k in 1..=5 {
                let days: std::collections::BTreeSet<u32> = w
                    .nth
                    .iter()
                    .filter(|(_, n)| *n == k)
                    .map(|(d, _)| *d)
                    .collect();
                if let Some(days) = weekday_list(&days) {
                    let first = (k - 1) * 7 + 1;
                    let last = (k * 7).min(31);
                    lines.push(format!("{days} *-{month}-{first:02}..{last:02} {time}"));
                }
            }
            let last: std::collections::BTreeSet<u32> = w.last.iter().copied().collect();
            if let Some(days) = weekday_list(&last) {
                lines.push(format!("{days} *-{month}~07/1 {time}"));
            }
        }
        if lines.is_empty() {
            lines.push(format!("*-{month}-* {time}"));
        }
        let mut seen = std::collections::HashSet::new();
        lines.retain(|l| seen.insert(l.clone()));
        lines
    }

    /// The expression as a crontab (Vixie cron) line's schedule: 5 fields, no `L`, `#`
    /// or seconds other than 0 — refused, saying so, otherwise.
    pub fn crontab(&self) -> Result<String, CalendarError> {
        let refuse = |what: &str| {
            CalendarError::Inexpressible {
            expr: self.expr.clone(),
            what: format!("{what}; use --print-systemd, or run the built-in scheduler (olav schedule --cron …)"),
        }
        };
        let fields: Vec<&str> = self.expr.split_whitespace().collect();
        let five: &[&str] = match &self.seconds {
            None => &fields,
            Some(s) if !s.star && s.parts == [Part::Value(0)] => &fields[1..],
            Some(_) => {
                return Err(refuse(
                    "cron has no seconds field (only 0 seconds can be dropped)",
                ))
            }
        };
        if self.dom_last {
            return Err(refuse(
                "'L' (last day of the month) is not in cron's syntax",
            ));
        }
        if self
            .dow
            .as_ref()
            .is_some_and(|w| !w.nth.is_empty() || !w.last.is_empty())
        {
            return Err(refuse(
                "'#' and 'nL' (k-th / last weekday of the month) are not in cron's syntax",
            ));
        }
        Ok(five.join(" "))
    }
}

/// Weekdays in systemd's normal form (Monday first): runs of three or more as `A..B`,
/// the rest listed; None for the whole week (no weekday restriction).
fn weekday_list(days: &std::collections::BTreeSet<u32>) -> Option<String> {
    const NAMES: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    if days.is_empty() || days.len() == 7 {
        return None;
    }
    // Cron counts from Sunday = 0, systemd from Monday.
    let idx: Vec<usize> = (0..7)
        .filter(|i| days.contains(&((*i as u32 + 1) % 7)))
        .collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && idx[j + 1] == idx[j] + 1 {
            j += 1;
        }
        if j - i >= 2 {
            out.push(format!("{}..{}", NAMES[idx[i]], NAMES[idx[j]]));
        } else {
            out.extend(idx[i..=j].iter().map(|k| NAMES[*k].to_owned()));
        }
        i = j + 1;
    }
    Some(out.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weekday_runs() {
        let set = |v: &[u32]| v.iter().copied().collect();
        assert_eq!(
            weekday_list(&set(&[1, 2, 3, 4, 5])).as_deref(),
            Some("Mon..Fri")
        );
        assert_eq!(weekday_list(&set(&[0, 6])).as_deref(), Some("Sat,Sun"));
        assert_eq!(
            weekday_list(&set(&[1, 2, 3, 5])).as_deref(),
            Some("Mon..Wed,Fri")
        );
        assert_eq!(weekday_list(&set(&[0, 1, 2, 3, 4, 5, 6])), None);
    }

    #[test]
    fn bad_fields_say_which_and_why() {
        let e = |x: &str| Cron::parse(x).map(|_| ()).unwrap_err().to_string();
        assert!(e("0 25 * * *").contains("hour '25': 25 is outside 0–23"));
        assert!(e("0 0 * * FOO").contains("day-of-week 'FOO'"));
        assert!(e("0 0 5-1 * *").contains("runs backwards"));
        assert!(e("0 0 * *").contains("found 4"));
        assert!(e("*/0 * * * *").contains("step '0'"));
    }
}
