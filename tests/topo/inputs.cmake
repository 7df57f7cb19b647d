# Robustness of the input parsers (docs/topo.md, "Fabric specifications"): lines of any length in
# every format, errors that name FILE:LINE, values that are refused instead of taken as defaults.
# Run as: cmake -DT=rdmx-topo -DOUT=DIR -DDATA=DIR -P inputs.cmake
set(fails 0)
# expect(NAME RC REGEX ARGS...): RC 0 = must succeed, 1 = must fail; REGEX must match stdout+stderr
function(expect name want regex)
  execute_process(COMMAND ${T} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(all "${out}${err}")
  if((want AND rc EQUAL 0) OR (NOT want AND NOT rc EQUAL 0) OR NOT all MATCHES "${regex}")
    message(SEND_ERROR "${name}: rc ${rc}, wanted ${want} and /${regex}/:\n${all}")
  endif()
endfunction()

# Slurm: a 2,000-name Nodes= list (~14 KiB), then an error whose line number must be right
set(names "")
foreach(i RANGE 1 2000)
  string(APPEND names "cn${i},")
endforeach()
string(REGEX REPLACE ",$" "" names "${names}")
set(long "SwitchName=leaf0 Nodes=${names}\nSwitchName=leaf1 Nodes=x[1-4]\nSwitchName=top Switches=leaf[0-1]\n")
file(WRITE ${OUT}/long.conf "# 2,000 nodes on one line\n${long}")
expect(slurm_long 0 "nodes +2004\n" info -t slurm:${OUT}/long.conf)
file(WRITE ${OUT}/long-bad.conf "# 2,000 nodes on one line\n${long}BadKey=1\n")
expect(slurm_long_bad 1 "long-bad.conf:5: unknown key" info -t slurm:${OUT}/long-bad.conf)
string(REPEAT "c" 10000 comment)
file(WRITE ${OUT}/comment.conf "#${comment}\nSwitchName=a Nodes=a[1-2]\nSwitchName=b Nodes=b[1-2]\nSwitchName=t Switches=a,b\n")
expect(slurm_long_comment 0 "nodes +4\n" info -t slurm:${OUT}/comment.conf)
# one bracketed list longer than 512 characters
set(list "")
foreach(i RANGE 1000 1400)
  string(APPEND list "${i},")
endforeach()
string(REGEX REPLACE ",$" "" list "${list}")
file(WRITE ${OUT}/bracket.conf "SwitchName=a Nodes=n[${list}]\nSwitchName=b Nodes=m[1-3]\nSwitchName=t Switches=a,b\n")
expect(slurm_long_bracket 0 "nodes +404\n" info -t slurm:${OUT}/bracket.conf)
# switch cycles reach neither Scotch nor routing
file(WRITE ${OUT}/cycle2.conf "SwitchName=l0 Nodes=a[1-2]\nSwitchName=l1 Nodes=b[1-2]\nSwitchName=s1 Switches=l0,s2\nSwitchName=s2 Switches=l1,s1\n")
expect(slurm_cycle2 1 "cycle2.conf:4: switch cycle s1 -> s2 -> s1" info -t slurm:${OUT}/cycle2.conf)
file(WRITE ${OUT}/cycle3.conf "SwitchName=l0 Nodes=a[1-2]\nSwitchName=s1 Switches=l0,s2\nSwitchName=s2 Switches=s3\nSwitchName=s3 Switches=s1\n")
expect(slurm_cycle3 1 "cycle3.conf:4: switch cycle s1 -> s2 -> s3 -> s1" info -t slurm:${OUT}/cycle3.conf)
file(WRITE ${OUT}/twice.conf "SwitchName=l0 Nodes=a[1-2]\nSwitchName=l1 Nodes=b[1-2]\nSwitchName=s1 Switches=l0,l1,l0\n")
expect(slurm_listed_twice 1 "twice.conf:3: switch l0 is listed twice" info -t slurm:${OUT}/twice.conf)
# a switch under two parents is a fat-tree, not a cycle
file(WRITE ${OUT}/twoparents.conf "SwitchName=l0 Nodes=a[1-2]\nSwitchName=l1 Nodes=b[1-2]\nSwitchName=s1 Switches=l0,l1\nSwitchName=s2 Switches=l0,l1\n")
expect(slurm_two_parents 0 "switches +4\n" info -t slurm:${OUT}/twoparents.conf)
# route takes node names on loaded fabrics
expect(route_names 0 "^cn001->leaf0 host\n.*leaf3->cn016 host\n$" route -t slurm:${DATA}/slurm-tree.conf cn001 cn016)
expect(route_bad_name 1 "\"cn999\" is neither a node name" route -t slurm:${DATA}/slurm-tree.conf cn001 cn999)
expect(route_generated_names 0 "^n0->" route -t kary:2,2 n0 n3)

# ibnetdiscover (line numbers below refer to ibnet-small.txt)
file(READ ${DATA}/ibnet-small.txt ib)
string(REPLACE "lid 2 4xEDR\n[2]" "lid 2 4xZZZ\n[2]" zzz "${ib}")
file(WRITE ${OUT}/ib-rate.txt "${zzz}")
expect(ibnet_unknown_rate 1 "ib-rate.txt:9: unknown link rate \"4xZZZ\"" info -t ibnet:${OUT}/ib-rate.txt)
string(REPLACE "[35]\t\"S-7cfe900300a5a2c0\"[1]" "[99999999999]\t\"S-7cfe900300a5a2c0\"[1]" big "${ib}")
file(WRITE ${OUT}/ib-port.txt "${big}")
expect(ibnet_big_port 1 "ib-port.txt:18: expected \\[PORT\\]" info -t ibnet:${OUT}/ib-port.txt)
string(REPLACE "[35]\t\"S-7cfe900300a5a2c0\"[1]" "[37]\t\"S-7cfe900300a5a2c0\"[1]" over "${ib}")
file(WRITE ${OUT}/ib-over.txt "${over}")
expect(ibnet_port_over 1 "ib-over.txt:18: port 37, but S-7cfe900300a5a2d0 has 36 ports" info -t ibnet:${OUT}/ib-over.txt)
# a CA port claimed by two switch ports
string(REPLACE "[2]\t\"H-248a0703009c0a40\"[1](248a0703009c0a41) \t\t# \"node04 HCA-1\" lid 13 4xEDR\n"
  "[2]\t\"H-248a0703009c0a40\"[1](248a0703009c0a41) \t\t# \"node04 HCA-1\" lid 13 4xEDR\n[3]\t\"H-248a0703009c0a10\"[1] # \"node01 HCA-1\" 4xEDR\n" two "${ib}")
file(WRITE ${OUT}/ib-two.txt "${two}")
expect(ibnet_ca_twice 1 "ib-two.txt:26: port 1 of node01 is already cabled to port 1 of MF0;leaf1:MSB7700/U1 \\(line 16\\)"
  info -t ibnet:${OUT}/ib-two.txt)
# both ends must agree
string(REPLACE "[1](248a0703009c0a41) \t\"S-7cfe900300a5a2e0\"[2]" "[1](248a0703009c0a41) \t\"S-7cfe900300a5a2e0\"[5]" dis "${ib}")
file(WRITE ${OUT}/ib-disagree.txt "${dis}")
expect(ibnet_ends_disagree 1 "ib-disagree.txt:[0-9]+: port 1 of node04" info -t ibnet:${OUT}/ib-disagree.txt)
# a long description comment, and a trunk of two parallel cables (one Scotch arc)
string(REPLACE "# Topology file" "# ${comment} Topology file" longib "${ib}")
string(REPLACE "[2]\t\"S-7cfe900300a5a2e0\"[35]\t\t# \"MF0;leaf2:MSB7700/U1\" lid 3 4xEDR\n"
  "[2]\t\"S-7cfe900300a5a2e0\"[35]\t\t# \"MF0;leaf2:MSB7700/U1\" lid 3 4xEDR\n[3]\t\"S-7cfe900300a5a2e0\"[36]\t\t# \"MF0;leaf2:MSB7700/U1\" lid 3 4xEDR\n" trunk "${longib}")
string(REPLACE "[35]\t\"S-7cfe900300a5a2c0\"[2]\t\t# \"MF0;spine1:MSB7700/U1\" lid 1 4xEDR\n"
  "[35]\t\"S-7cfe900300a5a2c0\"[2]\t\t# \"MF0;spine1:MSB7700/U1\" lid 1 4xEDR\n[36]\t\"S-7cfe900300a5a2c0\"[3]\t\t# \"MF0;spine1:MSB7700/U1\" lid 1 4xEDR\n" trunk "${trunk}")
file(WRITE ${OUT}/ib-trunk.txt "${trunk}")
expect(ibnet_trunk 0 "cables +7\n.*bisection +12.5 GB/s" info -t ibnet:${OUT}/ib-trunk.txt)
# info reports the rates that were loaded: HDR between switches, EDR and HDR to hosts
string(REPLACE "lid 1 4xEDR" "lid 1 4xHDR" hdr "${ib}")
string(REPLACE "U1\" lid 2 4xEDR" "U1\" lid 2 4xHDR" hdr "${hdr}")
string(REPLACE "U1\" lid 3 4xEDR" "U1\" lid 3 4xHDR" hdr "${hdr}")
string(REPLACE "lid 2 4xHDR" "lid 2" hdr "${hdr}") # CA-side lines without a rate: the switch side gives it
file(WRITE ${OUT}/ib-hdr.txt "${hdr}")
expect(ibnet_info_rates 0 "link class host +12.5-25 GB/s, 100 ns\nlink class switch 25 GB/s" info -t ibnet:${OUT}/ib-hdr.txt)

# schedules and traffic matrices: lines of any length
set(steps "")
foreach(i RANGE 1 600)
  string(APPEND steps " ; send 1 8 ; recv 1 8")
endforeach()
string(REPLACE " 1 8" " 0 8" steps1 "${steps}")
file(WRITE ${OUT}/long.sched "# rdmx schedule v1\nnranks 2\nrank 0\nround copy 8${steps}\nrank 1\nround copy 8${steps1}\nend\n")
expect(schedule_long_line 0 "completion time" sim -t kary:2,2 --schedule ${OUT}/long.sched)
file(WRITE ${OUT}/long-bad.sched "# rdmx schedule v1\nnranks 2\nrank 0\nround copy 8${steps}\nrank 1\nround copy 8${steps1} ; send 5 8\nend\n")
expect(schedule_long_bad 1 "long-bad.sched:6: peer 5 out of range" sim -t kary:2,2 --schedule ${OUT}/long-bad.sched)
file(WRITE ${OUT}/long.matrix "# rdmx traffic matrix v1\n# ${comment}\n0 1 1 1024\n1 0 1 1024\n")
expect(matrix_long_comment 0 "linear" place -t kary:2,2 --matrix ${OUT}/long.matrix --method linear)

# option values are checked, never replaced by defaults
expect(bytes_zero 1 "bad value \"0\"" sim -t kary:2,2 --pattern alltoall --bytes 0)
expect(grid_zero 1 "bad value \"0x0x0\"" sim -t kary:2,2 --pattern halo3d --grid 0x0x0)
expect(grid_trailing 1 "bad value \"2x2x1x\"" sim -t kary:2,2 --pattern halo3d --grid 2x2x1x)
expect(grid_negative 1 "bad value" sim -t kary:2,2 --pattern halo3d --grid 2x-2x1)
expect(top_word 1 "bad value \"abc\"" sim -t kary:2,2 --pattern alltoall --top abc)
expect(grid_ok 0 "completion time" sim -t kary:2,2 --pattern halo3d --grid 1x2x2)
