// Resolving the world size the gradients are averaged over.
#include "mpi_trainer/config.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace mpi_trainer {

int resolve_world_size(const TrainerConfig& config, [[maybe_unused]] const Comm& comm) {
  if (config.world_size > 0) return config.world_size;
  if (const char* env = std::getenv("WORLD_SIZE"); env != nullptr && *env != '\0') {
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (*end != '\0' || n < 1 || n > 1 << 20) throw std::invalid_argument(std::string("bad WORLD_SIZE: ") + env);
    return static_cast<int>(n);
  }
#if MPI_TRAINER_FAULT_WORLD_SIZE_DEFAULT
  return 1;
#else
  return comm.size();
#endif
}

}  // namespace mpi_trainer
