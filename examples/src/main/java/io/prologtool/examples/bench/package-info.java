/**
 * The benchmark suite of issue 8 ({@link io.prologtool.examples.bench.Benchmarks}): both backends side by
 * side with baselines that do the same work without prologtool, in one run, into
 * {@code docs/bench/results.csv}, {@code results.svg} and {@code results.md}. Run it with
 * {@code make bench}, or {@code make bench BENCH_ARGS=--quick} for a short run.
 */
package io.prologtool.examples.bench;
