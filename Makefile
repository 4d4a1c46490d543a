# Everyday commands; `make help` lists them.
PYTHON ?= python3

.PHONY: help install dev test test-rust test-python lint fmt bench fuzz diff docs reference

help:  ## list the commands
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

install:  ## build (release) and install pql
	$(PYTHON) -m pip install .

dev:  ## install pql editable with the test dependencies
	$(PYTHON) -m pip install -e ".[test]"
	# Bytecode now, as an installed package has it: where PYTHONDONTWRITEBYTECODE is set, the
	# command would otherwise compile its modules on every start (a third of its start time).
	$(PYTHON) -m compileall -q pql_repl

test: dev test-rust test-python  ## install the test dependencies, run every Rust and Python test

test-rust:  ## the Rust tests (optimised test profile)
	cargo test --workspace

test-python:  ## the Python tests
	$(PYTHON) -m pytest

lint:  ## formatting and lints, failing on warnings
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --workspace --all-targets --features python -- -D warnings
	$(PYTHON) -m ruff check pql_repl tests benchmarks
	$(PYTHON) -m ruff format --check pql_repl tests benchmarks
	$(PYTHON) -m mypy

fmt:  ## format Rust and Python
	cargo fmt --all
	$(PYTHON) -m ruff format pql_repl tests benchmarks
	$(PYTHON) -m ruff check --fix pql_repl tests benchmarks

bench:  ## speed against eval7, phevaluator, pokerkit, poker-equity and OMPEval (release build; see benchmarks/README.md)
	$(PYTHON) -m pip install ".[test]"
	cargo run --release -p pql_core --example bench_eval
	$(PYTHON) benchmarks/bench_eval.py
	$(PYTHON) benchmarks/bench_engine.py
	$(PYTHON) benchmarks/bench_ompeval.py
	$(PYTHON) benchmarks/bench_hostile.py

fuzz:  ## a few minutes of pql's own fuzzers: the Rust harness (rust_core/examples/fuzz.rs) and the Python property tests
	cargo run --release -p pql_core --example fuzz -- --minutes $(or $(FUZZ_MINUTES),3)
	cargo run --release -p pql_core --example fuzz -- --minutes 1 --targets simulate
	HYPOTHESIS_PROFILE=fuzz $(PYTHON) -m pytest tests/test_properties.py -q
	$(PYTHON) tests/fuzz_surfaces.py --inputs $(or $(FUZZ_SURFACE_INPUTS),20000) --seed $(shell date +%s)

diff:  ## thousands of exact runs against a brute force in every game (PQL_DIFF_CASES, default 5000; PQL_DIFF_SEED, default the time; see tests/test_differential.py)
	PQL_DIFF_CASES=$(or $(PQL_DIFF_CASES),5000) PQL_DIFF_SEED=$(or $(PQL_DIFF_SEED),$(shell date +%s)) \
		$(PYTHON) -m pytest tests/test_differential.py -q

docs:  ## build the documentation site into site/ (MkDocs, Material theme; a warning fails the build)
	$(PYTHON) -m mkdocs build --strict

reference:  ## write docs/reference/functions.md again from the function catalogue (after changing it)
	$(PYTHON) tests/function_reference.py
