# Fails unless DOC contains each file of EXAMPLES verbatim, so that the
# examples shown in the documentation are the programs the tests build and
# run. Usage: cmake -DDOC=c-api.md "-DEXAMPLES=a.c;b.f90" -P check_doc_examples.cmake
cmake_minimum_required(VERSION 3.25)
file(READ ${DOC} doc)
foreach(example IN LISTS EXAMPLES)
  file(READ ${example} code)
  string(FIND "${doc}" "${code}" position)
  if(position EQUAL -1)
    get_filename_component(name ${example} NAME)
    message(FATAL_ERROR "${DOC} does not contain ${name} as tested; copy the file into "
                        "its code block unchanged")
  endif()
endforeach()
message(STATUS "${DOC} shows the tested examples unchanged")
