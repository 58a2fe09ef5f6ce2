//! The server's accept loop: HTTP/1 connections with a header read
//! timeout (which hyper also applies to a kept-alive connection waiting for
//! its next request), and a cap on open connections past which the oldest
//! idle one is closed. A client that opens connections and sends nothing,
//! or its headers a byte at a time, holds no descriptor for long and never
//! keeps a newcomer out.
//!
//! axum's own `serve` sets neither, so the loop is written here on hyper's
//! connection builder, which axum runs on.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tower::ServiceExt as _;

/// The address a request came from, for the handlers.
#[derive(Clone, Copy, Debug)]
pub struct Peer(pub std::net::IpAddr);

/// How the connections of a server are held.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// The longest a client may take to send a request's headers, and the
    /// longest a kept-alive connection waits for its next request.
    pub header_timeout: Duration,
    /// The most connections open at once; past it, the oldest idle one (no
    /// request in a handler) is closed to make room.
    pub max_connections: usize,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            header_timeout: Duration::from_secs(10),
            max_connections: 4_096,
        }
    }
}

/// One open connection: how many of its requests are in a handler, and
/// how to close it.
#[derive(Default)]
struct Connection {
    busy: AtomicUsize,
    close: Notify,
}

/// The open connections, oldest first (by the number they were accepted
/// with).
#[derive(Default)]
struct Open {
    connections: Mutex<BTreeMap<u64, Arc<Connection>>>,
}

impl Open {
    fn insert(&self, id: u64, connection: Arc<Connection>) -> usize {
        let mut connections = self.lock();
        connections.insert(id, connection);
        connections.len()
    }

    fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// Closes the oldest connection with no request in a handler, if any
    /// (a check in progress is never cut by a newcomer). It leaves the
    /// table at once, so the next call closes the next one.
    fn close_oldest_idle(&self) {
        let mut connections = self.lock();
        let idle = connections
            .iter()
            .find(|(_, connection)| connection.busy.load(Ordering::Acquire) == 0)
            .map(|(id, _)| *id);
        if let Some(connection) = idle.and_then(|id| connections.remove(&id)) {
            connection.close.notify_one();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Arc<Connection>>> {
        self.connections.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Descriptors left for what a check opens besides its connection: the
/// connection cap stays this far below the process's limit.
const RESERVED_DESCRIPTORS: usize = 256;

/// The connection cap for `wanted` under a process limit of
/// `descriptor_limit` open descriptors: a server that runs out of
/// descriptors can accept nobody, so the cap closes idle connections first.
pub fn connection_cap(wanted: usize, descriptor_limit: usize) -> usize {
    wanted.min(descriptor_limit.saturating_sub(RESERVED_DESCRIPTORS).max(16))
}

/// Serves `router` on `listener` until the process ends.
pub async fn serve(listener: TcpListener, router: Router, limits: ConnectionLimits) -> std::io::Result<()> {
    let open = Arc::new(Open::default());
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let mut accepted: u64 = 0;
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) if is_out_of_descriptors(&error) => {
                // Make room, then try again: never spin on a full table.
                open.close_oldest_idle();
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
            Err(_) => continue,
        };
        accepted += 1;
        let id = accepted;
        let connection = Arc::new(Connection::default());
        if open.insert(id, Arc::clone(&connection)) > limits.max_connections {
            open.close_oldest_idle();
        }
        let open = Arc::clone(&open);
        let router = router.clone();
        let builder = builder.clone();
        tokio::spawn(async move {
            let service = {
                let connection = Arc::clone(&connection);
                hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                    let router = router.clone();
                    let connection = Arc::clone(&connection);
                    connection.busy.fetch_add(1, Ordering::AcqRel);
                    let mut request = request.map(axum::body::Body::new);
                    request.extensions_mut().insert(Peer(peer.ip()));
                    async move {
                        let response = router.oneshot(request).await;
                        connection.busy.fetch_sub(1, Ordering::AcqRel);
                        response
                    }
                })
            };
            let serving = builder.serve_connection(TokioIo::new(stream), service);
            tokio::select! {
                _ = serving => {}
                () = connection.close.notified() => {}
            }
            open.remove(id);
        });
    }
}

fn is_out_of_descriptors(error: &std::io::Error) -> bool {
    matches!(error.raw_os_error(), Some(libc::EMFILE | libc::ENFILE))
}
