# Scale (docs/topo.md, "Simulator"): phases simulated on several threads give the figures of one
# thread; identical phases reused give those of simulating every phase; a collective built in
# memory (sim --algo) replays exactly like its written schedule.
# Run as: cmake -DT=rdmx-topo -DOUT=DIR -P scale.cmake
function(run out)
  execute_process(COMMAND ${T} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(rc)
    message(FATAL_ERROR "rdmx-topo ${ARGN}: ${o}${e}")
  endif()
  # the simulator's own cost (events, solves, seconds) may differ; the modelled figures may not
  string(REGEX REPLACE "\nsimulator [^\n]*" "" o "${o}")
  string(REGEX REPLACE "\nreused phases [^\n]*" "" o "${o}")
  set(${out} "${o}" PARENT_SCOPE)
endfunction()
function(same what a b)
  if(NOT a STREQUAL b)
    message(SEND_ERROR "${what} differ:\n${a}\n---\n${b}")
  endif()
endfunction()

# threads: random routing (salted per round and step), UGAL's loads, and phase order
set(df dragonfly:a=4,p=2,h=2,g=9)
foreach(spec "alltoall;minimal" "alltoall;valiant" "alltoall;ugal" "uniform;ugal")
  list(GET spec 0 pat)
  list(GET spec 1 rt)
  run(one sim -t ${df} --pattern ${pat} --flows 4 --bytes 64k --routing ${rt} --iterations 3 --threads 1
      --csv ${OUT}/t1.csv)
  run(two sim -t ${df} --pattern ${pat} --flows 4 --bytes 64k --routing ${rt} --iterations 3 --threads 2
      --csv ${OUT}/t2.csv)
  same("${pat} ${rt}, 1 and 2 threads" "${one}" "${two}")
  file(READ ${OUT}/t1.csv c1)
  file(READ ${OUT}/t2.csv c2)
  same("${pat} ${rt} link loads, 1 and 2 threads" "${c1}" "${c2}")
endforeach()

# reuse of identical phases: the ring's rounds repeat; recursive doubling's do not
# (recursive doubling at 48 ranks deadlocks under phase synchronisation: its extra ranks' rounds
# do not line up; at 32 they do)
foreach(spec "allreduce-ring;48" "allgather-ring;48" "allreduce-recursive-doubling;32" "alltoall-pairwise;48")
  list(GET spec 0 algo)
  list(GET spec 1 n)
  run(memo sim -t kary:4,3 --algo ${algo} -n ${n} --bytes 96k --sync phase --csv ${OUT}/m1.csv)
  run(full sim -t kary:4,3 --algo ${algo} -n ${n} --bytes 96k --sync phase --no-reuse --csv ${OUT}/m2.csv)
  same("${algo} with and without reuse" "${memo}" "${full}")
  file(READ ${OUT}/m1.csv c1)
  file(READ ${OUT}/m2.csv c2)
  same("${algo} link loads with and without reuse" "${c1}" "${c2}")
endforeach()
# 95 rounds, 3 distinct: 92 reused whatever the number of threads and however they are scheduled
# (a thread that meets a phase another one is simulating waits for its figures)
foreach(th 1 2 4)
  execute_process(COMMAND ${T} sim -t kary:4,3 --algo allreduce-ring -n 48 --bytes 96k --sync phase
                  --threads ${th} OUTPUT_VARIABLE o)
  if(NOT o MATCHES "reused phases +92 ")
    message(SEND_ERROR "the ring's repeated rounds were not reused (${th} threads):\n${o}")
  endif()
endforeach()

# the incremental solver (re-fills above the level an event reaches; one heap entry per link)
# against re-solving every flow at every event, and phase reuse against simulating every phase, on
# the adversarial dragonfly pattern and all-to-all under every dragonfly routing
set(df2 dragonfly:a=4,p=4,h=2,g=9)
foreach(spec "adversarial;ugal" "adversarial;valiant" "adversarial;minimal" "alltoall;ugal" "alltoall;ugal-l"
             "alltoall;minimal" "uniform;ugal")
  list(GET spec 0 pat)
  list(GET spec 1 rt)
  run(inc sim -t ${df2} --pattern ${pat} --flows 4 --bytes 64k --routing ${rt} --iterations 2 --csv ${OUT}/i.csv)
  run(ref sim -t ${df2} --pattern ${pat} --flows 4 --bytes 64k --routing ${rt} --iterations 2 --full-solve --no-reuse
      --csv ${OUT}/f.csv)
  same("${pat} ${rt}: incremental and full re-solves" "${inc}" "${ref}")
  file(READ ${OUT}/i.csv c1)
  file(READ ${OUT}/f.csv c2)
  same("${pat} ${rt} link loads: incremental and full re-solves" "${c1}" "${c2}")
endforeach()

# flows alone on their links take their rate without the filling: a ring of neighbours and a shift
# (every flow alone), and collectives that mix such flows with shared ones, under rank synchronisation
foreach(spec "kary:4,3;allreduce-ring;64" "${df2};allreduce-ring;144" "${df2};allreduce-rabenseifner;100"
             "kary:4,3;alltoall-pairwise;48" "kary:8,2;allgather-bruck;64")
  string(REGEX MATCH "^(.*);([^;]+);([0-9]+)$" m "${spec}")
  set(fab ${CMAKE_MATCH_1})
  set(algo ${CMAKE_MATCH_2})
  set(n ${CMAKE_MATCH_3})
  run(inc sim -t ${fab} --algo ${algo} -n ${n} --bytes 96k --csv ${OUT}/i.csv)
  run(ref sim -t ${fab} --algo ${algo} -n ${n} --bytes 96k --full-solve --csv ${OUT}/f.csv)
  same("${algo} on ${fab}: incremental and full re-solves" "${inc}" "${ref}")
  file(READ ${OUT}/i.csv c1)
  file(READ ${OUT}/f.csv c2)
  same("${algo} on ${fab} link loads: incremental and full re-solves" "${c1}" "${c2}")
endforeach()
run(inc sim -t kary:4,3 --pattern shift --shift 1 --bytes 1M --sync rank)
run(ref sim -t kary:4,3 --pattern shift --shift 1 --bytes 1M --sync rank --full-solve)
same("shift: incremental and full re-solves" "${inc}" "${ref}")
if(NOT inc MATCHES "max link load +1 flows")
  message(SEND_ERROR "a shift by one under D-mod-k should leave every flow alone on its links:\n${inc}")
endif()

# in memory versus the written schedule, rank synchronisation, odd and power-of-two counts
foreach(algo allreduce-ring allreduce-rabenseifner alltoall-pairwise allgather-bruck gather-linear bcast-binomial)
  foreach(n 13 32)
    execute_process(COMMAND ${T} schedule --algo ${algo} -n ${n} --bytes 5000 -o ${OUT}/s.sched RESULT_VARIABLE rc)
    if(rc)
      message(FATAL_ERROR "schedule ${algo} ${n}")
    endif()
    run(file sim -t kary:4,3 --schedule ${OUT}/s.sched --routing ecmp)
    run(mem sim -t kary:4,3 --algo ${algo} -n ${n} --bytes 5000 --routing ecmp)
    string(REGEX REPLACE "\nworkload [^\n]*" "" file "${file}")
    string(REGEX REPLACE "\nworkload [^\n]*" "" mem "${mem}")
    same("${algo} ${n}: file and memory" "${file}" "${mem}")
  endforeach()
endforeach()
# from 1,024 ranks the in-memory schedule is built by several threads and merged: still the file's
foreach(algo allreduce-recursive-doubling bcast-binomial gather-linear)
  execute_process(COMMAND ${T} schedule --algo ${algo} -n 1100 --bytes 5000 -o ${OUT}/big.sched RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "schedule ${algo} 1100")
  endif()
  run(file sim -t kary:4,6 --schedule ${OUT}/big.sched --routing ecmp)
  run(mem sim -t kary:4,6 --algo ${algo} -n 1100 --bytes 5000 --routing ecmp)
  string(REGEX REPLACE "\nworkload [^\n]*" "" file "${file}")
  string(REGEX REPLACE "\nworkload [^\n]*" "" mem "${mem}")
  same("${algo} 1100: file and memory" "${file}" "${mem}")
endforeach()
execute_process(COMMAND ${T} sim -t kary:2,2 --algo allreduce-ring --pattern alltoall RESULT_VARIABLE rc ERROR_VARIABLE e)
if(NOT rc OR NOT e MATCHES "one of --pattern, --schedule, --algo and --matrix")
  message(SEND_ERROR "two workloads accepted: ${e}")
endif()

# the event queue's order among events of one instant decides adaptive choices under rank
# synchronisation (docs/topo.md, "Simulator"): figures of the code before the bottom-up pop, which
# keeps that order; a queue that pops ties in another order moves each of them
foreach(spec "alltoall;valiant;0.0171716 s" "alltoall;ugal;0.0119892 s")
  list(GET spec 0 pat)
  list(GET spec 1 rt)
  list(GET spec 2 want)
  run(o sim -t ${df2} --pattern ${pat} --bytes 100000 --iterations 2 --sync rank --routing ${rt})
  if(NOT o MATCHES "completion time +${want}")
    message(SEND_ERROR "${pat} ${rt} under rank synchronisation: expected ${want}:\n${o}")
  endif()
endforeach()
run(o sim -t ${df2} --algo alltoall-pairwise -n 144 --bytes 64k --routing ugal-l)
if(NOT o MATCHES "completion time +0.00430095 s")
  message(SEND_ERROR "pairwise all-to-all under UGAL-L: expected 0.00430095 s:\n${o}")
endif()
# without phases, a sender's route to the destination of its previous transfer is reused (routing
# by the pair only): figures of the code that routed every transfer, for peers that change every
# round (pairwise exchange, Bruck) and a ring whose peers stay
foreach(spec "${df2};alltoall-pairwise;144;minimal;0.0128709 s" "kary:8,2;allgather-bruck;64;ecmp;0.00217452 s"
             "kary:4,3;allreduce-ring;64;dmodk;0.00011059 s")
  string(REGEX MATCH "^(.*);([^;]+);([0-9]+);([^;]+);([^;]+)$" m "${spec}")
  set(fab ${CMAKE_MATCH_1})
  set(algo ${CMAKE_MATCH_2})
  set(want ${CMAKE_MATCH_5})
  run(o sim -t ${fab} --algo ${algo} -n ${CMAKE_MATCH_3} --bytes 96k --routing ${CMAKE_MATCH_4})
  if(NOT o MATCHES "completion time +${want}")
    message(SEND_ERROR "${algo} on ${fab}: expected ${want}:\n${o}")
  endif()
endforeach()

# contention-free runs (docs/topo.md, "Simulator"): under rank synchronisation a workload whose
# flows never share a link is simulated without link lists and filling, and with whole capacities
# its events of one instant in any order (radix queue); figures and link loads byte for byte those
# of the filling with the binary heap (--full-solve), also for unequal blocks (instants merged by
# the horizon), zero latency and near-zero compute (events pushed before the last one taken),
# fractional capacities (binary heap kept), ECMP, Valiant and several jobs; pairwise exchanges
# share links and fall back to the filling
foreach(spec "kary:4,3;allreduce-ring;61;--bytes;100003;--link;lat:all:0"
             "kary:4,3;allreduce-ring;64;--bytes;6400;--link;lat:all:0;--compute-bw;1000000000G"
             "kary:4,3;allreduce-ring;61;--bytes;100003;--link;host:12.3456789G;--compute-bw;3.3G"
             "kary:4,3;allreduce-ring;64;--bytes;100003;--routing;ecmp"
             "kary:4,3;allgather-ring;63;--bytes;777"
             "dragonfly:a=8,p=4,h=4,g=17;allreduce-ring;544;--bytes;1000003"
             "dragonfly:a=8,p=4,h=4,g=17;allreduce-ring;200;--bytes;1000003;--routing;valiant"
             "kary:4,3;alltoall-pairwise;48;--bytes;96k")
  string(REGEX MATCH "^([^;]+);([^;]+);([0-9]+);(.*)$" m "${spec}")
  set(args ${CMAKE_MATCH_4})
  run(inc sim -t ${CMAKE_MATCH_1} --algo ${CMAKE_MATCH_2} -n ${CMAKE_MATCH_3} ${args} --csv ${OUT}/i.csv)
  run(ref sim -t ${CMAKE_MATCH_1} --algo ${CMAKE_MATCH_2} -n ${CMAKE_MATCH_3} ${args} --full-solve --csv ${OUT}/f.csv)
  same("${spec}: contention-free and filled" "${inc}" "${ref}")
  file(READ ${OUT}/i.csv c1)
  file(READ ${OUT}/f.csv c2)
  same("${spec} link loads: contention-free and filled" "${c1}" "${c2}")
endforeach()
run(inc sim -t kary:4,3 --job algo=allreduce-ring,n=32,bytes=1M,sync=rank --job algo=allreduce-ring,n=16,bytes=100001)
run(ref sim -t kary:4,3 --job algo=allreduce-ring,n=32,bytes=1M,sync=rank --job algo=allreduce-ring,n=16,bytes=100001 --full-solve)
same("two ring jobs: contention-free and filled" "${inc}" "${ref}")
# figures of the code before contention-free runs: the 1,500-rank ring on the Frontier-sized
# dragonfly (every flow alone) and a ring on a small dragonfly whose group boundaries share links
run(o sim -t dragonfly:a=32,p=4,h=16,g=74 --algo allreduce-ring -n 1500 --bytes 1M)
if(NOT o MATCHES "completion time +0.00187631 s")
  message(SEND_ERROR "1,500-rank ring: expected 0.00187631 s:\n${o}")
endif()
run(o sim -t ${df2} --algo allreduce-ring -n 144 --bytes 1000003 --routing valiant)
if(NOT o MATCHES "completion time +0.000605601 s")
  message(SEND_ERROR "144-rank ring under Valiant: expected 0.000605601 s:\n${o}")
endif()
