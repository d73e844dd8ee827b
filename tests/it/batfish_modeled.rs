//! Formal verification proves that Batfish modeled the plan (issue 26), against the
//! stand-in: a changed file the device would not commit fails; a file or a plan line
//! Batfish did not model is UNVERIFIED, never PASS; a session between devices the plan
//! never names is seen; only physical interfaces are deactivated; flows a decommission
//! declares lost are no warning.

use crate::batfish::{stdout, verify, CHANGE, DECOM};
use crate::common::draft;
use crate::standin::{answer, session_row, AnswerCtx, Options, StandIn};
use serde_json::{json, Value};

/// Every config file of the snapshot PASSED, except `host`'s, which has `status` in the
/// candidate.
fn parse_status(ctx: &AnswerCtx<'_>, host: &str, status: &str) -> Value {
    let rows = ctx
        .files
        .keys()
        .filter(|f| f.starts_with("configs/"))
        .map(|f| {
            let node = f.trim_start_matches("configs/").trim_end_matches(".cfg");
            let st = if node == host && ctx.snapshot.starts_with("olav-cand-") {
                status
            } else {
                "PASSED"
            };
            json!({"File_Name": f, "Status": st, "File_Format": "CISCO_IOS",
                "Nodes": [{"id": format!("node-{node}"), "name": node}]})
        })
        .collect();
    answer(ctx.class, rows)
}

/// An iBGP session `node` → `peer` established in the base and not in the candidate.
fn lost_session(ctx: &AnswerCtx<'_>, node: &str, peer: &str) -> Value {
    let st = if ctx.snapshot.starts_with("olav-cand-") {
        "NOT_ESTABLISHED"
    } else {
        "ESTABLISHED"
    };
    answer(
        ctx.class,
        vec![session_row(node, peer, "IBGP", "Established_Status", st)],
    )
}

fn with_parse_status(status: &'static str) -> StandIn {
    StandIn::with(Options {
        answers: Some(Box::new(move |ctx| {
            if ctx.class.ends_with("DifferentialReachabilityQuestion") {
                return Some(answer(ctx.class, vec![]));
            }
            ctx.class
                .ends_with("FileParseStatusQuestion")
                .then(|| parse_status(ctx, "alpha-border-1", status))
        })),
        ..Options::default()
    })
}

#[test]
fn a_changed_file_the_device_would_not_commit_fails() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let bf = with_parse_status("WILL_NOT_COMMIT");
    let out = verify(tmp.path(), &plan, bf.port, "60").code(1);
    let text = stdout(&out);
    assert!(text.starts_with("Verdict: FAIL"), "{text}");
    assert!(
        text.contains("error fileParseStatus: configs/alpha-border-1.cfg: WILL_NOT_COMMIT (was PASSED): the device would refuse"),
        "{text}"
    );
}

#[test]
fn a_changed_file_batfish_did_not_model_is_unverified() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    for status in ["UNKNOWN", "UNSUPPORTED", "EMPTY"] {
        let bf = with_parse_status(status);
        let out = verify(tmp.path(), &plan, bf.port, "60").success();
        let text = stdout(&out);
        assert!(text.starts_with("Verdict: UNVERIFIED"), "{status}: {text}");
        assert!(
            text.contains(&format!(
                "unverified fileParseStatus: configs/alpha-border-1.cfg: {status}"
            )),
            "{text}"
        );
    }
}

#[test]
fn a_plan_line_batfish_did_not_understand_is_unverified() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let md = std::fs::read_to_string(tmp.path().join(&plan)).expect("plan");
    // A line of the plan's own configuration for the border router.
    let line = md
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("neighbor ") && l.contains("remote-as"))
        .expect("a neighbor line in the plan")
        .to_owned();
    let seen_line = line.clone();
    let bf = StandIn::with(Options {
        answers: Some(Box::new(move |ctx| {
            if ctx.class.ends_with("DifferentialReachabilityQuestion") {
                return Some(answer(ctx.class, vec![]));
            }
            (ctx.class.ends_with("InitIssuesQuestion") && ctx.snapshot.starts_with("olav-cand-"))
                .then(|| {
                    answer(
                        ctx.class,
                        vec![json!({"Nodes": ["alpha-border-1"], "Source_Lines": null,
                            "Type": "Parse warning", "Details": "This syntax is unrecognized",
                            "Line_Text": seen_line, "Parser_Context": "[s_router_bgp]"})],
                    )
                })
        })),
        ..Options::default()
    });
    let out = verify(tmp.path(), &plan, bf.port, "60").success();
    let text = stdout(&out);
    assert!(text.starts_with("Verdict: UNVERIFIED"), "{text}");
    assert!(
        text.contains(&format!(
            "unverified initIssues: plan line '{line}' on alpha-border-1: Parse warning"
        )),
        "{text}"
    );
}

#[test]
fn a_session_between_devices_the_plan_never_names_is_seen() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let bf = StandIn::with(Options {
        answers: Some(Box::new(|ctx| {
            if ctx.class.ends_with("BgpSessionStatusQuestion") {
                return Some(lost_session(ctx, "beta-core-1", "10.255.2.1"));
            }
            ctx.class
                .ends_with("DifferentialReachabilityQuestion")
                .then(|| answer(ctx.class, vec![]))
        })),
        ..Options::default()
    });
    let out = verify(tmp.path(), &plan, bf.port, "60").success();
    let text = stdout(&out);
    assert!(text.starts_with("Verdict: WARN"), "{text}");
    assert!(
        text.contains("warning bgpSessionStatus: beta-core-1 → 10.255.2.1: ESTABLISHED before the plan, NOT_ESTABLISHED after"),
        "{text}"
    );
}

#[test]
fn a_decommission_whose_only_losses_are_declared_passes() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), DECOM);
    let bf = StandIn::with(Options {
        answers: Some(Box::new(|ctx| {
            if ctx.class.ends_with("BgpSessionStatusQuestion") {
                return Some(lost_session(ctx, "alpha-br-3560", "10.0.1.41"));
            }
            if ctx.class.ends_with("DifferentialReachabilityQuestion") {
                let mut row = crate::standin::flow_row();
                row["Flow"]["ingressNode"] = json!("alpha-br-3560");
                return Some(answer(ctx.class, vec![row]));
            }
            None
        })),
        ..Options::default()
    });
    let out = verify(tmp.path(), &plan, bf.port, "60").success();
    let text = stdout(&out);
    assert!(text.starts_with("Verdict: PASS"), "{text}");
    assert!(text.contains("info differentialReachability: 1 flow(s) from or to the decommissioned device(s) change, as the plan declares"), "{text}");
    assert!(text.contains("info bgpSessionStatus: 1 session(s) established before the plan are down after it, as the plan declares"), "{text}");
}

#[test]
fn only_physical_interfaces_are_deactivated_others_are_shut_in_the_candidate() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), "decommission interface Vlan10 on alpha-acc-1");
    let bf = StandIn::start(crate::standin::Fault::None);
    verify(tmp.path(), &plan, bf.port, "60");
    let seen = bf.seen();
    let fork = seen
        .iter()
        .find(|s| s.path.ends_with("snapshots:fork"))
        .expect("fork");
    let body: Value = serde_json::from_slice(&fork.body).expect("json");
    assert!(
        body.get("deactivateInterfaces")
            .is_none_or(|v| v.as_array().is_none_or(Vec::is_empty)),
        "an SVI is not deactivated (Batfish would ignore it): {body}"
    );
    assert!(bf.problems().is_empty(), "{:#?}", bf.problems());
    use base64::Engine;
    let zip = base64::engine::general_purpose::STANDARD
        .decode(body["zipFile"].as_str().expect("the candidate's configs"))
        .expect("base64");
    let (_, files) = crate::standin::snapshot_files(&zip).expect("a snapshot zip");
    let text = files
        .iter()
        .find(|(f, _)| f.contains("alpha-acc-1"))
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .expect("alpha-acc-1's candidate config");
    let block: Vec<&str> = text
        .lines()
        .skip_while(|l| l.trim() != "interface Vlan10")
        .skip(1)
        .take_while(|l| l.starts_with(' '))
        .collect();
    assert!(block.iter().any(|l| l.trim() == "shutdown"), "{block:?}");
}

/// A static route the plan adds that Batfish's routing table does not show: the plan was
/// not modeled there (the stand-in answers the same empty table before and after).
#[test]
fn a_static_route_batfish_does_not_show_is_unverified() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(
        tmp.path(),
        "add a static route to 10.99.0.0/16 via 10.0.1.6 on alpha-dist-1",
    );
    let quiet = |ctx: &AnswerCtx<'_>| -> Option<Value> {
        if ctx.class.ends_with("DifferentialReachabilityQuestion") {
            return Some(answer(ctx.class, vec![]));
        }
        None
    };
    // The stand-in's own routes answer shows the new route: modeled.
    let bf = StandIn::with(Options {
        answers: Some(Box::new(quiet)),
        ..Options::default()
    });
    let text = stdout(&verify(tmp.path(), &plan, bf.port, "60").success());
    assert!(!text.contains("unverified routes"), "{text}");
    assert!(text.starts_with("Verdict: PASS"), "{text}");
    let asked = crate::batfish::questions(&bf.seen());
    let routes = asked
        .iter()
        .find(|q| {
            q["class"]
                .as_str()
                .is_some_and(|c| c.ends_with("RoutesQuestion"))
        })
        .expect("routes asked");
    assert_eq!(routes["network"], "10.99.0.0/16", "{routes}");
    assert_eq!(routes["nodes"], "\"alpha-dist-1\"", "{routes}");
    // The same table before and after: not modeled.
    let bf = StandIn::with(Options {
        answers: Some(Box::new(move |ctx| {
            if ctx.class.ends_with("RoutesQuestion") {
                return Some(answer(ctx.class, vec![]));
            }
            quiet(ctx)
        })),
        ..Options::default()
    });
    let text = stdout(&verify(tmp.path(), &plan, bf.port, "60").success());
    assert!(text.starts_with("Verdict: UNVERIFIED"), "{text}");
    assert!(
        text.contains("unverified routes: alpha-dist-1 10.99.0.0/16 (VRF default): the plan changes its static routes, yet Batfish's routing table for it is the same"),
        "{text}"
    );
}

/// A neighbor the plan adds that Batfish's candidate does not have: not modeled.
#[test]
fn a_session_the_plan_adds_that_batfish_does_not_see_is_unverified() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(tmp.path(), CHANGE);
    let bf = StandIn::with(Options {
        answers: Some(Box::new(|ctx| {
            if ctx.class.ends_with("DifferentialReachabilityQuestion") {
                return Some(answer(ctx.class, vec![]));
            }
            // Only the existing uplink, in both snapshots.
            ctx.class
                .ends_with("BgpSessionCompatibilityQuestion")
                .then(|| {
                    answer(
                        ctx.class,
                        vec![session_row(
                            "alpha-border-1",
                            "203.0.113.2",
                            "EBGP_SINGLEHOP",
                            "Configured_Status",
                            "UNKNOWN_REMOTE",
                        )],
                    )
                })
        })),
        ..Options::default()
    });
    let text = stdout(&verify(tmp.path(), &plan, bf.port, "60").success());
    assert!(text.starts_with("Verdict: UNVERIFIED"), "{text}");
    assert!(
        text.contains("the plan adds this neighbor, yet Batfish's candidate has no such session"),
        "{text}"
    );
}

/// A static-route plan is validated by Batfish's change-validation recipe: its intent as
/// `reachability` from the device to the prefix (no failing flow), no side effects as
/// `differentialReachability` outside the prefix (`invertSearch`): a flow there fails
/// the plan, and so does traffic to the prefix that finds no route.
#[test]
fn a_static_route_plan_is_validated_by_batfish_s_recipe() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = draft(
        tmp.path(),
        "add a static route to 10.99.0.0/16 via 10.0.1.6 on alpha-dist-1",
    );
    let bf = StandIn::start(crate::standin::Fault::None);
    let text = stdout(&verify(tmp.path(), &plan, bf.port, "60").success());
    assert!(text.starts_with("Verdict: PASS"), "{text}");
    let asked = crate::batfish::questions(&bf.seen());
    let of = |class: &str| {
        asked
            .iter()
            .find(|q| q["class"].as_str().is_some_and(|c| c.ends_with(class)))
            .cloned()
            .unwrap_or_else(|| panic!("{class} asked: {asked:#?}"))
    };
    let intent = of("SpecifiersReachabilityQuestion");
    assert_eq!(
        intent["pathConstraints"]["startLocation"],
        "\"alpha-dist-1\""
    );
    assert_eq!(intent["headers"]["dstIps"], "10.99.0.0/16");
    assert_eq!(intent["actions"], "failure");
    let side = of("DifferentialReachabilityQuestion");
    assert_eq!(side["invertSearch"], true, "{side}");
    assert_eq!(side["headers"]["dstIps"], "10.99.0.0/16", "{side}");
    assert_eq!(side["maxTraces"], 1, "{side}");
    assert!(bf.problems().is_empty(), "{:#?}", bf.problems());

    // A flow outside the plan's prefix changes: a side effect, FAIL.
    let bf = StandIn::with(Options {
        answers: Some(Box::new(|ctx| {
            (ctx.class.ends_with("DifferentialReachabilityQuestion")
                && ctx.question["invertSearch"] == json!(true))
            .then(|| answer(ctx.class, vec![crate::standin::flow_row()]))
        })),
        ..Options::default()
    });
    let text = stdout(&verify(tmp.path(), &plan, bf.port, "60").code(1));
    assert!(text.starts_with("Verdict: FAIL"), "{text}");
    assert!(
        text.contains("error differentialReachability: 1 flow(s) to destinations outside the plan's prefixes (10.99.0.0/16) behave differently: a side effect"),
        "{text}"
    );

    // Traffic to the prefix finds no route from the device: the intent is not met.
    let bf = StandIn::with(Options {
        answers: Some(Box::new(|ctx| {
            ctx.class
                .ends_with("SpecifiersReachabilityQuestion")
                .then(|| {
                    let mut row = crate::standin::flow_row();
                    let traces = row["Snapshot_Traces"].clone();
                    row["Traces"] = traces;
                    if let Some(t) = row["Traces"].get_mut(0) {
                        t["disposition"] = json!("NO_ROUTE");
                    }
                    answer(ctx.class, vec![row])
                })
        })),
        ..Options::default()
    });
    let text = stdout(&verify(tmp.path(), &plan, bf.port, "60").code(1));
    assert!(text.starts_with("Verdict: FAIL"), "{text}");
    assert!(
        text.contains("error reachability: the plan's intent is not met: traffic from alpha-dist-1 to 10.99.0.0/16 ends NO_ROUTE"),
        "{text}"
    );
}

/// A removal reaches Batfish as a candidate without the removed line, never as `no …`
/// lines after `end` (Batfish's IOS grammar has no `no ip route`: the route would stay).
#[test]
fn a_removal_reaches_batfish_edited_out_of_the_candidate() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let plan = crate::common::draft_any(
        tmp.path(),
        "remove the static route 0.0.0.0/0 on alpha-br-3560",
    );
    let bf = StandIn::start(crate::standin::Fault::None);
    verify(tmp.path(), &plan, bf.port, "60");
    let seen = bf.seen();
    let fork = seen
        .iter()
        .find(|s| s.path.ends_with("snapshots:fork"))
        .expect("fork");
    let body: Value = serde_json::from_slice(&fork.body).expect("json");
    use base64::Engine;
    let zip = base64::engine::general_purpose::STANDARD
        .decode(body["zipFile"].as_str().expect("the candidate's configs"))
        .expect("base64");
    let (_, files) = crate::standin::snapshot_files(&zip).expect("a snapshot zip");
    let text = files
        .iter()
        .find(|(f, _)| f.contains("alpha-br-3560"))
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .expect("alpha-br-3560's candidate config");
    assert!(!text.contains("ip route 0.0.0.0 0.0.0.0"), "{text}");
    assert!(
        !text
            .lines()
            .any(|l| l.trim_start().starts_with("no ip route")),
        "{text}"
    );
    let after_end: Vec<&str> = text
        .lines()
        .skip_while(|l| l.trim() != "end")
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .collect();
    assert!(after_end.is_empty(), "lines after end: {after_end:?}");
}
