"""Does a second busy core slow the first? The same pure-Python loop timed alone, then in two processes at once.

On a machine whose cores are real and idle otherwise, each of two at once takes the time one takes alone. On a
virtual machine whose two cores share a host core's resources (SMT siblings) or a busy host, one or both take
longer: then two server workers cannot move twice what one moves, however little they wait for each other.

    .venv/bin/python bench/cores.py [--rounds 5] [--loops 30000000]
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time


def spin(loops: int) -> float:
    """CPU seconds of `loops` turns of a small pure-Python loop."""
    started = time.process_time()
    total = 0
    for i in range(loops):
        total += i & 7
    return time.process_time() - started


def _spin_into(queue: multiprocessing.Queue[float], loops: int) -> None:
    queue.put(spin(loops))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--loops", type=int, default=30_000_000)
    options = parser.parse_args()
    alone: list[float] = []
    slower: list[float] = []
    quicker: list[float] = []
    print("round  alone ms  two at once ms (each)")
    for round_number in range(1, options.rounds + 1):
        alone.append(spin(options.loops))
        queue: multiprocessing.Queue[float] = multiprocessing.Queue()
        workers = [multiprocessing.Process(target=_spin_into, args=(queue, options.loops)) for _ in range(2)]
        for worker in workers:
            worker.start()
        pair = sorted(queue.get() for _ in workers)
        for worker in workers:
            worker.join()
        quicker.append(pair[0])
        slower.append(pair[1])
        print(f"{round_number:5}  {alone[-1] * 1000:8.0f}  {pair[0] * 1000:6.0f} / {pair[1] * 1000:.0f}")
    ratio = statistics.median(slower) / statistics.median(alone)
    print(
        f"medians: alone {statistics.median(alone) * 1000:.0f} ms; two at once {statistics.median(quicker) * 1000:.0f}"
        f" / {statistics.median(slower) * 1000:.0f} ms (the slower {ratio:.2f}x alone)"
    )


if __name__ == "__main__":
    main()
