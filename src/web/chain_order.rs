//! The order a result page lists its documents in: as their chains run,
//! each subscription document (or first page) followed by its archives
//! newest first (or its next pages), then whatever no chain reaches, in
//! the report's order. A reader then meets `index.atom` before
//! `archive/2003-09.atom`, as a client walks them.

use crate::base::hash::FastMap;
use crate::feed::Relation;
use crate::report::Report;

/// `documents` (indices into the report), in chain order.
pub fn chain_order(report: &Report, documents: &[usize]) -> Vec<usize> {
    // A document is reached by its URL, or by its self link.
    let mut by_url: FastMap<&str, usize> = FastMap::default();
    for &doc in documents {
        let document = &report.documents[doc];
        let self_link = document.summary.as_ref().and_then(|summary| summary.self_link.as_ref());
        for url in [document.url(), self_link.map(|link| link.value.as_str())]
            .into_iter()
            .flatten()
        {
            by_url.entry(url).or_insert(doc);
        }
    }
    // Down the chain from each document: to the older archive, to the
    // next page.
    let most = report.documents.len();
    let mut down: Vec<Vec<usize>> = vec![Vec::new(); most];
    for &doc in documents {
        let Some(summary) = report.documents[doc].summary.as_ref() else {
            continue;
        };
        down[doc] = summary
            .links
            .iter()
            .filter(|link| matches!(link.rel, Relation::PrevArchive | Relation::Next))
            .filter_map(|link| by_url.get(link.target.as_ref()?.as_str()).copied())
            .filter(|&target| target != doc)
            .collect();
    }
    let mut reached = vec![false; most];
    for targets in &down {
        for &target in targets {
            reached[target] = true;
        }
    }
    // The chains first, from the documents no other reaches; then the
    // documents in no chain; then, for a chain that is a cycle, its first
    // document in the report's order.
    let starts = documents
        .iter()
        .filter(|&&doc| !reached[doc] && !down[doc].is_empty())
        .chain(documents.iter().filter(|&&doc| !reached[doc] && down[doc].is_empty()))
        .chain(documents.iter().filter(|&&doc| reached[doc]));
    let mut listed = vec![false; most];
    let mut order = Vec::with_capacity(documents.len());
    let mut stack = Vec::new();
    for &start in starts {
        stack.push(start);
        while let Some(doc) = stack.pop() {
            if std::mem::replace(&mut listed[doc], true) {
                continue;
            }
            order.push(doc);
            // The first link first: pushed last.
            stack.extend(down[doc].iter().rev().filter(|&&next| !listed[next]));
        }
    }
    order
}
