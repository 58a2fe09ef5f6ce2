//! What the command line says of itself: one-line usage errors, the rule
//! list, a rule's documentation.

use std::process::ExitCode;

use clap::CommandFactory;
use feedlint::report::{self};
use feedlint::{rules, settings::select, RuleId};

use super::args::{Cli, ListFormat};
use super::output::{fail, write_out};

/// clap's errors span several lines; users and scripts get one.
pub(crate) fn one_line(error: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let context = |kind| match error.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => Some(v.join(", ")),
        _ => None,
    };
    // clap's suggestion of the nearest option or value, kept on the line.
    let suggestion = |kind| {
        context(kind)
            .map(|near| format!("did you mean '{near}'? "))
            .unwrap_or_default()
    };
    match error.kind() {
        ErrorKind::InvalidValue => format!(
            "invalid value '{}' for '{}'; {}accepted: {}",
            context(ContextKind::InvalidValue).unwrap_or_default(),
            context(ContextKind::InvalidArg).unwrap_or_default(),
            suggestion(ContextKind::SuggestedValue),
            context(ContextKind::ValidValue).unwrap_or_default()
        ),
        ErrorKind::UnknownArgument => {
            let invalid = context(ContextKind::InvalidArg).unwrap_or_default();
            let option = invalid.split('=').next().unwrap_or_default();
            let command = Cli::command();
            let given = subcommand_given(&command);
            let here = given
                .as_deref()
                .and_then(|name| command.find_subcommand(name))
                .unwrap_or(&command);
            let name_of = |taker: &clap::Command| match taker.get_name() {
                "feedlint" => "linting (feedlint [OPTIONS] [PATHS]...)".to_owned(),
                name => format!("'feedlint {name}'"),
            };
            // An option of linting or of another subcommand, given where
            // it means nothing: the message says which takes it.
            let takers: Vec<String> = std::iter::once(&command)
                .chain(command.get_subcommands())
                .filter(|taker| taker.get_name() != here.get_name())
                .filter(|taker| long_options(taker).iter().any(|long| long == option))
                .map(name_of)
                .collect();
            let here_name = name_of(here);
            let accepted = long_options(here);
            let accepted = match accepted.is_empty() {
                true => "only --help".to_owned(),
                false => format!("{}, --help", accepted.join(", ")),
            };
            // Other linters' names for feedlint's options.
            let suggestion = match option {
                "--output-format" => "did you mean '--format'? ".to_owned(),
                _ => suggestion(ContextKind::SuggestedArg),
            };
            if takers.is_empty() {
                format!("unknown option '{invalid}'; {suggestion}accepted: {accepted}, --help, --version")
            } else {
                format!(
                    "'{option}' is an option of {}, not of {here_name}; {here_name} accepts {accepted}",
                    takers.join(" and ")
                )
            }
        }
        _ => {
            let text = error.to_string();
            let first = text.lines().next().unwrap_or_default();
            first.trim_start_matches("error: ").to_owned()
        }
    }
}

/// The subcommand named on the command line, if any (the first word that
/// is one, before any `--`).
pub(crate) fn subcommand_given(command: &clap::Command) -> Option<String> {
    let names: Vec<&str> = command.get_subcommands().map(clap::Command::get_name).collect();
    std::env::args()
        .skip(1)
        .take_while(|arg| arg != "--")
        .find(|arg| names.contains(&arg.as_str()))
}

/// A command's long options, as `--name`.
pub(crate) fn long_options(command: &clap::Command) -> Vec<String> {
    command
        .get_arguments()
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .collect()
}

pub(crate) fn list_rules(format: ListFormat) -> ExitCode {
    write_out(ExitCode::SUCCESS, |out| match format {
        ListFormat::Text => {
            let width = rules::RULES
                .iter()
                .map(|rule| rule.id.as_str().len())
                .max()
                .unwrap_or(0);
            rules::RULES.iter().try_for_each(|rule| {
                writeln!(
                    out,
                    "{:<width$}  {:<7}  {:<9}  {:<18}  {}",
                    rule.id,
                    rule.level,
                    rule.scope.as_str(),
                    select::group_names(rule.id, ","),
                    rule.summary
                )
            })?;
            writeln!(
                out,
                "\nGroups, for --select and --ignore (and select and ignore in feedlint.toml), beside rule ids,\nthe starts of rule ids (atom-, rss-) and all:"
            )?;
            let width = select::Group::ALL
                .iter()
                .map(|group| group.name().len())
                .max()
                .unwrap_or(0);
            select::Group::ALL
                .iter()
                .try_for_each(|group| writeln!(out, "  {:<width$} {}", group.name(), group.summary()))
        }
        ListFormat::Json => {
            let list: Vec<_> = rules::RULES
                .iter()
                .map(|rule| {
                    serde_json::json!({
                        "id": rule.id.as_str(),
                        "level": rule.level,
                        "scope": rule.scope.as_str(),
                        "summary": rule.summary,
                        "spec": rule.spec,
                        "url": report::rule_doc_url(rule.id),
                        "groups": select::groups_of(rule.id),
                    })
                })
                .collect();
            let groups: Vec<_> = select::Group::ALL
                .iter()
                .map(|group| serde_json::json!({ "name": group.name(), "summary": group.summary() }))
                .collect();
            writeln!(out, "{}", serde_json::json!({ "rules": list, "groups": groups }))
        }
    })
}

/// `feedlint explain` without a rule: how to call it, and the rule ids.
pub(crate) fn explain_usage() -> ExitCode {
    write_out(ExitCode::SUCCESS, |out| {
        writeln!(
            out,
            "Usage: feedlint explain RULE\n\nPrints a rule's documentation. The rules:\n"
        )?;
        let width = rules::RULES
            .iter()
            .map(|rule| rule.id.as_str().len())
            .max()
            .unwrap_or(0);
        rules::RULES
            .iter()
            .try_for_each(|rule| writeln!(out, "  {:<width$}  {}", rule.id, rule.summary))
    })
}

pub(crate) fn explain(id: &str) -> ExitCode {
    match id.parse::<RuleId>() {
        Ok(id) => write_out(ExitCode::SUCCESS, |out| out.write_all(id.doc().as_bytes())),
        Err(unknown) => fail(&unknown.to_string()),
    }
}
