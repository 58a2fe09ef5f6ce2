//! The page around every page's content: its head, the skip link, the
//! header and the footer.

use maud::{html, Markup, DOCTYPE};

/// The page around every page's content.
pub fn layout(title: &str, content: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="color-scheme" content="light dark";
                title { (title) " · feedlint" }
                link rel="stylesheet" href="/assets/style.css";
            }
            body {
                a.skip href="#main" { "Skip to the content" }
                header.top {
                    a.brand href="/" { "feedlint" }
                    span.tagline { "Atom and RSS feeds, their archive and paging chains, and tombstones, checked by the letter" }
                }
                main id="main" { (content) }
                footer {
                    "feedlint " (env!("CARGO_PKG_VERSION")) " · "
                    a href="/api" { "JSON API" } " · "
                    a href="/rules" { "rules" }
                }
            }
        }
    }
}
