# Fails unless the option table of every docs/methods/ID.md, between the
# lines <!-- options:begin --> and <!-- options:end -->, is what
# `odesens methods --markdown ID` prints from the method's declaration now.
# With -DUPDATE=ON it rewrites the tables instead
# (scripts/update_option_tables.sh). README.md in the folder is no method.
# Usage: cmake -DODESENS=build/bin/odesens -DDOCS=docs/methods [-DUPDATE=ON]
#              -P check_option_tables.cmake
cmake_minimum_required(VERSION 3.25)
set(begin_marker "<!-- options:begin -->\n")
set(end_marker "<!-- options:end -->")
get_filename_component(DOCS ${DOCS} ABSOLUTE)
file(GLOB pages ${DOCS}/*.md)
list(REMOVE_ITEM pages ${DOCS}/README.md)
if(NOT pages)
  message(FATAL_ERROR "no method pages in ${DOCS}")
endif()
set(stale "")
foreach(page IN LISTS pages)
  get_filename_component(id ${page} NAME_WE)
  file(READ ${page} text)
  string(FIND "${text}" "${begin_marker}" begin)
  string(FIND "${text}" "${end_marker}" end)
  if(begin EQUAL -1 OR end LESS begin)
    message(FATAL_ERROR "${page}: no option table between a line ${begin_marker}and a line "
                        "${end_marker}")
  endif()
  execute_process(COMMAND ${ODESENS} methods --markdown ${id} OUTPUT_VARIABLE table
                  ERROR_VARIABLE error RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${page}: odesens methods --markdown ${id} failed (is ${id} a method?): "
                        "${error}")
  endif()
  string(LENGTH "${begin_marker}" marker_length)
  math(EXPR table_start "${begin} + ${marker_length}")
  string(SUBSTRING "${text}" 0 ${table_start} head)
  string(SUBSTRING "${text}" ${end} -1 tail)
  set(current "${head}${table}${tail}")
  if(NOT current STREQUAL text)
    if(UPDATE)
      file(WRITE ${page} "${current}")
      message(STATUS "rewrote the option table of ${page}")
    else()
      list(APPEND stale ${page})
    endif()
  endif()
endforeach()
if(stale)
  list(JOIN stale ", " stale_list)
  message(FATAL_ERROR "option tables out of date: ${stale_list}; regenerate them with "
                      "scripts/update_option_tables.sh (after building odesens_cli)")
endif()
message(STATUS "the option tables of ${DOCS} are current")
