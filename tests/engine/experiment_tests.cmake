# Experiments (engine/experiment): the file, the plan, the queue's ledger and decisions, the
# results tables, the Slurm executor against a stand-in client. No training here:
# tests/cli/experiment_life.sh runs real queues, tests/cli/experiment_slurm.sh a real cluster.
mrnn_add_engine_test(engine_experiment_test LABELS unit
  SOURCES experiment_spec_test.cpp experiment_queue_test.cpp experiment_slurm_test.cpp)
target_link_libraries(engine_experiment_test PRIVATE mrnn::engine_experiment mrnn::engine_store
                                                     mrnn::engine_runtime)
# Its files each keep helpers of the same names (a base project, fixtures): compiled apart.
set_target_properties(engine_experiment_test PROPERTIES UNITY_BUILD OFF)
