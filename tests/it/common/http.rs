//! A small HTTP server that a test starts on a loopback address (or on an
//! address of its own network namespace): it answers a bounded number of
//! connections, one request each, as the test's handler says, and keeps
//! what it was asked. It stops with the test process.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub struct Reply {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
    pub delay: Duration,
}

/// A document served as a well-kept server serves it: with an `ETag` (of
/// its bytes, which the server honours: see [`answer`]) and
/// `Access-Control-Allow-Origin: *`.
pub fn ok(body: String) -> Reply {
    Reply {
        status: 200,
        headers: vec![
            ("Content-Type", "application/atom+xml".into()),
            ("ETag", etag_of(body.as_bytes())),
            ("Access-Control-Allow-Origin", "*".into()),
        ],
        body: body.into_bytes(),
        delay: Duration::ZERO,
    }
}

/// `reply` with another `Content-Type`.
pub fn typed(mut reply: Reply, content_type: &str) -> Reply {
    reply
        .headers
        .retain(|(name, _)| !name.eq_ignore_ascii_case("content-type"));
    reply.headers.push(("Content-Type", content_type.to_owned()));
    reply
}

/// An entity tag of `bytes` (FNV-1a), quoted.
pub fn etag_of(bytes: &[u8]) -> String {
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3)
    });
    format!("\"{hash:016x}\"")
}

pub fn status(code: u16) -> Reply {
    Reply {
        status: code,
        headers: Vec::new(),
        body: b"no".to_vec(),
        delay: Duration::ZERO,
    }
}

/// A request as the test server saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path: String,
    pub agent: String,
    pub authorization: Option<String>,
    /// The `Range` header.
    pub range: Option<String>,
    /// The request's head, as it came.
    pub head: String,
}

impl Seen {
    /// A request header's value, by name.
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().skip(1).find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.trim().eq_ignore_ascii_case(name).then(|| value.trim().to_owned())
        })
    }

    /// A conditional request (`If-None-Match` or `If-Modified-Since`).
    pub fn conditional(&self) -> bool {
        self.header("if-none-match").is_some() || self.header("if-modified-since").is_some()
    }
}

type Handler = dyn Fn(&Seen, &str) -> Reply + Send + Sync;

/// A test server: its base URL, and the requests it saw.
pub struct Server {
    pub base: String,
    pub requests: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    /// A server on 127.0.0.1 answering by path (and its own base URL), and
    /// honouring `If-None-Match` as a well-kept server does.
    pub fn start(handler: impl Fn(&str, &str) -> Reply + Send + Sync + 'static) -> Server {
        Self::start_seeing(move |seen, base| honour_conditions(seen, handler(&seen.path, base)))
    }

    /// A server on 127.0.0.1 answering by the whole request.
    pub fn start_seeing(handler: impl Fn(&Seen, &str) -> Reply + Send + Sync + 'static) -> Server {
        Self::start_on("127.0.0.1", handler)
    }

    /// A server on `address` (an address of the test's own network
    /// namespace, or loopback) answering by the whole request.
    pub fn start_on(address: &str, handler: impl Fn(&Seen, &str) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind((address, 0)).unwrap();
        let base = format!("http://{address}:{}", listener.local_addr().unwrap().port());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let handler: Arc<Handler> = Arc::new(handler);
        let seen = Arc::clone(&requests);
        let server_base = base.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().take(400).flatten() {
                let (handler, seen, base) = (Arc::clone(&handler), Arc::clone(&seen), server_base.clone());
                std::thread::spawn(move || answer(stream, &*handler, &seen, &base));
            }
        });
        Server { base, requests }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The documents fetched at `path`: its requests, less the conditional
    /// ones that ask again whether a document changed.
    pub fn hits(&self, path: &str) -> usize {
        self.requests
            .lock()
            .unwrap()
            .iter()
            .filter(|seen| seen.path == path && !seen.conditional())
            .count()
    }

    /// The requests seen, in the order they came.
    pub fn seen(&self) -> Vec<Seen> {
        self.requests.lock().unwrap().clone()
    }
}

/// `reply`, or 304 Not Modified where the request's `If-None-Match` is
/// the reply's `ETag`.
pub fn honour_conditions(seen: &Seen, mut reply: Reply) -> Reply {
    let etag = reply
        .headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("etag"))
        .map(|(_, tag)| tag.clone());
    if reply.status == 200 && etag.is_some() && seen.header("if-none-match") == etag {
        reply.status = 304;
        reply.body.clear();
    }
    reply
}

fn answer(mut stream: TcpStream, handler: &Handler, seen: &Mutex<Vec<Seen>>, base: &str) {
    stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 16 * 1024 {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return,
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let mut words = head.split_whitespace();
    let method = words.next().unwrap_or("GET").to_owned();
    let path = words.next().unwrap_or("/").to_owned();
    let header = |name: &str| {
        head.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.trim().eq_ignore_ascii_case(name).then(|| value.trim().to_owned())
        })
    };
    let request = Seen {
        method,
        path,
        agent: header("user-agent").unwrap_or_default(),
        authorization: header("authorization"),
        range: header("range"),
        head: head.clone(),
    };
    seen.lock().unwrap().push(request.clone());
    let reply = handler(&request, base);
    std::thread::sleep(reply.delay);
    // A reply may name its own Content-Length: a HEAD answer for a file
    // larger than the test should hold.
    let length = if reply
        .headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("content-length"))
    {
        String::new()
    } else {
        format!("Content-Length: {}\r\n", reply.body.len())
    };
    let mut response = format!("HTTP/1.1 {} X\r\n{length}Connection: close\r\n", reply.status);
    for (name, value) in &reply.headers {
        response.push_str(&format!("{name}: {value}\r\n"));
    }
    response.push_str("\r\n");
    let _ = stream.write_all(response.as_bytes()).and_then(|()| {
        // A HEAD answer has the headers of a GET answer, and no body.
        if request.method == "HEAD" {
            Ok(())
        } else {
            stream.write_all(&reply.body)
        }
    });
}
