# A two-layer tree for tst_layering's negative case: core may include only itself.
list(APPEND TALLY_LAYERS tally_planner_core)
set(TALLY_LAYER_tally_planner_core_FOLDER "planner/core")
set(TALLY_LAYER_tally_planner_core_ALLOWED "planner/core")
