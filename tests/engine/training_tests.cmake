# The training engine: loop, checkpoints, evaluation; and a real corpus learning test.
add_library(mrnn_training_fixtures STATIC training_fixtures.cpp)
target_link_libraries(mrnn_training_fixtures PUBLIC mrnn::engine_config)
target_include_directories(mrnn_training_fixtures PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
mrnn_set_warnings(mrnn_training_fixtures)
# Whole runs and their checkpoints' weights, for the tests that compare runs.
add_library(mrnn_training_runs STATIC training_runs.cpp)
target_link_libraries(mrnn_training_runs PUBLIC mrnn::engine_training)
target_include_directories(mrnn_training_runs PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
mrnn_set_warnings(mrnn_training_runs)

mrnn_add_engine_test(engine_training_test LABELS unit
  SOURCES training_test.cpp evaluator_test.cpp run_ownership_test.cpp held_out_note_test.cpp
          single_stream_eval_test.cpp)
target_link_libraries(engine_training_test PRIVATE mrnn::engine_training mrnn_training_fixtures
                                                   mrnn_training_runs)

mrnn_add_engine_test(engine_learning_test LABELS slow SOURCES learning_test.cpp)
target_link_libraries(engine_learning_test PRIVATE mrnn::engine_training mrnn_training_fixtures)
set_tests_properties(engine_learning_test PROPERTIES ENVIRONMENT "OMP_NUM_THREADS=2" TIMEOUT 900)

# Held-out evaluation equals the one-stream reading at every batch size (trains a model).
mrnn_add_engine_test(engine_one_stream_eval_test LABELS slow SOURCES one_stream_eval_test.cpp)
target_link_libraries(engine_one_stream_eval_test PRIVATE mrnn::engine_training)
set_tests_properties(engine_one_stream_eval_test PROPERTIES ENVIRONMENT "OMP_NUM_THREADS=2" TIMEOUT 900)

# Data parallel: rank environments, shares, gradient buckets, a two-rank Gloo group on threads
# (two_rank_group.h).
mrnn_add_engine_test(engine_distributed_test LABELS unit SOURCES distributed_test.cpp)
target_link_libraries(engine_distributed_test PRIVATE mrnn::engine_distributed
                                                      mrnn_training_fixtures)

# Training on a GPU (fused CUDA window vs the loop, GPU vs CPU, resume, NaN, out of memory):
# reported skipped where LibTorch has no CUDA or no GPU is visible.
mrnn_add_engine_test(engine_cuda_training_test LABELS gpu SOURCES cuda_training_test.cpp)
target_link_libraries(engine_cuda_training_test PRIVATE mrnn::engine_training
                                                        mrnn_training_fixtures mrnn_training_runs)

# NCCL between two GPUs' ranks: skipped (exit 77) without CUDA, below two GPUs or without NCCL.
mrnn_add_engine_test(engine_cuda_distributed_test LABELS gpu SOURCES cuda_distributed_test.cpp)
target_link_libraries(engine_cuda_distributed_test PRIVATE mrnn::engine_distributed)

# Hessian-free's curvature products against explicit Jacobians, every cell in float64.
mrnn_add_engine_test(engine_gauss_newton_test LABELS unit SOURCES gauss_newton_test.cpp)
target_link_libraries(engine_gauss_newton_test PRIVATE mrnn::engine_training mrnn_cell_reference)

# Hessian-free in the loop (two ranks equal one process, exact resume, its figures); the
# long-range problems' runs and the time budget.
mrnn_add_engine_test(engine_hessian_free_training_test LABELS unit
  SOURCES hessian_free_training_test.cpp problem_training_test.cpp)
target_link_libraries(engine_hessian_free_training_test PRIVATE mrnn::engine_training
  mrnn::engine_distributed mrnn::engine_analysis mrnn_training_fixtures mrnn_training_runs)

# Hessian-free solves a long-range problem that Adam, in the same time, does not (minutes).
mrnn_add_engine_test(engine_hessian_free_problem_test LABELS slow
  SOURCES hessian_free_problem_test.cpp)
target_link_libraries(engine_hessian_free_problem_test PRIVATE mrnn::engine_bench)
set_tests_properties(engine_hessian_free_problem_test PROPERTIES
  ENVIRONMENT "OMP_NUM_THREADS=2" TIMEOUT 900)
