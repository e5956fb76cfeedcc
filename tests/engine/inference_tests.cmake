# Single-stream inference (engine/inference): every kernel against a double-precision
# reference, the frozen model against LanguageModel::forward for every cell and variant,
# clamps, output masks, stale weights, allocations, the Sampler on its fast path, and the
# fused windows' products (packed weights, split over threads).
mrnn_add_engine_test(engine_inference_test LABELS unit
  SOURCES inference_kernels_test.cpp inference_model_test.cpp inference_sampler_test.cpp
          inference_allocations_test.cpp window_products_test.cpp)
target_link_libraries(engine_inference_test PRIVATE mrnn::engine_inference mrnn::engine_sampling
                                                    mrnn_cell_reference)
# Its files each keep helpers of the same names (a base project, fixtures): compiled apart.
set_target_properties(engine_inference_test PROPERTIES UNITY_BUILD OFF)
