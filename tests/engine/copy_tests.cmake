# The reverse copy task (Melis et al. 2019 §4.3): its data: keys, generation and target mask
# (engine/data), masked training and evaluation (engine/training) and `analyze copy`'s
# scoring (engine/synthetic), each against answers known in advance.
mrnn_add_engine_test(engine_copy_test LABELS unit
  SOURCES copy_config_test.cpp copy_data_test.cpp copy_eval_test.cpp scoring_fixtures.cpp)
target_link_libraries(engine_copy_test PRIVATE mrnn::engine_synthetic mrnn_training_fixtures
                                               mrnn_training_runs)
# Its files each keep helpers of the same names (a base project, fixtures): compiled apart.
set_target_properties(engine_copy_test PROPERTIES UNITY_BUILD OFF)
