# mrnn_cuda_link_directories(<out> HOST <id> <version> CXX <id> <version>
#                            CUDA_DIRS <dir>... CXX_DIRS <dir>...)
# The CUDA language's implicit link folders, less the host compiler's own GCC folder where nvcc
# compiles through an older GCC than the C++ compiler (CUDA 12.4 stops at GCC 13). CMake puts
# those folders on every link line of a target with CUDA code, ahead of the C++ compiler's:
# the older libstdc++ was linked, and libraries built by the newer GCC (fmt, LibTorch) failed
# with "undefined reference to __cxa_call_terminate". The newer runtime serves the kernels'
# objects too. A host GCC newer than the C++ compiler's cannot be linked: refused.
function(mrnn_cuda_link_directories out)
  cmake_parse_arguments(ARG "" "" "HOST;CXX;CUDA_DIRS;CXX_DIRS" ${ARGN})
  set(dirs ${ARG_CUDA_DIRS})
  list(GET ARG_HOST 0 host_id)
  list(GET ARG_CXX 0 cxx_id)
  if(host_id STREQUAL "GNU" AND cxx_id STREQUAL "GNU")
    list(GET ARG_HOST 1 host_version)
    list(GET ARG_CXX 1 cxx_version)
    string(REGEX MATCH "^[0-9]+" host_major "${host_version}")
    string(REGEX MATCH "^[0-9]+" cxx_major "${cxx_version}")
    if(host_major GREATER cxx_major)
      message(FATAL_ERROR "nvcc compiles through GCC ${host_version}, newer than the C++ "
                          "compiler, GCC ${cxx_version}, whose C++ library cannot link the "
                          "kernels: configure a fresh build folder with CUDAHOSTCXX at the C++ "
                          "compiler's GCC or older")
    endif()
    foreach(dir IN LISTS ARG_CUDA_DIRS)
      if(dir MATCHES "/gcc/[^/]+/[0-9.]+$" AND NOT dir IN_LIST ARG_CXX_DIRS)
        list(REMOVE_ITEM dirs "${dir}")
      endif()
    endforeach()
  endif()
  set(${out} ${dirs} PARENT_SCOPE)
endfunction()
