# Link-load pictures (docs/topo.md, "Output"): both directions of every cable, switches named;
# aggregated views for fabrics too large to draw link by link.
# Run as: cmake -DT=rdmx-topo -DOUT=DIR -P pictures.cmake
function(picture file)
  execute_process(COMMAND ${T} sim ${ARGN} --svg ${OUT}/${file} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE e)
  if(rc)
    message(FATAL_ERROR "sim ${ARGN}: ${e}")
  endif()
endfunction()
function(count file regex want)
  file(STRINGS ${OUT}/${file} lines REGEX "${regex}")
  list(LENGTH lines n)
  if(NOT n EQUAL ${want})
    message(SEND_ERROR "${file}: ${n} lines match /${regex}/, expected ${want}")
  endif()
endfunction()
# kary:4,2: 16 nodes, 8 switches, 32 cables = 64 directed links; one transfer 0 -> 5 loads one
# direction of each cable on its way, and the picture tells them apart
file(WRITE ${OUT}/one.matrix "# rdmx traffic matrix v1\n0 5 1 1048576\n")
picture(kary.svg -t kary:4,2 --matrix ${OUT}/one.matrix)
count(kary.svg "^<line .*<title>" 64)
count(kary.svg "class=\"switch\"" 8)
count(kary.svg "<title>n0-&gt;s0 0\\.9" 1)
count(kary.svg "<title>s0-&gt;n0 0\\.000</title>" 1)
# 1,056-node dragonfly: 8,448 directed links, drawn as a 33 x 33 group matrix
picture(df.svg -t dragonfly:a=8,p=4,h=4,g=33 --pattern adversarial --bytes 64k)
count(df.svg "class=\"gp\"" 1089)
count(df.svg "^<line .*<title>" 0)
count(df.svg "<title>g0-&gt;g1 " 1)
# forced views either way
picture(df-links.svg -t dragonfly:a=4,p=2,h=2,g=9 --pattern alltoall --bytes 64k --svg-view aggregate)
count(df-links.svg "class=\"gp\"" 81)
picture(tree.svg -t kary:4,2 --pattern alltoall --bytes 64k --svg-view aggregate)
count(tree.svg "class=\"level\"" 4)
count(tree.svg "l1 up \\(16 links\\)" 1)
