# The scoring analyses: text scores, debagging, surprisal recovery, feature masking, each
# against answers known in advance (hand-built models, synthetic loss sequences).
mrnn_add_engine_test(engine_scoring_test LABELS unit
  SOURCES scoring_fixtures.cpp scoring_text_test.cpp scoring_debag_test.cpp
          scoring_recovery_test.cpp scoring_masking_test.cpp)
target_link_libraries(engine_scoring_test PRIVATE mrnn::engine_scoring mrnn_training_fixtures)
# Its files each keep helpers of the same names (a base project, fixtures): compiled apart.
set_target_properties(engine_scoring_test PROPERTIES UNITY_BUILD OFF)
