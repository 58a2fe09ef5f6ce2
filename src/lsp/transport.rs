//! The base protocol of LSP over standard input and output, read with
//! limits: a message is framed by its `Content-Length`, at most
//! [`MAX_MESSAGE`] bytes, and is read into memory only once it is known to
//! be within that. A message that cannot be read (a bad or missing length,
//! a body that is not UTF-8 or not JSON, JSON that is no message) is
//! answered with the JSON-RPC error the specification gives for it, and
//! the server goes on with the next one: one bad message from an editor
//! plugin must not end the session.

use std::io::{self, BufRead, Read, Write};
use std::thread;

use crossbeam_channel::{bounded, never, select, Receiver, Sender};
use lsp_server::{ErrorCode, Message};

/// The largest message read: 64 MiB. A feed opened in an editor is sent
/// whole in one message; larger ones are refused with an error (and their
/// bytes skipped), not read.
pub const MAX_MESSAGE: usize = 64 * 1024 * 1024;

/// The longest header line kept; the rest of a longer one is skipped.
const MAX_HEADER_LINE: usize = 1024;

/// What the reader hands on: a message, or the error to answer (a
/// JSON-RPC response, whose id may be null, which no [`Message`] can be).
enum Incoming {
    Message(Message),
    Answer(serde_json::Value),
    /// A message over the limit: answered at once, then its body skipped
    /// unread (the next message starts after it).
    TooLarge {
        answer: serde_json::Value,
        length: u64,
    },
    End,
}

/// Reads and drops `length` bytes; whether they were all there.
fn skip(input: &mut dyn BufRead, length: u64) -> bool {
    io::copy(&mut input.take(length), &mut io::sink()).ok() == Some(length)
}

/// The server's end of a connection over standard input and output, and
/// the threads that move the bytes.
pub struct Stdio {
    pub sender: Sender<Message>,
    pub receiver: Receiver<Message>,
    reader: thread::JoinHandle<()>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl Stdio {
    pub fn start() -> Stdio {
        let (sender, outgoing) = bounded::<Message>(16);
        let (answers, answered) = bounded::<serde_json::Value>(16);
        let writer = thread::spawn(move || write_all(&outgoing, answered));
        let (incoming, receiver) = bounded::<Message>(16);
        let reader = thread::spawn(move || {
            let mut stdin = io::stdin().lock();
            loop {
                let sent = match read(&mut stdin) {
                    Incoming::Message(message) => incoming.send(message).is_ok(),
                    Incoming::Answer(response) => answers.send(response).is_ok(),
                    Incoming::TooLarge { answer, length } => answers.send(answer).is_ok() && skip(&mut stdin, length),
                    Incoming::End => false,
                };
                if !sent {
                    return;
                }
            }
        });
        Stdio {
            sender,
            receiver,
            reader,
            writer,
        }
    }

    /// Waits for the writer to send what it was given. The reader is left
    /// blocked on standard input if the client keeps it open: it ends with
    /// the process.
    pub fn finish(self) -> io::Result<()> {
        let Stdio {
            sender,
            receiver,
            reader,
            writer,
        } = self;
        drop((sender, receiver));
        if reader.is_finished() {
            let _ = reader.join();
        }
        writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the writer panicked")))
    }
}

/// Writes the server's messages and the reader's answers to standard
/// output, one whole message at a time, until the server is done.
fn write_all(outgoing: &Receiver<Message>, mut answered: Receiver<serde_json::Value>) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    loop {
        select! {
            recv(outgoing) -> message => match message {
                Ok(message) => message.write(&mut stdout)?,
                Err(_) => return Ok(()),
            },
            recv(answered) -> answer => match answer {
                Ok(answer) => {
                    let text = answer.to_string();
                    write!(stdout, "Content-Length: {}\r\n\r\n{text}", text.len())?;
                    stdout.flush()?;
                }
                // The input has ended; the server may still be talking.
                Err(_) => answered = never(),
            },
        }
    }
}

/// Reads the next message, or the error to answer instead.
fn read(input: &mut dyn BufRead) -> Incoming {
    let length = match headers(input) {
        Ok(Some(length)) => length,
        Ok(None) => return Incoming::End,
        Err(problem) => return Incoming::Answer(error(None, ErrorCode::ParseError, problem)),
    };
    if length > MAX_MESSAGE {
        return Incoming::TooLarge {
            answer: error(
                None,
                ErrorCode::InvalidRequest,
                format!("the message is {length} bytes; feedlint reads messages of at most {MAX_MESSAGE} bytes"),
            ),
            length: length as u64,
        };
    }
    let mut body = Vec::new();
    if input.take(length as u64).read_to_end(&mut body).is_err() || body.len() != length {
        return Incoming::End;
    }
    parse(&body)
}

/// The body of a message, as a message or the error to answer.
fn parse(body: &[u8]) -> Incoming {
    let Ok(text) = std::str::from_utf8(body) else {
        return Incoming::Answer(error(
            None,
            ErrorCode::ParseError,
            "the message is not UTF-8".to_owned(),
        ));
    };
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            return Incoming::Answer(error(
                None,
                ErrorCode::ParseError,
                format!("the message is not JSON: {e}"),
            ))
        }
    };
    let id = value.get("id").cloned();
    match serde_json::from_value::<Message>(value) {
        Ok(message) => Incoming::Message(message),
        Err(e) => Incoming::Answer(error(
            id,
            ErrorCode::InvalidRequest,
            format!("the message is not a JSON-RPC request, response or notification: {e}"),
        )),
    }
}

/// Reads a message's header lines up to the empty one; its length. `None`
/// at the end of the input. A header block without a valid length is an
/// error; the lines after it are read as the next header block, until one
/// holds a `Content-Length` again.
fn headers(input: &mut dyn BufRead) -> Result<Option<usize>, String> {
    let mut length: Option<Result<usize, String>> = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        if read_line(input, &mut line).map_err(|e| e.to_string())? == 0 {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            return match length {
                Some(Ok(length)) => Ok(Some(length)),
                Some(Err(problem)) => Err(problem),
                None => Err("a message without a Content-Length header".to_owned()),
            };
        }
        // The header may follow the unread body of a bad message on the
        // same line.
        let lower = text.to_ascii_lowercase();
        if let Some(at) = lower.find("content-length:") {
            let value = text[at + "content-length:".len()..].trim();
            length = Some(value.parse::<usize>().map_err(|_| {
                format!(
                    "Content-Length \"{}\" is not a number of bytes",
                    crate::findings::diagnostic::shorten(value)
                )
            }));
        }
    }
}

/// Reads one line into `line`, keeping at most [`MAX_HEADER_LINE`] bytes of
/// it; returns how many bytes were read.
fn read_line(input: &mut dyn BufRead, line: &mut Vec<u8>) -> io::Result<usize> {
    let mut read = 0;
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(read);
        }
        let (used, done) = match memchr::memchr(b'\n', buffer) {
            Some(at) => (at + 1, true),
            None => (buffer.len(), false),
        };
        let room = MAX_HEADER_LINE.saturating_sub(line.len());
        line.extend_from_slice(&buffer[..used.min(room)]);
        input.consume(used);
        read += used;
        if done {
            return Ok(read);
        }
    }
}

/// The error response; its id is null where the request's could not be
/// read (JSON-RPC 2.0 §5).
fn error(id: Option<serde_json::Value>, code: ErrorCode, message: String) -> serde_json::Value {
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": id.unwrap_or(serde_json::Value::Null),
        "error": { "code": code as i32, "message": message },
    })
}

/// What the reader makes of `stream`, one line a message: for tests.
#[cfg(test)]
fn answer_for(stream: &[u8]) -> Vec<String> {
    let mut input = io::BufReader::new(stream);
    let mut answers = Vec::new();
    loop {
        match read(&mut input) {
            Incoming::Message(message) => answers.push(format!("message {}", serde_json::to_string(&message).unwrap())),
            Incoming::Answer(response) => answers.push(format!(
                "error {} {}",
                response["error"]["code"],
                response["error"]["message"].as_str().unwrap()
            )),
            Incoming::TooLarge { answer, length } => {
                answers.push(format!(
                    "error {} {}",
                    answer["error"]["code"],
                    answer["error"]["message"].as_str().unwrap()
                ));
                if !skip(&mut input, length) {
                    return answers;
                }
            }
            Incoming::End => return answers,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn bad_messages_are_answered_and_the_next_is_read() {
        let good = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let stream = [
            framed("{not json"),
            framed(good),
            "Content-Length: lots\r\n\r\n".to_owned(),
            framed(good),
            framed("{\"jsonrpc\":\"2.0\",\"id\":7,\"params\":1}"),
            framed(good),
        ]
        .concat();
        let answers = answer_for(stream.as_bytes());
        assert_eq!(answers.len(), 6, "{answers:#?}");
        assert!(answers[5].starts_with("message"), "{answers:#?}");
        assert!(
            answers[0].starts_with("error -32700 the message is not JSON"),
            "{answers:#?}"
        );
        assert!(answers[1].starts_with("message"), "{answers:#?}");
        assert!(
            answers[2].starts_with("error -32700 Content-Length \"lots\""),
            "{answers:#?}"
        );
        assert!(answers[3].starts_with("message"), "{answers:#?}");
        assert!(answers[4].starts_with("error -32600"), "{answers:#?}");
    }

    #[test]
    fn invalid_utf8_is_a_parse_error() {
        let mut stream = b"Content-Length: 2\r\n\r\n".to_vec();
        stream.extend_from_slice(&[0xFF, 0xFE]);
        assert_eq!(answer_for(&stream), ["error -32700 the message is not UTF-8"]);
    }

    #[test]
    fn a_message_over_the_limit_is_skipped_unread() {
        let huge = MAX_MESSAGE + 1;
        let mut stream = format!("Content-Length: {huge}\r\n\r\n").into_bytes();
        stream.resize(stream.len() + huge, b' ');
        stream.extend_from_slice(framed(r#"{"jsonrpc":"2.0","method":"exit"}"#).as_bytes());
        let answers = answer_for(&stream);
        assert_eq!(answers.len(), 2, "{answers:#?}");
        assert!(answers[0].starts_with("error -32600 the message is"), "{answers:#?}");
        assert!(answers[1].contains("\"exit\""), "{answers:#?}");
    }
}
