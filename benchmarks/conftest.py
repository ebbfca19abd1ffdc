"""Print the per-solve extras (p99, nodes, hit rate) and the baseline ratio."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    session = getattr(config, "_benchmarksession", None)
    if session is None or not session.benchmarks:
        return
    write = terminalreporter.write_line
    write("")
    write("per-solve summary (ms; nodes per solve; table hit rate):")
    means = {}
    for bench in session.benchmarks:
        info = bench.extra_info
        if "speed_up" in info:
            write(f"  {bench.name:<55} two threads {info['two_threads_mean_ms']:.2f} ms, one "
                  f"{info['one_thread_mean_ms']:.2f} ms: {info['speed_up']:.2f}x; CPU one thread "
                  f"{info['cpu_one_thread_ms']:.2f} ms, two {info['cpu_two_threads_ms']:.2f} ms, "
                  f"nodes {info['nodes_one_thread']:,} and {info['nodes_two_threads']:,}, "
                  f"the busier solver {info['busier_share']:.3f} of one thread's")
        if "mean_ms" not in info:
            continue
        means[bench.name] = info["mean_ms"]
        write(f"  {bench.name:<55} mean {info['mean_ms']:>9.4f}  p99 {info['p99_ms']:>8.3f}  "
              f"nodes {info['nodes_per_solve']:>9}  hits {info['tt_hit_rate']:.2f}")
    for kind in ("trump", "nt", "misere"):
        base = means.get(f"test_full_deals_against_table_only[{kind}-table-only]")
        best = means.get(f"test_full_deals_against_table_only[{kind}-optimised]")
        if base and best:
            write(f"  optimised vs table-only search, full deals, {kind}: {base / best:.1f}x faster")
    base = means.get("test_endgames_against_baseline[baseline]")
    best = means.get("test_endgames_against_baseline[optimised]")
    if base and best:
        write(f"  optimised vs plain alpha-beta on 8-card endgames: {base / best:.1f}x faster")
