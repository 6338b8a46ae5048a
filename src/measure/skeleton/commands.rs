//! The commands a file makes orcl run (issue 25 G9): `libs` as words that never reach a shell,
//! the list `orcl check` prints, and the one line `orcl tune` prints before it first runs each.

use std::collections::HashSet;
use std::sync::Mutex;

/// `word` quoted for a POSIX shell command line, as written when it needs no quoting
/// (`shlex::try_quote`). A word holding a NUL byte cannot reach a program's argv at all; it
/// becomes the empty word `''`, so the command fails visibly rather than losing the word.
pub fn shell_word(word: &str) -> String {
    shlex::try_quote(word)
        .map(|c| c.into_owned())
        .unwrap_or_else(|_| "''".into())
}

/// `word` with each `$NAME` and `${NAME}` replaced by the environment variable's value (empty
/// when unset), as the shell would expand it in an unquoted word, and nothing else: no command
/// substitution (`$(..)`, backquotes), arithmetic, globbing or word splitting. A `$` not followed
/// by a name stays as written.
pub fn expand_env(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    let mut rest = word;
    while let Some(p) = rest.find('$') {
        out.push_str(&rest[..p]);
        let after = &rest[p + 1..];
        let (braced, body) = match after.strip_prefix('{') {
            Some(b) => (true, b),
            None => (false, after),
        };
        let end = body
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(body.len());
        let name = &body[..end];
        let closed = !braced || body[end..].starts_with('}');
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) || !closed {
            out.push('$');
            rest = after;
            continue;
        }
        out.push_str(&std::env::var(name).unwrap_or_default());
        rest = &body[end + usize::from(braced)..];
    }
    out.push_str(rest);
    out
}

/// The `libs` setting (after Orio's site adjustments and `@PARAM@` substitution, a shell-quoted
/// string) as words given to the compiler as they are: split as the shell would split them,
/// `$NAME` expanded from the environment ([`expand_env`]), each word quoted again so that the
/// build shell passes it through unchanged. `$(..)` and backquotes are plain text.
///
/// Errors: an unbalanced quote (the message says so).
pub fn libs_words(libs: &str) -> Result<String, String> {
    let words = shlex::split(libs).ok_or_else(|| "an unbalanced quote".to_string())?;
    Ok(words
        .iter()
        // An unset variable alone is no word at all, as in the shell.
        .filter_map(|w| Some(expand_env(w)).filter(|x| !x.is_empty() || w.is_empty()))
        .map(|w| shell_word(&w))
        .collect::<Vec<_>>()
        .join(" "))
}

/// Print `running <which>: <command>` on stderr the first time this process runs `command`
/// (control characters escaped), so that a tune never runs a file's command silently.
pub fn announce(which: &str, command: &str) {
    static SEEN: Mutex<Option<HashSet<String>>> = Mutex::new(None);
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if seen
        .get_or_insert_with(HashSet::new)
        .insert(command.to_string())
    {
        orcl_frontend::errln!(
            "running {which}: {}",
            orcl_frontend::diag::escape_controls(command)
        );
    }
}

/// Every command `orcl tune` runs for `spec`'s build section, in order, as (setting and how it
/// runs, command line): the pre-build command, the skeleton's compile command (`SKELETON` stands for the
/// cached binary's path, `@NAME@` for each configuration's value, `$NAME` in `build_command`
/// and the hooks for the shell's expansion), the `libs` words (given to the compiler, not to a
/// shell), the post-build command. `orcl check` prints them (issue 25 G9).
pub fn listing(spec: &orcl_frontend::spec::TuningSpec) -> Vec<(&'static str, String)> {
    let b = &spec.build;
    let mut out = Vec::new();
    if let Some(c) = &b.prebuild_command {
        out.push(("prebuild_command (sh -c)", c.value.clone()));
    }
    let cc = match &b.build_command {
        Some(c) => super::site_adjust(&c.value).0,
        None => super::DEFAULT_BUILD_COMMAND.to_string(),
    };
    let libs = b.libs.as_ref().map(|c| {
        let (l, _, _) = super::site_adjust(&format!("cc {}", c.value));
        let l = l.strip_prefix("cc").unwrap_or(&l).trim().to_string();
        libs_words(&l).unwrap_or(l)
    });
    let line = format!(
        "{cc} -o SKELETON SKELETON.c{} -lOpenCL -lm",
        libs.as_deref()
            .filter(|l| !l.is_empty())
            .map(|l| format!(" {l}"))
            .unwrap_or_default()
    );
    out.push(("build_command (sh -c)", line));
    if let Some(l) = libs {
        out.push(("libs (words for the compiler, no shell)", l));
    }
    if let Some(c) = &b.postbuild_command {
        out.push(("postbuild_command (sh -c)", c.value.clone()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libs_never_substitute_commands() {
        std::env::set_var("ORCL_TEST_LIBS_DIR", "/opt/x y");
        assert_eq!(
            libs_words("-L$ORCL_TEST_LIBS_DIR/lib -L${ORCL_TEST_LIBS_DIR} -lm").unwrap(),
            "'-L/opt/x y/lib' '-L/opt/x y' -lm"
        );
        assert_eq!(
            libs_words("$(touch x) `id` $ $1 ${A").unwrap(),
            "'$(touch' 'x)' '`id`' '$' '$1' '${A'"
        );
        assert_eq!(libs_words("$ORCL_TEST_NO_SUCH_VAR -lm").unwrap(), "-lm");
        assert!(libs_words("'-lm").is_err());
    }
}
