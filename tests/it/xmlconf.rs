//! The W3C XML Conformance Test Suite (xmlts20130923), read from
//! `../shared/xmlconf/` (the zip and its merged index; nothing of it is
//! copied here), run through the same decoding and parsing as every linted
//! document.
//!
//! The tests that apply to a non-validating, namespace-aware XML 1.0
//! (fifth edition) processor: `valid` and `invalid` documents must be
//! accepted (validity is not judged), `not-wf` documents rejected. Those
//! without external entities ("standalone") must all be judged right but
//! for [`KNOWN_STANDALONE`]; of those that use external entities, which
//! feedlint never reads, no accepted document may be rejected but for
//! [`KNOWN_EXTERNAL`] (a not-well-formed one may pass: its fault may be in
//! the part that is not read). Both lists must stay accurate: an entry
//! that is judged right fails the test too.
//!
//! `FEEDLINT_XMLCONF_VERBOSE=1 cargo test --test it xmlconf:: -- --nocapture`
//! prints every verdict with its message.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::PathBuf;

use feedlint::{findings::source, xml};
use url::Url;

/// Standalone tests judged wrong, each with the reason.
const KNOWN_STANDALONE: &[(&str, &str)] = &[];

/// Accepted tests with external entities that are rejected, each with the reason.
const KNOWN_EXTERNAL: &[(&str, &str)] = &[];

fn shared() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/xmlconf")
}

#[derive(Debug)]
struct Case {
    id: String,
    /// Path in the zip.
    path: String,
    must_accept: bool,
    standalone: bool,
}

/// The applicable tests of the index (its README says which apply).
fn cases(index: &str) -> Vec<Case> {
    let doc = xml::parse(index).expect("the index is well-formed XML");
    let mut cases = Vec::new();
    for test in doc.descendants().filter(|n| n.has_tag_name(None, "TEST")) {
        let attribute = |name: &str| test.attribute(name).unwrap_or_default();
        let must_accept = match attribute("TYPE") {
            "valid" | "invalid" => true,
            "not-wf" => false,
            _ => continue,
        };
        let recommendation = attribute("RECOMMENDATION");
        let applies = !matches!(recommendation, "XML1.1" | "NS1.1")
            && test
                .attribute("VERSION")
                .is_none_or(|v| v.split_whitespace().any(|v| v == "1.0"))
            && test
                .attribute("EDITION")
                .is_none_or(|e| e.split_whitespace().any(|e| e == "5"))
            && attribute("NAMESPACE") != "no";
        if !applies {
            continue;
        }
        // The URI is relative to the xml:base of the enclosing TESTCASES,
        // which may itself be relative to an outer one.
        let mut bases: Vec<&str> = test
            .ancestors()
            .filter_map(|n| n.attribute((xml::XML_NS, "base")))
            .collect();
        bases.reverse();
        let root = Url::parse("zip:///xmlconf/").unwrap();
        let base = bases.iter().fold(root, |base, relative| base.join(relative).unwrap());
        let url = base.join(attribute("URI")).unwrap();
        cases.push(Case {
            id: attribute("ID").to_owned(),
            path: url.path().trim_start_matches('/').to_owned(),
            must_accept,
            // The index's DTD defaults ENTITIES to "none".
            standalone: matches!(attribute("ENTITIES"), "none" | ""),
        });
    }
    cases
}

/// What feedlint makes of a document: accepted, or why not.
fn verdict(bytes: Vec<u8>) -> Result<(), String> {
    let text = source::decode(bytes).map_err(|(_, error)| error.message)?;
    xml::parse(&text).map(|_| ()).map_err(|error| error.message)
}

/// Set (to anything) by CI: the suite must be there, and the test fails
/// without it rather than being skipped.
const REQUIRED: &str = "FEEDLINT_XMLCONF_REQUIRED";

/// The suite's index in `dir`; `Ok(Err(line))` when it is not there and
/// not required (a clone of the project alone), with the line that says so.
fn index_in(dir: &std::path::Path, required: bool) -> Result<Result<String, String>, String> {
    match std::fs::read_to_string(dir.join("xmlconf-merged.xml")) {
        Ok(index) => Ok(Ok(index)),
        Err(e) if !required => Ok(Err(format!(
            "xmlconf: skipped: the W3C XML Conformance Test Suite is not at {} ({e}); {REQUIRED}=1 makes this an error",
            dir.display()
        ))),
        Err(e) => Err(format!(
            "{}: {e} (the suite stands in ../shared/xmlconf beside the project; {REQUIRED} is set)",
            dir.display()
        )),
    }
}

#[test]
fn a_missing_suite_is_skipped_unless_required() {
    let nowhere = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/no-such-xmlconf");
    assert!(index_in(&nowhere, false)
        .unwrap()
        .unwrap_err()
        .starts_with("xmlconf: skipped: "));
    assert!(index_in(&nowhere, true).unwrap_err().contains(REQUIRED));
}

#[test]
fn w3c_xml_conformance_suite() {
    let dir = shared();
    let index = match index_in(&dir, std::env::var_os(REQUIRED).is_some()) {
        Ok(Ok(index)) => index,
        Ok(Err(skipped)) => {
            // Written past the test harness's capture of print!, so that
            // the skip shows on the terminal.
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "{skipped}");
            return;
        }
        Err(message) => panic!("{message}"),
    };
    let cases = cases(&index);
    let zip = std::fs::File::open(dir.join("xmlts20130923.zip")).unwrap();
    let mut zip = zip::ZipArchive::new(zip).unwrap();
    let known_standalone: BTreeSet<&str> = KNOWN_STANDALONE.iter().map(|(id, _)| *id).collect();
    let known_external: BTreeSet<&str> = KNOWN_EXTERNAL.iter().map(|(id, _)| *id).collect();
    let (mut standalone, mut external) = (0, 0);
    let mut wrong_standalone = BTreeSet::new();
    let mut wrong_external = BTreeSet::new();
    let mut unexpected = Vec::new();
    for case in &cases {
        let mut bytes = Vec::new();
        // The suite's own index places the eduni "misc" tests under
        // eduni/namespaces/misc/; the archive holds them in eduni/misc/.
        let path = case.path.replace("eduni/namespaces/misc/", "eduni/misc/");
        zip.by_name(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", case.path))
            .read_to_end(&mut bytes)
            .unwrap();
        let result = verdict(bytes);
        if std::env::var_os("FEEDLINT_XMLCONF_VERBOSE").is_some() {
            eprintln!(
                "{} {}: {result:?}",
                case.id,
                if case.must_accept { "accept" } else { "reject" }
            );
        }
        let wrong = result.is_ok() != case.must_accept;
        if case.standalone {
            standalone += 1;
            if wrong {
                wrong_standalone.insert(case.id.as_str());
                if !known_standalone.contains(case.id.as_str()) {
                    unexpected.push(format!("{} ({}): {:?}", case.id, case.path, result));
                }
            }
        } else {
            external += 1;
            if wrong && case.must_accept {
                wrong_external.insert(case.id.as_str());
                if !known_external.contains(case.id.as_str()) {
                    unexpected.push(format!("{} ({}): {:?}", case.id, case.path, result));
                }
            }
        }
    }
    let accepted_bad = cases
        .iter()
        .filter(|c| c.standalone && !c.must_accept && wrong_standalone.contains(c.id.as_str()))
        .count();
    eprintln!(
        "W3C suite: {standalone} standalone tests, {} judged wrong ({accepted_bad} not-wf accepted, {} good rejected); {external} with external entities, {} good rejected",
        wrong_standalone.len(),
        wrong_standalone.len() - accepted_bad,
        wrong_external.len()
    );
    // The README counts 1,709: without the nine eduni "misc" tests, which
    // the index places where the archive does not have them.
    assert_eq!(standalone, 1718, "the applicable standalone tests");
    assert!(
        unexpected.is_empty(),
        "{} judged wrong:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    let stale: Vec<&str> = known_standalone
        .difference(&wrong_standalone)
        .chain(known_external.difference(&wrong_external))
        .copied()
        .collect();
    assert!(
        stale.is_empty(),
        "listed as known disagreements but judged right now: {stale:?}"
    );
}
