# mrnn_qt_target(<target>): one of our Qt targets (a panel library, a widget test, the
# workbench): moc, the project's warnings, and widgets/pch/qt_pch.h precompiled once for
# mrnn_widgets and reused by the rest, which takes a Qt file from ~7 s to ~2.5 s.
# A precompiled header is refused where a macro that its headers read differs, and the
# standard library reads LibTorch's _GLIBCXX_USE_CXX11_ABI: every Qt target compiles with
# LibTorch's flags, as those that link the engine already do.
function(mrnn_qt_target target)
  set_target_properties(${target} PROPERTIES AUTOMOC ON)
  mrnn_set_warnings(${target})
  target_compile_options(${target} PRIVATE ${TORCH_CXX_FLAGS})
  if(target STREQUAL "mrnn_widgets")
    target_precompile_headers(${target} PRIVATE ${PROJECT_SOURCE_DIR}/widgets/pch/qt_pch.h)
  else()
    target_precompile_headers(${target} REUSE_FROM mrnn_widgets)
  endif()
endfunction()
