//! The one error type of the command line: each error knows its message and
//! its exit code (spec/cli.md §9), and `main` maps it to the process exit
//! in one place.
//!
//! One rule for every command: a command that exists but cannot do what
//! it was asked (a bad flag, flag value or argument included, as the
//! reference's `compress --bogus`) exits 1; only a command that does not
//! exist (an unknown subcommand or verb) exits 2.

use std::fmt;

/// How a command failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// A fatal error: message on stderr, exit 1 (bad flag, oversized input,
    /// store cannot be opened, unknown handle, write failure, bad TOON…).
    Fatal,
    /// A bad flag, flag value or argument of a command that exists: exit
    /// 1, as the reference's `compress --bogus`.
    Usage,
    /// The command line names no command (or verb) this binary has: exit 2.
    UnknownCommand,
    /// The reader of stdout went away: nothing more to say, exit 0 (as
    /// ripgrep and xsv do).
    BrokenPipe,
    /// Already reported (the MCP server logs its own errors): exit with
    /// this code, print nothing.
    Exit(i32),
}

/// A failed command, with the exact text the reference prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

impl Error {
    /// A fatal error with the reference's message (exit 1).
    pub fn fatal(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Fatal,
            message: message.into(),
        }
    }

    /// A bad flag, flag value or argument (exit 1).
    pub fn usage(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::Usage,
            message: message.into(),
        }
    }

    /// No such command or verb (exit 2).
    pub fn unknown_command(message: impl Into<String>) -> Error {
        Error {
            kind: ErrorKind::UnknownCommand,
            message: message.into(),
        }
    }

    /// The reader went away; not reported.
    pub fn broken_pipe() -> Error {
        Error {
            kind: ErrorKind::BrokenPipe,
            message: String::new(),
        }
    }

    /// An exit with `code` whose reason was already reported.
    pub fn exit(code: i32) -> Error {
        Error {
            kind: ErrorKind::Exit(code),
            message: String::new(),
        }
    }

    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The process exit code for this error.
    pub fn code(&self) -> i32 {
        match self.kind {
            ErrorKind::Fatal | ErrorKind::Usage => 1,
            ErrorKind::UnknownCommand => 2,
            ErrorKind::BrokenPipe => 0,
            ErrorKind::Exit(code) => code,
        }
    }

    /// The line to print on stderr (without its newline), if any.
    pub fn message(&self) -> Option<&str> {
        match self.kind {
            ErrorKind::BrokenPipe | ErrorKind::Exit(_) => None,
            _ => Some(&self.message),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Result of a command.
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes() {
        assert_eq!(Error::fatal("x").code(), 1);
        assert_eq!(Error::usage("x").code(), 1);
        assert_eq!(Error::unknown_command("x").code(), 2);
        assert_eq!(Error::broken_pipe().code(), 0);
        assert_eq!(Error::broken_pipe().message(), None);
        assert_eq!(Error::fatal("boom").message(), Some("boom"));
    }
}
