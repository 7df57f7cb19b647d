# Several jobs on one fabric (docs/topo.md, "Several jobs"): placement on the nodes earlier jobs
# left free, each job's time alone and shared, per-job synchronisation, traced matrices.
# Run as: cmake -DT=rdmx-topo -DDATA=DIR -DOUT=DIR -P jobs.cmake
function(slowdowns out)
  execute_process(COMMAND ${T} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(rc)
    message(FATAL_ERROR "rdmx-topo ${ARGN}: ${o}${e}")
  endif()
  string(REGEX MATCHALL "slowdown [0-9.]+" m "${o}")
  string(REPLACE "slowdown " "" m "${m}")
  set(${out} "${m}" PARENT_SCOPE)
endfunction()
function(between what v lo hi)
  if(NOT (v GREATER ${lo} AND v LESS ${hi}))
    message(SEND_ERROR "${what}: ${v} not in (${lo}, ${hi})")
  endif()
endfunction()

# four leaves of four nodes, one uplink each (xgft:2;4,4;1,1, written as a Slurm tree). Two
# shift-by-2 jobs interleaved on leaves 0 and 1 put four flows on each uplink instead of two: each
# job takes twice as long.
file(WRITE ${OUT}/jobs.conf "SwitchName=l0 Nodes=n[0-3]\nSwitchName=l1 Nodes=n[4-7]\nSwitchName=l2 Nodes=n[8-11]\n"
  "SwitchName=l3 Nodes=n[12-15]\nSwitchName=top Switches=l[0-3]\n")
set(ft slurm:${OUT}/jobs.conf)
function(two_shift_jobs what free lo hi)
  slowdowns(s sim -t ${ft} --free ${free} --job pattern=shift,shift=2,n=4,bytes=1M --job pattern=shift,shift=2,n=4,bytes=1M)
  foreach(i 0 1)
    list(GET s ${i} v)
    between("${what} job ${i}" ${v} ${lo} ${hi})
  endforeach()
endfunction()
two_shift_jobs(interleaved 0,1,4,5,2,3,6,7 1.99 2.0001)
# the same jobs on separate leaf pairs share nothing
two_shift_jobs(separate 0,1,4,5,8,9,12,13 0.9999 1.0001)
# a collective (rank synchronisation) beside a traced matrix and a phased pattern
execute_process(COMMAND ${T} sim -t kary:4,2 --job algo=allreduce-ring,n=4,bytes=1M
  --job matrix=${DATA}/halo-8.matrix,placement=random --job pattern=alltoall,n=4
  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
if(rc OR NOT o MATCHES "job 1 +collective allreduce-ring[^\n]*rank synchronisation"
   OR NOT o MATCHES "job 2 +traffic matrix, 8 ranks[^\n]*placement random"
   OR NOT o MATCHES "job 3 +alltoall[^\n]*phase synchronisation")
  message(SEND_ERROR "three jobs: ${o}${e}")
endif()
# errors
foreach(bad "--job;pattern=alltoall,colour=red;unknown \"colour\""
            "--job;pattern=alltoall,algo=allreduce-ring;give one of"
            "--job;pattern=alltoall,n=12;--job;pattern=alltoall,n=8;do not fit"
            "--pattern;alltoall;--job;pattern=alltoall,n=4;each job's workload")
  list(GET bad -1 want)
  list(REMOVE_AT bad -1)
  execute_process(COMMAND ${T} sim -t kary:4,2 ${bad} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc OR NOT e MATCHES "${want}")
    message(SEND_ERROR "${bad}: rc ${rc}, wanted /${want}/: ${o}${e}")
  endif()
endforeach()
# place against jobs already running: a shift job on leaves 0 and 1 puts 2 MiB on their uplinks;
# a new shift job placed linearly on the free nodes of the same leaves doubles that, best fit keeps
# to leaf 2 and leaves the busiest link at the background's 2 MiB
execute_process(COMMAND ${T} place -t ${ft} --free 0,1,4,5,2,3,6,7,8-15 --job pattern=shift,shift=2,n=4,bytes=1M
  --pattern shift --shift 2 -n 4 --bytes 1M RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
if(rc OR NOT o MATCHES "background +1 running jobs on 4 nodes" OR NOT o MATCHES "ranks +4 on 12 free nodes"
   OR NOT o MATCHES "\nlinear +[0-9.e+]+ +4.1943e\\+06" OR NOT o MATCHES "\nbestfit +[0-9.e+]+ +2.09715e\\+06")
  message(SEND_ERROR "place with a running job: ${o}${e}")
endif()
