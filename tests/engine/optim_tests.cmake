# Optimisers, learning-rate schedules and the training section of the project YAML.
mrnn_add_engine_test(engine_optim_test LABELS unit
  SOURCES optim_test.cpp training_config_test.cpp)
target_link_libraries(engine_optim_test PRIVATE mrnn::engine_optim)

# Hessian-free's parts on constructed cases: CG, backtracking, line search, ρ and λ.
mrnn_add_engine_test(engine_hessian_free_test LABELS unit SOURCES hessian_free_test.cpp)
target_link_libraries(engine_hessian_free_test PRIVATE mrnn::engine_optim)
