// Bounds on numbers a user or a file may ask for, checked where they are read so a typo
// or a hostile file cannot turn into a billion workers or an allocation of the address
// space.
#pragma once

namespace dlfl {

// Parallel workers, jobs or threads (`dlfl collect -j`, `dlfl bench -j` and a benchmark
// file's "jobs", `dlfl bugset import -j`): far above any machine dlfl runs on, far below
// what exhausts processes, file descriptors or disk with work trees.
inline constexpr unsigned kMaxJobs = 256;

}  // namespace dlfl
