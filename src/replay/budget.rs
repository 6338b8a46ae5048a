//! The evaluation budget of a strategy run (`--budget 50`, `5%`).

use anyhow::{anyhow, bail, Result};

/// The evaluation budget of one strategy run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Budget {
    /// A number of evaluations (≥ 1).
    Evaluations(u64),
    /// A share of the measured space, in percent (0 < p ≤ 100).
    Percent(f64),
}

impl Budget {
    /// `50` (evaluations) or `5%` (of the space).
    ///
    /// Errors: not a positive integer or a percentage in (0, 100].
    pub fn parse(s: &str) -> Result<Budget> {
        let t = s.trim();
        let usage = "use a number of evaluations (`50`) or a share of the space (`5%`)";
        if let Some(p) = t.strip_suffix('%') {
            let p: f64 = p
                .trim()
                .parse()
                .ok()
                .filter(|p: &f64| p.is_finite())
                .ok_or_else(|| anyhow!("invalid budget `{s}`: {usage}"))?;
            if p <= 0.0 || p > 100.0 {
                bail!("invalid budget `{s}`: a share of the space must be more than 0% and at most 100%");
            }
            return Ok(Budget::Percent(p));
        }
        match t.parse::<u64>() {
            Ok(0) => bail!("invalid budget `{s}`: at least 1 evaluation is needed"),
            Ok(n) => Ok(Budget::Evaluations(n)),
            Err(_) => bail!("invalid budget `{s}`: {usage}"),
        }
    }

    /// A comma-separated list of budgets (`1%,3%,5%,100`), in the order given.
    ///
    /// Errors: an element that [`Budget::parse`] refuses (an empty one included).
    pub fn parse_list(s: &str) -> Result<Vec<Budget>> {
        s.split(',').map(Budget::parse).collect()
    }

    /// The number of evaluations for a space of `space_size` measurements: at least 1 and at
    /// most `space_size` (when it is not 0). A percentage is rounded up (`5%` of 30 is 2).
    pub fn evaluations(self, space_size: u64) -> u64 {
        let n = match self {
            Budget::Evaluations(n) => n,
            Budget::Percent(p) => {
                let x = p * space_size as f64 / 100.0;
                let r = x.round();
                // 10% of 30 is 3, although 0.1 * 30 is not exactly 3 in binary.
                if (x - r).abs() <= 1e-9 * x.max(1.0) {
                    r as u64
                } else {
                    x.ceil() as u64
                }
            }
        };
        let n = n.max(1);
        if space_size > 0 {
            n.min(space_size)
        } else {
            n
        }
    }
}
