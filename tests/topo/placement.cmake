# Placement judged by the simulator (docs/topo.md, "Placement"): auto takes the method with the
# shortest simulated time; spread deals ranks over the top-level domains.
# Run as: cmake -DT=rdmx-topo -DOUT=DIR -P placement.cmake
# halo3d on a dragonfly: random placement spreads the exchanges over global links and wins
execute_process(COMMAND ${T} place -t dragonfly:a=4,p=4,h=2,g=9 --pattern halo3d -n 64 --bytes 1M --simulate
  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
string(REGEX MATCHALL "\n[a-z()]+ +[0-9.e+-]+ +[0-9.e+-]+ +[0-9.e+-]+ +[0-9.e+-]+" rows "${o}")
set(best "")
foreach(row ${rows})
  string(REGEX MATCH "^\n([a-z()]+) +[^ ]+ +[^ ]+ +[^ ]+ +([0-9.e+-]+)" m "${row}")
  set(name ${CMAKE_MATCH_1})
  set(t ${CMAKE_MATCH_2})
  if(name MATCHES "^auto")
    set(auto_t ${t})
    set(auto_name ${name})
  elseif(best STREQUAL "" OR t LESS best)
    set(best ${t})
  endif()
endforeach()
if(rc OR NOT DEFINED auto_t OR NOT auto_t EQUAL best)
  message(SEND_ERROR "auto (${auto_name} ${auto_t}) is not the fastest (${best}):\n${o}${e}")
endif()
# sim --placement auto says what it chose, and simulates that
execute_process(COMMAND ${T} sim -t dragonfly:a=4,p=4,h=2,g=9 --pattern halo3d -n 64 --bytes 1M --placement auto
  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
if(rc OR NOT e MATCHES "placement auto chose [a-z]+ \\(simulated\\)" OR NOT o MATCHES "completion time")
  message(SEND_ERROR "sim --placement auto: ${o}${e}")
endif()
# spread on kary:4,2 (four leaf subtrees of four nodes): one rank per subtree in turn
execute_process(COMMAND ${T} place -t kary:4,2 --pattern shift -n 6 --method spread --hostfile ${OUT}/spread.hosts
  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE e)
file(READ ${OUT}/spread.hosts h)
if(rc OR NOT h STREQUAL "n0\nn4\nn8\nn12\nn1\nn5\n")
  message(SEND_ERROR "spread: ${h} ${e}")
endif()
