//! The command line: argument parsing, dispatch and what people see. Errors become
//! messages on stderr and the exit statuses of PRODUCT.md.

mod check;
mod custom;
mod lifecycle;
pub mod request;
mod route_diff;
mod routes;
mod trace;
mod workflows;

use crate::import::{self, SnapshotDir};
use crate::output::{self, FailOn, Format};
use crate::state::{ShowKind, StateDb};
use crate::{demo, synth};
use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit statuses, part of the interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Success, PASS or WARN.
    Ok = 0,
    /// A FAIL verdict.
    Fail = 1,
    /// Bad input, or a request that needs clarification.
    BadInput = 2,
    /// A partial result.
    Partial = 3,
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e as u8)
    }
}

/// olav — draft, pre-check and verify network changes against the network's state.
///
/// Ask in one sentence: olav --agent netops "Decommission the branch switch alpha-br-3560"
#[derive(Debug, Parser)]
#[command(name = "olav", version, about, long_about = None)]
pub struct Cli {
    /// Orchestrator that handles a request.
    #[arg(long, global = true, default_value = "netops")]
    pub agent: String,
    /// Folder holding the orchestrator's workflows/ (default: the bundled netops agent).
    #[arg(long, global = true)]
    pub agent_dir: Option<PathBuf>,
    /// State DB file (created from the bundled demo network when missing).
    #[arg(long, global = true, env = "OLAV_DB", default_value = ".olav/state.db")]
    pub db: PathBuf,
    /// Folder for change plans and reports.
    #[arg(long, global = true, default_value = "exports")]
    pub exports: PathBuf,
    /// Output format.
    #[arg(long, global = true, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// No notices or progress on stderr (creating the DB from the demo network is still said).
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// Step progress on stderr even when it is not a terminal.
    #[arg(long, global = true)]
    pub progress: bool,
    /// Batfish host (env OLAV_BATFISH_HOST; default localhost).
    #[arg(long, global = true)]
    pub batfish_host: Option<String>,
    /// Batfish port (env OLAV_BATFISH_HTTP_PORT; default 9996).
    #[arg(long, global = true)]
    pub batfish_port: Option<u16>,
    /// Make an absent Batfish an error instead of falling back to the static checks.
    #[arg(long, global = true)]
    pub require_batfish: bool,
    /// Seconds the whole Batfish verification may take.
    #[arg(long, global = true, default_value_t = 240)]
    pub batfish_deadline: u64,
    /// Candidate snapshots left in Batfish for debugging (the newest N; 0 deletes each once read).
    #[arg(long, global = true, default_value_t = 0)]
    pub keep_snapshots: usize,
    /// Which verdict exits 1 for a request, `precheck` and `verify`: `fail` (default) or
    /// `warn` (a WARN fails too, for pipelines that gate on warnings).
    #[arg(long, global = true, value_enum, default_value_t = FailOn::Fail)]
    pub fail_on: FailOn,
    /// A request in one sentence, routed to a workflow.
    pub request: Option<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the orchestrators and the step agents they declare.
    Agents,
    /// Inspect, validate and render workflows.
    #[command(subcommand)]
    Workflows(WorkflowsCmd),
    /// Verify configuration lines you wrote: each device's lines (in its own syntax)
    /// become a `custom` plan with a rollback derived from the stored configuration,
    /// then pre-checked and verified like a drafted plan (what the change does, filters,
    /// routing, sessions, services).
    Plan {
        /// A device the lines are for (repeatable; each followed by its --config).
        #[arg(long, required = true)]
        device: Vec<String>,
        /// The lines for the device in the same position (`-` reads stdin; at most 2,000 lines).
        #[arg(long, required = true, value_name = "FILE")]
        config: Vec<PathBuf>,
        /// The rollback for the device in the same position, instead of the one olav
        /// derives (required for IOS-XR and FRR).
        #[arg(long, value_name = "FILE")]
        rollback: Vec<PathBuf>,
        /// The plan's title.
        #[arg(long)]
        title: Option<String>,
    },
    /// Pre-check a plan against the state DB (the reporter step alone: blast radius, forwarding and IGP adjacencies before and after), or every open plan.
    Precheck {
        /// The plan file (inside the exports folder).
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        plan: Option<PathBuf>,
        /// Re-check every open plan, record drift, mark plans that now fail stale; then
        /// check them all applied together (effects no plan has alone fail the plans involved).
        #[arg(long)]
        all: bool,
        /// State collected longer ago than this is a warning (7d, 12h, 30m).
        #[arg(long, default_value = "7d")]
        max_age: String,
    },
    /// Write a plan's HTML report again from the current state (exports/reports/<plan>.html).
    Report {
        /// The plan file (inside the exports folder).
        plan: PathBuf,
        /// State collected longer ago than this is a warning (7d, 12h, 30m).
        #[arg(long, default_value = "7d")]
        max_age: String,
    },
    /// What removing devices, interfaces, links or peers would take down (their union).
    BlastRadius {
        /// A device (repeatable).
        #[arg(long)]
        device: Vec<String>,
        /// An interface, DEVICE:INTERFACE (repeatable).
        #[arg(long)]
        interface: Vec<String>,
        /// A link, DEVICE:INTERFACE-DEVICE:INTERFACE (repeatable).
        #[arg(long)]
        link: Vec<String>,
        /// A BGP peer by name, AS (AS7575) or address, or one session as DEVICE:ADDRESS (repeatable).
        #[arg(long)]
        peer: Vec<String>,
        /// Also write an HTML page with a picture of what it touches to this file.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        /// Also list the networks no device routes after it, from every device's routing
        /// table recomputed (done anyway up to 300 devices; seconds near the limit of
        /// 2,000).
        #[arg(long)]
        routing: bool,
    },
    /// Static checks (not Batfish): duplicate IPs, overlapping subnets, BGP session compatibility, undefined references.
    Check {
        /// Only these checks (repeatable).
        #[arg(long, value_enum)]
        only: Vec<crate::checks::Only>,
        /// Check the candidate network of this plan (the state plus the plan's lines).
        #[arg(long)]
        plan: Option<PathBuf>,
    },
    /// Each device's main routing table: connected, local, static, OSPF, EIGRP, IS-IS and
    /// BGP routes (a RIB that needs what olav does not compute or could not read is marked
    /// incomplete, with why, as is every RIB when the snapshot holds configurations olav
    /// does not read; the exit status is then 3, a partial result); with
    /// --format json, rows with Batfish's `routes` columns; --rib bgp, the BGP RIB;
    /// --trace, one address's forwarding path; --plan, the routes a plan would change.
    Routes {
        /// Only this device.
        #[arg(long)]
        device: Option<String>,
        /// Only this VRF (`default` for the global table).
        #[arg(long)]
        vrf: Option<String>,
        /// Only routes covering this prefix or address (10.1.0.0/16, 10.1.2.3).
        #[arg(long)]
        prefix: Option<String>,
        /// Only this protocol, by Batfish's name (connected, local, static, ospf, ospfIA,
        /// ospfE1, ospfE2, ospfIS, eigrp, eigrpEX, isisL1, isisL2, bgp, ibgp, aggregate).
        #[arg(long)]
        protocol: Option<String>,
        /// Which RIB: `main` (the routing table) or `bgp` (every BGP path, with AS path,
        /// local preference, communities, origin, weight and whether it is the best).
        #[arg(long, default_value = "main")]
        rib: String,
        /// The forwarding path of DST (an address) from SRC (a device, or an address one
        /// holds) through the computed RIBs, every ECMP branch; --vrf picks the source VRF.
        #[arg(long, num_args = 2, value_names = ["SRC", "DST"], conflicts_with_all = ["device", "prefix", "protocol"])]
        trace: Option<Vec<String>>,
        /// The routes this plan would change (the candidate network's RIBs against the
        /// stored ones), filtered by the other options.
        #[arg(long, value_name = "PLAN", conflicts_with = "trace")]
        plan: Option<PathBuf>,
    },
    /// Verify a plan formally with Batfish (the simulator step alone); without Batfish,
    /// static checks and olav's own forwarding answers, labelled as such (UNVERIFIED or
    /// FAIL, never PASS).
    Verify {
        /// The plan file (inside the exports folder).
        plan: PathBuf,
    },
    /// Batfish service: reachability and version.
    #[command(subcommand)]
    Batfish(BatfishCmd),
    /// The plan registry: list, show (with pre-check and verification history), approve,
    /// close, withdraw.
    #[command(subcommand)]
    Plans(PlansCmd),
    /// Run `precheck --all` on a cron schedule (or once), or print a crontab / systemd entry.
    Schedule {
        /// Cron expression: minute hour day-of-month month day-of-week ("*/15 * * * *"), or 6 fields with seconds first.
        #[arg(long, default_value = "0 * * * *")]
        cron: String,
        /// A snapshot folder to re-import at the start of each cycle when its contents changed (e.g. the folder a config-backup tool keeps up to date); printed entries carry it.
        #[arg(long, value_name = "SNAPSHOT_DIR")]
        import: Option<PathBuf>,
        /// Run one cycle and exit with its status (0 all pass, 1 one fails, 3 the --import failed or skipped files).
        #[arg(long)]
        once: bool,
        /// Print a crontab line instead of running.
        #[arg(long, conflicts_with_all = ["once", "print_systemd"])]
        print_crontab: bool,
        /// Print systemd service and timer units (exact OnCalendar= lines) instead of running.
        #[arg(long, conflicts_with = "once")]
        print_systemd: bool,
    },
    /// Recorded runs: list them, or show one's answer again.
    #[command(subcommand)]
    Runs(RunsCmd),
    /// Import snapshots and inspect the state DB.
    #[command(subcommand)]
    State(StateCmd),
    /// Write a large, realistic generated snapshot (deterministic for a seed).
    Synth {
        /// Number of devices.
        #[arg(long)]
        devices: usize,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output folder (gets configs/ and state.yaml).
        out_dir: PathBuf,
    },
}

#[derive(Debug, Subcommand)]
pub enum WorkflowsCmd {
    /// Name, title, steps, intent words and file of each loaded workflow.
    List,
    /// A validation report per file; exit 1 if any file is skipped.
    Check,
    /// The block an LLM orchestrator's system prompt would carry (deterministic).
    Render,
}

#[derive(Debug, Subcommand)]
pub enum PlansCmd {
    /// Open plans (all with --all), newest first.
    List {
        /// Include done and withdrawn plans.
        #[arg(long)]
        all: bool,
    },
    /// One plan with its pre-check history.
    Show {
        /// Plan id or path.
        id: String,
    },
    /// Approve a plan (refused while its last pre-check or verification failed, or its
    /// file was edited since its last pre-check).
    Approve {
        /// Plan id or path.
        id: String,
    },
    /// Close a plan: the change is done.
    Close {
        /// Plan id or path.
        id: String,
    },
    /// Withdraw a plan.
    Withdraw {
        /// Plan id or path.
        id: String,
    },
}

#[derive(Debug, Subcommand)]
enum BatfishCmd {
    /// Is Batfish reachable, and which version.
    Status,
}

#[derive(Debug, Subcommand)]
enum RunsCmd {
    /// Recent runs, newest first.
    List {
        /// How many.
        #[arg(long, default_value_t = 20)]
        limit: usize,
    },
    /// One run: its steps and the assembled answer.
    Show {
        /// Run id.
        id: i64,
    },
}

#[derive(Debug, Subcommand)]
enum StateCmd {
    /// Import a Batfish-layout snapshot folder (configs/, an optional state.yaml and batfish/).
    Import {
        /// The snapshot folder.
        snapshot_dir: PathBuf,
    },
    /// List devices, interfaces, links, BGP sessions, services, static routes, warnings or
    /// the snapshot's batfish/ files.
    Show {
        /// What to list.
        #[arg(value_enum)]
        kind: ShowKind,
        /// Only this device.
        #[arg(long)]
        device: Option<String>,
    },
    /// Print a file of the imported snapshot's batfish/ folder as it was imported.
    File {
        /// Its path in the snapshot (`batfish/layer1_topology.json`).
        path: String,
    },
    /// Row counts, state version, collected_at and the last import's warnings.
    Stats,
    /// Runs SQLite's integrity check on the state DB (exit 1 when it finds damage).
    Check,
}

/// Parses the command line, runs it and maps the outcome to an exit status.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    init_tracing(cli.quiet);
    match run(&cli) {
        Ok(code) => code.into(),
        Err(e) => {
            eprintln!("olav: error: {}", error_text(&e));
            Exit::BadInput.into()
        }
    }
}

/// An error and its causes on one line, each cause said once: library errors already
/// quote their source ("state DB x: database or disk is full"), which the chain repeats.
fn error_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        // SQLite's own code and text ("Error code 13: Insertion failed because database
        // is full") restate what the state DB's error already said.
        if crate::state::is_sqlite_detail(cause) {
            continue;
        }
        // A file name or value quoted in an error may hold escape sequences.
        let c: String = cause
            .to_string()
            .chars()
            .map(|c| match c {
                '\n' | '\t' => c.to_string(),
                c if c.is_control() => c.escape_default().to_string(),
                c => c.to_string(),
            })
            .collect();
        if text.is_empty() {
            text = c;
        } else if !text.contains(&c) {
            text.push_str(": ");
            text.push_str(&c);
        }
    }
    text
}

fn init_tracing(quiet: bool) {
    let default = if quiet { "error" } else { "warn" };
    let filter = tracing_subscriber::EnvFilter::try_from_env("OLAV_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .without_time()
        .with_target(false)
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}

fn run(cli: &Cli) -> Result<Exit> {
    let Some(command) = &cli.command else {
        return match &cli.request {
            Some(r) => request::run(cli, r),
            None => {
                use clap::CommandFactory;
                Cli::command().print_help()?;
                Ok(Exit::BadInput)
            }
        };
    };
    match command {
        Command::Agents => workflows::agents(cli),
        Command::Runs(r) => runs_cmd(cli, r),
        Command::Precheck { plan, all, max_age } => match (plan, all) {
            (Some(p), false) => check::precheck(cli, p, max_age),
            _ => lifecycle::precheck_all(cli, max_age, None),
        },
        Command::Plans(p) => lifecycle::plans(cli, p),
        Command::Plan {
            device,
            config,
            rollback,
            title,
        } => custom::run(
            cli,
            &custom::Args {
                devices: device,
                configs: config,
                rollbacks: rollback,
                title: title.as_deref(),
            },
        ),
        Command::Schedule {
            cron,
            import,
            once,
            print_crontab,
            print_systemd,
        } => lifecycle::schedule(
            cli,
            cron,
            import.as_deref(),
            *once,
            if *print_crontab {
                lifecycle::Print::Crontab
            } else if *print_systemd {
                lifecycle::Print::Systemd
            } else {
                lifecycle::Print::Nothing
            },
        ),
        Command::Check { only, plan } => check::static_checks(cli, only, plan.as_deref()),
        Command::Verify { plan } => check::verify(cli, plan),
        Command::Routes {
            trace: Some(t),
            vrf,
            ..
        } => match t.as_slice() {
            [src, dst] => trace::run(cli, src, dst, vrf.as_deref()),
            _ => anyhow::bail!("--trace takes two values: SRC DST"),
        },
        Command::Routes {
            plan: Some(_), rib, ..
        } if rib.as_str() != "main" => anyhow::bail!(
            "--rib {rib} with --plan: olav routes --plan compares the main routing tables only"
        ),
        Command::Routes {
            device,
            vrf,
            prefix,
            protocol,
            plan: Some(plan),
            ..
        } => route_diff::run(
            cli,
            plan,
            &routes::query(
                device.as_deref(),
                vrf.as_deref(),
                prefix.as_deref(),
                protocol.as_deref(),
            )?,
        ),
        Command::Routes {
            device,
            vrf,
            prefix,
            protocol,
            rib,
            trace: None,
            plan: None,
        } => routes::routes(
            cli,
            routes::Ask {
                device: device.as_deref(),
                vrf: vrf.as_deref(),
                prefix: prefix.as_deref(),
                protocol: protocol.as_deref(),
                rib,
            },
        ),
        Command::Batfish(BatfishCmd::Status) => check::batfish_status(cli),
        Command::Report { plan, max_age } => check::report(cli, plan, max_age),
        Command::BlastRadius {
            device,
            interface,
            link,
            peer,
            html,
            routing,
        } => check::blast_radius(
            cli,
            device,
            interface,
            link,
            peer,
            html.as_deref(),
            *routing,
        ),
        Command::Workflows(w) => workflows::run(cli, w),
        Command::State(StateCmd::Import { snapshot_dir }) => import_cmd(cli, snapshot_dir),
        Command::State(StateCmd::Show { kind, device }) => {
            let db = open_or_demo(cli)?;
            if let Some(d) = device {
                if !db.has_device(d)? && !matches!(kind, ShowKind::Warnings | ShowKind::Files) {
                    let names: Vec<String> = db.hostnames()?;
                    anyhow::bail!(
                        "no device '{d}' in {}{}",
                        db.path().display(),
                        crate::fuzzy::closest(d, &names)
                            .map(|c| format!("; did you mean {c}?"))
                            .unwrap_or_default()
                    );
                }
            }
            let table = db.show(*kind, device.as_deref())?;
            match cli.format {
                Format::Json => println!("{}", output::json(&table.to_json())),
                Format::Text if table.rows.is_empty() => println!("(none)"),
                Format::Text => print!("{}", table.to_text()),
            }
            Ok(Exit::Ok)
        }
        Command::State(StateCmd::File { path }) => {
            let db = open_or_demo(cli)?;
            match db.snapshot_file(path)? {
                Some(bytes) => {
                    use std::io::Write;
                    std::io::stdout().write_all(&bytes)?;
                    Ok(Exit::Ok)
                }
                None => {
                    let paths = db.snapshot_file_paths()?;
                    anyhow::bail!(
                        "no file '{path}' in the imported snapshot; stored: {}",
                        if paths.is_empty() {
                            "none (the snapshot had no batfish/ folder)".to_owned()
                        } else {
                            paths.join(", ")
                        }
                    )
                }
            }
        }
        Command::State(StateCmd::Check) => {
            let db = crate::state::StateDb::open(&cli.db)?;
            let ok = db.integrity_ok()?;
            match cli.format {
                Format::Json => println!(
                    "{}",
                    output::json(&serde_json::json!({"db": db.path(), "integrity_ok": ok}))
                ),
                Format::Text if ok => println!("ok — {}: SQLite integrity check passed", db.path().display()),
                Format::Text => println!(
                    "DAMAGED — {}: SQLite integrity check failed; restore a backup or re-import the snapshot into a new DB",
                    db.path().display()
                ),
            }
            Ok(if ok { Exit::Ok } else { Exit::Fail })
        }
        Command::State(StateCmd::Stats) => {
            let db = open_or_demo(cli)?;
            let s = db.stats()?;
            match cli.format {
                Format::Json => println!("{}", output::json(&s)),
                Format::Text => {
                    println!(
                        "state version {} · schema {} · {}",
                        s.state_version,
                        s.schema_version,
                        db.path().display()
                    );
                    println!("snapshot      {}", s.snapshot.as_deref().unwrap_or("-"));
                    println!("collected_at  {}", s.collected_at.as_deref().unwrap_or("-"));
                    println!("imported_at   {}", s.imported_at.as_deref().unwrap_or("-"));
                    println!(
                        "last import   {} lines read, {} unrecognised (ignored), {} warnings, {} files skipped",
                        s.lines_total, s.lines_unrecognised, s.warnings, s.files_skipped
                    );
                    let width = s.rows.iter().map(|(t, _)| t.len()).max().unwrap_or(0);
                    for (t, n) in &s.rows {
                        println!("  {t:<width$}  {n:>8}");
                    }
                    if s.warnings + s.files_skipped > 0 {
                        println!("\nNext: {} state show warnings", crate::output::invoked());
                    }
                }
            }
            Ok(Exit::Ok)
        }
        Command::Synth {
            devices,
            seed,
            out_dir,
        } => {
            let summary = synth::write(out_dir, *devices, *seed).with_context(|| {
                format!("writing the generated snapshot to {}", out_dir.display())
            })?;
            match cli.format {
                Format::Json => println!("{}", output::json(&summary)),
                Format::Text => {
                    println!(
                        "Wrote {} devices ({} sites, {} config lines) to {}",
                        summary.devices,
                        summary.sites,
                        summary.config_lines,
                        out_dir.display()
                    );
                    println!(
                        "Next: {} state import {}",
                        crate::output::invoked(),
                        out_dir.display()
                    );
                }
            }
            Ok(Exit::Ok)
        }
    }
}

fn runs_cmd(cli: &Cli, cmd: &RunsCmd) -> Result<Exit> {
    let db = open_or_demo(cli)?;
    // A run whose process was killed is shown as interrupted, not running for ever.
    if let Err(e) = db.mark_interrupted() {
        tracing::warn!("runs killed mid-way could not be marked interrupted: {e}");
    }
    match cmd {
        RunsCmd::List { limit } => {
            let t = db.runs(*limit)?;
            match cli.format {
                Format::Json => println!("{}", output::json(&t.to_json())),
                Format::Text if t.rows.is_empty() => println!("(no runs yet)"),
                Format::Text => {
                    print!("{}", t.to_text());
                    println!("\nNext: {} runs show <id>", crate::output::invoked());
                }
            }
            Ok(Exit::Ok)
        }
        RunsCmd::Show { id } => {
            let Some(run) = db.run(*id)? else {
                anyhow::bail!(
                    "no run {id} in {}; see: olav runs list",
                    db.path().display()
                );
            };
            let steps = db.run_steps(*id)?;
            match cli.format {
                Format::Json => println!(
                    "{}",
                    output::json(&serde_json::json!({"run": run, "steps": steps.to_json()}))
                ),
                Format::Text => {
                    println!(
                        "Run {} · {} · {} · started {}{}",
                        run.id,
                        run.workflow,
                        run.status,
                        run.started,
                        run.finished
                            .map(|f| format!(", finished {f}"))
                            .unwrap_or_default()
                    );
                    println!("Request: {}\n", output::printable(&run.request));
                    print!("{}", steps.to_text());
                    println!();
                    print!(
                        "{}",
                        run.answer.unwrap_or_else(|| match run.status.as_str() {
                            "interrupted" => "(no answer recorded: the run's process ended before it finished; run the request again)\n".into(),
                            _ => "(no answer recorded: the run has not finished)\n".into(),
                        })
                    );
                }
            }
            Ok(Exit::Ok)
        }
    }
}

/// The Batfish settings the options and environment give.
pub fn batfish_settings(cli: &Cli) -> crate::agents::capability::BatfishSettings {
    crate::agents::capability::BatfishSettings {
        endpoint: crate::batfish::client::Endpoint::resolve(
            cli.batfish_host.as_deref(),
            cli.batfish_port,
        ),
        deadline: std::time::Duration::from_secs(cli.batfish_deadline.max(1)),
        required: cli.require_batfish,
        keep_snapshots: cli.keep_snapshots,
        ..Default::default()
    }
}

/// Opens the state DB; when none exists, creates it from the bundled demo network.
pub fn open_or_demo(cli: &Cli) -> Result<StateDb> {
    let existed = cli.db.exists();
    let mut db = StateDb::open(&cli.db)?;
    if !existed || db.state_version()? == 0 {
        let parsed = demo::parsed().context("reading the bundled demo network")?;
        let summary = db.import(&parsed)?;
        // Said even under --quiet: an answer about the demo network must never pass for
        // one about the user's own (a failed import followed by a quiet check, in CI).
        eprintln!(
            "olav: no state DB at {}; created it from the {} ({} devices, state version {})",
            cli.db.display(),
            demo::LABEL,
            summary.devices,
            summary.state_version
        );
    }
    Ok(db)
}

fn import_cmd(cli: &Cli, dir: &Path) -> Result<Exit> {
    let snap = SnapshotDir::open(dir)?;
    let streamed = import::stream(&snap)?;
    let import = |db: &mut StateDb| db.import_streamed(&streamed);
    let s = match StateDb::create_with(&cli.db, import)? {
        Some(s) => s,
        None => import(&mut StateDb::open(&cli.db)?)?,
    };
    let exit = if s.skipped.is_empty() {
        Exit::Ok
    } else {
        Exit::Partial
    };
    match cli.format {
        Format::Json => println!("{}", output::json(&s)),
        Format::Text => {
            let verdict = if s.skipped.is_empty() {
                "Imported"
            } else {
                "Partly imported"
            };
            println!(
                "{verdict} {} devices from {} → state version {} ({})",
                s.devices,
                dir.display(),
                s.state_version,
                cli.db.display()
            );
            println!(
                "  {} links · {} BGP sessions · {} services · {} config lines ({} unrecognised, ignored){}",
                s.links,
                s.bgp_sessions,
                s.services,
                s.lines_total,
                s.lines_unrecognised,
                if s.unchanged {
                    " · same files as the previous import"
                } else {
                    ""
                }
            );
            const SHOWN: usize = 20;
            if !s.skipped.is_empty() {
                // Grouped by reason first: "Cisco IOS-XR: not read yet (5 files)".
                let mut why: std::collections::BTreeMap<&str, usize> = Default::default();
                for m in &s.skipped {
                    *why.entry(m.split_once(": ").map_or(m.as_str(), |(_, r)| r))
                        .or_default() += 1;
                }
                let mut why: Vec<(&str, usize)> = why.into_iter().collect();
                why.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
                const REASONS: usize = 3;
                let more = why.len().saturating_sub(REASONS);
                let mut head: Vec<String> = why
                    .into_iter()
                    .take(REASONS)
                    .map(|(r, n)| format!("{r} ({n} file{})", if n == 1 { "" } else { "s" }))
                    .collect();
                if more > 0 {
                    head.push(format!("{more} other reasons"));
                }
                println!("  skipped {} files — {}:", s.skipped.len(), head.join("; "));
                for m in &s.skipped {
                    println!("    {m}");
                }
            }
            if !s.warnings.is_empty() {
                println!("  {} warnings:", s.warnings.len());
                for m in s.warnings.iter().take(SHOWN) {
                    println!("    {m}");
                }
                if s.warnings.len() > SHOWN {
                    println!("    … {} more", s.warnings.len() - SHOWN);
                }
            }
            let next = if s.warnings.is_empty() && s.skipped.is_empty() {
                "olav state show devices"
            } else {
                "olav state show warnings"
            };
            println!("Next: {next}");
        }
    }
    Ok(exit)
}

#[cfg(test)]
mod tests {
    #[test]
    fn each_cause_of_an_error_is_said_once() {
        // A library error quoting its source, as StateError does, under a context.
        let e = anyhow::Error::new(std::io::Error::other("database or disk is full"))
            .context("state DB s.db: database or disk is full")
            .context("importing snap");
        let text = super::error_text(&e);
        assert_eq!(
            text,
            "importing snap: state DB s.db: database or disk is full"
        );
    }
}
