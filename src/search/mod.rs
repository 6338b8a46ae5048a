//! Search strategies: propose configurations, observe outcomes (DESIGN.md §6).
