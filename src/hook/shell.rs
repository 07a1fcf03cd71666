//! Just enough of a shell command line to decide whether it may run
//! under `caveman-engine run --agent -- bash -c '…'`: the simple commands
//! at the top level, the operators between them, heredocs, redirections
//! and substitutions, each found outside quotes. Anything it cannot read
//! (an unclosed quote) is left alone: the rule that decides is named.

/// Why a command is left alone; the name is what `--explain` prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leave {
    pub rule: &'static str,
    pub why: String,
}

fn leave(rule: &'static str, why: impl Into<String>) -> Leave {
    Leave {
        rule,
        why: why.into(),
    }
}

/// Builtins that change the shell the host keeps between commands (its
/// directory, variables, options): under `bash -c` the change would be
/// lost.
const SHELL_STATE: [&str; 30] = [
    "cd", "pushd", "popd", "export", "source", ".", "alias", "unalias", "unset", "set", "shopt",
    "exec", "eval", "declare", "typeset", "local", "readonly", "trap", "ulimit", "umask", "hash",
    "exit", "return", "builtin", "enable", "bind", "fg", "bg", "disown", "wait",
];

/// Programs that talk to a terminal: their output is a screen, not text.
const INTERACTIVE: [&str; 24] = [
    "vim", "vi", "nvim", "nano", "emacs", "pico", "less", "more", "most", "top", "htop", "btop",
    "watch", "ssh", "telnet", "sftp", "ftp", "tmux", "screen", "man", "fzf", "sudo", "read",
    "select",
];

/// Interpreters that start a prompt when given nothing to run.
const REPLS: [&str; 14] = [
    "python", "python3", "node", "irb", "ghci", "psql", "mysql", "sqlite3", "bash", "sh", "zsh",
    "fish", "lua", "R",
];

/// The simple commands of a command line, split at top-level `;`, `&&`,
/// `||`, `|`, `&` and newlines, with what sat between them.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Each simple command's text (trimmed).
    pub commands: Vec<String>,
    /// A top-level `|`: the consumer's first word.
    pub pipe_into: Option<String>,
    /// A top-level `&` (not `&&`, not part of a redirection).
    pub background: bool,
    /// `<<` outside quotes (a heredoc or here-string).
    pub heredoc: bool,
    /// A top-level redirection of stdout to a file (`>`, `>>`, `&>`).
    pub redirect: Option<String>,
}

/// Reads `cmd`, or says why it cannot be read.
pub fn parse(cmd: &str) -> Result<Line, Leave> {
    let b = cmd.as_bytes();
    let mut line = Line::default();
    let mut cur = String::new();
    // Depth of $( ), ( ) and backticks: inside them nothing is top level.
    let mut depth = 0usize;
    let mut backtick = false;
    let mut i = 0;
    let push = |line: &mut Line, cur: &mut String| {
        let t = cur.trim();
        if !t.is_empty() {
            line.commands.push(t.to_string());
        }
        cur.clear();
    };
    while i < b.len() {
        let c = b[i];
        match c {
            b'\\' => {
                // The backslash and the whole character after it.
                let next = cmd[i + 1..].chars().next().map_or(0, char::len_utf8);
                let end = i + 1 + next;
                cur.push_str(&cmd[i..end]);
                i = end;
                continue;
            }
            b'\'' => {
                let close = cmd[i + 1..]
                    .find('\'')
                    .ok_or_else(|| leave("unparsable", "an unclosed single quote"))?;
                cur.push_str(&cmd[i..i + close + 2]);
                i += close + 2;
                continue;
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                if j >= b.len() {
                    return Err(leave("unparsable", "an unclosed double quote"));
                }
                cur.push_str(&cmd[i..=j]);
                i = j + 1;
                continue;
            }
            b'`' => backtick = !backtick,
            b'(' => depth += 1,
            b')' => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| leave("unparsable", "an unmatched )"))?
            }
            b'#' if depth == 0
                && !backtick
                && (cur.is_empty() || cur.ends_with(char::is_whitespace)) =>
            {
                // A comment runs to the end of the line.
                let end = cmd[i..].find('\n').map_or(b.len(), |n| i + n);
                i = end;
                continue;
            }
            _ => {}
        }
        let top = depth == 0 && !backtick;
        if top && c == b'<' && b.get(i + 1) == Some(&b'<') {
            line.heredoc = true;
        }
        if top && c == b'>' {
            // `>&N` and `N>&M` duplicate a descriptor: not a file.
            let dup = b.get(i + 1) == Some(&b'&');
            let fd2 = i > 0 && b[i - 1] == b'2' && (i < 2 || !b[i - 2].is_ascii_alphanumeric());
            if !dup && !fd2 && b.get(i.wrapping_sub(1)) != Some(&b'>') {
                let rest = cmd[i + 1..].trim_start_matches(['>', '|']).trim_start();
                let target = rest.split_whitespace().next().unwrap_or("").to_string();
                line.redirect.get_or_insert(target);
            }
        }
        if top && matches!(c, b';' | b'\n') {
            push(&mut line, &mut cur);
            i += 1;
            continue;
        }
        if top && c == b'|' {
            if b.get(i + 1) == Some(&b'|') {
                push(&mut line, &mut cur);
                i += 2;
                continue;
            }
            if i > 0 && b[i - 1] == b'>' {
                // `>|` clobber redirection.
                cur.push('|');
                i += 1;
                continue;
            }
            push(&mut line, &mut cur);
            let next = cmd[i + 1..].trim_start_matches('&');
            if line.pipe_into.is_none() {
                line.pipe_into = Some(words_of(next).first().cloned().unwrap_or_default());
            }
            i += 1;
            continue;
        }
        if top && c == b'&' {
            if b.get(i + 1) == Some(&b'&') {
                push(&mut line, &mut cur);
                i += 2;
                continue;
            }
            let redir = (i > 0 && matches!(b[i - 1], b'>' | b'<')) || b.get(i + 1) == Some(&b'>');
            if !redir {
                line.background = true;
                push(&mut line, &mut cur);
                i += 1;
                continue;
            }
        }
        cur.push(c as char);
        if c >= 0x80 {
            // Keep multi-byte characters whole.
            cur.pop();
            let ch = cmd[i..].chars().next().unwrap_or('\u{fffd}');
            cur.push(ch);
            i += ch.len_utf8();
            continue;
        }
        i += 1;
    }
    if depth != 0 || backtick {
        return Err(leave("unparsable", "an unclosed ( or `"));
    }
    push(&mut line, &mut cur);
    Ok(line)
}

/// The words of a simple command with its leading `VAR=value`
/// assignments and a leading `(`, `{`, `!` or `time` dropped.
pub fn words_of(simple: &str) -> Vec<String> {
    let mut w: Vec<String> = simple
        .split_whitespace()
        .map(|s| s.trim_start_matches(['(', '{']).to_string())
        .filter(|s| !s.is_empty())
        .collect();
    while w.first().is_some_and(|f| {
        f == "!"
            || f == "time"
            || f == "command"
            || f.split_once('=').is_some_and(|(k, _)| {
                !k.is_empty() && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            })
    }) {
        w.remove(0);
    }
    w
}

/// The rule that leaves `cmd` alone, if one does (rules are checked in the
/// order `--explain` lists them). `never` is checked by the caller.
pub fn must_not_rewrite(cmd: &str, background: bool) -> Result<Line, Leave> {
    if cmd.trim().is_empty() {
        return Err(leave("empty", "the command is empty"));
    }
    if cmd.contains("caveman-engine") || cmd.contains("caveman-mcp") {
        return Err(leave(
            "already-caveman",
            "the command already runs caveman-engine",
        ));
    }
    if background {
        return Err(leave(
            "background",
            "run_in_background: the host reads its output as it comes",
        ));
    }
    let line = parse(cmd)?;
    if line.commands.is_empty() {
        return Err(leave(
            "empty",
            "the command has only separators or comments",
        ));
    }
    if line.heredoc {
        return Err(leave(
            "heredoc",
            "a heredoc (<<) is left to the shell the host keeps",
        ));
    }
    for c in &line.commands {
        let w = words_of(c);
        let Some(first) = w.first() else {
            // Only assignments: they set the host shell's variables.
            return Err(leave(
                "shell-state",
                format!("`{c}` sets variables of the shell the host keeps"),
            ));
        };
        let base = first.rsplit('/').next().unwrap_or(first);
        if SHELL_STATE.contains(&base) {
            return Err(leave(
                "shell-state",
                format!(
                    "`{base}` changes the shell the host keeps (directory, variables, options)"
                ),
            ));
        }
        if INTERACTIVE.contains(&base) {
            return Err(leave("interactive", format!("`{base}` is interactive")));
        }
        if REPLS.contains(&base) && w.len() == 1 {
            return Err(leave(
                "interactive",
                format!("`{base}` alone starts a prompt"),
            ));
        }
        if base == "git"
            && (w.iter().any(|a| {
                matches!(
                    a.as_str(),
                    "-i" | "--interactive" | "-p" | "--patch" | "--edit"
                )
            }) || (w.iter().any(|a| a == "commit")
                && !w.iter().any(|a| {
                    a.starts_with("-m")
                        || a.starts_with("--message")
                        || a.starts_with("-F")
                        || a.starts_with("--file")
                        || a == "--no-edit"
                        || a.starts_with("-C")
                        || (a.starts_with('-') && !a.starts_with("--") && a.contains('m'))
                })))
        {
            return Err(leave(
                "interactive",
                "this git command opens an editor or a prompt",
            ));
        }
    }
    if line.background {
        return Err(leave(
            "background",
            "a command sent to the background (&) outlives the wrapper",
        ));
    }
    if let Some(consumer) = &line.pipe_into {
        return Err(leave(
            "pipeline",
            format!("the output is consumed by the next command (`{consumer}`)"),
        ));
    }
    if let Some(target) = &line.redirect {
        return Err(leave(
            "redirect",
            format!("stdout goes to {target}, not to the agent"),
        ));
    }
    Ok(line)
}

/// `s` as one single-quoted shell word.
pub fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('\'');
    for c in s.chars() {
        if c == '\'' {
            q.push_str("'\\''");
        } else {
            q.push(c);
        }
    }
    q.push('\'');
    q
}

/// `path` as a shell word: as is when it needs no quoting.
pub fn word(path: &str) -> String {
    if !path.is_empty()
        && path
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+:,@%".contains(&b))
    {
        path.to_string()
    } else {
        quote(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! rule {
        ($($cmd:expr => $rule:expr,)*) => {$(
            let got = must_not_rewrite($cmd, false).err().map(|l| l.rule);
            assert_eq!(got, $rule, "{:?}", $cmd);
        )*};
    }

    #[test]
    fn rules() {
        rule! {
            "cargo test" => None,
            "cargo build && cargo test --release" => None,
            "make; echo done" => None,
            "ls -la 2>&1" => None,
            "npm test >&2" => None,
            "echo $(date) 'a | b' \"c > d\"" => None,
            "find . -name '*.rs' -exec wc -l {} \\;" => None,
            "" => Some("empty"),
            "caveman-engine stats" => Some("already-caveman"),
            "cd src && ls" => Some("shell-state"),
            "export A=1" => Some("shell-state"),
            "A=1" => Some("shell-state"),
            "source venv/bin/activate && pytest" => Some("shell-state"),
            ". ./env.sh" => Some("shell-state"),
            "cat <<EOF\nx\nEOF" => Some("heredoc"),
            "grep x <<< \"$v\"" => Some("heredoc"),
            "vim file" => Some("interactive"),
            "python3" => Some("interactive"),
            "git commit" => Some("interactive"),
            "git rebase -i HEAD~3" => Some("interactive"),
            "git commit -am 'msg'" => None,
            "cargo test | tail -5" => Some("pipeline"),
            "cargo test 2>&1 | grep FAIL" => Some("pipeline"),
            "make > build.log" => Some("redirect"),
            "make &> build.log" => Some("redirect"),
            "sleep 10 &" => Some("background"),
            "echo 'unclosed" => Some("unparsable"),
            "echo (" => Some("unparsable"),
        }
        assert_eq!(must_not_rewrite("ok", true).unwrap_err().rule, "background");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// A quoted word is the string itself to a real bash, whatever it
        /// holds (quotes, `$`, backslashes, newlines, non-ASCII).
        #[test]
        fn quote_is_exact_for_bash(s in "[^\u{0}]{0,40}") {
            let out = std::process::Command::new("bash")
                .arg("-c")
                .arg(format!("printf %s {}", quote(&s)))
                .output()
                .unwrap();
            proptest::prop_assert_eq!(String::from_utf8_lossy(&out.stdout), s);
        }

        /// Reading never panics, and what it reads is either left alone
        /// with a named rule or split into commands.
        #[test]
        fn any_line_reads(s in ".{0,80}") {
            match must_not_rewrite(&s, false) {
                Ok(line) => proptest::prop_assert!(!line.commands.is_empty()),
                Err(l) => proptest::prop_assert!(!l.rule.is_empty()),
            }
        }
    }

    #[test]
    fn splits_and_quotes() {
        let l = parse("A=1 cargo test; ls -l && (cd x; pwd) || echo 'a;b'").unwrap();
        assert_eq!(
            l.commands,
            ["A=1 cargo test", "ls -l", "(cd x; pwd)", "echo 'a;b'"]
        );
        assert_eq!(words_of("A=1 B=2 time cargo test"), ["cargo", "test"]);
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(word("/usr/bin/caveman-engine"), "/usr/bin/caveman-engine");
        assert_eq!(word("/a b/c"), "'/a b/c'");
    }
}
