# odesens-mpi on two ranks writes the same HDF5 document as `odesens ensemble`
# with threads: 40 members of a small model, one with a NaN parameter
# (exit status 3 from both, as every rank of the MPI run), compared
# dataset by dataset and bit for bit by h5diff; and a wrong command line is
# exit status 2 with one message.
# Then the same for `odesens-mpi fit` against `odesens fit`.
# Usage: cmake -DODESENS=... -DODESENS_MPI=... -DMPIEXEC=... -DH5DIFF=... -DWORK=dir
#              -DSHARED=dir -P this
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/m.ode "param k1 = 0.8\nparam k2 = 1.7\nstate a = 1\nstate b = 0.2\n"
                         "da/dt = -k1*a/(0.4 + a)\ndb/dt = k1*a/(0.4 + a) - k2*b\n")
set(rows "k2,k1\n")
foreach(k RANGE 39)
  math(EXPR k1 "600 + 10 * ${k}")
  math(EXPR k2 "1000 + 25 * ${k}")
  if(k EQUAL 17)
    string(APPEND rows "nan,0.${k1}\n")
  else()
    string(APPEND rows "1.${k2},0.${k1}\n")
  endif()
endforeach()
file(WRITE ${WORK}/sets.csv "${rows}")
set(flags m.ode --method cvodes_fsa --params sets.csv --tout 0:5:11)

execute_process(COMMAND ${ODESENS} ensemble ${flags} --threads 2 --out threads.h5
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE threaded ERROR_VARIABLE threaded_err)
if(NOT threaded EQUAL 3)
  message(FATAL_ERROR "odesens ensemble: exit ${threaded}, expected 3: ${threaded_err}")
endif()
execute_process(COMMAND ${MPIEXEC} --oversubscribe --allow-run-as-root -np 2 ${ODESENS_MPI}
                        ensemble ${flags} --threads 1 --out mpi.h5
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE mpi ERROR_VARIABLE mpi_err)
if(NOT mpi EQUAL 3)
  message(FATAL_ERROR "odesens-mpi ensemble: exit ${mpi}, expected 3: ${mpi_err}")
endif()
string(REGEX MATCHALL "odesens: ensemble: 40 members, 1 failed" summaries "${mpi_err}")
list(LENGTH summaries n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one summary line from rank 0, got ${n}: ${mpi_err}")
endif()
execute_process(COMMAND ${H5DIFF} threads.h5 mpi.h5 WORKING_DIRECTORY ${WORK}
                RESULT_VARIABLE diff OUTPUT_VARIABLE diff_out)
if(NOT diff EQUAL 0)
  message(FATAL_ERROR "the MPI and threaded documents differ:\n${diff_out}")
endif()

execute_process(COMMAND ${MPIEXEC} --oversubscribe --allow-run-as-root -np 2 ${ODESENS_MPI}
                        ensemble m.ode --method nosuch --params sets.csv --out x.h5
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE bad ERROR_VARIABLE bad_err)
string(REGEX MATCHALL "odesens-mpi: error: [^\n]*nosuch" errors "${bad_err}")
list(LENGTH errors n)
if(NOT bad EQUAL 2 OR NOT n EQUAL 1)
  message(FATAL_ERROR "a wrong method: exit ${bad} (expected 2), ${n} messages (expected 1):\n"
                      "${bad_err}")
endif()

# Rank 0 alone cannot create --out (its folder is missing): every rank ends,
# within the minute, with rank 0's message once and its status.
execute_process(COMMAND ${MPIEXEC} --oversubscribe --allow-run-as-root -np 2 ${ODESENS_MPI}
                        ensemble ${flags} --out ${WORK}/missing/x.h5
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE lone ERROR_VARIABLE lone_err
                TIMEOUT 60)
string(REGEX MATCHALL "odesens-mpi: error: [^\n]*missing/x.h5" errors "${lone_err}")
list(LENGTH errors n)
if(NOT lone EQUAL 1 OR NOT n EQUAL 1)
  message(FATAL_ERROR "--out rank 0 cannot create: exit '${lone}' (expected 1), ${n} messages "
                      "(expected 1):\n${lone_err}")
endif()

# Rank 1 alone cannot read --params (it runs in another folder, where the
# relative path leads nowhere): rank 0 says what rank 1 said, once, and
# every rank ends with its status.
file(MAKE_DIRECTORY ${WORK}/elsewhere)
file(COPY ${WORK}/m.ode DESTINATION ${WORK}/elsewhere)
execute_process(COMMAND ${MPIEXEC} --oversubscribe --allow-run-as-root
                        -np 1 --wdir ${WORK} ${ODESENS_MPI} ensemble ${flags} --out alone.h5 :
                        -np 1 --wdir ${WORK}/elsewhere ${ODESENS_MPI} ensemble ${flags}
                        --out alone.h5
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE other_rank
                ERROR_VARIABLE other_rank_err TIMEOUT 60)
string(REGEX MATCHALL "odesens-mpi: error: rank 1: --params: cannot read[^\n]*sets.csv" errors
       "${other_rank_err}")
list(LENGTH errors n)
if(NOT other_rank EQUAL 2 OR NOT n EQUAL 1 OR EXISTS ${WORK}/alone.h5)
  message(FATAL_ERROR "--params rank 1 cannot read: exit '${other_rank}' (expected 2), ${n} "
                      "messages (expected 1):\n${other_rank_err}")
endif()

# A command odesens-mpi does not have is named, with the ones it has.
execute_process(COMMAND ${ODESENS_MPI} run m.ode --method cvodes_fsa
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE other ERROR_VARIABLE other_err)
if(NOT other EQUAL 2 OR NOT other_err MATCHES "unknown command 'run': odesens-mpi has ensemble, fit and petab")
  message(FATAL_ERROR "odesens-mpi run: exit ${other} (expected 2):\n${other_err}")
endif()
message(STATUS "odesens-mpi on 2 ranks: the threaded document, bit for bit")

# Ctrl-C on mpirun (one SIGINT to mpirun alone, as a terminal sends it:
# the ranks have process groups of their own) stops every rank as a kill
# of the threaded command does: FILE.h5, not the .partial, with stopped_by
# and the members done (docs/cli.md, "Stopping an MPI run"). mpirun's own
# status is OpenMPI's, not checked. `timeout --foreground`: without it,
# timeout signals mpirun's process group too, and mpirun takes the second
# SIGINT as the second Ctrl-C (stop at once). OpenMPI answers the SIGINT
# with SIGCONT to the ranks, SIGTERM N s later and SIGKILL N s after that
# (N = the MCA parameter odls_base_sigkill_timeout, 1 by default). One
# second was too short for rank 0 to write the file in the sanitizer build
# on a loaded machine, so the check gives the ranks N = 5 s, as docs/cli.md
# tells users to. The SIGINT comes 8 s in: the ranks must have read the
# 100 000 rows and installed their handlers by then; the SIGTERM then comes
# at 13 s, well before the 41 s the whole run takes in a Release build.
find_program(TIMEOUT timeout)
if(TIMEOUT)
  string(REPEAT "1.2,0.7\n" 100000 many_rows)
  file(WRITE ${WORK}/many.csv "k2,k1\n${many_rows}")
  execute_process(COMMAND ${TIMEOUT} --foreground -s INT 8
                          ${MPIEXEC} --mca odls_base_sigkill_timeout 5 --oversubscribe
                          --allow-run-as-root -np 2 ${ODESENS_MPI}
                          ensemble m.ode --method cvodes_fsa --params many.csv --tout 0:5:11
                          --threads 1 --out stopped.h5
                  WORKING_DIRECTORY ${WORK} RESULT_VARIABLE stopped ERROR_VARIABLE stopped_err
                  TIMEOUT 120)
  find_program(H5DUMP h5dump)
  if(NOT EXISTS ${WORK}/stopped.h5 OR EXISTS ${WORK}/stopped.h5.partial)
    message(FATAL_ERROR "SIGINT to mpirun: no stopped.h5 (exit ${stopped}):\n${stopped_err}")
  endif()
  if(H5DUMP)
    execute_process(COMMAND ${H5DUMP} -a /stopped_by -a /members_done stopped.h5
                    WORKING_DIRECTORY ${WORK} RESULT_VARIABLE dumped OUTPUT_VARIABLE dump)
    string(REGEX MATCH "members_done[^}]*\\(0\\): ([0-9]+)" done_match "${dump}")
    set(done ${CMAKE_MATCH_1})
    if(NOT dumped EQUAL 0 OR NOT dump MATCHES "\"SIGTERM\"" OR NOT done
       OR done GREATER_EQUAL 100000)
      message(FATAL_ERROR "SIGINT to mpirun: stopped.h5 has no stopped_by = SIGTERM or no "
                          "members done below 100000 (members_done '${done}'):\n${dump}")
    endif()
    message(STATUS "SIGINT to mpirun: stopped.h5 with ${done} members done, stopped_by SIGTERM")
  endif()
endif()

# odesens-mpi fit on PEtab conformance case 0001 (../shared, or
# ODESENS_SHARED_DIR): the waterfall JSON, the HDF5 document (but the
# starts' wall times) and --best equal `odesens fit`'s; one waterfall, from
# rank 0.
if(DEFINED ENV{ODESENS_SHARED_DIR} AND NOT "$ENV{ODESENS_SHARED_DIR}" STREQUAL "")
  set(SHARED $ENV{ODESENS_SHARED_DIR})
endif()
set(case ${SHARED}/petab/test-suite/0001/_0001.yaml)
if(NOT EXISTS ${case})
  message(STATUS "PEtab case 0001 not found (${case}): odesens-mpi fit and petab not checked")
  return()
endif()
set(fit_flags fit ${case} --starts 6 --seed 2 --format json)
execute_process(COMMAND ${ODESENS} ${fit_flags} --threads 2 --out fit_threads.h5
                        --best best_threads.tsv
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE threaded OUTPUT_VARIABLE threaded_out
                ERROR_VARIABLE threaded_err)
execute_process(COMMAND ${MPIEXEC} --oversubscribe --allow-run-as-root -np 2 ${ODESENS_MPI}
                        ${fit_flags} --threads 1 --out fit_mpi.h5 --best best_mpi.tsv
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE mpi OUTPUT_VARIABLE mpi_out
                ERROR_VARIABLE mpi_err)
if(NOT threaded EQUAL 0 OR NOT mpi EQUAL 0)
  message(FATAL_ERROR "fit: exit ${threaded} (threads), ${mpi} (MPI):\n${threaded_err}\n${mpi_err}")
endif()
# The JSON without the starts' and the fit's wall times.
foreach(v threaded_out mpi_out)
  string(REGEX REPLACE "\"seconds\": [^,\n]*" "" ${v} "${${v}}")
endforeach()
if(NOT threaded_out STREQUAL mpi_out)
  message(FATAL_ERROR "odesens-mpi fit's waterfall differs:\n${threaded_out}\n---\n${mpi_out}")
endif()
execute_process(COMMAND ${H5DIFF} --exclude-path /seconds fit_threads.h5 fit_mpi.h5
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE diff OUTPUT_VARIABLE diff_out)
file(READ ${WORK}/best_threads.tsv best_threads)
file(READ ${WORK}/best_mpi.tsv best_mpi)
if(NOT diff EQUAL 0 OR NOT best_threads STREQUAL best_mpi)
  message(FATAL_ERROR "odesens-mpi fit's documents differ (h5diff ${diff}):\n${diff_out}")
endif()
message(STATUS "odesens-mpi fit on 2 ranks: the threaded waterfall and documents")
# An output that fails after the starts is said under odesens-mpi's name
# (it was odesens').
if(EXISTS /dev/full)
  execute_process(COMMAND ${MPIEXEC} --oversubscribe --allow-run-as-root -np 2 ${ODESENS_MPI}
                          fit ${case} --starts 2 --threads 1 --best /dev/full
                  WORKING_DIRECTORY ${WORK} RESULT_VARIABLE full ERROR_VARIABLE full_err)
  if(full EQUAL 0 OR NOT full_err MATCHES "odesens-mpi: error: fit: --best was not written")
    message(FATAL_ERROR "odesens-mpi fit --best /dev/full: exit ${full}:\n${full_err}")
  endif()
endif()

# odesens-mpi petab: the JSON of `odesens petab` (but the wall time) on a
# problem of six experiments, and the same simulation table.
set(bruno ${SHARED}/petab/benchmark/Bruno_JExpBot2016/Bruno_JExpBot2016.yaml)
if(NOT EXISTS ${bruno})
  message(STATUS "Bruno_JExpBot2016 not found: odesens-mpi petab not checked")
  return()
endif()
set(petab_flags petab ${bruno} --gradient --fim --format json)
execute_process(COMMAND ${ODESENS} ${petab_flags} --threads 2 --simulations sim_threads.tsv
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE threaded OUTPUT_VARIABLE threaded_out
                ERROR_VARIABLE threaded_err)
execute_process(COMMAND ${MPIEXEC} --oversubscribe --allow-run-as-root -np 2 ${ODESENS_MPI}
                        ${petab_flags} --threads 1 --simulations sim_mpi.tsv
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE mpi OUTPUT_VARIABLE mpi_out
                ERROR_VARIABLE mpi_err)
if(NOT threaded EQUAL 0 OR NOT mpi EQUAL 0)
  message(FATAL_ERROR "petab: exit ${threaded} (threads), ${mpi} (MPI):\n${threaded_err}\n${mpi_err}")
endif()
foreach(v threaded_out mpi_out)
  string(REGEX REPLACE "\"wall_seconds\": [^,\n]*" "" ${v} "${${v}}")
endforeach()
file(READ ${WORK}/sim_threads.tsv sim_threads)
file(READ ${WORK}/sim_mpi.tsv sim_mpi)
if(NOT threaded_out STREQUAL mpi_out OR NOT sim_threads STREQUAL sim_mpi)
  message(FATAL_ERROR "odesens-mpi petab differs:\n${threaded_out}\n---\n${mpi_out}")
endif()
message(STATUS "odesens-mpi petab on 2 ranks: the threaded evaluation, bit for bit")
