# The corpus data layer (engine/data): vocabularies, token streams, corpus readers, the
# stream batcher and the data: section of a project.
mrnn_add_engine_test(engine_data_test LABELS unit
  SOURCES data_test.cpp data_synthetic_test.cpp data_errors_test.cpp data_vocabulary_test.cpp
          data_batcher_test.cpp data_config_test.cpp data_problem_test.cpp)
target_link_libraries(engine_data_test PRIVATE mrnn::engine_data)
