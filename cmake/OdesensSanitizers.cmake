# ODESENS_SANITIZE=ON instruments everything built here with ASan + UBSan.
# UBSan is made fatal so that a report fails the test that triggered it.
if(ODESENS_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined)
endif()

# ODESENS_SANITIZE_THREAD=ON instruments everything with ThreadSanitizer, for
# the tests of models shared by threads (scripts/test.sh runs them).
option(ODESENS_SANITIZE_THREAD "Build with ThreadSanitizer" OFF)
if(ODESENS_SANITIZE_THREAD)
  if(ODESENS_SANITIZE)
    message(FATAL_ERROR "ODESENS_SANITIZE and ODESENS_SANITIZE_THREAD exclude each other")
  endif()
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=thread)
endif()
