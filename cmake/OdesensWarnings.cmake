# Warnings applied to the project's own targets (not to third-party headers).
function(odesens_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
    -Wno-unused-parameter)
endfunction()
