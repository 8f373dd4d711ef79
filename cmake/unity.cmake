# Unity batches that a compiler cache can reuse from a clone at another path.
#
# CMake 3.25's UNITY_BUILD writes each batch as `#include "/absolute/path/of/the/checkout/x.cpp"`,
# and ccache hashes that text (CCACHE_BASEDIR rewrites command lines, not a file's contents), so a
# clean clone at a new path, as CI makes, compiled every batch from scratch. These batches include
# their sources by a path relative to the batch file, the same in every clone that keeps its build
# folder at the same place in the checkout (build/, build-asan/). CMake's own
# UNITY_BUILD_RELOCATABLE needs 3.32.
#
# tco_unity_batches(TARGET SIZE) groups the target's .cpp sources, in their order, into batches of
# SIZE, as UNITY_BUILD_BATCH_SIZE did (so the same files meet in a batch), leaving out those marked
# SKIP_UNITY_BUILD_INCLUSION or with compile options of their own, and compiles the batches instead of the files. A batch file is
# rewritten only when its text changes, so a configure run does not rebuild what it did not touch.
function(tco_unity_batches target size)
  if(NOT TCO_UNITY_BUILD)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(batch_dir ${CMAKE_CURRENT_BINARY_DIR}/unity/${target})
  file(MAKE_DIRECTORY ${batch_dir})
  set(batches "")
  set(text "")
  set(in_batch 0)
  set(index 0)
  foreach(source IN LISTS sources)
    if(NOT IS_ABSOLUTE ${source})
      set(source ${source_dir}/${source})
    endif()
    # As CMake's own batches: a file with options of its own compiles alone.
    set(alone OFF)
    foreach(property SKIP_UNITY_BUILD_INCLUSION COMPILE_OPTIONS COMPILE_DEFINITIONS COMPILE_FLAGS INCLUDE_DIRECTORIES)
      get_source_file_property(value ${source} ${property})
      if(value)
        set(alone ON)
      endif()
    endforeach()
    if(NOT source MATCHES "\\.cpp$" OR alone)
      continue()
    endif()
    file(RELATIVE_PATH from_batch ${batch_dir} ${source})
    string(APPEND text "#include \"${from_batch}\"\n")
    set_source_files_properties(${source} PROPERTIES HEADER_FILE_ONLY ON)
    math(EXPR in_batch "${in_batch} + 1")
    if(in_batch EQUAL size)
      file(CONFIGURE OUTPUT ${batch_dir}/batch_${index}.cpp CONTENT "${text}" @ONLY)
      list(APPEND batches ${batch_dir}/batch_${index}.cpp)
      math(EXPR index "${index} + 1")
      set(text "")
      set(in_batch 0)
    endif()
  endforeach()
  if(in_batch GREATER 0)
    file(CONFIGURE OUTPUT ${batch_dir}/batch_${index}.cpp CONTENT "${text}" @ONLY)
    list(APPEND batches ${batch_dir}/batch_${index}.cpp)
  endif()
  target_sources(${target} PRIVATE ${batches})
endfunction()
