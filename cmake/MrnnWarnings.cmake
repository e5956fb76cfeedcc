# mrnn_set_warnings(<target>): the project's warning set for its own sources.
# Third-party headers (LibTorch, Qt, yaml-cpp) come in as SYSTEM includes through
# their imported targets, so their warnings stay out of our builds.
# CUDA sources (engine/cuda) get nvcc's own warnings and the host compiler's -Wall -Wextra
# (not -Wpedantic: nvcc's generated host code is not pedantic C++).
function(mrnn_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    set(flags -Wall -Wextra -Wpedantic -Wshadow=local -Wnon-virtual-dtor -Woverloaded-virtual)
    target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:${flags}>")
    if(MRNN_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
    endif()
  endif()
  if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
    if(MRNN_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--Werror=all-warnings>)
    endif()
  endif()
endfunction()
