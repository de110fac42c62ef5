# Makes a deliberately broken copy of a source file: a seeded fault
# (README.md there).
#
#   cmake -DSOURCE=<file> -DFAULT=<fault>.cmake -DOUTPUT=<copy> -P apply_fault.cmake
#
# <fault>.cmake sets FAULT_EDITS (how many edits) and, for each edit i,
# FAULT_FIND_<i> (text that stands exactly once in SOURCE) and
# FAULT_REPLACE_<i> (what it becomes). An edit whose text is missing or
# stands more than once stops the build, naming the fault: the source
# changed and the fault must be written again for it.

include(${FAULT})
file(READ ${SOURCE} text)
foreach(i RANGE 1 ${FAULT_EDITS})
  set(find "${FAULT_FIND_${i}}")
  string(FIND "${text}" "${find}" first)
  string(FIND "${text}" "${find}" last REVERSE)
  if(first EQUAL -1)
    message(FATAL_ERROR "seeded fault ${FAULT}: edit ${i} no longer applies: "
      "its text is not in ${SOURCE} any more; write the fault again")
  endif()
  if(NOT first EQUAL last)
    message(FATAL_ERROR "seeded fault ${FAULT}: edit ${i} is ambiguous: its "
      "text stands more than once in ${SOURCE}")
  endif()
  string(REPLACE "${find}" "${FAULT_REPLACE_${i}}" text "${text}")
endforeach()
get_filename_component(name ${FAULT} NAME_WE)
file(WRITE ${OUTPUT}.new
  "// ${SOURCE} with the seeded fault ${name} (tools/conformance/"
  "seeded_faults/${name}.cmake): generated, a deliberately broken build.\n"
  "${text}")
file(RENAME ${OUTPUT}.new ${OUTPUT})
