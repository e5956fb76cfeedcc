# Sampling and completion: seeds, temperature, top-k, top-p, beams, stop strings, branching,
# clamped units, primes outside the vocabulary, streaming and the cancellable job.
mrnn_add_engine_test(engine_sampling_test LABELS unit SOURCES sampling_test.cpp)
target_link_libraries(engine_sampling_test PRIVATE mrnn::engine_sampling)
