//! The search space: tuning parameters, their values, constraints, enumeration.
