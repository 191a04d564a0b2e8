"""Arithmetic shared by the benchmarks: percentiles and a process's resident memory."""
from __future__ import annotations


def pct(samples: list[float], q: float) -> float:
    """The `q`th percentile (0..100) of `samples`, nearest rank; 0.0 for none."""
    ordered = sorted(samples) or [0.0]
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def rss_mb(pid: int | str = "self") -> float:
    """Resident memory of a process, in MB (0.0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return next((int(line.split()[1]) / 1024 for line in status
                         if line.startswith("VmRSS:")), 0.0)
    except OSError:
        return 0.0


def workers_rss_mb() -> float:
    """The render worker processes' memory, which belongs to the bot too."""
    import multiprocessing
    return sum(rss_mb(child.pid) for child in multiprocessing.active_children())
