# expect_result(<description> <expected> <function> <argument>...): calls
# <function>(<out> <argument>...) and stops the script, naming both values, where <out> is not
# <expected>.
function(expect_result description expected function)
  cmake_language(CALL ${function} got ${ARGN})
  if(NOT got STREQUAL expected)
    message(FATAL_ERROR "${description}:\n  got      ${got}\n  expected ${expected}")
  endif()
endfunction()
