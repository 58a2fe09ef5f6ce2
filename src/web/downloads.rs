//! A run's downloads, kept in the store of runs: its JSON and SARIF
//! reports and the fixed document, and the numbered view of each checked
//! document's source.

use std::sync::{Arc, PoisonError};

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::{html, page, runs, source_view, App};

/// The name a fixed file is downloaded by: its own file name where that is
/// plain (letters, digits, `.`, `-`, `_`), else a neutral one.
fn download_name(name: &str) -> String {
    let file = name.rsplit('/').next().unwrap_or_default();
    let plain = !file.is_empty()
        && !file.starts_with('.')
        && file.chars().all(|c| c.is_ascii_alphanumeric() || ".-_".contains(c));
    if plain {
        file.to_owned()
    } else {
        "fixed-feed.xml".to_owned()
    }
}

/// The line a source view is asked to show (`?line=N`).
#[derive(Deserialize)]
pub struct LineQuery {
    line: Option<usize>,
}

/// A checked document's source, numbered, around the line asked.
pub async fn source(
    State(app): State<Arc<App>>,
    Path((id, doc)): Path<(String, usize)>,
    Query(query): Query<LineQuery>,
) -> Response {
    let text = {
        let runs = app.runs.lock().unwrap_or_else(PoisonError::into_inner);
        runs.get(&id).and_then(|run| run.sources.get(doc).cloned())
    };
    let Some((name, compressed)) = text else {
        return (
            StatusCode::NOT_FOUND,
            html(page::problem(
                "No such source",
                "Sources are kept for a while after a check; check the feed again.",
            )),
        )
            .into_response();
    };
    let text = String::from_utf8_lossy(&runs::decompress(&compressed)).into_owned();
    let here = format!("/runs/{id}/source/{doc}");
    html(source_view::source_view(&name, &text, query.line.unwrap_or(1), &here)).into_response()
}

/// `GET /runs/ID/report.json` and `.../report.sarif`: a run's report,
/// gzip-compressed where the client accepts it (as it is kept).
pub async fn download(
    State(app): State<Arc<App>>,
    Path((id, file)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let mut fixed_name = String::new();
    let (compressed, kind) = {
        let runs = app.runs.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(run) = runs.get(&id) else {
            return (
                StatusCode::NOT_FOUND,
                html(page::problem(
                    "No such report",
                    "Reports are kept for a while after a check; check the feed again.",
                )),
            )
                .into_response();
        };
        match file.as_str() {
            "report.json" => (run.json.clone(), "application/json"),
            "report.sarif" => (run.sarif.clone(), "application/sarif+json"),
            "fixed" if run.fixed.is_some() => {
                let (name, bytes) = run.fixed.as_ref().expect("checked");
                fixed_name = download_name(name);
                (bytes.clone(), "application/octet-stream")
            }
            _ => {
                return (
                    StatusCode::NOT_FOUND,
                    html(page::problem("Not found", "There is no page here.")),
                )
                    .into_response()
            }
        }
    };
    let gzip = headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            parts.next() == Some("gzip") && !parts.any(|parameter| parameter.replace(' ', "") == "q=0")
        });
    let disposition = match file.as_str() {
        "fixed" => format!("attachment; filename=\"{fixed_name}\""),
        _ => format!("attachment; filename=\"feedlint-{file}\""),
    };
    let mut response = if gzip {
        ([(header::CONTENT_ENCODING, "gzip".to_owned())], compressed).into_response()
    } else {
        runs::decompress(&compressed).into_response()
    };
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if let Ok(disposition) = HeaderValue::from_str(&disposition) {
        headers.insert(header::CONTENT_DISPOSITION, disposition);
    }
    response
}
