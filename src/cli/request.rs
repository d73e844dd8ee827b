//! `olav --agent netops "<request>"`: route a request to a workflow.

use super::workflows::catalog;
use super::{Cli, Exit};
use crate::output::{self, Format};
use crate::workflow::route::{route, Route};
use anyhow::Result;

/// Routes (and, once the engine lands, runs) a request.
pub fn run(cli: &Cli, request: &str) -> Result<Exit> {
    let (orch, cat) = catalog(cli)?;
    let r = route(&cat, request);
    if cli.format == Format::Json {
        println!("{}", output::json(&r));
    }
    match r {
        Route::Workflow { workflow, matched } => {
            if cli.format == Format::Text {
                println!("Route: {} — {}", workflow.name, workflow.title);
                println!("  matched intent words: {}", matched.join(", "));
                for (i, s) in workflow.steps.iter().enumerate() {
                    println!("  {}. {} → ## {}", i + 1, s.agent, workflow.headers[i]);
                }
                println!("Running the steps needs the engine, which is not implemented yet: nothing was drafted.");
            }
            Ok(Exit::Partial)
        }
        Route::Ambiguous { candidates } => {
            if cli.format == Format::Text {
                println!("Which do you mean? This request matches more than one workflow:");
                for c in &candidates {
                    println!(
                        "  {:<22} {} (matched: {})",
                        c.workflow.name,
                        c.workflow.title,
                        c.matched.join(", ")
                    );
                }
                println!("Ask again with the intent words of one of them only.");
            }
            Ok(Exit::BadInput)
        }
        Route::None => {
            if cli.format == Format::Text {
                println!(
                    "No workflow of the {} agent matches this request.",
                    orch.name
                );
                println!("It can:");
                for w in &cat.workflows {
                    println!(
                        "  {:<22} {} — say: {}",
                        w.name,
                        w.title,
                        w.keywords.join(" / ")
                    );
                }
                println!("Closest commands:");
                println!("  olav state show devices|interfaces|links|bgp|services|routes");
                println!("  olav workflows list");
            }
            Ok(Exit::BadInput)
        }
    }
}
