# ODESENS_SANITIZE=ON instruments everything built here with ASan + UBSan.
# UBSan is made fatal so that a report fails the test that triggered it.
if(ODESENS_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined)
endif()
