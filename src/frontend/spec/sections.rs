//! The sections of a spec (`def SECTION { ... }`): their names, statements and arguments.

use super::SEARCH_ARGS;

/// The statement kinds of a spec.
pub(super) const STATEMENTS: &[&str] = &["param", "constraint", "decl", "arg", "let"];
/// Words that cannot name a let, a parameter or a variable.
pub(super) const NAME_KEYWORDS: &[&str] = &[
    "and", "or", "not", "if", "else", "for", "in", "True", "False", "random",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sec {
    PerfParams,
    InputParams,
    InputVars,
    Build,
    Counter,
    TestCode,
    Search,
    Validation,
}

impl Sec {
    pub(super) fn from_name(s: &str) -> Option<Sec> {
        Some(match s {
            "performance_params" => Sec::PerfParams,
            "input_params" => Sec::InputParams,
            "input_vars" => Sec::InputVars,
            "build" => Sec::Build,
            "performance_counter" => Sec::Counter,
            "performance_test_code" => Sec::TestCode,
            "search" => Sec::Search,
            "validation" => Sec::Validation,
            _ => return None,
        })
    }
    pub(super) fn name(self) -> &'static str {
        match self {
            Sec::PerfParams => "performance_params",
            Sec::InputParams => "input_params",
            Sec::InputVars => "input_vars",
            Sec::Build => "build",
            Sec::Counter => "performance_counter",
            Sec::TestCode => "performance_test_code",
            Sec::Search => "search",
            Sec::Validation => "validation",
        }
    }
    /// Statement kinds allowed in the section (`let` is allowed everywhere, as in Orio).
    pub(super) fn statements(self) -> &'static [&'static str] {
        match self {
            Sec::PerfParams | Sec::InputParams => &["param", "constraint", "let"],
            Sec::InputVars => &["decl", "arg", "let"],
            _ => &["arg", "let"],
        }
    }
    pub(super) fn args(self) -> &'static [&'static str] {
        match self {
            Sec::PerfParams | Sec::InputParams => &[],
            Sec::InputVars => &["decl_file", "init_file"],
            Sec::Build => &[
                "build_command",
                "libs",
                "prebuild_command",
                "postbuild_command",
                "batch_command",
                "status_command",
                "num_procs",
            ],
            Sec::Counter => &["repetitions", "method", "warmups", "timeout", "objective"],
            Sec::TestCode => &["skeleton_code_file"],
            Sec::Search => SEARCH_ARGS,
            Sec::Validation => &["tolerance", "validation_file"],
        }
    }
}

pub(super) fn statement_list(allowed: &[&str]) -> String {
    quoted_list(allowed) + " statements"
}

pub(super) fn quoted_list(items: &[&str]) -> String {
    let q: Vec<String> = items.iter().map(|s| format!("`{s}`")).collect();
    match q.len() {
        0 => String::new(),
        1 => q[0].clone(),
        n => format!("{} and {}", q[..n - 1].join(", "), q[n - 1]),
    }
}
