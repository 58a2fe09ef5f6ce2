//! Sites linted with no configuration, and subsets of them: trees built in
//! a scratch directory as a site generator writes them, linted as a new
//! user would (from the site's root or elsewhere, whole or in part, with
//! and without `--base-url`). A subset gives the whole site's verdict on
//! the files it names; no output names a file by a `file:` URL.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

use common::{json, messages, scratch, stderr, stdout, ATOM_HEAD};

/// Runs the binary in `dir`.
fn feedlint_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// An Atom document of a chain: its self link, its other head links
/// (`(rel, href)`), and whether it is an archive.
fn atom(self_href: &str, links: &[(&str, &str)], archive: bool) -> String {
    let links: String = links
        .iter()
        .map(|(rel, href)| format!("  <link rel=\"{rel}\" href=\"{href}\"/>\n"))
        .collect();
    let marker = if archive { "  <fh:archive/>\n" } else { "" };
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
         <feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:fh=\"http://purl.org/syndication/history/1.0\">\n\
         {ATOM_HEAD}\n  <link rel=\"self\" href=\"{self_href}\"/>\n{links}{marker}</feed>\n"
    )
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `(file, rule, level, line)` of each finding of a JSON report, the file
/// as the report names it.
fn findings(report: &serde_json::Value) -> Vec<(String, String, String, u64)> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap().to_owned(),
                d["rule"].as_str().unwrap().to_owned(),
                d["level"].as_str().unwrap().to_owned(),
                d["spans"][0]["line_start"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// `public/feed.atom` and `public/archive/2024-0{1,2,3}.atom`, published
/// at https://example.org/, where 2024-03.atom's prev-archive names a
/// missing 2024-2.atom: one typo.
fn site_with_a_typo(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    let public = dir.join("public");
    write(
        &public.join("feed.atom"),
        &atom(
            "https://example.org/feed.atom",
            &[("prev-archive", "archive/2024-03.atom")],
            false,
        ),
    );
    write(
        &public.join("archive/2024-03.atom"),
        &atom(
            "https://example.org/archive/2024-03.atom",
            &[("prev-archive", "2024-2.atom"), ("current", "../feed.atom")],
            true,
        ),
    );
    write(
        &public.join("archive/2024-02.atom"),
        &atom(
            "https://example.org/archive/2024-02.atom",
            &[
                ("prev-archive", "2024-01.atom"),
                ("next-archive", "2024-03.atom"),
                ("current", "../feed.atom"),
            ],
            true,
        ),
    );
    write(
        &public.join("archive/2024-01.atom"),
        &atom(
            "https://example.org/archive/2024-01.atom",
            &[("next-archive", "2024-02.atom"), ("current", "../feed.atom")],
            true,
        ),
    );
    dir
}

/// The one finding the typo gets: at its cause, an error (it cuts the
/// chain the archives after it hang on), with the document meant as help.
/// `public` is how the run names the `public/` directory.
fn assert_the_typo_alone(output: &Output, public: &str) {
    assert_eq!(output.status.code(), Some(1), "{}", stderr(output));
    let report = json(output);
    let file = format!("{public}archive/2024-03.atom");
    assert_eq!(
        findings(&report),
        [(file, "archive-link-dangling".to_owned(), "error".to_owned(), 5)],
        "{}",
        stdout(output)
    );
    assert_eq!(
        report["diagnostics"][0]["help"],
        format!("make this prev-archive name 2024-02.atom: {public}archive/2024-02.atom names this document as its next-archive")
    );
}

#[test]
fn one_typo_is_one_finding_at_its_cause_in_the_whole_site_and_in_every_subset_that_names_it() {
    let dir = site_with_a_typo("typo");
    let whole = feedlint_in(
        &dir,
        &["--format", "json", "--base-url", "https://example.org/", "public/"],
    );
    assert_the_typo_alone(&whole, "public/");
    let notes = json(&whole)["diagnostics"][0]["notes"].to_string();
    for folded in ["archive-chain-asymmetric", "archive-orphan"] {
        assert!(notes.contains(folded), "{notes}");
    }
    // The same verdict without a base URL (the self links say where the
    // site is), from the site's root or from inside it, on the file alone
    // or with others.
    for (cwd, args, public) in [
        (".", vec!["public/"], "public/"),
        (
            ".",
            vec!["--base-url", "https://example.org/", "public/archive/2024-03.atom"],
            "public/",
        ),
        (".", vec!["public/archive/2024-03.atom"], "public/"),
        (".", vec!["public/archive/2024-03.atom", "public/feed.atom"], "public/"),
        (
            "public",
            vec!["--base-url", "https://example.org/", "archive/2024-03.atom"],
            "",
        ),
        ("public", vec!["archive/2024-03.atom"], ""),
    ] {
        let mut all = vec!["--format", "json"];
        all.extend(args);
        let output = feedlint_in(&dir.join(cwd), &all);
        assert_the_typo_alone(&output, public);
    }
    // A subset that does not name the file with the typo reports nothing:
    // the whole site reports nothing on those files.
    for args in [
        vec!["public/archive/2024-02.atom"],
        vec!["public/archive/2024-01.atom", "public/feed.atom"],
        vec!["--base-url", "https://example.org/", "public/archive/2024-02.atom"],
    ] {
        let mut all = vec!["--format", "json"];
        all.extend(args);
        let output = feedlint_in(&dir, &all);
        assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
        assert!(findings(&json(&output)).is_empty(), "{}", stdout(&output));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_right_site_named_in_part_with_a_base_url_from_its_root_is_right() {
    // The base URL names the current directory (the site's root), not the
    // folder that holds the paths named: the self links say so.
    let dir = scratch("blog-subset");
    write(
        &dir.join("blog/index.atom"),
        &atom(
            "https://example.org/blog/index.atom",
            &[("prev-archive", "https://example.org/blog/archive/2024-02.atom")],
            false,
        ),
    );
    write(
        &dir.join("blog/archive/2024-02.atom"),
        &atom(
            "https://example.org/blog/archive/2024-02.atom",
            &[
                ("current", "https://example.org/blog/index.atom"),
                ("prev-archive", "https://example.org/blog/archive/2024-01.atom"),
            ],
            true,
        ),
    );
    write(
        &dir.join("blog/archive/2024-01.atom"),
        &atom(
            "https://example.org/blog/archive/2024-01.atom",
            &[
                ("current", "https://example.org/blog/index.atom"),
                ("next-archive", "https://example.org/blog/archive/2024-02.atom"),
            ],
            true,
        ),
    );
    for args in [
        vec![
            "--base-url",
            "https://example.org/",
            "blog/index.atom",
            "blog/archive/2024-01.atom",
        ],
        vec!["blog/index.atom", "blog/archive/2024-01.atom"],
        vec!["blog/archive/2024-01.atom"],
        vec!["."],
    ] {
        let mut all = vec!["--format", "concise"];
        all.extend(args.iter().copied());
        let output = feedlint_in(&dir, &all);
        assert_eq!(output.status.code(), Some(0), "{args:?}: {}", stdout(&output));
        assert_eq!(stdout(&output), "", "{args:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A chain whose self links are absolute and whose other links are
/// root-relative (`/feed/archive/2003-10.atom`).
fn root_relative_chain(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    let feed = dir.join("site/feed");
    write(
        &feed.join("index.atom"),
        &atom(
            "https://example.org/feed/index.atom",
            &[("prev-archive", "/feed/archive/2003-11.atom")],
            false,
        ),
    );
    write(
        &feed.join("archive/2003-11.atom"),
        &atom(
            "https://example.org/feed/archive/2003-11.atom",
            &[
                ("current", "/feed/index.atom"),
                ("prev-archive", "/feed/archive/2003-10.atom"),
            ],
            true,
        ),
    );
    write(
        &feed.join("archive/2003-10.atom"),
        &atom(
            "https://example.org/feed/archive/2003-10.atom",
            &[
                ("current", "/feed/index.atom"),
                ("next-archive", "/feed/archive/2003-11.atom"),
            ],
            true,
        ),
    );
    dir
}

#[test]
fn a_root_relative_chain_with_absolute_self_links_is_right_from_anywhere() {
    let dir = root_relative_chain("root-relative");
    for (cwd, target) in [
        (".", "site"),
        (".", "site/feed"),
        ("site/feed", "."),
        ("site/feed/archive", "2003-10.atom"),
    ] {
        let output = feedlint_in(&dir.join(cwd), &["--format", "concise", target]);
        assert_eq!(output.status.code(), Some(0), "{cwd} {target}: {}", stdout(&output));
        assert_eq!(stdout(&output), "", "{cwd} {target}");
    }
    // The summary says where the self links publish the tree.
    let output = feedlint_in(&dir, &["site"]);
    assert!(
        stdout(&output).contains("site/ is published at https://example.org/, as the self links say"),
        "{}",
        stdout(&output)
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// docs/publishers.md shows what a right tree prints, published where its
/// self links say: that is what such a run prints.
#[test]
fn the_publishers_page_shows_what_a_right_tree_prints() {
    let dir = root_relative_chain("publishers-page");
    std::fs::rename(dir.join("site"), dir.join("public")).unwrap();
    let output = feedlint_in(&dir, &["public/"]);
    assert_eq!(output.status.code(), Some(0));
    let page = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/publishers.md")).unwrap();
    let start = page.find("```text\n").unwrap() + "```text\n".len();
    let shown = &page[start..start + page[start..].find("```").unwrap()];
    assert_eq!(shown.trim_end(), stdout(&output).trim_end());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn self_links_that_contradict_each_other_or_the_base_url_are_one_finding_each() {
    let dir = scratch("contradicting");
    write(
        &dir.join("public/feed.atom"),
        &atom("https://example.org/feed.atom", &[], false),
    );
    write(
        &dir.join("public/news.atom"),
        &atom("https://example.org/news.atom", &[], false),
    );
    write(
        &dir.join("public/podcast.atom"),
        &atom("https://example.com/podcast.atom", &[], false),
    );
    let output = feedlint_in(&dir, &["--format", "json", "public"]);
    let report = json(&output);
    assert_eq!(
        findings(&report),
        [(
            "public/podcast.atom".to_owned(),
            "self-link-mismatch".to_owned(),
            "warning".to_owned(),
            4
        )]
    );
    let finding = &report["diagnostics"][0];
    assert_eq!(
        finding["message"],
        "this self link places public/ at https://example.com/, but the self link of public/feed.atom places it at https://example.org/"
    );
    assert_eq!(finding["spans"][1]["file"], "public/feed.atom", "both places");
    // Against a base URL given, every self link that disagrees with it is
    // reported, and the base URL is used.
    let output = feedlint_in(
        &dir,
        &["--format", "json", "--base-url", "https://example.org/", "public"],
    );
    assert_eq!(
        findings(&json(&output)),
        [(
            "public/podcast.atom".to_owned(),
            "self-link-mismatch".to_owned(),
            "warning".to_owned(),
            4
        )]
    );
    let output = feedlint_in(
        &dir,
        &[
            "--format",
            "json",
            "--base-url",
            "https://example.net/",
            "--root",
            "public",
            "public",
        ],
    );
    assert_eq!(findings(&json(&output)).len(), 3, "{}", stdout(&output));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn no_output_format_shows_a_file_url_the_user_did_not_write() {
    let typo = site_with_a_typo("no-file-urls-typo");
    let chain = root_relative_chain("no-file-urls-chain");
    // The chain with a typo in a root-relative link, linted without a self
    // link to learn from: the links reach files, and are named by paths.
    let broken = scratch("no-file-urls-broken");
    write(
        &broken.join("index.atom"),
        &atom("index.atom", &[("prev-archive", "/archive/2003-1.atom")], false),
    );
    write(
        &broken.join("archive/2003-11.atom"),
        &atom("2003-11.atom", &[("current", "/index.atom")], true),
    );
    for (dir, targets) in [
        (&typo, vec!["public"]),
        (&typo, vec!["public/archive/2024-03.atom"]),
        (&chain, vec!["site"]),
        (&broken, vec!["."]),
        (&broken, vec!["index.atom"]),
        (&broken, vec!["--root", ".", "."]),
    ] {
        for format in ["text", "concise", "json", "json-lines", "sarif", "github"] {
            let mut args = vec!["--format", format];
            args.extend(targets.iter().copied());
            let output = feedlint_in(dir, &args);
            let all = format!("{}{}", stdout(&output), stderr(&output));
            assert!(!all.contains("file://"), "{format} {targets:?}: {all}");
        }
    }
    // With --root, the directory is the root a root-relative link starts
    // from: the missing archive is named by its path.
    let broken_report = json(&feedlint_in(&broken, &["--format", "json", "--root", ".", "."]));
    assert!(
        messages(&broken_report).contains(
            &"prev-archive names archive/2003-1.atom, inside the linted tree, but there is no document there"
                .to_owned()
        ),
        "{broken_report}"
    );
    for dir in [typo, chain, broken] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn a_file_named_as_a_feed_that_is_none_is_an_error() {
    let dir = scratch("error-page");
    write(
        &dir.join("public/feed.rss"),
        "<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><title>502 Bad Gateway</title></head><body/></html>",
    );
    for target in ["public", "public/feed.rss"] {
        let output = feedlint_in(&dir, &["--format", "concise", target]);
        assert_eq!(output.status.code(), Some(1), "{target}");
        assert!(
            stdout(&output)
                .starts_with("public/feed.rss:1:1: error[not-a-feed] not a feed: the root element is <html>"),
            "{}",
            stdout(&output)
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn archives_without_self_links_take_their_folder_s_place_in_every_subset() {
    // Only the subscription document has a self link; the archive links
    // back relatively. Each file alone gets the whole site's verdict.
    let dir = scratch("no-self-archives");
    write(
        &dir.join("public/feed.atom"),
        &atom(
            "https://example.org/feed.atom",
            &[("prev-archive", "https://example.org/archive/1.atom")],
            false,
        ),
    );
    let archive = atom("x", &[("current", "../feed.atom"), ("prev-archive", "0.atom")], true)
        .replace("  <link rel=\"self\" href=\"x\"/>\n", "");
    write(&dir.join("public/archive/1.atom"), &archive);
    let concise = |args: &[&str]| {
        let mut all = vec!["--format", "concise"];
        all.extend(args);
        stdout(&feedlint_in(&dir, &all))
    };
    let whole = concise(&["public"]);
    assert!(
        whole.contains("warning[archive-link-dangling] prev-archive names public/archive/0.atom"),
        "{whole}"
    );
    assert!(!whole.contains("archive-orphan"), "the archive is reached: {whole}");
    assert_eq!(concise(&["public/archive/1.atom"]), whole, "the archive alone");
    assert_eq!(concise(&["public/feed.atom"]), "", "the feed alone");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_feed_saved_alone_to_a_folder_makes_no_site_of_it() {
    // A feed downloaded into a folder of other things: its links into the
    // folder its self link would publish are not judged.
    let dir = scratch("downloads");
    write(
        &dir.join("Downloads/feed.atom"),
        &atom(
            "https://example.org/feed.atom",
            &[("prev-archive", "https://example.org/feed-2.atom")],
            false,
        ),
    );
    write(
        &dir.join("Downloads/other.atom"),
        &atom(
            "https://news.example.net/other.atom",
            &[("prev-archive", "https://news.example.net/older.atom")],
            false,
        ),
    );
    let output = feedlint_in(&dir, &["--format", "concise", "Downloads/feed.atom"]);
    assert_eq!(stdout(&output), "", "{}", stderr(&output));
    assert_eq!(output.status.code(), Some(0));
    let _ = std::fs::remove_dir_all(dir);
}

/// `HOME/private/index.atom`, a feed whose id (`PRIVATE-ID`) no report of a
/// tree elsewhere may quote.
fn private_feed_in(home: &std::path::Path) -> std::path::PathBuf {
    let private = home.join("private/index.atom");
    write(
        &private,
        &atom("https://example.org/private/index.atom", &[], false)
            .replace("tag:example.org,2024:feed", "tag:secret,2024:PRIVATE-ID"),
    );
    private
}

#[test]
fn a_downloaded_feed_never_makes_feedlint_read_outside_its_folder() {
    // `HOME/Downloads/evil/feed.atom`, whose self link places HOME as the
    // site (its path ends with the file's), beside a private feed in
    // HOME; and links to it by relative path and by `file:` URL.
    let home = scratch("boundary-home");
    let private = private_feed_in(&home);
    let evil = home.join("Downloads/evil/feed.atom");
    let private_url = url::Url::from_file_path(&private).unwrap();
    write(
        &evil,
        &atom(
            "https://evil.example/user/Downloads/evil/feed.atom",
            &[
                ("prev-archive", "../../private/index.atom"),
                ("next-archive", "https://evil.example/user/private/index.atom"),
                ("current", private_url.as_str()),
            ],
            true,
        ),
    );
    // Run from outside HOME (a CI job's checkout elsewhere), on the path.
    let elsewhere = scratch("boundary-cwd");
    for format in ["json", "text", "sarif"] {
        let output = feedlint_in(&elsewhere, &["--format", format, evil.to_str().unwrap()]);
        let shown = format!("{}{}", stdout(&output), stderr(&output));
        assert!(
            !shown.contains("PRIVATE-ID"),
            "{format} quotes the private feed:\n{shown}"
        );
    }
    // From HOME itself too (the home folder bounds nothing).
    let output = Command::new(env!("CARGO_BIN_EXE_feedlint"))
        .args(["--format", "json", "Downloads/evil/feed.atom"])
        .current_dir(&home)
        .env("HOME", &home)
        .output()
        .unwrap();
    assert_eq!(json(&output)["summary"]["context"], 0, "{}", stdout(&output));
    assert!(!stdout(&output).contains("PRIVATE-ID"));
    let output = feedlint_in(&elsewhere, &["--format", "json", evil.to_str().unwrap()]);
    let report = json(&output);
    // Only the named document was read.
    assert_eq!(report["summary"]["context"], 0, "{report}");
    assert!(
        stderr(&output).contains("links that lead outside the linted tree"),
        "{}",
        stderr(&output)
    );
    let _ = std::fs::remove_dir_all(home);
    let _ = std::fs::remove_dir_all(elsewhere);
}

#[test]
fn neither_a_dotfiles_repository_nor_a_tree_s_own_config_widens_the_boundary() {
    // HOME is a git work tree (a dotfiles repository) and holds a private
    // feed; a downloaded tree below it links to that feed, and brings a
    // feedlint.toml whose root is HOME, or `/`.
    let home = scratch("boundary-dotfiles");
    std::fs::create_dir_all(home.join(".git")).unwrap();
    private_feed_in(&home);
    let evil = home.join("Downloads/evil/feed.atom");
    write(
        &evil,
        &atom(
            "https://evil.example/user/Downloads/evil/feed.atom",
            &[("prev-archive", "../../private/index.atom")],
            true,
        ),
    );
    let elsewhere = scratch("boundary-dotfiles-cwd");
    let run = |cwd: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_feedlint"))
            .args(["--format", "json", evil.to_str().unwrap()])
            .current_dir(cwd)
            .env("HOME", &home)
            .output()
            .unwrap()
    };
    for cwd in [&home, &elsewhere] {
        let output = run(cwd);
        assert!(!stdout(&output).contains("PRIVATE-ID"), "{}", stdout(&output));
        assert_eq!(json(&output)["summary"]["context"], 0, "{}", stdout(&output));
    }
    for root in ["../..", "/", "../../private/.."] {
        std::fs::write(
            home.join("Downloads/evil/feedlint.toml"),
            format!("root = \"{root}\"\n"),
        )
        .unwrap();
        let output = run(&elsewhere);
        assert!(!stdout(&output).contains("PRIVATE-ID"), "{}", stdout(&output));
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(
            stderr(&output).contains(&format!("root = \"{root}\" is outside the config's folder")),
            "{}",
            stderr(&output)
        );
    }
    // A root below the config's folder is its own business.
    std::fs::create_dir_all(home.join("Downloads/evil/public")).unwrap();
    std::fs::write(home.join("Downloads/evil/feedlint.toml"), "root = \"public\"\n").unwrap();
    let output = run(&elsewhere);
    assert_ne!(output.status.code(), Some(2), "{}", stderr(&output));
    let _ = std::fs::remove_dir_all(home);
    let _ = std::fs::remove_dir_all(elsewhere);
}

#[test]
fn a_subset_of_a_repository_keeps_the_whole_site_s_verdict_from_anywhere() {
    // The typo site in a git work tree, linted in part from outside it:
    // the work tree is the boundary, so the site is read whole.
    let dir = site_with_a_typo("boundary-repo");
    std::fs::create_dir(dir.join(".git")).unwrap();
    let elsewhere = scratch("boundary-repo-cwd");
    let named = dir.join("public/archive/2024-03.atom");
    let output = feedlint_in(&elsewhere, &["--format", "json", named.to_str().unwrap()]);
    let report = json(&output);
    assert_eq!(
        findings(&report).iter().map(|f| f.1.as_str()).collect::<Vec<_>>(),
        ["archive-link-dangling"],
        "{}",
        stdout(&output)
    );
    // Beside a feedlint.toml instead, the same.
    std::fs::remove_dir(dir.join(".git")).unwrap();
    std::fs::write(dir.join("feedlint.toml"), "").unwrap();
    let output = feedlint_in(&elsewhere, &["--format", "json", named.to_str().unwrap()]);
    assert_eq!(findings(&json(&output)).len(), 1, "{}", stdout(&output));
    // With neither, and from outside, only the named file's folder is read:
    // the chain's other documents are not seen.
    std::fs::remove_file(dir.join("feedlint.toml")).unwrap();
    let output = feedlint_in(&elsewhere, &["--format", "json", named.to_str().unwrap()]);
    assert!(
        findings(&json(&output))
            .iter()
            .all(|f| f.1 != "archive-link-dangling" || f.3 == 5),
        "{}",
        stdout(&output)
    );
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(elsewhere);
}
