//! Archive and paging chains across documents (RFC 5005 §3, §4, §6): the
//! checks no single document can decide. Each reads the [`FeedSet`] built
//! from the documents' summaries. Archive chains here, paging chains in
//! [`paging`].

use std::collections::{HashMap, HashSet};

use crate::feed::Relation;
use crate::findings::diagnostic::DocId;
use crate::findings::remedy::Remedy;
use crate::model::document::Misplaced;
use crate::model::set::{self, link_key, FeedSet, LinkKey, ARCHIVE_RELATIONS, PAGING_RELATIONS};
use crate::model::summary::NavLink;
use crate::rules::SetChecker;
use crate::rules::{rule, Rule};
use url::Url;

pub(crate) mod paging;

pub static MISSING_PREV_ARCHIVE: Rule = rule!(
    MissingPrevArchive, Error, Set, None, set: Some(missing_prev_archive),
    groups: [Rfc5005],
    summary: "a document with an available preceding archive has no prev-archive link",
    spec: "RFC 5005 §4",
);

fn missing_prev_archive(cx: &mut SetChecker) {
    let set = cx.set;
    let mut reported = HashSet::new();
    // A next-archive target that is no archive is next-archive-unsealed's.
    for (from, link, to) in set.edges(Relation::NextArchive) {
        // An archive that links back with the draft's previous gets
        // legacy-previous-archive instead (its own signs of an archive make
        // that rule fire on the document alone).
        let links_back_draft_style = set.follow(to, Relation::Previous) == Some(from);
        if from == to
            || !set.summary(to).is_archive_like()
            || set.summary(to).link(Relation::PrevArchive).is_some()
            || set.summary(to).misspelt.contains(&Relation::PrevArchive)
            || links_back_draft_style
            || !reported.insert(to)
        {
            continue;
        }
        cx.report(
            SetChecker::at(to, &set.summary(to).root, format!("this document has no prev-archive link, but {} names it as its next-archive", set.name(from)))
                .label("no prev-archive")
                .secondary(link.span.in_doc(from), "this archive comes immediately before it")
                .note("RFC 5005 §4: subscription documents and archive documents MUST have a \"prev-archive\" link relation, unless there are no preceding archives available")
                .help(format!("add <link rel=\"prev-archive\" href=\"...\"/> naming {}", set.name(from))),
        );
    }
    for (from, link, to) in set.edges(Relation::Current) {
        let subscription = set.summary(to);
        let is_subscription =
            !subscription.is_archive() && !subscription.current_elsewhere && subscription.complete_marker.is_none();
        // A draft-style previous to the archives is legacy-previous-archive's.
        let draft_link = crate::rules::rfc5005::archive::draft_previous_target(set, to).is_some();
        if from == to
            || !is_subscription
            || subscription.link(Relation::PrevArchive).is_some()
            // A misspelt prev-archive is link-relation-typo's, at its cause.
            || subscription.misspelt.contains(&Relation::PrevArchive)
            || draft_link
            || !reported.insert(to)
        {
            continue;
        }
        cx.report(
            SetChecker::at(to, &subscription.root, format!("this subscription document has no prev-archive link, but {} is one of its archives", set.name(from)))
                .label("no prev-archive")
                .secondary(link.span.in_doc(from), "this archive names it as current")
                .note("RFC 5005 §4: subscription documents MUST have a \"prev-archive\" link relation, unless there are no preceding archives available; without it, no client finds the archives")
                .help("add <link rel=\"prev-archive\" href=\"...\"/> naming the most recent archive"),
        );
    }
}

pub static MISSING_NEXT_ARCHIVE: Rule = rule!(
    MissingNextArchive, Warning, Set, None, set: Some(missing_next_archive),
    groups: [Rfc5005],
    summary: "an archive that another archive names as prev-archive has no next-archive link",
    spec: "RFC 5005 §4",
);

fn missing_next_archive(cx: &mut SetChecker) {
    let set = cx.set;
    let mut reported = HashSet::new();
    for (later, link, earlier) in set.edges(Relation::PrevArchive) {
        // The newest archive is followed by the subscription document, which
        // it must not link to: only archives that an archive follows count.
        if later == earlier
            || !set.summary(later).is_archive_like()
            || set.summary(earlier).link(Relation::NextArchive).is_some()
            || set.summary(earlier).misspelt.contains(&Relation::NextArchive)
            || !reported.insert(earlier)
        {
            continue;
        }
        cx.report(
            SetChecker::at(earlier, set.summary(earlier).archive_span(), format!("this archive has no next-archive link, but {} follows it", set.name(later)))
                .label("no next-archive")
                .secondary(link.span.in_doc(later), "the following archive names this one as prev-archive")
                .note("RFC 5005 §4: archive documents SHOULD also have a \"next-archive\" link relation, unless there are no following archives available")
                .help(format!("add <link rel=\"next-archive\" href=\"...\"/> naming {}", set.name(later))),
        );
    }
}

pub static ARCHIVE_CHAIN_ASYMMETRIC: Rule = rule!(
    ArchiveChainAsymmetric, Error, Set, None, set: Some(archive_chain_asymmetric),
    groups: [Rfc5005],
    summary: "prev-archive and next-archive links of neighbouring archives contradict each other",
    spec: "RFC 5005 §4",
);

/// A link that its target contradicts: `owner`'s `rel` link names
/// `target`, whose link of the reverse relation (`answer`) names another
/// document.
struct Contradiction<'r> {
    owner: DocId,
    link: &'r NavLink,
    rel: Relation,
    target: DocId,
    answer: &'r NavLink,
    reverse: Relation,
    /// The answer is confirmed by its own target, which names `target`
    /// back: that neighbourhood is settled, so `link` is the wrong one.
    answer_settled: bool,
}

/// The contradictions met following `rel` links whose target answers with
/// `reverse`, where `answered_when(set, owner, target)` says the target
/// must answer. Documents on a cycle of either relation are left to the
/// cycle rules; a link to a document without identity cannot be checked.
fn contradictions<'r>(
    set: &FeedSet<'r>,
    rel: Relation,
    reverse: Relation,
    answered_when: fn(&FeedSet, DocId, DocId) -> bool,
    on_cycle: &HashSet<DocId>,
) -> Vec<Contradiction<'r>> {
    let mut found = Vec::new();
    for (owner, link, target) in set.edges(rel) {
        if owner == target
            || !answered_when(set, owner, target)
            || on_cycle.contains(&owner)
            || on_cycle.contains(&target)
        {
            continue;
        }
        let Some(answer) = set.summary(target).link(reverse) else {
            continue;
        };
        let Some(answer_target) = &answer.target else { continue };
        if set.identifies(answer_target, owner) || !set.has_identity(owner) {
            continue;
        }
        let answer_settled = set
            .resolve(answer_target)
            .is_some_and(|other| other != target && set.follow(other, rel) == Some(target));
        found.push(Contradiction {
            owner,
            link,
            rel,
            target,
            answer,
            reverse,
            answer_settled,
        });
    }
    found
}

/// Neighbours that contradict each other, each contradiction reported once,
/// at the link that must change: the one whose target is settled with
/// another neighbour (both of them name each other); when nothing else in
/// the chain settles it, the link of the relation clients do not walk
/// (`walked` is the relation the chain is read by).
fn report_asymmetries(
    cx: &mut SetChecker,
    forward: Relation,
    backward: Relation,
    answered_when: fn(&FeedSet, DocId, DocId) -> bool,
    walked: Relation,
    note: &str,
) {
    let set = cx.set;
    let on_cycle: HashSet<DocId> = [forward, backward]
        .iter()
        .flat_map(|rel| set.cycles(*rel))
        .flatten()
        .copied()
        .collect();
    let mut found = contradictions(set, forward, backward, |_, _, _| true, &on_cycle);
    found.extend(contradictions(set, backward, forward, answered_when, &on_cycle));
    // Links shown wrong by a settled neighbourhood first: a contradiction
    // with one of them is explained and needs no second finding.
    let wrong: HashSet<LinkKey> = found
        .iter()
        .filter(|c| c.answer_settled)
        .map(|c| link_key(c.owner, c.link))
        .collect();
    let mut reported = HashSet::new();
    for c in &found {
        let (this_link, answer) = (link_key(c.owner, c.link), link_key(c.target, c.answer));
        let blame_link = if c.answer_settled {
            true
        } else if wrong.contains(&this_link) || wrong.contains(&answer) {
            continue;
        } else {
            c.rel != walked
        };
        let why = if c.answer_settled {
            format!(
                "{} and {} name each other, so this link is the one that disagrees",
                set.name(c.target),
                set.describe(c.answer.target.as_ref())
            )
        } else {
            format!("nothing else in the chain settles which link is right, and clients read the chain by its {walked} links")
        };
        let (owner, link, rel, other_doc, other, other_rel) = if blame_link {
            (c.owner, c.link, c.rel, c.target, c.answer, c.reverse)
        } else {
            (c.target, c.answer, c.reverse, c.owner, c.link, c.rel)
        };
        if !reported.insert(link_key(owner, link)) {
            continue;
        }
        // A link of the pair that names a missing document is that link's
        // mistake (archive-link-dangling, paging-link-dangling), not a
        // second one here.
        let dangles = |link: &NavLink| link.target.as_ref().is_some_and(|target| set.dangles(target));
        let dangling = [(c.answer, answer), (c.link, this_link)]
            .into_iter()
            .find(|(link, _)| dangles(link))
            .map(|(_, key)| key);
        let other_target = set.describe(other.target.as_ref());
        cx.report(
            SetChecker::at(
                owner,
                &link.span,
                format!(
                    "{rel} names {}, but {} names {other_target} as its {other_rel}",
                    set.describe(link.target.as_ref()),
                    set.name(other_doc),
                ),
            )
            .label(format!("{rel} contradicts its neighbour"))
            .secondary(
                other.span.in_doc(other_doc),
                format!("{other_rel} of {}", set.name(other_doc)),
            )
            .note(note.to_owned())
            .note(why)
            .help(format!(
                "make this {rel} name the document whose {other_rel} names this one"
            ))
            .caused_by(dangling),
        );
    }
}

fn archive_chain_asymmetric(cx: &mut SetChecker) {
    // A prev-archive link is answered by the target's next-archive only
    // between archives: the newest archive has no next-archive, and one
    // that names the subscription document is next-archive-unsealed's.
    report_asymmetries(
        cx,
        Relation::NextArchive,
        Relation::PrevArchive,
        |set, from, to| set.summary(to).is_archive() && set.summary(from).is_archive_like(),
        Relation::PrevArchive,
        "RFC 5005 §4: prev-archive names the immediately preceding archive and next-archive the immediately following one, so neighbours name each other",
    );
}

pub static ARCHIVE_CHAIN_CYCLE: Rule = rule!(
    ArchiveChainCycle, Error, Set, None, set: Some(archive_chain_cycle),
    groups: [Rfc5005],
    summary: "following prev-archive or next-archive links returns to a document already visited",
    spec: "RFC 5005 §6",
);

/// How many documents of a cycle a finding names and labels; a longer
/// cycle is shortened in the middle.
const CYCLE_SHOWN: usize = 8;

fn report_cycles(cx: &mut SetChecker, rels: [Relation; 2]) {
    let set = cx.set;
    for rel in rels {
        for cycle in set.cycles(rel) {
            let shown: Vec<DocId> = if cycle.len() > CYCLE_SHOWN {
                cycle[..CYCLE_SHOWN / 2]
                    .iter()
                    .chain(&cycle[cycle.len() - CYCLE_SHOWN / 2..])
                    .copied()
                    .collect()
            } else {
                cycle.clone()
            };
            let mut names: Vec<String> = shown.iter().map(|d| set.name(*d).to_owned()).collect();
            if cycle.len() > CYCLE_SHOWN {
                names.insert(CYCLE_SHOWN / 2, format!("… ({} more)", cycle.len() - CYCLE_SHOWN));
            }
            names.push(set.name(cycle[0]).to_owned());
            let link_of = |doc: DocId| set.summary(doc).link(rel).map(|l| l.span).expect("cycles follow links");
            let written = |doc: DocId| set.summary(doc).written(rel);
            let mut finding = SetChecker::at(
                cycle[0],
                &link_of(cycle[0]),
                format!(
                    "following {} links returns to this document after {} documents: {}",
                    written(cycle[0]),
                    cycle.len(),
                    names.join(" → ")
                ),
            )
            .label(format!("{} starts a cycle", written(cycle[0])));
            for doc in &shown[1..] {
                finding = finding.secondary(
                    link_of(*doc).in_doc(*doc),
                    format!("{} of {}", written(*doc), set.name(*doc)),
                );
            }
            cx.report(
                finding
                    .note("RFC 5005 §6: feeds can be crafted to make a client request without end; a client walking this chain never reaches its end")
                    .help(format!("point one of these {} links at the right document, or remove it at the end of the chain", written(cycle[0]))),
            );
        }
    }
}

fn archive_chain_cycle(cx: &mut SetChecker) {
    report_cycles(cx, [Relation::PrevArchive, Relation::NextArchive]);
}

pub static ARCHIVE_LINK_DANGLING: Rule = rule!(
    ArchiveLinkDangling, Warning, Set, None, set: Some(archive_link_dangling),
    groups: [Rfc5005],
    summary: "an archive link points inside the checked documents' URL space, but no document is there",
    spec: "RFC 5005 §4.1",
);

fn archive_link_dangling(cx: &mut SetChecker) {
    let set = cx.set;
    let naming = Naming::of(set);
    for (doc, summary) in set.feeds() {
        for link in summary.links.iter().filter(|l| ARCHIVE_RELATIONS.contains(&l.rel)) {
            let Some(target) = link.target.as_ref().filter(|target| set.dangles(target)) else {
                continue;
            };
            let help = match naming.meant(set, doc, link.rel) {
                Some((meant, by)) => format!(
                    "make this {} name {}: {} names this document as its {by}",
                    link.rel,
                    set.reference(doc, meant),
                    set.name(meant),
                ),
                None => "publish the missing document, or correct the link".to_owned(),
            };
            cx.report(
                SetChecker::at(doc, &link.span, format!("{} names {}, inside the linted tree, but there is no document there", link.rel, set.describe(Some(target))))
                    .label("nothing here")
                    .note("RFC 5005 §4.1 lets publishers withhold archives, but a client following this link gets an error, and RFC 5005 §4.2 asks it to warn that the feed is incomplete")
                    .help(help),
            );
        }
    }
}

/// By the document named: the first other document that names it by
/// `rel`, and whether another does too.
fn named_by(set: &FeedSet, rel: Relation) -> HashMap<DocId, (DocId, bool)> {
    let mut named: HashMap<DocId, (DocId, bool)> = HashMap::new();
    for (from, _, to) in set.edges(rel).filter(|(from, _, to)| from != to) {
        named
            .entry(to)
            .and_modify(|(first, more)| *more |= *first != from)
            .or_insert((from, false));
    }
    named
}

/// Which documents name each document by `prev-archive` and by
/// `next-archive`, counted once for the whole set.
struct Naming {
    /// By the document named: the first document that names it, and
    /// whether another does too.
    by_prev: HashMap<DocId, (DocId, bool)>,
    by_next: HashMap<DocId, (DocId, bool)>,
}

impl Naming {
    fn of(set: &FeedSet) -> Naming {
        Naming {
            by_prev: named_by(set, Relation::PrevArchive),
            by_next: named_by(set, Relation::NextArchive),
        }
    }

    /// The document a dangling link of `doc` most likely meant: the one
    /// document of the set that names `doc` back by the reverse relation
    /// (an archive's `next-archive` for a `prev-archive`), or, for
    /// `current`, the subscription document whose chain reaches `doc`.
    fn meant(&self, set: &FeedSet, doc: DocId, rel: Relation) -> Option<(DocId, Relation)> {
        let (named, reverse) = match rel {
            Relation::PrevArchive => (&self.by_next, Relation::NextArchive),
            Relation::NextArchive => (&self.by_prev, Relation::PrevArchive),
            Relation::Current => {
                let chain = set.chain_of(doc).filter(|chain| chain.subscription != doc)?;
                return Some((chain.subscription, Relation::PrevArchive));
            }
            _ => return None,
        };
        match named.get(&doc) {
            Some(&(from, false)) => Some((from, reverse)),
            _ => None,
        }
    }
}

pub static ARCHIVE_CURRENT_MISMATCH: Rule = rule!(
    ArchiveCurrentMismatch, Warning, Set, None, set: Some(archive_current_mismatch),
    groups: [Rfc5005],
    summary: "archives of one chain name different current documents, or not the subscription document that reaches them",
    spec: "RFC 5005 §4",
);

fn archive_current_mismatch(cx: &mut SetChecker) {
    let set = cx.set;
    for chain in &set.chains {
        for archive in &chain.archives {
            let Some(current) = set.summary(*archive).link(Relation::Current) else {
                continue;
            };
            let Some(target) = &current.target else { continue };
            if set.identifies(target, chain.subscription) {
                continue;
            }
            cx.report(
                SetChecker::at(
                    *archive,
                    &current.span,
                    format!(
                        "current names {}, but this archive is reached through the prev-archive chain of {}",
                        set.describe(Some(target)),
                        set.name(chain.subscription)
                    ),
                )
                .label("another subscription document")
                .secondary(
                    set.summary(chain.subscription).root.in_doc(chain.subscription),
                    "the subscription document whose chain reaches this archive",
                )
                .note("RFC 5005 §4: archive documents indicate their associated subscription document with \"current\"")
                .help(format!("point current at {}", set.name(chain.subscription))),
            );
        }
    }
    // Archives whose subscription document is not in the set: they should at
    // least agree with each other.
    let orphans = set
        .feeds()
        .filter(|(d, s)| s.is_archive() && set.chain_of(*d).is_none())
        .map(|(d, _)| d);
    for ((doc, link), (reference_doc, reference)) in
        dissenters(set, Relation::Current, orphans, |set, doc| set.group_of(doc))
    {
        cx.report(
            SetChecker::at(
                doc,
                &link.span,
                format!(
                    "current names {}, but other archives of this chain name {}",
                    set.describe(link.target.as_ref()),
                    set.describe(reference.target.as_ref())
                ),
            )
            .label("a different current")
            .secondary(reference.span.in_doc(reference_doc), "the current most archives name")
            .note("RFC 5005 §4: the archives of one logical feed share one subscription document")
            .help("point every archive's current link at the same subscription document"),
        );
    }
}

/// A navigation link and the document it is written in.
type DocLink<'r> = (DocId, &'r NavLink);

/// Documents that should agree on their `rel` link, grouped, and the links
/// that differ from the one most of their group share (the earliest on a
/// tie): `(dissenting link, the link most share)`, in a stable order.
fn dissenters<'r>(
    set: &FeedSet<'r>,
    rel: Relation,
    docs: impl Iterator<Item = DocId>,
    group_of: fn(&FeedSet, DocId) -> DocId,
) -> Vec<(DocLink<'r>, DocLink<'r>)> {
    let mut by_group: HashMap<DocId, Vec<DocLink<'r>>> = HashMap::new();
    for doc in docs {
        if let Some(link) = set.summary(doc).link(rel).filter(|l| l.target.is_some()) {
            by_group.entry(group_of(set, doc)).or_default().push((doc, link));
        }
    }
    let mut groups: Vec<_> = by_group.into_iter().collect();
    groups.sort_by_key(|(group, _)| *group);
    let mut found = Vec::new();
    for (_, links) in groups {
        let mut counts: HashMap<&Option<url::Url>, usize> = HashMap::new();
        for (_, link) in &links {
            *counts.entry(&link.target).or_default() += 1;
        }
        if counts.len() < 2 {
            continue;
        }
        let best = counts.values().copied().max().unwrap_or_default();
        let reference = links
            .iter()
            .copied()
            .find(|(_, l)| counts[&l.target] == best)
            .expect("a most common target");
        found.extend(
            links
                .iter()
                .filter(|(_, l)| l.target != reference.1.target)
                .map(|l| (*l, reference)),
        );
    }
    found
}

pub static ARCHIVE_ORPHAN: Rule = rule!(
    ArchiveOrphan, Warning, Set, None, set: Some(archive_orphan),
    groups: [Rfc5005],
    summary: "an archive is not reachable through prev-archive links from its subscription document",
    spec: "RFC 5005 §4.2",
);

fn archive_orphan(cx: &mut SetChecker) {
    let set = cx.set;
    for (archive, summary) in set.feeds().filter(|(_, s)| s.is_archive()) {
        let Some(subscription) = set.follow(archive, Relation::Current).filter(|s| *s != archive) else {
            continue;
        };
        if !set::is_subscription(set.summary(subscription)) {
            continue; // missing-prev-archive says why nothing is reachable
        }
        if set
            .chain_of(archive)
            .is_some_and(|chain| chain.subscription == subscription)
        {
            continue;
        }
        // A chain cut by a link to a missing archive orphans every older
        // one: that link is the mistake (archive-link-dangling).
        let cut = set
            .chain_of(subscription)
            .filter(|chain| chain.subscription == subscription)
            .and_then(|chain| set.dangling_end(chain))
            .filter(|(cut, _)| set.sequence_of(archive) == set.sequence_of(*cut))
            .map(|(doc, link)| link_key(doc, link));
        cx.report(
            SetChecker::at(archive, summary.archive_span(), format!("this archive is not reachable through prev-archive links from its subscription document, {}", set.name(subscription)))
                .caused_by(cut)
                .label("orphaned archive")
                .secondary(set.summary(subscription).root.in_doc(subscription), "the subscription document")
                .note("RFC 5005 §4.2: clients reconstruct the feed by following prev-archive from the subscription document; they never see this archive's entries")
                .help("link this archive into the prev-archive chain (from the archive that follows it)"),
        );
    }
}

pub static ARCHIVE_SELF_MISMATCH: Rule = rule!(
    ArchiveSelfMismatch, Warning, Set, None, set: Some(archive_self_mismatch),
    groups: [Rfc5005],
    summary: "a document's self link differs from the IRI by which the other documents reach it",
    spec: "draft-nottingham-atompub-feed-history-05 §6; RFC 5005 §4",
);

fn archive_self_mismatch(cx: &mut SetChecker) {
    let set = cx.set;
    let mut reported = HashSet::new();
    for rel in ARCHIVE_RELATIONS.into_iter().chain(PAGING_RELATIONS) {
        for (from, link, to) in set.edges(rel) {
            let (Some(target), Some(self_link)) = (&link.target, &set.summary(to).self_link) else {
                continue;
            };
            // Without --base-url, links reach files by file: URLs, which say
            // nothing about where the document is published.
            // A self link that places its folder elsewhere than the run
            // does is self-link-mismatch's finding.
            let misplaced =
                set.document(to).misplaced.is_some() || read_elsewhere(set.document(to), &self_link.value).is_some();
            if from == to
                || target.scheme() == "file"
                || *target == self_link.value
                || misplaced
                || !reported.insert(to)
            {
                continue;
            }
            cx.report(
                SetChecker::at(to, &self_link.span, format!("this document's self link is {}, but {} reaches it as {target}", self_link.value, set.name(from)))
                    .label("self differs")
                    .secondary(link.span.in_doc(from), format!("{rel} of {}", set.name(from)))
                    .note("consumers remember processed archives by their self IRI (feed-history draft §6); if it differs from the IRI they follow, they fetch and process the archive again")
                    .help("make the self link and the links to this document use the same IRI"),
            );
        }
    }
}

pub static SELF_LINK_MISMATCH: Rule = rule!(
    SelfLinkMismatch, Warning, Set, None, set: Some(self_link_mismatch),
    groups: [Rfc5005],
    summary: "a self link places its file elsewhere than the URL it was read at, the base URL given, or the other documents' self links",
    spec: "RFC 4287 §4.2.7.2; RFC 5005 §4",
);

/// Where a document read at a stated URL (fetched, or pasted or uploaded
/// with the place it is published at) is, where its self link says the
/// same file is elsewhere: an http(s) URL of the same file name, with no
/// query, that is neither the URL it was read at nor one it was asked for
/// by. A self link that says nothing of the file's place (a feed proxy's
/// URL, another file name) is not judged, as on a linted tree; a file on
/// disk is placed by the tree's rules ([`crate::site`]).
fn read_elsewhere<'s>(document: &'s crate::model::document::Document, self_link: &Url) -> Option<&'s Url> {
    let url = document
        .url
        .as_ref()
        .filter(|url| matches!(url.scheme(), "http" | "https"))?;
    let file_name = crate::text::iri::file_name;
    let says_the_file = matches!(self_link.scheme(), "http" | "https")
        && self_link.query().is_none()
        && file_name(self_link).is_some()
        && file_name(self_link) == file_name(url);
    let key = crate::text::iri::comparison_key(self_link);
    let known = std::iter::once(url)
        .chain(&document.aliases)
        .any(|name| crate::text::iri::comparison_key(name) == key);
    (document.placement.is_none() && says_the_file && !known).then_some(url)
}

fn self_link_mismatch(cx: &mut SetChecker) {
    let set = cx.set;
    for (doc, summary) in set.feeds() {
        let document = set.document(doc);
        if let Some((read_at, self_link)) = summary
            .self_link
            .as_ref()
            .and_then(|self_link| Some((read_elsewhere(document, &self_link.value)?, self_link)))
        {
            cx.report(
                SetChecker::at(
                    doc,
                    &self_link.span,
                    format!(
                        "this self link says the file is at {}, but it was read at {read_at}",
                        self_link.value
                    ),
                )
                .label("places the file elsewhere")
                .note("feedlint read the document at the URL it was fetched from, or where it was said to be published; RFC 4287 §4.2.7.2: the self link identifies a resource equivalent to the document, and readers subscribe to it")
                .help(format!("if the feed is published at {read_at}, make the self link say so")),
            );
            continue;
        }
        let (Some(how), Some(placement), Some(self_link)) =
            (&document.misplaced, &document.placement, &summary.self_link)
        else {
            continue;
        };
        let folder = format!(
            "{}/",
            crate::base::shown::shown_path(&placement.folder).trim_end_matches('/')
        );
        let published = document.url.as_ref().filter(|url| url.scheme() != "file");
        let finding = match how {
            Misplaced::ByBaseUrl => SetChecker::at(
                doc,
                &self_link.span,
                format!(
                    "this self link says the file is published at {}, but the base URL given publishes it at {}",
                    self_link.value,
                    published.map_or_else(|| "another URL".to_owned(), Url::to_string),
                ),
            )
            .note(format!(
                "{} wins: links are resolved and matched as if the file were published there",
                cx.words.remedy(Remedy::BaseUrlGiven)
            )),
            Misplaced::BySelfLinkOf(other) => {
                let other = *other;
                let (Some(theirs), Some(their_link)) = (&set.document(other).placement, &set.summary(other).self_link)
                else {
                    continue;
                };
                SetChecker::at(
                    doc,
                    &self_link.span,
                    format!(
                        "this self link places {folder} at {}, but the self link of {} places it at {}",
                        placement.prefix,
                        set.name(other),
                        theirs.prefix,
                    ),
                )
                .secondary(their_link.span.in_doc(other), format!("places {folder} at {}", theirs.prefix))
                .note("feedlint learns where a folder is published from its documents' self links, and takes the place most of them give")
            }
        };
        let help = match published {
            Some(url) => format!(
                "if the file is published at {url}, make the self link say so; if not, {}",
                cx.words.remedy(Remedy::PublishWhereTheyAre)
            ),
            None => cx.words.remedy(Remedy::AgreeOnPlace),
        };
        cx.report(
            finding
                .label("places the file elsewhere")
                .note("RFC 4287 §4.2.7.2: the self link identifies a resource equivalent to the document; readers subscribe to it and RFC 5005 clients remember archives by it")
                .help(help),
        );
    }
}

pub static ARCHIVE_ID_MISMATCH: Rule = rule!(
    ArchiveIdMismatch, Warning, Set, None, set: Some(archive_id_mismatch),
    groups: [Rfc5005],
    summary: "documents of one archive chain carry different feed-level atom:id values",
    spec: "RFC 4287 §4.2.6; RFC 5005 §4",
);

fn archive_id_mismatch(cx: &mut SetChecker) {
    let set = cx.set;
    let mut groups: HashMap<DocId, Vec<DocId>> = HashMap::new();
    for (doc, summary) in set.feeds() {
        if summary.feed_id.is_some() {
            groups.entry(set.group_of(doc)).or_default().push(doc);
        }
    }
    let mut groups: Vec<_> = groups.into_values().filter(|g| g.len() > 1).collect();
    groups.sort();
    for members in groups {
        // The subscription document's id is the logical feed's.
        let reference = members
            .iter()
            .copied()
            .find(|d| set::is_subscription(set.summary(*d)))
            .unwrap_or(members[0]);
        let expected = set.summary(reference).feed_id.as_ref().expect("grouped by id");
        for doc in members.iter().copied().filter(|d| *d != reference) {
            let id = set.summary(doc).feed_id.as_ref().expect("grouped by id");
            if id.value == expected.value {
                continue;
            }
            cx.report(
                SetChecker::at(doc, &id.span, format!("atom:id \"{}\" differs from \"{}\" of {}, in the same archive chain", id.value, expected.value, set.name(reference)))
                    .label("a different feed id")
                    .secondary(expected.span.in_doc(reference), "the logical feed's id")
                    .note("RFC 4287 §4.2.6: atom:id identifies the feed permanently; the documents of one archived feed are one logical feed")
                    .help(format!("use the same atom:id as {}", set.name(reference))),
            );
        }
    }
}

pub static ARCHIVE_ORDER: Rule = rule!(
    ArchiveOrder, Warning, Set, None, set: Some(archive_order),
    groups: [Rfc5005],
    summary: "an archive is updated later than the document that follows it",
    spec: "RFC 5005 §4",
);

fn archive_order(cx: &mut SetChecker) {
    let set = cx.set;
    // Pairs (earlier, later) from both directions of the chain.
    let backward = set
        .edges(Relation::PrevArchive)
        .map(|(later, _, earlier)| (earlier, later));
    let forward = set
        .edges(Relation::NextArchive)
        .map(|(earlier, _, later)| (earlier, later));
    let mut seen = HashSet::new();
    let pairs: Vec<(DocId, DocId)> = backward
        .chain(forward)
        .filter(|(a, b)| a != b && seen.insert((*a, *b)))
        .collect();
    for (earlier, later) in pairs {
        let (Some(earlier_updated), Some(later_updated)) =
            (&set.summary(earlier).feed_updated, &set.summary(later).feed_updated)
        else {
            continue;
        };
        if earlier_updated.value <= later_updated.value {
            continue;
        }
        cx.report(
            SetChecker::at(earlier, &earlier_updated.span, format!("this archive is updated later than {}, which follows it", set.name(later)))
                .label("later than the following document")
                .secondary(later_updated.span.in_doc(later), "the following document's update time")
                .note("RFC 5005 §4: archive documents contain less recent entries; RFC 5005 §4.2 breaks ties between duplicates by the documents' update times, so this order decides which copy wins")
                .help("correct the update times, or the order of the prev-archive/next-archive links"),
        );
    }
}
