//! RESP, the Redis protocol, as much of it as the live lab speaks: a command is an array of
//! bulk strings, a reply one of five types. Small enough to write here over a blocking socket
//! with the timeouts each caller needs, rather than link a client library and a runtime for a
//! handful of commands (`SET NX PX`, `EVAL`, `GETDEL`, `GET`, `INFO`, `PING`).

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// The largest bulk string or array accepted: the live lab's values are a few bytes, `INFO` a
/// few kilobytes.
const MAX_BULK: usize = 1 << 20;
const MAX_ITEMS: usize = 1024;
const MAX_DEPTH: u8 = 4;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    Status(String),
    Error(String),
    Int(i64),
    Bulk(Option<Vec<u8>>),
    Array(Vec<Reply>),
}

impl Reply {
    /// A bulk string as text, if the reply is one.
    pub fn text(&self) -> Option<String> {
        match self {
            Reply::Bulk(Some(b)) => Some(String::from_utf8_lossy(b).into_owned()),
            _ => None,
        }
    }
}

/// One connection, each command waiting at most its timeout. After a timeout the connection
/// is dropped: the late reply would answer the wrong command.
pub struct Conn {
    reader: BufReader<TcpStream>,
}

fn bad(what: &str) -> std::io::Error {
    std::io::Error::new(ErrorKind::InvalidData, what.to_string())
}

impl Conn {
    pub fn open(addr: SocketAddr, timeout: Duration) -> std::io::Result<Conn> {
        let s = TcpStream::connect_timeout(&addr, timeout)?;
        s.set_nodelay(true)?;
        Ok(Conn {
            reader: BufReader::new(s),
        })
    }

    /// Sends one command and reads its reply, both within `timeout`.
    pub fn call(&mut self, args: &[&[u8]], timeout: Duration) -> std::io::Result<Reply> {
        let timeout = timeout.max(Duration::from_millis(1));
        let s = self.reader.get_mut();
        s.set_write_timeout(Some(timeout))?;
        s.set_read_timeout(Some(timeout))?;
        s.write_all(&encode(args))?;
        read(&mut self.reader, 0)
    }
}

pub fn encode(args: &[&[u8]]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", args.len()).into_bytes();
    for a in args {
        out.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
        out.extend_from_slice(a);
        out.extend_from_slice(b"\r\n");
    }
    out
}

fn line(r: &mut impl BufRead) -> std::io::Result<String> {
    let mut buf = Vec::new();
    r.take(MAX_BULK as u64).read_until(b'\n', &mut buf)?;
    if !buf.ends_with(b"\r\n") {
        return Err(if buf.is_empty() {
            std::io::Error::new(ErrorKind::UnexpectedEof, "the server closed the connection")
        } else {
            bad("a reply line without its end")
        });
    }
    buf.truncate(buf.len() - 2);
    String::from_utf8(buf).map_err(|_| bad("a reply line that is not text"))
}

fn count(s: &str) -> std::io::Result<Option<usize>> {
    let n: i64 = s
        .parse()
        .map_err(|_| bad("a length that is not a number"))?;
    match n {
        -1 => Ok(None),
        n if n >= 0 && (n as usize) <= MAX_BULK => Ok(Some(n as usize)),
        _ => Err(bad("a length out of bounds")),
    }
}

pub fn read(r: &mut impl BufRead, depth: u8) -> std::io::Result<Reply> {
    let l = line(r)?;
    let (kind, rest) = l.split_at(l.len().min(1));
    match kind {
        "+" => Ok(Reply::Status(rest.to_string())),
        "-" => Ok(Reply::Error(rest.to_string())),
        ":" => rest
            .parse()
            .map(Reply::Int)
            .map_err(|_| bad("an integer reply that is not a number")),
        "$" => match count(rest)? {
            None => Ok(Reply::Bulk(None)),
            Some(n) => {
                let mut b = vec![0; n + 2];
                r.read_exact(&mut b)?;
                if !b.ends_with(b"\r\n") {
                    return Err(bad("a bulk string without its end"));
                }
                b.truncate(n);
                Ok(Reply::Bulk(Some(b)))
            }
        },
        "*" => match count(rest)? {
            None => Ok(Reply::Array(Vec::new())),
            Some(n) if n <= MAX_ITEMS && depth < MAX_DEPTH => (0..n)
                .map(|_| read(r, depth + 1))
                .collect::<Result<_, _>>()
                .map(Reply::Array),
            Some(_) => Err(bad("an array too large or too deep")),
        },
        _ => Err(bad("not a Redis reply")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(bytes: &[u8]) -> std::io::Result<Reply> {
        read(&mut BufReader::new(bytes), 0)
    }

    #[test]
    fn a_command_is_an_array_of_bulk_strings() {
        // The protocol's own example: SET mykey myvalue.
        assert_eq!(
            encode(&[b"SET", b"mykey", b"myvalue"]),
            b"*3\r\n$3\r\nSET\r\n$5\r\nmykey\r\n$7\r\nmyvalue\r\n"
        );
    }

    #[test]
    fn each_reply_type_reads_as_the_protocol_defines_it() {
        assert_eq!(parse(b"+OK\r\n").unwrap(), Reply::Status("OK".into()));
        assert_eq!(parse(b"$-1\r\n").unwrap(), Reply::Bulk(None));
        assert_eq!(parse(b":1\r\n").unwrap(), Reply::Int(1));
        assert_eq!(
            parse(b"$6\r\nA:1234\r\n").unwrap().text().as_deref(),
            Some("A:1234")
        );
        assert_eq!(
            parse(b"-ERR unknown command\r\n").unwrap(),
            Reply::Error("ERR unknown command".into())
        );
        assert_eq!(
            parse(b"*2\r\n:1\r\n$-1\r\n").unwrap(),
            Reply::Array(vec![Reply::Int(1), Reply::Bulk(None)])
        );
    }

    #[test]
    fn a_reply_cut_short_or_oversized_is_an_error_not_a_hang() {
        assert!(parse(b"$10\r\nabc").is_err());
        assert!(parse(b"").is_err());
        assert!(parse(b"$99999999999\r\n").is_err());
        assert!(parse(b"?what\r\n").is_err());
    }
}
