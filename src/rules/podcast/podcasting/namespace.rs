//! The namespace's two names. Its readers "must also recognize" the older
//! one "as identical", so a document's names in it are read as the
//! newer's before any rule runs (`Tree::alias_namespaces`); this rule only
//! says which one the document declares.

use crate::feed::{PODCAST_LEGACY_NS, PODCAST_NS};
use crate::findings::fix::{self, Fix};
use crate::rules::{rule, Checker, Rule};

pub static PODCAST_NAMESPACE_LEGACY: Rule = rule!(
    PodcastNamespaceLegacy, Info, Doc, Some(podcast_namespace_legacy),
    groups: [Podcast],
    summary: "the Podcasting 2.0 namespace declared by its older name (its GitHub document's URL), which feedlint reads as the current one",
    spec: "Podcasting 2.0, 1.0.md",
);

/// An info: the older name is not wrong ("must also recognize ... as
/// identical"), but the namespace is `https://podcastindex.org/namespace/1.0`,
/// and that is the one its document asks feeds to declare. At each
/// declaration of the older name on the document's root or its channel,
/// where namespaces are declared.
fn podcast_namespace_legacy(cx: &mut Checker) {
    let feed = cx.feed;
    let text = feed.xml.input_text();
    let elements = std::iter::once(feed.root).chain(feed.head.filter(|head| *head != feed.root));
    let legacy: Vec<_> = elements
        .flat_map(|element| crate::xml::declarations(text, element))
        .filter(|declaration| declaration.value == PODCAST_LEGACY_NS)
        .collect();
    for declaration in legacy {
        let written = match declaration.prefix {
            Some(prefix) => format!("xmlns:{prefix}"),
            None => "xmlns".to_owned(),
        };
        cx.report(
            Checker::at(declaration.value_at.clone(), format!("{written} names the Podcasting 2.0 namespace by its older name; feedlint reads it as \"{PODCAST_NS}\", its name now"))
                .label("the older name")
                .note("Podcasting 2.0, 1.0.md: \"The namespace for this extension is `https://podcastindex.org/namespace/1.0`. Clients which recognize this namespace must also recognize `https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/1.0.md` as identical.\"")
                .help(format!("declare {written}=\"{PODCAST_NS}\", the name the namespace's document asks feeds to declare"))
                .fix(Fix::safe(
                    format!("Declare the namespace as \"{PODCAST_NS}\""),
                    vec![fix::replace(declaration.value_at, PODCAST_NS)],
                )),
        );
    }
}
