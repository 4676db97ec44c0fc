//! The heap's statistics (what `--stats` prints, like GHC's `+RTS -s`):
//! both generations' collections, bytes copied and times, the maximum
//! residency, and the timer that charges a collection to them.

use std::time::{Duration, Instant};

use super::thread_cpu_time;

/// One generation's collections: generation 0 the nursery (minor
/// collections), 1 the old generation (major collections).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GenStats {
    pub collections: u64,
    /// Bytes copied: aged or promoted by minor collections (0), or live
    /// data copied into the other old space (1).
    pub bytes_copied: u64,
    /// CPU time of the thread that collected.
    pub cpu: Duration,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The longest collection, wall-clock.
    pub max_pause: Duration,
}

/// Collector and allocator statistics (GHC's `+RTS -s`). The totals are
/// the sums of the two generations' figures.
#[derive(Clone, Debug, Default)]
pub struct HeapStats {
    pub bytes_allocated: u64,
    /// Both generations.
    pub bytes_copied: u64,
    /// Bytes promoted to the old generation by minor collections (of
    /// generation 0's bytes copied; the rest were aged).
    pub bytes_promoted: u64,
    /// Both generations.
    pub collections: u64,
    /// Generation 0 (minor collections) and 1 (major collections).
    pub gens: [GenStats; 2],
    /// The most live data measured: at each major collection (which
    /// copies exactly what is live) and, when the engines ask for it
    /// (`RunOptions::final_collection`), at the end of the run.
    pub max_residency_bytes: u64,
    /// How many measures `max_residency_bytes` is the largest of (the
    /// major collections).
    pub residency_samples: u64,
    /// Wall-clock time spent collecting.
    pub gc_time: Duration,
    /// CPU time of the collecting thread spent collecting.
    pub gc_cpu_time: Duration,
    /// The longest collection, wall-clock.
    pub max_pause: Duration,
}

/// Times one collection.
pub(super) struct Timer {
    wall: Instant,
    cpu: Duration,
}

impl Timer {
    pub fn start() -> Timer {
        Timer {
            wall: Instant::now(),
            cpu: thread_cpu_time(),
        }
    }

    /// Charge the time since `start` to generation `generation` and the
    /// totals, with the bytes copied.
    pub fn stop(self, stats: &mut HeapStats, generation: usize, bytes_copied: u64) {
        let elapsed = self.wall.elapsed();
        let cpu = thread_cpu_time().saturating_sub(self.cpu);
        let g = &mut stats.gens[generation];
        g.collections += 1;
        g.bytes_copied += bytes_copied;
        g.cpu += cpu;
        g.elapsed += elapsed;
        g.max_pause = g.max_pause.max(elapsed);
        stats.collections += 1;
        stats.bytes_copied += bytes_copied;
        stats.gc_time += elapsed;
        stats.gc_cpu_time += cpu;
        stats.max_pause = stats.max_pause.max(elapsed);
    }
}
