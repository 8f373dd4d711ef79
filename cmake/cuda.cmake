# The sweep's backends (docs/sweep.md).
#
# CPU: engine/sweep/sweep_cpu.cpp holds the vectorised hot loop. Like every file it is compiled without
# FMA contraction (CMakeLists.txt: its AVX-512, AVX2 and baseline clones, and the deterministic
# evaluator, give the same bits), and here also without trapping math (so std::ceil vectorises;
# it changes no result).
set_source_files_properties(${CMAKE_SOURCE_DIR}/engine/sweep/sweep_cpu.cpp PROPERTIES
  COMPILE_OPTIONS "-fno-trapping-math")

# CUDA: optional backend of the same TCO_HD functions. The CPU backend is always built and gives
# the same numbers; CUDA only adds a faster way to run them. TCO_CUDA = AUTO (use nvcc when
# present), ON (required), OFF.
set(TCO_HAVE_CUDA OFF)
if(NOT TCO_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # Hopper (H100, H200) unless the caller chose; the runtime is linked statically so the
    # binary runs wherever the driver is.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(TCO_HAVE_CUDA ON)
  elseif(TCO_CUDA STREQUAL "ON")
    message(FATAL_ERROR "TCO_CUDA=ON but no CUDA compiler was found (set CMAKE_CUDA_COMPILER)")
  endif()
endif()
message(STATUS "tcosim CUDA sweep backend: ${TCO_HAVE_CUDA}")

if(TCO_HAVE_CUDA)
  # .cu files only launch; the kernels are the TCO_HD functions of engine/sweep/sweep_kernel.hpp.
  # --fmad=false: no FMA contraction, as on the CPU, so both backends round the same way
  # (only the device's exp/log differ from the host's, in the last bits).
  add_library(tcosim_cuda STATIC ${CMAKE_SOURCE_DIR}/engine/sweep/sweep_cuda.cu)
  # The kernel's headers are C++20 like the rest (defaulted comparisons). CMake 3.25 knows no
  # nvcc flag for CUDA C++20, though nvcc 12 and later take -std=c++20: tell it.
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  set_target_properties(tcosim_cuda PROPERTIES POSITION_INDEPENDENT_CODE ON CUDA_STANDARD 20
                                               CUDA_STANDARD_REQUIRED ON)
  # The kernel sees what the engine layer sees (CMakeLists.txt: build/layers/engine).
  target_include_directories(tcosim_cuda PRIVATE ${CMAKE_BINARY_DIR}/layers/engine)
  target_include_directories(tcosim_cuda SYSTEM PRIVATE ${RANDOM123_INCLUDE_DIR})
  target_link_libraries(tcosim_cuda PRIVATE nlohmann_json::nlohmann_json fmt::fmt)
  target_link_libraries(tcosim_cuda PUBLIC CUDA::cudart_static)
  target_compile_definitions(tcosim_cuda PRIVATE TCO_HAVE_CUDA=1)
  target_compile_options(tcosim_cuda PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false>)
  target_compile_definitions(tcosim_engine PUBLIC TCO_HAVE_CUDA=1)
  target_link_libraries(tcosim_engine PUBLIC tcosim_cuda)
endif()
