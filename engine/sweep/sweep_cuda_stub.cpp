// The CUDA backend's entry points in a build without CUDA (cmake/cuda.cmake compiles
// engine/sweep/sweep_cuda.cu instead when nvcc is found).
#if !defined(TCO_HAVE_CUDA)

#include "core/error.hpp"
#include "engine/sweep/sweep_backend.hpp"

namespace tco {

bool sweep_cuda_built() { return false; }

int sweep_cuda_devices(std::string* why) {
  if (why) *why = "this tcosim was built without the CUDA backend (configure with nvcc on the PATH, or -DTCO_CUDA=ON)";
  return 0;
}

SweepPathValues run_sweep_cuda(const SweepChunk&, long, SweepDeviceMoments*, ProgressCounter*) {
  std::string why;
  sweep_cuda_devices(&why);
  throw ModelError("--backend cuda: " + why);
}

}  // namespace tco

#endif
