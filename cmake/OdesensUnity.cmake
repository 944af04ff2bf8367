# Unity builds (ODESENS_UNITY_BUILD): a target's sources are compiled a few
# at a time as one translation unit, so that the headers they share (the
# library's own, the standard library's, nlohmann-json, CLI11, pybind11,
# GoogleTest) are parsed and their templates instantiated once per batch
# instead of once per file. A full build takes about half the CPU time.
# Names local to a file (anonymous namespaces, static functions) must
# therefore differ between the files of one target; a file's own compile
# options or definitions keep it out of the batches.
function(odesens_unity target)
  if(ODESENS_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()
