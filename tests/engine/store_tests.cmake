# The run database (engine/store) and the `mrnn runs` command that reads it. The command's
# sources are compiled in so that it is tested before `mrnn` dispatches to it.
mrnn_add_engine_test(engine_store_test LABELS unit
  SOURCES
    store_test.cpp
    store_export_test.cpp
    store_safety_test.cpp
    store_catalogue_test.cpp
    store_import_test.cpp
    runs_command_test.cpp
    ${PROJECT_SOURCE_DIR}/app/cli/runs_command.cpp
    ${PROJECT_SOURCE_DIR}/app/cli/command_line.cpp
    ${PROJECT_SOURCE_DIR}/app/cli/output_option.cpp)
# The fixtures also talk to SQLite directly, to look beneath the store's API.
find_package(SQLite3 REQUIRED)
target_link_libraries(engine_store_test PRIVATE mrnn::engine_store SQLite::SQLite3)
target_include_directories(engine_store_test PRIVATE ${PROJECT_SOURCE_DIR}/app/cli)
