//! `podcast:person`: roles and groups by the Podcast Taxonomy Project.

use super::elements_of;
use crate::findings::diagnostic::shorten;
use crate::rules::{rule, Checker, Rule};

pub static PODCAST_UNKNOWN_PERSON_ROLE: Rule = rule!(
    PodcastUnknownPersonRole, Warning, Doc, Some(podcast_unknown_person_role),
    groups: [Podcast],
    summary: "a podcast:person whose role or group is not one of the Podcast Taxonomy Project's",
    spec: "Podcasting 2.0, tags/person.md; taxonomy.json",
);

/// The Podcast Taxonomy Project's groups and roles (`taxonomy.json`).
const TAXONOMY: &[(&str, &[&str])] = &[
    (
        "Creative Direction",
        &[
            "Director",
            "Assistant Director",
            "Executive Producer",
            "Senior Producer",
            "Producer",
            "Associate Producer",
            "Development Producer",
            "Creative Director",
        ],
    ),
    (
        "Cast",
        &[
            "Host",
            "Co-Host",
            "Guest Host",
            "Guest",
            "Voice Actor",
            "Narrator",
            "Announcer",
            "Reporter",
        ],
    ),
    (
        "Writing",
        &[
            "Author",
            "Editorial Director",
            "Co-Writer",
            "Writer",
            "Songwriter",
            "Guest Writer",
            "Story Editor",
            "Managing Editor",
            "Script Editor",
            "Script Coordinator",
            "Researcher",
            "Editor",
            "Fact Checker",
            "Translator",
            "Transcriber",
            "Logger",
        ],
    ),
    (
        "Audio Production",
        &[
            "Studio Coordinator",
            "Technical Director",
            "Technical Manager",
            "Audio Engineer",
            "Remote Recording Engineer",
            "Post Production Engineer",
        ],
    ),
    (
        "Audio Post-Production",
        &[
            "Audio Editor",
            "Sound Designer",
            "Foley Artist",
            "Composer",
            "Theme Music",
            "Music Production",
            "Music Contributor",
        ],
    ),
    (
        "Administration",
        &[
            "Production Coordinator",
            "Booking Coordinator",
            "Production Assistant",
            "Content Manager",
            "Marketing Manager",
            "Sales Representative",
            "Sales Manager",
        ],
    ),
    ("Visuals", &["Graphic Designer", "Cover Art Designer"]),
    ("Community", &["Social Media Manager"]),
    ("Misc.", &["Consultant", "Intern"]),
    (
        "Video Production",
        &[
            "Camera Operator",
            "Lighting Designer",
            "Camera Grip",
            "Assistant Camera",
        ],
    ),
    ("Video Post-Production", &["Editor", "Assistant Editor"]),
];

fn podcast_unknown_person_role(cx: &mut Checker) {
    let feed = cx.feed;
    let mut findings = Vec::new();
    for person in elements_of(feed, "person") {
        let group = person.attribute_node("group");
        let known_group = group.and_then(|g| {
            TAXONOMY
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case(g.value().trim()))
        });
        if let Some(group) = group.filter(|_| known_group.is_none()) {
            findings.push((
                group.range_value(),
                format!(
                    "`{}` is not a group of the Podcast Taxonomy Project",
                    shorten(group.value())
                ),
            ));
            continue;
        }
        let Some(role) = person.attribute_node("role") else {
            continue;
        };
        let value = role.value().trim();
        // Roles are read in any case; a role of another group than the one
        // named is still a role.
        let roles = known_group.map_or_else(
            || TAXONOMY.iter().flat_map(|(_, roles)| roles.iter()).collect::<Vec<_>>(),
            |(_, roles)| roles.iter().collect(),
        );
        if !roles.iter().any(|r| r.eq_ignore_ascii_case(value)) {
            let elsewhere = TAXONOMY
                .iter()
                .find(|(_, roles)| roles.iter().any(|r| r.eq_ignore_ascii_case(value)));
            let message = match (elsewhere, known_group) {
                (Some((other, _)), Some((group, _))) => {
                    format!("`{}` is a role of the group {other}, not of {group}", shorten(value))
                }
                _ => format!("`{}` is not a role of the Podcast Taxonomy Project", shorten(value)),
            };
            findings.push((role.range_value(), message));
        }
    }
    for (at, message) in findings {
        cx.report(
            Checker::at(at, message)
                .label("not in the taxonomy")
                .note("tags/person.md: the role \"should be a reference to an official role within the Podcast Taxonomy Project list\", the group \"to an official group\"; apps show unknown roles as hosts (the default), or not at all")
                .help("use a role and group of the taxonomy (host, guest, producer, editor, ... in groups such as cast, writing, audio post-production), in any case"),
        );
    }
}
