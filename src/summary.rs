//! The compact, owned facts about a document that checks across documents
//! need. It is made before the DOM is dropped, so memory grows with the
//! summaries, not with the documents.

use url::Url;

use crate::diagnostic::Span;
use crate::feed::{self, FeedDoc, ATOM_NS, NAVIGATION_RELATIONS};
use crate::source::Source;

#[derive(Debug, Clone)]
pub struct NavLink {
    /// Normalized relation: one of the RFC 5005 navigation relations.
    pub rel: String,
    /// The resolved target without fragment, when it resolves.
    pub target: Option<Url>,
    pub span: Span,
}

#[derive(Debug, Clone, Default)]
pub struct DocSummary {
    pub self_iri: Option<Url>,
    pub is_archive: bool,
    pub is_complete: bool,
    pub links: Vec<NavLink>,
    /// Feed-level `atom:id`, and `atom:updated` (RSS: `lastBuildDate`) as written.
    pub feed_id: Option<String>,
    pub feed_updated: Option<String>,
}

impl DocSummary {
    pub fn of(feed: &FeedDoc<'_, '_>, source: &Source) -> Self {
        let links = feed
            .links
            .iter()
            .filter(|l| NAVIGATION_RELATIONS.contains(&l.rel.as_str()))
            .map(|l| NavLink {
                rel: l.rel.clone(),
                target: l.target.clone(),
                span: source.span(0, l.span(), true, None),
            })
            .collect();
        let head_text = |namespace: Option<&str>, name: &str| {
            feed.head?
                .children()
                .find(|n| n.is_element() && n.tag_name().name() == name && n.tag_name().namespace() == namespace)
                .and_then(|n| n.text())
                .map(|t| t.trim().to_owned())
        };
        let (feed_id, feed_updated) = match feed.kind {
            feed::DocKind::Rss => (None, head_text(None, "lastBuildDate")),
            _ => (head_text(Some(ATOM_NS), "id"), head_text(Some(ATOM_NS), "updated")),
        };
        DocSummary {
            self_iri: feed.self_link().and_then(|l| l.target.clone()),
            is_archive: !feed.archive.is_empty(),
            is_complete: !feed.complete.is_empty(),
            links,
            feed_id,
            feed_updated,
        }
    }
}
