# mrnn_set_warnings(<target>): the project's warning set for its own sources.
# Third-party headers (LibTorch, Qt, yaml-cpp) come in as SYSTEM includes through
# their imported targets, so their warnings stay out of our builds.
function(mrnn_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow=local
                                             -Wnon-virtual-dtor -Woverloaded-virtual)
    if(MRNN_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()
