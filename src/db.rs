//! The SQLite tuning database (DESIGN.md §5).
