//! See DESIGN.md §1.
