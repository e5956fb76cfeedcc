# Models in and out of PyTorch: the zip pickle and safetensors formats (files PyTorch itself
# wrote among them), export's eval form, import as a run, and every bad file refused.
mrnn_add_engine_test(engine_interop_test LABELS unit
  SOURCES interop_test.cpp interop_import_test.cpp interop_hostile_test.cpp zip_directory_test.cpp)
target_link_libraries(engine_interop_test PRIVATE mrnn::engine_interop mrnn_training_fixtures)
target_compile_definitions(engine_interop_test PRIVATE
  MRNN_INTEROP_FILES="${CMAKE_CURRENT_SOURCE_DIR}/interop_files")
