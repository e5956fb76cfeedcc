# Optimisers, learning-rate schedules and the training section of the project YAML.
mrnn_add_engine_test(engine_optim_test LABELS unit
  SOURCES optim_test.cpp training_config_test.cpp)
target_link_libraries(engine_optim_test PRIVATE mrnn::engine_optim)
