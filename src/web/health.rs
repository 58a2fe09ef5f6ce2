//! Whether the server answers: `GET /healthz`, and the probe that asks it
//! (`feedlint serve --health-check`), for a container's health check in
//! an image that has no curl.
//!
//! The probe speaks just enough HTTP/1.1 over a plain socket to read a
//! status line: it asks only the address it is given, never follows
//! anything, and gives up at its time limit.

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::time::Duration;

/// The route's answer: the server is up and answering requests (it runs
/// no lint, so a server whose jobs are all taken is still healthy).
pub(super) async fn healthz() -> &'static str {
    "ok\n"
}

/// Asks the server listening on `listen` for `/healthz`; `Ok` if it
/// answers `200` within `limit`. An unspecified address (0.0.0.0, ::) is
/// asked on loopback, where a server listening on it also answers.
pub fn probe(listen: SocketAddr, limit: Duration) -> Result<(), String> {
    let mut address = listen;
    if address.ip().is_unspecified() {
        address.set_ip(match address.ip() {
            IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::LOCALHOST),
        });
    }
    let unhealthy = |why: String| format!("no healthy server at {address}: {why}");
    let mut stream = TcpStream::connect_timeout(&address, limit).map_err(|error| unhealthy(error.to_string()))?;
    stream
        .set_read_timeout(Some(limit))
        .map_err(|error| unhealthy(error.to_string()))?;
    stream
        .set_write_timeout(Some(limit))
        .map_err(|error| unhealthy(error.to_string()))?;
    write!(
        stream,
        "GET /healthz HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .map_err(|error| unhealthy(error.to_string()))?;
    // The status line is all that is read, and never more than 64 bytes.
    let mut head = [0u8; 64];
    let mut read = 0;
    while read < head.len() && !head[..read].contains(&b'\n') {
        match stream.read(&mut head[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(error) => return Err(unhealthy(error.to_string())),
        }
    }
    let line = String::from_utf8_lossy(&head[..read]);
    let line = line.lines().next().unwrap_or_default();
    if line.starts_with("HTTP/1.1 200 ") || line.starts_with("HTTP/1.0 200 ") {
        Ok(())
    } else if line.is_empty() {
        Err(unhealthy("it closed the connection without an answer".into()))
    } else {
        Err(unhealthy(format!("it answered {line:?}")))
    }
}
