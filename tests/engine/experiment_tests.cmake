# Experiments (engine/experiment): the file, the plan, the queue's ledger and decisions, the
# results tables. No training here: tests/cli/experiment_life.sh runs real queues.
mrnn_add_engine_test(engine_experiment_test LABELS unit
  SOURCES experiment_spec_test.cpp experiment_queue_test.cpp)
target_link_libraries(engine_experiment_test PRIVATE mrnn::engine_experiment mrnn::engine_store
                                                     mrnn::engine_runtime)
