# Build conventions shared by every folder.

# Every target gets the same warnings; with ZAR_WERROR (on in CI and in
# tools/setup.sh) they are errors. Sanitizers, when on, apply to every target.
add_library(zar_build_flags INTERFACE)
# The flags apply to this build only (BUILD_INTERFACE): an installed package
# does not impose them on its consumers.
target_compile_options(zar_build_flags INTERFACE
  $<BUILD_INTERFACE:-Wall -Wextra>
  $<BUILD_INTERFACE:$<$<COMPILE_LANGUAGE:C>:-Wstrict-prototypes>>)
if(ZAR_WERROR)
  target_compile_options(zar_build_flags INTERFACE $<BUILD_INTERFACE:-Werror>)
endif()
# GCC 12 -Wrestrict false positives: once std::string's operator+, insert
# and assignment from a short literal are inlined at -O3 (Release), it reports
# overlapping copies inside libstdc++'s own code that cannot happen (GCC
# bugs 105329, 105651). Such a report points into libstdc++'s headers, at
# no line of ours, and every report on this tree is one of those, so the
# warning is off for GCC 12's C++ in Release only; it stays on elsewhere.
target_compile_options(zar_build_flags INTERFACE
  $<BUILD_INTERFACE:$<$<AND:$<CONFIG:Release>,$<COMPILE_LANG_AND_ID:CXX,GNU>,$<VERSION_GREATER_EQUAL:$<CXX_COMPILER_VERSION>,12>,$<VERSION_LESS:$<CXX_COMPILER_VERSION>,13>>:-Wno-restrict>>)
if(ZAR_SANITIZE)
  target_compile_options(zar_build_flags INTERFACE
    $<BUILD_INTERFACE:-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer>)
  target_link_options(zar_build_flags INTERFACE
    $<BUILD_INTERFACE:-fsanitize=address,undefined>)
  target_compile_definitions(zar_build_flags INTERFACE
    $<BUILD_INTERFACE:ZAR_SANITIZE=1>)
endif()
# ZAR_TSAN: ThreadSanitizer; core/fiber announces every fiber switch to it
# (ZAR_TSAN=1). AddressSanitizer and ThreadSanitizer exclude each other.
if(ZAR_TSAN)
  if(ZAR_SANITIZE)
    message(FATAL_ERROR "ZAR_TSAN and ZAR_SANITIZE exclude each other")
  endif()
  target_compile_options(zar_build_flags INTERFACE
    $<BUILD_INTERFACE:-fsanitize=thread -fno-omit-frame-pointer>)
  target_link_options(zar_build_flags INTERFACE
    $<BUILD_INTERFACE:-fsanitize=thread>)
  target_compile_definitions(zar_build_flags INTERFACE
    $<BUILD_INTERFACE:ZAR_TSAN=1>)
endif()
# ZAR_FUZZ (tools/fuzz, docs/fuzzing.md): every target is instrumented for
# libFuzzer's coverage feedback; only the fuzz executables link libFuzzer.
if(ZAR_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "ZAR_FUZZ needs Clang (CC=clang CXX=clang++): libFuzzer is Clang's")
  endif()
  target_compile_options(zar_build_flags INTERFACE
    $<BUILD_INTERFACE:-fsanitize=fuzzer-no-link>)
endif()
install(TARGETS zar_build_flags EXPORT ZendAsyncRefTargets)

# The C++ runtime. The libraries are static and C++ inside, so whatever
# links them needs the C++ standard library. A consumer whose project
# enables C++ gets it from CMake (the exported link languages include CXX);
# a C-only consumer (`project(ext C)`, as a PHP extension is) links with
# the C compiler driver, which does not add it. Every library therefore
# links, through this exported target, the libraries the C++ compiler
# driver adds beyond the C driver's (for GCC, and Clang with libstdc++:
# stdc++ and m). Named twice on a C++ link line, they are harmless.
set(ZAR_CXX_RUNTIME_LIBRARIES ${CMAKE_CXX_IMPLICIT_LINK_LIBRARIES})
if(CMAKE_C_IMPLICIT_LINK_LIBRARIES)
  list(REMOVE_ITEM ZAR_CXX_RUNTIME_LIBRARIES ${CMAKE_C_IMPLICIT_LINK_LIBRARIES})
endif()
if(NOT ZAR_CXX_RUNTIME_LIBRARIES)
  set(ZAR_CXX_RUNTIME_LIBRARIES stdc++ m)
endif()
add_library(zar_cxx_runtime INTERFACE)
target_link_libraries(zar_cxx_runtime INTERFACE ${ZAR_CXX_RUNTIME_LIBRARIES})
install(TARGETS zar_cxx_runtime EXPORT ZendAsyncRefTargets)

# zar_library(<name> EXPORT_NAME <exported> SOURCES ... [DEPS ...])
# One static library per folder, exported as ZendAsyncRef::<exported>.
function(zar_library name)
  cmake_parse_arguments(ARG "" "EXPORT_NAME" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  add_library(ZendAsyncRef::${ARG_EXPORT_NAME} ALIAS ${name})
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${ARG_EXPORT_NAME})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  target_link_libraries(${name} PRIVATE zar_build_flags zar_cxx_runtime)
  if(ARG_PRIVATE_DEPS)
    target_link_libraries(${name} PRIVATE ${ARG_PRIVATE_DEPS})
  endif()
  install(TARGETS ${name} EXPORT ZendAsyncRefTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()

# zar_test(<name> SOURCES ... [DEPS ...] [LABELS ...])
# A GoogleTest executable registered with CTest, one test per TEST().
function(zar_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE zar_build_flags GTest::gtest GTest::gmock GTest::gtest_main ${ARG_DEPS})
  include(GoogleTest)
  gtest_discover_tests(${name}
    DISCOVERY_TIMEOUT 60
    PROPERTIES LABELS "${ARG_LABELS}")
endfunction()
