# `cpack -G DEB` from a build folder makes a Debian package of the tools and templates.
set(CPACK_PACKAGE_NAME "mrnn-workbench")
set(CPACK_PACKAGE_VENDOR "mRNN Workbench")
set(CPACK_PACKAGE_CONTACT "mRNN Workbench maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libtorch1.13, libyaml-cpp0.7, libopenblas0-openmp, libqt6widgets6, libqcustomplot2.1-qt6")
if(MRNN_HIGHWAY)
  # The vector kernels link Highway's shared library (engine/kernels).
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libhwy1")
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
include(CPack)

if(MRNN_BUILD_GUI)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/mrnn-workbench.desktop
          DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/mrnn-workbench.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()
