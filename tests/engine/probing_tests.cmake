# The probing analyses: gate traces and statistics, the hidden-state tree.
mrnn_add_engine_test(engine_probing_test LABELS unit
  SOURCES probing_gates_test.cpp probing_tree_test.cpp)
target_link_libraries(engine_probing_test PRIVATE mrnn::engine_probing)
