# Optional CUDA backend of the sweep kernel. The CPU backend is always built and gives
# the same numbers; CUDA only adds a faster way to run the very same TCO_HD functions.
set(TCO_HAVE_CUDA OFF)
if(NOT TCO_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    set(TCO_HAVE_CUDA ON)
  elseif(TCO_CUDA STREQUAL "ON")
    message(FATAL_ERROR "TCO_CUDA=ON but no CUDA compiler was found (set CMAKE_CUDA_COMPILER)")
  endif()
endif()
message(STATUS "tcosim CUDA sweep backend: ${TCO_HAVE_CUDA}")
