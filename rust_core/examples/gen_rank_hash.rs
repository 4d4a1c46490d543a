//! Writes `data/rank_hash.bin`: the perfect hashes of rank multisets that the hi and lo tables
//! use (`eval::rank_tables`), searched here once instead of on every start.
//!
//! `cargo run --release --example gen_rank_hash`

fn main() -> std::io::Result<()> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/rank_hash.bin");
    std::fs::write(path, pql_core::eval::rank_hash_file())?;
    println!("wrote {path}");
    Ok(())
}
